#include "scaling.h"
#include "../convergence.h"

#include "../memory.h"
#include "../plan_check.h"
#include "../step.h"

#include <limits>

namespace dtsim {

namespace {

bool evaluate(Scenario& probe, const Calibration& c, ScalingPoint& pt)
{
    probe.cluster.gpus = probe.plan.gpus();
    if (firstViolation(probe) != PlanRule::Ok)
        return false;
    const StepReport r = predictStep(probe, c);
    pt.gpus = probe.plan.gpus();
    pt.dp = probe.plan.dp;
    pt.globalBatch = probe.training.globalBatch;
    pt.stepTime = r.stepTime;
    pt.tokensPerSecond = r.tokensPerSecond;
    pt.timeToTrain = r.stepTime * trainingSteps(probe, c); // as predictRun() reckons the sync wall
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

long long turnaround(const std::vector<ScalingPoint>& curve)
{
    const ScalingPoint* fastest = nullptr;
    for (const ScalingPoint& p : curve)
        if (p.fits && (!fastest || p.timeToTrain < fastest->timeToTrain))
            fastest = &p;
    if (!fastest)
        return 0;
    for (const ScalingPoint& p : curve)
        if (p.fits && p.gpus > fastest->gpus && p.timeToTrain > fastest->timeToTrain)
            return fastest->gpus;
    return 0;
}

} // namespace

ScalingCurves scalingCurves(const Scenario& s, const Calibration& c, int maxDoublings)
{
    ScalingCurves out;
    Scenario probe = s;

    // Fixed global batch: every data-parallel degree the batch allows.
    double best = std::numeric_limits<double>::infinity();
    for (int dp : dataParallelDegrees(s)) {
        probe.plan.dp = dp;
        ScalingPoint pt;
        if (!evaluate(probe, c, pt))
            continue;
        out.fixedBatch.push_back(pt);
        if (beatsSyncWall(pt.timeToTrain, pt.gpus, best, out.syncWallGpus)) {
            best = pt.timeToTrain;
            out.syncWallGpus = pt.gpus;
        }
    }
    normalize(out.fixedBatch);

    // Growing batch: the scenario's micro-batches per replica, replicas doubling from one
    // up to 2^maxDoublings times the scenario's.
    probe = s;
    const int microPerReplica = std::max(1, microbatchesPerStep(s));
    const long long split = static_cast<long long>(s.plan.tp) * s.plan.pp * s.plan.cp;
    for (long long dp = 1; dp <= static_cast<long long>(s.plan.dp) << maxDoublings && dp <= (1 << 24); dp *= 2) {
        const long long batch = dp * microPerReplica * s.training.microBatch;
        if (batch > std::numeric_limits<int>::max() || dp * split > std::numeric_limits<int>::max())
            break; // past what a scenario can hold
        probe.plan.dp = static_cast<int>(dp);
        probe.training.globalBatch = static_cast<int>(batch);
        ScalingPoint pt;
        if (evaluate(probe, c, pt))
            out.growingBatch.push_back(pt);
    }
    normalize(out.growingBatch);
    out.turnaroundGpus = turnaround(out.growingBatch);
    return out;
}

} // namespace dtsim
