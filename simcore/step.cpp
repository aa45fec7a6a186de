#include "step.h"
#include "convergence.h"

#include "layers/layer_step.h"
#include "plan_check.h"
#include "step_phases.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

std::string_view commGroupName(CommGroup g)
{
    switch (g) {
    case CommGroup::TP: return "tp";
    case CommGroup::CP: return "cp";
    case CommGroup::EP: return "ep";
    case CommGroup::PP: return "pp";
    case CommGroup::DP: return "dp";
    }
    return "?";
}

double StepBreakdown::sum() const
{
    double s = forward + backward + recompute + bubble + optimizer + overhead + contention + inputStall + straggler + outerSync
        + compression + offload;
    for (double c : exposedComm)
        s += c;
    return s;
}

double gemmEfficiency(const GenerationCalibration& g, double m, double n, double k, double tileScale)
{
    const double half = g.halfDim * tileScale;
    auto f = [&](double d) { return d / (d + half); };
    return g.peakFraction * f(m) * f(n) * f(k);
}

namespace {

using namespace step_detail;

// Bytes per step on each level of the topology. A group inside one scale-up domain
// uses only the fabric; a group across domains sends 1/k of its bytes (k members per
// domain) through the NICs, and tier i carries the share of those bytes that leaves a
// unit of it (GroupSpan::tierCrossShare).
void computeLevelLoads(const Scenario& s, StepReport& out)
{
    const ClusterSpec& c = s.cluster;
    const double gpus = double(s.plan.gpus());
    out.levelCount = 2 + c.tierCount;
    std::array<double, kMaxLevels> bytes {};
    std::array<const CommReport*, kCommGroupCount + 1> reports {};
    for (int g = 0; g < kCommGroupCount; ++g)
        reports[g] = &out.comm[g];
    reports[kCommGroupCount] = &out.outerSync;
    for (const CommReport* report : reports) {
        const CommReport& cr = *report;
        if (cr.bytesPerGpu <= 0)
            continue;
        const GroupSpan& g = cr.span;
        const double outBytes = g.domains > 1 ? cr.bytesPerGpu / std::max(1, g.perDomain) : 0.0;
        bytes[0] += gpus * (cr.bytesPerGpu - outBytes);
        bytes[1] += gpus * outBytes;
        for (int i = 0; i < c.tierCount; ++i)
            bytes[2 + i] += gpus * outBytes * g.tierCrossShare[i];
    }
    double worst = -1;
    for (int l = 0; l < out.levelCount; ++l) {
        LevelLoad& load = out.levels[l];
        load.bytesPerStep = bytes[l];
        const double perGpu = l == 0 ? c.scaleUpBandwidth
            : l == 1                 ? c.scaleOutBandwidth
                                     : c.tiers[l - 2].uplinkPerGpu(c.scaleOutBandwidth);
        load.capacity = gpus * perGpu;
        load.utilization = load.capacity > 0 && out.stepTime > 0 ? bytes[l] / (load.capacity * out.stepTime) : 0.0;
        if (load.utilization > worst) {
            worst = load.utilization;
            out.bottleneckLevel = l;
        }
    }
}

// The hardware FLOPs' rerun share and the throughput figures, once the step time is known.
void throughput(const StepInputs& in, StepReport& out)
{
    const Scenario& s = in.s;
    const double tokens = s.training.tokensPerStep();
    ForwardFlops ff = forwardFlopsPerToken(s.model, s.training.seqLen);
    if (in.idealized)
        ff.attention = 0;
    out.modelFlopsPerStep = 3.0 * ff.total() * tokens;
    out.hardwareFlopsPerStep = out.modelFlopsPerStep + in.recompute.flopsPerToken(s, ff) * tokens;
    out.peakFlopsPerGpu = s.hardware.peak(s.training.precision);
    const double gpus = s.plan.gpus();
    out.tokensPerSecond = tokens / out.stepTime;
    out.tflopsPerGpu = out.modelFlopsPerStep / out.stepTime / gpus / 1e12;
    out.mfu = out.modelFlopsPerStep / (out.stepTime * gpus * out.peakFlopsPerGpu);
    out.hfu = out.hardwareFlopsPerStep / (out.stepTime * gpus * out.peakFlopsPerGpu);
}

} // namespace

// The phases in order (step_phases.h); each fills its part of the report.
StepReport predictStep(const Scenario& s, const Calibration& c, const StepOptions& opts)
{
    if (s.model.isLayerTable())
        return predictLayerTableStep(s, c, opts.idealized);
    const StepInputs in = stepInputs(s, c, opts);
    StepReport out;
    out.microbatches = in.mb;

    const StageCompute compute = stageCompute(in);                       // 1. layer costs
    reportKernels(in, compute, out);
    const DataParallelGroup dp = dataParallelGroup(in);
    const MicrobatchComm mc = microbatchComm(in, compute, dp, out);      // 2. inside a micro-batch
    const double bubbleMb = pipelinePhase(in, compute, mc, dp, out);     // 3. the pipeline
    dataParallelSync(in, compute, mc, dp, out);                          // 4. data parallel
    outerSync(in, dp, out);                                              // 4b. DiLoCo's workers
    optimizerAndOverhead(in, dp, out);                                   // 5. optimizer, overhead
    offloadPhase(in, compute, dp, out);                                  // 5b. the host's share
    if (opts.idealized)
        idealize(in, compute, mc, dp, bubbleMb, out);
    else
        stragglerWait(in, out);                                          // 6. the slowest rank

    out.stepTime = out.breakdown.sum();
    throughput(in, out);
    out.memory = memoryPerGpu(s, c, in.counts);
    computeLevelLoads(s, out);
    return out;
}

Report predictRun(const Scenario& s, const Calibration& c)
{
    Report rep;
    rep.step = predictStep(s, c);
    const TrainingSpec& tr = s.training;
    rep.steps = trainingSteps(s, c);
    if (tr.target == TrainingTarget::Loss)
        rep.convergence = convergencePlan(s, c);
    rep.timeToTrain = rep.steps * rep.step.stepTime;
    rep.gpuHours = rep.timeToTrain * s.plan.gpus() / 3600.0;
    rep.theoreticalMinTime = rep.step.modelFlopsPerStep * rep.steps / (double(s.plan.gpus()) * rep.step.peakFlopsPerGpu);

    // The sync wall is the planner's (planner/sync_wall.h); until it runs, this scenario's own count.
    rep.syncWallGpus = int(s.plan.gpus());
    rep.syncWallTimeToTrain = rep.timeToTrain;
    if (s.model.isLayerTable()) {
        static_assert(int(LayerType::Interaction) + 1 == kLayerTypeCount, "report.h counts the layer types");
        for (const LayerTiming& l : layerTableProfile(s, c)) {
            rep.layerTypeForward[std::size_t(l.type)] += rep.step.microbatches * l.forward;
            rep.layerTypeBackward[std::size_t(l.type)] += rep.step.microbatches * l.backward;
        }
    }
    return rep;
}

} // namespace dtsim
