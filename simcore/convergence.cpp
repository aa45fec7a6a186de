#include "convergence.h"

#include "units.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace dtsim {

namespace {

double criticalBatchAt(const TrainingSpec& t, const Calibration& c, double loss)
{
    return t.criticalBatchTokens > 0 ? t.criticalBatchTokens : c.convergence.criticalBatch.tokensAt(loss);
}

bool lawKnown(const TrainingSpec& t, const Calibration& c)
{
    return c.convergence.law(t.lossLaw).known && (t.criticalBatchTokens > 0 || c.convergence.criticalBatch.known);
}

// Tokens that reach `loss` at this batch (infinite below the floor).
double tokensToReach(const LossLawConstants& law, const TrainingSpec& t, const Calibration& c, double params, double loss)
{
    return tokensAtBatch(law.tokensFor(params, loss), t.tokensPerStep(), criticalBatchAt(t, c, loss));
}

// The lowest loss `tokens` reach at this batch: the smallest L, between the floor and
// the loss of a uniform guess over the vocabulary, whose tokens needed are at most these.
// (Far above the floor the critical-batch relation no longer holds, and tokens needed
// can rise again with the loss; the lowest crossing is the one training reaches first.)
double lossReached(const LossLawConstants& law, const TrainingSpec& t, const Calibration& c, double params, double tokens,
    double ceiling)
{
    const double floor = law.floor(params);
    if (!(ceiling > floor))
        return floor;
    const double span = ceiling - floor;
    const int steps = 200;
    double below = floor; // needs more than `tokens`
    for (int i = 0; i <= steps; ++i) {
        const double L = floor + span * std::pow(1e-6, 1.0 - double(i) / steps);
        if (tokensToReach(law, t, c, params, L) <= tokens) {
            double lo = below, hi = L;
            for (int k = 0; k < 60; ++k) {
                const double mid = 0.5 * (lo + hi);
                (tokensToReach(law, t, c, params, mid) <= tokens ? hi : lo) = mid;
            }
            return hi;
        }
        below = L;
    }
    return ceiling;
}

} // namespace

double lossLawParameters(const ModelSpec& m, int seqLen)
{
    const ParameterCounts p = countParameters(m, seqLen);
    return m.moe.experts > 0 ? p.active : p.total;
}

ConvergencePlan convergencePlan(const Scenario& s, const Calibration& c)
{
    ConvergencePlan plan;
    const TrainingSpec& t = s.training;
    if (s.model.isLayerTable() || !lawKnown(t, c) || t.tokensPerStep() <= 0)
        return plan;
    const LossLawConstants& law = c.convergence.law(t.lossLaw);
    plan.known = true;
    plan.parameters = lossLawParameters(s.model, t.seqLen);
    plan.batchTokens = t.tokensPerStep();
    plan.floorLoss = law.floor(plan.parameters);
    if (t.target == TrainingTarget::Loss) {
        plan.loss = t.targetLoss;
        plan.minimalTokens = law.tokensFor(plan.parameters, plan.loss);
    } else {
        const double ceiling = std::log(double(std::max(2, s.model.vocab)));
        plan.loss = lossReached(law, t, c, plan.parameters, t.tokens, ceiling);
        plan.minimalTokens = law.tokensFor(plan.parameters, plan.loss);
    }
    plan.criticalBatchTokens = criticalBatchAt(t, c, plan.loss);
    plan.tokens = t.target == TrainingTarget::Loss ? tokensAtBatch(plan.minimalTokens, plan.batchTokens, plan.criticalBatchTokens)
                                                   : t.tokens;
    plan.lossError = std::isfinite(plan.minimalTokens) ? law.lossError(plan.parameters, plan.minimalTokens) : 0.0;
    return plan;
}

double trainingTokens(const Scenario& s, const Calibration& c)
{
    const TrainingSpec& t = s.training;
    if (t.target == TrainingTarget::Tokens || s.model.isLayerTable())
        return t.tokens;
    if (!lawKnown(t, c))
        return std::numeric_limits<double>::quiet_NaN();
    const LossLawConstants& law = c.convergence.law(t.lossLaw);
    return tokensToReach(law, t, c, lossLawParameters(s.model, t.seqLen), t.targetLoss);
}

double trainingSteps(const Scenario& s, const Calibration& c)
{
    if (s.training.target == TrainingTarget::Tokens)
        return s.training.steps();
    return trainingTokens(s, c) / s.training.tokensPerStep();
}

std::optional<std::string> convergenceIssue(const Scenario& s, const Calibration& c)
{
    const TrainingSpec& t = s.training;
    if (t.target != TrainingTarget::Loss || s.model.isLayerTable())
        return std::nullopt;
    if (!c.convergence.law(t.lossLaw).known)
        return "the calibration file has no convergence.loss_laws." + std::string(lossLawName(t.lossLaw))
            + ", so no loss can be turned into tokens";
    if (t.criticalBatchTokens <= 0 && !c.convergence.criticalBatch.known)
        return std::string("the calibration file has no convergence.critical_batch; set training.critical_batch");
    const LossLawConstants& law = c.convergence.law(t.lossLaw);
    const double params = lossLawParameters(s.model, t.seqLen);
    const double floor = law.floor(params);
    if (!(t.targetLoss > floor)) {
        char text[320];
        std::snprintf(text, sizeof text,
            "%.4g is out of reach: under %s a model of %s parameters ends at %.4g or above however long it trains "
            "(its loss with infinite data); aim above that, or make the model larger",
            t.targetLoss, std::string(lossLawName(t.lossLaw)).c_str(), formatCount(params).c_str(), floor);
        return std::string(text);
    }
    return std::nullopt;
}

} // namespace dtsim
