// Phase 5b of the step: the host's share under offload (offload.h), and the optimizer
// shard phases 5 and 5b share.
#include "offload.h"
#include "step_phases.h"

#include <algorithm>

namespace dtsim::step_detail {

double optimizerShardParams(const StepInputs& in, const DataParallelGroup& dp)
{
    const ParallelPlan& p = in.s.plan;
    const double denseShard = p.zeroStage >= 1 ? dp.size : 1;
    const double expertShard = p.zeroStage >= 1 ? double(std::max(1LL, p.expertDataParallel())) : 1;
    return dp.params.dense / denseShard + dp.params.experts / expertShard;
}

void offloadPhase(const StepInputs& in, const StageCompute& sc, const DataParallelGroup& dp, StepReport& out)
{
    const Scenario& s = in.s;
    if (!s.plan.offload.any())
        return;
    OffloadShard shard;
    shard.optimizerParams = optimizerShardParams(in, dp);
    if (s.plan.zeroStage >= 3)
        shard.gatheredParams = shard.optimizerParams;
    shard.activationBytes = in.densePerStage * activationBytesPerLayer(s, false)
        + in.moePerStage * (in.moePerStage > 0 ? activationBytesPerLayer(s, true) : 0.0);
    const OffloadCompute compute { sc.forward, sc.backward, sc.recompute, in.mb };
    out.offload = offloadTimes(s, in.c, shard, compute);
    out.breakdown.offload = out.offload.exposed;
}

} // namespace dtsim::step_detail
