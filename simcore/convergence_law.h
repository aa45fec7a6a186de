#pragma once
// Published convergence fits, as constants the calibration file carries with their
// sources (resources/calibration/default.yaml, `convergence`): a loss law that turns
// parameters and tokens into a final loss, and the critical batch size past which a
// larger batch needs more tokens to reach the same loss. Pure formulas, no scenario.
#include <array>
#include <string_view>
#include <vector>

namespace dtsim {

// The loss laws dtsim knows; each is a fit to one corpus and tokenizer, so a loss is only
// comparable with losses measured on that corpus.
enum class LossLaw { Hoffmann2022, Besiroglu2024 };
inline constexpr int kLossLawCount = 2;
std::string_view lossLawName(LossLaw l);

// L(N, D) = e + a / N^alpha + b / D^beta (Hoffmann et al. 2022, eq. 2): N parameters,
// D tokens. `*Se`: the fit's published standard errors (0 where none is published).
struct LossLawConstants {
    bool known = false; // loaded from the calibration file
    double e = 0, a = 0, b = 0, alpha = 0, beta = 0;
    double eSe = 0, aSe = 0, bSe = 0, alphaSe = 0, betaSe = 0;

    double loss(double params, double tokens) const;
    // The loss with infinite data: the model's floor.
    double floor(double params) const { return e + a / pow(params, alpha); }
    // Tokens that reach `loss` (infinite when the floor is at or above it).
    double tokensFor(double params, double loss) const;
    // One standard error of loss(N, D) propagated from the constants' standard errors,
    // treated as independent (an upper bound: the fitted a and alpha move together).
    double lossError(double params, double tokens) const;

private:
    static double pow(double x, double y);
};

// The critical batch in tokens at a loss (Kaplan et al. 2020, eq. 5.4):
// B_crit(L) = scale / L^(1 / exponent). Below it a larger batch needs fewer steps at
// nearly the same tokens; above it, more tokens at nearly the same steps.
struct CriticalBatchConstants {
    bool known = false;
    double scaleTokens = 0; // B*
    double exponent = 0;    // alpha_B
    double tokensAt(double loss) const;
};

// McCandlish et al. 2018, eq. 2.11-2.12: to reach a given loss with batch B, steps
// S = S_min (1 + B_noise / B) and examples E = E_min (1 + B / B_noise), with the
// critical batch B_crit standing for B_noise (Kaplan et al. 2020, sec. 5.1).
inline double tokensAtBatch(double minimalTokens, double batchTokens, double criticalBatchTokens)
{
    return minimalTokens * (1.0 + batchTokens / criticalBatchTokens);
}

// What DiLoCo's infrequent synchronization costs in loss at equal tokens: published
// fits L_M(N) = a N^alpha for M workers (0: the data-parallel baseline), each at the
// same tokens per parameter; the ratio L_M / L_0 scales the loss law.
struct DilocoFit {
    int workers = 0;
    double a = 0, alpha = 0;
};
struct DilocoConstants {
    bool known = false;
    int innerSteps = 0; // the H the fits were measured at
    std::vector<DilocoFit> fits; // by workers, ascending; workers 0 first
    // L_M(N) / L_0(N), interpolated in log2(M) between fitted worker counts; NaN past the
    // largest (no published figure to stand on).
    double lossRatio(double params, int workers) const;
    int maxWorkers() const { return fits.empty() ? 0 : fits.back().workers; }
};

// What a gradient compression method costs in tokens: the published runs' tokens (or
// samples, steps) to the baseline's quality over the uncompressed run's (1: none extra).
// By GradCompression's order (training.h): none, powersgd, onebit, fp8, int8.
struct CompressionCost {
    bool known = false;
    double tokenFactor = 1;
};
inline constexpr int kCompressionCostCount = 5;

struct ConvergenceConstants {
    std::array<LossLawConstants, kLossLawCount> laws {};
    CriticalBatchConstants criticalBatch;
    DilocoConstants diloco;
    std::array<CompressionCost, kCompressionCostCount> compression {};
    const LossLawConstants& law(LossLaw l) const { return laws[static_cast<int>(l)]; }
};

} // namespace dtsim
