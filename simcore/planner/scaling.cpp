#include "scaling.h"

#include "../memory.h"
#include "../plan_check.h"
#include "../step.h"

namespace dtsim {

namespace {

bool evaluate(Scenario& probe, const Calibration& c, double tokens, ScalingPoint& pt)
{
    probe.cluster.gpus = probe.plan.gpus();
    if (firstViolation(probe) != PlanRule::Ok)
        return false;
    const StepReport r = simulateStep(probe, c);
    pt.gpus = probe.plan.gpus();
    pt.dp = probe.plan.dp;
    pt.globalBatch = probe.training.globalBatch;
    pt.stepTime = r.stepTime;
    pt.tokensPerSecond = r.tokensPerSecond;
    pt.timeToTrain = tokens / r.tokensPerSecond;
    pt.mfu = r.mfu;
    pt.gpuHours = pt.timeToTrain * pt.gpus / 3600.0;
    pt.fits = r.memory.fits;
    return true;
}

void normalize(std::vector<ScalingPoint>& curve)
{
    if (curve.empty())
        return;
    const double ref = curve.front().tokensPerSecond / curve.front().gpus;
    for (ScalingPoint& p : curve)
        p.efficiency = (p.tokensPerSecond / p.gpus) / ref;
}

} // namespace

ScalingCurves scalingCurves(const Scenario& s, const Calibration& c, int maxDoublings)
{
    ScalingCurves out;
    const double tokens = s.training.tokens;
    Scenario probe = s;

    // Fixed global batch: every data-parallel degree the batch allows.
    const int maxDp = s.training.globalBatch / std::max(1, s.training.microBatch);
    double best = 0;
    for (int dp = 1; dp <= maxDp; ++dp) {
        probe.plan.dp = dp;
        ScalingPoint pt;
        if (!evaluate(probe, c, tokens, pt))
            continue;
        out.fixedBatch.push_back(pt);
        if (best == 0 || pt.timeToTrain < best) {
            best = pt.timeToTrain;
            out.syncWallGpus = pt.gpus;
        }
    }
    normalize(out.fixedBatch);

    // Growing batch: the scenario's micro-batches per replica, replicas doubling from one
    // up to 2^maxDoublings times the scenario's.
    probe = s;
    const int microPerReplica = std::max(1, microbatchesPerStep(s));
    for (long long dp = 1; dp <= static_cast<long long>(s.plan.dp) << maxDoublings && dp <= (1 << 24); dp *= 2) {
        probe.plan.dp = static_cast<int>(dp);
        probe.training.globalBatch = static_cast<int>(dp * microPerReplica * s.training.microBatch);
        ScalingPoint pt;
        if (evaluate(probe, c, tokens, pt))
            out.growingBatch.push_back(pt);
    }
    normalize(out.growingBatch);
    return out;
}

} // namespace dtsim
