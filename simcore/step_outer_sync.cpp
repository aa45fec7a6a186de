// 4b. DiLoCo's outer synchronization (parallel.diloco): every inner_steps steps the
// workers all-reduce their outer gradient; its time is shared over those steps.
#include "step_phases.h"

#include <algorithm>

namespace dtsim::step_detail {

void outerSync(const StepInputs& in, const DataParallelGroup& dp, StepReport& out)
{
    const Scenario& s = in.s;
    const ParallelPlan& p = s.plan;
    const DilocoSpec& d = p.diloco;
    if (!d.on() || d.workers <= 1)
        return;
    // One rank in each worker holds the same model shard; the worker's replicas each send
    // a 1/replicas slice of it (their outer gradients are equal after the inner reduce),
    // across the workers: a group of `workers` ranks, strided past a whole worker.
    const int replicas = p.syncReplicas();
    const double bytes = dp.params.total() * storageBytes(d.outerPrecision) / replicas;
    const GroupSpan span = groupSpan(s.cluster, d.workers, p.stride(Axis::DP) * replicas);
    CommReport& rep = out.outerSync;
    const CommOp ar = comm(CollectiveKind::AllReduce, bytes, span, s, in.eff, rep);
    rep.groupSize = d.workers;
    rep.domains = span.domains;
    rep.totalSeconds = ar.seconds / d.innerSteps;
    rep.bytesPerGpu = ar.bytesSent / d.innerSteps;
    // Blocking DiLoCo waits for it once per outer step; streaming sends fragments under the
    // compute of the inner steps that follow (Douillard et al. 2025, "overlapped").
    const StepBreakdown& b = out.breakdown;
    const double compute = b.forward + b.backward + b.recompute;
    rep.exposedSeconds = d.streaming ? std::max(0.0, ar.seconds - d.innerSteps * in.eta * compute) / d.innerSteps : rep.totalSeconds;
    out.breakdown.outerSync = rep.exposedSeconds;
}

} // namespace dtsim::step_detail
