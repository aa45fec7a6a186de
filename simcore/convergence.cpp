#include "convergence.h"

#include "grad_compression.h"
#include "units.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace dtsim {

namespace {

double criticalBatchAt(double measured, const Calibration& c, double loss)
{
    return measured > 0 ? measured : c.convergence.criticalBatch.tokensAt(loss);
}

bool lawKnown(LossLaw law, double measuredCriticalBatch, const Calibration& c)
{
    return c.convergence.law(law).known && (measuredCriticalBatch > 0 || c.convergence.criticalBatch.known);
}

// Tokens that reach `loss` at this batch (infinite below the floor).
double tokensToReach(const ConvergenceQuery& q, const Calibration& c, double loss)
{
    const LossLawConstants& law = c.convergence.law(q.law);
    return tokensAtBatch(law.tokensFor(q.parameters, loss / q.lossScale), q.batchTokens, criticalBatchAt(q.criticalBatchTokens, c, loss));
}

// The lowest loss `q.tokens` reach at this batch: the smallest L, between the floor and
// the loss of a uniform guess over the vocabulary, whose tokens needed are at most these.
// (Far above the floor the critical-batch relation no longer holds, and tokens needed
// can rise again with the loss; the lowest crossing is the one training reaches first.)
double lossReached(const ConvergenceQuery& q, const Calibration& c)
{
    const double floor = q.lossScale * c.convergence.law(q.law).floor(q.parameters);
    const double ceiling = std::log(double(std::max(2, q.vocab)));
    if (!(ceiling > floor))
        return floor;
    const double span = ceiling - floor;
    const int steps = 200;
    double below = floor; // needs more than the tokens
    for (int i = 0; i <= steps; ++i) {
        const double L = floor + span * std::pow(1e-6, 1.0 - double(i) / steps);
        if (tokensToReach(q, c, L) <= q.tokens) {
            double lo = below, hi = L;
            for (int k = 0; k < 60; ++k) {
                const double mid = 0.5 * (lo + hi);
                (tokensToReach(q, c, mid) <= q.tokens ? hi : lo) = mid;
            }
            return hi;
        }
        below = L;
    }
    return ceiling;
}

ConvergenceQuery queryOf(const Scenario& s, const Calibration& c)
{
    const TrainingSpec& t = s.training;
    ConvergenceQuery q;
    q.law = t.lossLaw;
    q.parameters = lossLawParameters(s.model, t.seqLen);
    q.batchTokens = t.tokensPerStep();
    q.tokens = t.tokens;
    q.targetLoss = t.target == TrainingTarget::Loss ? t.targetLoss : 0.0;
    q.criticalBatchTokens = t.criticalBatchTokens;
    q.vocab = s.model.vocab;
    if (s.plan.diloco.on())
        q.lossScale = c.convergence.diloco.lossRatio(q.parameters, s.plan.diloco.workers);
    return q;
}

} // namespace

double lossLawParameters(const ModelSpec& m, int seqLen)
{
    const ParameterCounts p = countParameters(m, seqLen);
    return m.moe.experts > 0 ? p.active : p.total;
}

ConvergencePlan convergenceAt(const ConvergenceQuery& q, const Calibration& c)
{
    ConvergencePlan plan;
    if (!lawKnown(q.law, q.criticalBatchTokens, c) || !(q.batchTokens > 0) || !(q.parameters > 0) || !(q.lossScale > 0))
        return plan;
    const LossLawConstants& law = c.convergence.law(q.law);
    plan.known = true;
    plan.parameters = q.parameters;
    plan.batchTokens = q.batchTokens;
    plan.lossScale = q.lossScale;
    plan.floorLoss = q.lossScale * law.floor(q.parameters);
    plan.loss = q.targetLoss > 0 ? q.targetLoss : lossReached(q, c);
    plan.minimalTokens = law.tokensFor(q.parameters, plan.loss / q.lossScale);
    plan.criticalBatchTokens = criticalBatchAt(q.criticalBatchTokens, c, plan.loss);
    plan.tokens = q.targetLoss > 0 ? tokensAtBatch(plan.minimalTokens, plan.batchTokens, plan.criticalBatchTokens) : q.tokens;
    plan.lossError = std::isfinite(plan.minimalTokens) ? q.lossScale * law.lossError(q.parameters, plan.minimalTokens) : 0.0;
    return plan;
}

ConvergencePlan convergencePlan(const Scenario& s, const Calibration& c)
{
    if (s.model.isLayerTable())
        return {};
    return convergenceAt(queryOf(s, c), c);
}

static_assert(kCompressionCostCount == kGradCompressionCount, "a token cost per compression method");

double compressionTokenFactor(const Scenario& s, const Calibration& c)
{
    const GradCompression m = s.training.gradCompression;
    if (m == GradCompression::None)
        return 1.0;
    const CompressionCost& cost = c.convergence.compression[std::size_t(m)];
    return cost.known ? cost.tokenFactor : std::numeric_limits<double>::quiet_NaN();
}

std::optional<std::string> compressionCostIssue(const Scenario& s, const Calibration& c)
{
    if (!std::isnan(compressionTokenFactor(s, c)))
        return std::nullopt;
    return "the calibration file has no convergence.grad_compression." + std::string(gradCompressionName(s.training.gradCompression))
        + ", the tokens this method costs; add it with its source, or set training.grad_compression: none";
}

double trainingTokens(const Scenario& s, const Calibration& c)
{
    const TrainingSpec& t = s.training;
    const bool compressed = t.gradCompression != GradCompression::None;
    if (t.target == TrainingTarget::Tokens || s.model.isLayerTable())
        return compressed ? t.tokens * compressionTokenFactor(s, c) : t.tokens;
    if (!lawKnown(t.lossLaw, t.criticalBatchTokens, c))
        return std::numeric_limits<double>::quiet_NaN();
    const double tokens = tokensToReach(queryOf(s, c), c, t.targetLoss);
    return compressed ? tokens * compressionTokenFactor(s, c) : tokens;
}

double trainingSteps(const Scenario& s, const Calibration& c)
{
    if (s.training.target == TrainingTarget::Tokens && s.training.gradCompression == GradCompression::None)
        return s.training.steps();
    return trainingTokens(s, c) / s.training.tokensPerStep();
}

std::optional<std::string> convergenceIssue(const Scenario& s, const Calibration& c)
{
    const TrainingSpec& t = s.training;
    if (t.target != TrainingTarget::Loss || s.model.isLayerTable())
        return std::nullopt;
    if (!(t.targetLoss > 0))
        return std::string("training.target: loss needs training.target_loss, the loss to reach (e.g. 2.2)");
    if (!c.convergence.law(t.lossLaw).known)
        return "the calibration file has no convergence.loss_laws." + std::string(lossLawName(t.lossLaw))
            + ", so no loss can be turned into tokens";
    if (t.criticalBatchTokens <= 0 && !c.convergence.criticalBatch.known)
        return std::string("the calibration file has no convergence.critical_batch; set training.critical_batch");
    const double params = lossLawParameters(s.model, t.seqLen);
    const ConvergenceQuery q = queryOf(s, c);
    if (!(q.lossScale > 0)) {
        const DilocoConstants& d = c.convergence.diloco;
        return std::string("parallel.diloco.workers = ") + std::to_string(s.plan.diloco.workers)
            + (d.known ? " is past the published token cost of DiLoCo (fits up to " + std::to_string(d.maxWorkers()) + " workers)"
                       : ": the calibration file has no convergence.diloco");
    }
    const double floor = q.lossScale * c.convergence.law(t.lossLaw).floor(params);
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
