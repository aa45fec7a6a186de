#pragma once
// How many tokens a run needs, and the loss it ends at: `training.target` is either a
// token count (the tokens are given; the loss follows from them) or a loss (the tokens
// follow from the loss law and the batch). Every run-level figure (time to train, steps,
// cost, reliability) reads the tokens from here. docs/convergence.md.
#include "calibration.h"
#include "scenario.h"

#include <optional>
#include <string>

namespace dtsim {

// The parameters a loss law is given: all of a dense model's; an MoE's active ones
// (the laws were fitted on dense models; docs/convergence.md says what that misses).
double lossLawParameters(const ModelSpec& m, int seqLen);

struct ConvergencePlan {
    bool known = false;         // a transformer, and the calibration carries the law
    double tokens = 0;          // tokens the run trains on
    double minimalTokens = 0;   // what a batch far below the critical batch would need
    double loss = 0;            // the final loss: the target, or the law's at `tokens`
    double lossError = 0;       // the fit's standard error at that point
    double floorLoss = 0;       // the loss with infinite data
    double criticalBatchTokens = 0;
    double batchTokens = 0;
    double parameters = 0;      // what the law was given
    double lossScale = 1;       // DiLoCo's loss at equal tokens over data parallelism's
    // Extra tokens the batch costs: tokens / minimalTokens - 1 (B / B_crit).
    double batchPenalty() const { return minimalTokens > 0 ? tokens / minimalTokens - 1 : 0; }
};

// The whole picture, for reports (a few hundred law evaluations when the target is tokens).
ConvergencePlan convergencePlan(const Scenario& s, const Calibration& c);

// The same for a bare model size and batch (`dtsim-cli loss`, the published-loss checks):
// `targetLoss` > 0 plans that loss; otherwise the loss `tokens` reach. `criticalBatchTokens`
// 0: Kaplan et al.'s at the final loss. `vocab` bounds the loss from above (ln vocab).
struct ConvergenceQuery {
    LossLaw law = LossLaw::Besiroglu2024;
    double parameters = 0;
    double batchTokens = 0;
    double tokens = 0;
    double targetLoss = 0;
    double criticalBatchTokens = 0;
    int vocab = 50304;
    // The loss at equal tokens relative to plain data parallelism (DiLoCo's workers,
    // DilocoConstants::lossRatio): the law's loss is multiplied by it.
    double lossScale = 1;
};
ConvergencePlan convergenceAt(const ConvergenceQuery& q, const Calibration& c);

// The tokens a run needs with its gradient compression over without it
// (ConvergenceConstants::compression, from the calibration); 1 without compression, NaN
// when the calibration has no figure for the method.
double compressionTokenFactor(const Scenario& s, const Calibration& c);
// Why that factor is unknown, naming training.grad_compression; nullopt when known.
std::optional<std::string> compressionCostIssue(const Scenario& s, const Calibration& c);

// The tokens and optimizer steps the run takes. With a token target, training.tokens
// (no law involved, as fast as before); with a loss target, from the law at this batch;
// either times the gradient compression's token factor.
double trainingTokens(const Scenario& s, const Calibration& c);
double trainingSteps(const Scenario& s, const Calibration& c);

// Why the scenario's loss target cannot be planned (the law is missing from the
// calibration, the target is at or below the model's floor), naming training.target_loss.
std::optional<std::string> convergenceIssue(const Scenario& s, const Calibration& c);

} // namespace dtsim
