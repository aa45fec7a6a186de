#include "sync_wall.h"

#include "../convergence.h"
#include "../plan_check.h"
#include "../step.h"

namespace dtsim {

void addSyncWall(Report& r, const Scenario& s, const Calibration& c)
{
    // Vary the data-parallel degree at fixed global batch, model split and micro-batch.
    r.syncWallGpus = int(s.plan.gpus());
    r.syncWallTimeToTrain = r.timeToTrain;
    Scenario probe = s;
    for (int dp : dataParallelDegrees(s)) {
        probe.plan.dp = dp;
        probe.cluster.gpus = probe.plan.gpus();
        if (dp == s.plan.dp || firstViolation(probe) != PlanRule::Ok)
            continue;
        const double t = predictStep(probe, c).stepTime * r.steps;
        if (beatsSyncWall(t, probe.plan.gpus(), r.syncWallTimeToTrain, r.syncWallGpus)) {
            r.syncWallTimeToTrain = t;
            r.syncWallGpus = int(probe.plan.gpus());
        }
    }
}

Report predictRunWithSyncWall(const Scenario& s, const Calibration& c)
{
    Report r = predictRun(s, c);
    addSyncWall(r, s, c);
    if (!r.convergence.known) // a token target's loss, for the views (predictRun leaves it out)
        r.convergence = convergencePlan(s, c);
    return r;
}

} // namespace dtsim
