// The step's phases after the layer costs: communication inside a micro-batch, the
// pipeline, data-parallel synchronisation, the optimizer (step_phases.h).
#include "step_phases.h"

#include "stragglers.h"

#include <algorithm>
#include <cmath>

namespace dtsim::step_detail {

DataParallelGroup dataParallelGroup(const StepInputs& in)
{
    const Scenario& s = in.s;
    const ParallelPlan& p = s.plan;
    const TrainingSpec& tr = s.training;
    DataParallelGroup dp;
    dp.size = p.syncReplicas() * p.cp; // a DiLoCo worker's replicas (step_outer_sync.cpp syncs the workers)
    dp.span = groupSpan(s.cluster, dp.size, p.cp > 1 ? p.stride(Axis::CP) : p.stride(Axis::DP));
    const double paramBytes = storageBytes(tr.precision);
    dp.heldGradBytes = storageBytes(tr.gradReduce);
    dp.gradBytes = wireBytesPerValue(tr); // FP8 gradient communication: one byte a value
    // Parameter all-gathers of FP8 weights: the blocks' linears move one byte a weight,
    // the embeddings, norms and output layer stay 16-bit.
    dp.gatherBytes = paramBytes;
    const ParameterCounts& counts = in.counts;
    if (tr.fp8ParamGather && isScaledLowPrecision(tr.precision) && counts.total > 0) {
        const double other = counts.embedding + counts.outputHead + counts.finalNorm + s.model.layers * counts.normsPerLayer;
        const double linearShare = std::clamp(1.0 - other / counts.total, 0.0, 1.0);
        dp.gatherBytes = linearShare * 1.0 + (1.0 - linearShare) * paramBytes;
    }
    dp.params = stageParameters(s, 0, counts);
    const StageParams last = stageParameters(s, p.pp - 1, counts);
    if (last.total() > dp.params.total())
        dp.params = last;
    // With pipeline parallelism, FSDP keeps a stage's weights gathered across its
    // micro-batches (torchtitan sets reshard_after_forward=False under PP), so ZeRO 3
    // then communicates once per step, as ZeRO 1/2 do.
    dp.perMicrobatchGather = p.zeroStage == 3 && p.pp == 1;
    if (tr.gradCompression != GradCompression::None)
        dp.matrices = gradMatrices(s, dp.params.total(), double(in.layersPerStage) * counts.normsPerLayer);
    return dp;
}

namespace {

// TP, CP and EP: the collectives inside the slowest stage's layers.
void layerCollectives(const StepInputs& in, MicrobatchComm& mc, StepReport& out)
{
    const Scenario& s = in.s;
    const ParallelPlan& p = s.plan;
    const CollectiveRerun& rerun = in.recompute.collectives;
    mc.tpLayer = tensorParallelLayer(s, in.sh, in.eff, out.comm[idx(CommGroup::TP)]); // forward of one layer
    mc.tpPasses = 2.0 + rerun.tp; // forward, backward, forward again
    auto tpExposed = [&](const LayerTimes& lt) {
        const double hidden = p.tpCommOverlap ? std::max(0.0, mc.tpLayer.seconds - in.eta * lt.gemmForward) : mc.tpLayer.seconds;
        const double backward = p.tpCommOverlapBackward ? hidden : mc.tpLayer.seconds;
        return hidden * (mc.tpPasses - 1.0) + backward; // forward passes, then the backward
    };
    mc.tpTotal = in.layersPerStage * mc.tpLayer.seconds * mc.tpPasses;
    mc.tpExposed = in.densePerStage * tpExposed(in.dense) + in.moePerStage * tpExposed(in.moe);

    mc.cpLayer = contextParallelLayer(s, in.sh, in.eff, in.dense.attentionForward / p.cp, in.attnBack, in.eta, rerun.cp,
        out.comm[idx(CommGroup::CP)]);
    mc.cpExposed = in.layersPerStage * mc.cpLayer.exposed;

    mc.epLayer = expertParallelLayer(s, in.sh, in.eff, rerun.ep, out.comm[idx(CommGroup::EP)]);
    mc.ep = in.moePerStage * mc.epLayer.seconds;
    // With EP overlap, the all-to-alls of a micro-batch's MoE layers hide behind the
    // other micro-batch's compute of the same layers (a forward paired with a backward).
    // Only steady-state micro-batches have a partner: the pipeline's warm-up forwards
    // and cool-down backwards (pp - 1 each, at least the first and last) run alone.
    mc.epExposed = mc.ep;
    if ((p.epCommOverlap || p.schedule == Schedule::DualPipe) && mc.ep > 0) {
        const double partnerCompute = in.moePerStage * (in.moe.forward() + in.moe.backward(in.attnBack));
        const double paired = std::max(0, in.mb - std::max(1, p.pp - 1)) / double(in.mb);
        mc.epExposed = mc.ep - paired * std::min(mc.ep, in.eta * partnerCompute);
    }
}

// ZeRO-3 / FSDP: every micro-batch gathers each layer's weights (forward and backward)
// and reduce-scatters its gradients, prefetched behind layer compute.
void zero3PerMicrobatch(const StepInputs& in, const StageCompute& sc, const DataParallelGroup& dp, MicrobatchComm& mc,
    StepReport& out)
{
    if (!dp.perMicrobatchGather || dp.size <= 1)
        return;
    CommReport& dpRep = out.comm[idx(CommGroup::DP)];
    const int layers = in.layersPerStage;
    const double perLayer = dp.params.total() / std::max(1, layers);
    const double ag = comm(CollectiveKind::AllGather, perLayer * dp.gatherBytes, dp.span, in.s, in.eff, dpRep).seconds;
    const double rs = comm(CollectiveKind::ReduceScatter, perLayer * dp.gradBytes, dp.span, in.s, in.eff, dpRep).seconds;
    const double layerF = sc.forward / std::max(1, layers);
    const double layerB = sc.backward / std::max(1, layers);
    // A checkpointed layer's backward window also runs its recomputed forward (the block
    // reruns inside its own backward, after the next gather was issued). Under block
    // recomputation only the plan's share of the layers have it.
    const double rerunLayers = sc.recompute > 0 ? in.recompute.layerShare * layers : 0.0;
    const double layerRerun = rerunLayers > 0 ? sc.recompute / rerunLayers : 0.0;
    auto backwardExposed = [&](double window) { return std::max(0.0, ag + rs - in.eta * window); };
    mc.zero3Exposed = layers * std::max(0.0, ag - in.eta * layerF) + rerunLayers * backwardExposed(layerB + layerRerun)
        + (layers - rerunLayers) * backwardExposed(layerB);
    mc.zero3Total = layers * (2 * ag + rs);
    const double frac = double(dp.size - 1) / dp.size;
    mc.zero3Bytes = dp.params.total() * (2 * dp.gatherBytes + dp.gradBytes) * frac;
}

} // namespace

MicrobatchComm microbatchComm(const StepInputs& in, const StageCompute& sc, const DataParallelGroup& dp, StepReport& out)
{
    const Scenario& s = in.s;
    const ParallelPlan& p = s.plan;
    MicrobatchComm mc;
    layerCollectives(in, mc, out);
    zero3PerMicrobatch(in, sc, dp, mc, out);
    // Pipeline: per micro-batch each stage receives activations and sends them on, once
    // per model chunk, forward and backward.
    if (p.pp > 1) {
        CommReport& ppRep = out.comm[idx(CommGroup::PP)];
        const GroupSpan g = groupSpan(s.cluster, 2, p.stride(Axis::PP));
        const double n = in.sh.tokens * s.model.hidden * in.sh.elem / p.tp; // scatter/gather optimization
        const CommOp hop = comm(CollectiveKind::SendRecv, n, g, s, in.eff, ppRep);
        ppRep.groupSize = p.pp;
        mc.pp = 2.0 * in.v * hop.seconds;
        mc.ppBytes = 2.0 * in.v * hop.bytesSent;
    }
    if (in.moePerStage > 0) {
        // Backward runs each part's GEMMs twice (data and weight gradients) and streams
        // twice its forward bytes; full recomputation reruns the forward.
        const double passes = 3.0 + in.recompute.moeParts;
        auto& ml = out.moeLayer;
        ml.router = passes * in.moe.moe.router;
        ml.permute = passes * in.moe.moe.permute;
        ml.experts = passes * in.moe.moe.experts;
        ml.shared = passes * in.moe.moe.shared;
        ml.dispatch = ml.combine = mc.epLayer.seconds / 2;
    }
    return mc;
}

double pipelinePhase(const StepInputs& in, const StageCompute& sc, const MicrobatchComm& mc, const DataParallelGroup& dp,
    StepReport& out)
{
    const ParallelPlan& p = in.s.plan;
    const int mb = in.mb, v = in.v;
    const double perMb = sc.forward + sc.backward + sc.recompute + mc.tpExposed + mc.cpExposed + mc.epExposed
        + mc.zero3Exposed + mc.pp;
    {
        const double computeMb = sc.total();
        const double inLayer = mc.inLayerExposed();
        const double fwdShare = computeMb > 0 ? sc.forward / computeMb : 0.5;
        out.pipeline.forward = sc.forward + inLayer * fwdShare;
        out.pipeline.backward = sc.backward + inLayer * (1 - fwdShare);
        out.pipeline.recompute = sc.recompute;
        out.pipeline.hop = p.pp > 1 ? mc.pp / (2.0 * v) : 0.0;
        out.pipeline.chunks = v;
        out.pipeline.layers = in.layersPerStage;
        out.pipeline.forwardCollectives = inLayer * fwdShare;
        out.pipeline.backwardCollectives = inLayer * (1 - fwdShare);
        out.pipeline.gradientBuckets = std::max(1.0, std::ceil(dp.params.total() * dp.gradBytes / in.c.gradBucketBytes));
    }
    // DualPipe's bubble is (pp/2 - 1)(F&B + B - 3W) against 1F1B's (pp - 1)(F + B)
    // (DeepSeek-V3 report, Table 2): with the paired F&B chunk taking F + B and the
    // weight gradients W half of B, (pp/2 - 1)(F + B/2).
    double bubbleMb = double(p.pp - 1) / v;
    if (p.schedule == Schedule::DualPipe) {
        const double fb = sc.total();
        out.pipeline.bubbleWeight = fb > 0 ? (sc.forward + sc.recompute + 0.5 * sc.backward) / fb : 0.0;
        bubbleMb = std::max(0.0, p.pp / 2.0 - 1.0) * out.pipeline.bubbleWeight;
    }

    StepBreakdown& b = out.breakdown;
    b.forward = mb * sc.forward;
    b.backward = mb * sc.backward;
    b.recompute = mb * sc.recompute;
    b.exposedComm[idx(CommGroup::TP)] = mb * mc.tpExposed;
    b.exposedComm[idx(CommGroup::CP)] = mb * mc.cpExposed;
    b.exposedComm[idx(CommGroup::EP)] = mb * mc.epExposed;
    b.exposedComm[idx(CommGroup::PP)] = mb * mc.pp;
    b.bubble = bubbleMb * perMb;
    out.bubbleFraction = bubbleMb / mb;

    CommReport &tpRep = out.comm[idx(CommGroup::TP)], &cpRep = out.comm[idx(CommGroup::CP)];
    CommReport &epRep = out.comm[idx(CommGroup::EP)], &ppRep = out.comm[idx(CommGroup::PP)];
    const int layers = in.layersPerStage;
    tpRep.totalSeconds = mb * mc.tpTotal;
    tpRep.exposedSeconds = b.exposedComm[idx(CommGroup::TP)];
    tpRep.bytesPerGpu = double(mb) * layers * mc.tpLayer.bytesSent * mc.tpPasses;
    cpRep.totalSeconds = double(mb) * layers * mc.cpLayer.total;
    cpRep.exposedSeconds = b.exposedComm[idx(CommGroup::CP)];
    cpRep.bytesPerGpu = double(mb) * layers * mc.cpLayer.bytes;
    epRep.totalSeconds = mb * mc.ep;
    epRep.exposedSeconds = mb * mc.epExposed;
    epRep.bytesPerGpu = double(mb) * in.moePerStage * mc.epLayer.bytesSent;
    ppRep.totalSeconds = ppRep.exposedSeconds = mb * mc.pp;
    ppRep.bytesPerGpu = mb * mc.ppBytes;
    return bubbleMb;
}

void dataParallelSync(const StepInputs& in, const StageCompute& sc, const MicrobatchComm& mc, const DataParallelGroup& dp,
    StepReport& out)
{
    const Scenario& s = in.s;
    const ParallelPlan& p = s.plan;
    CommReport& dpRep = out.comm[idx(CommGroup::DP)];
    double dpTotal = in.mb * mc.zero3Total, dpExposed = in.mb * mc.zero3Exposed, dpBytes = in.mb * mc.zero3Bytes;
    const GradCompression method = s.training.gradCompression;
    // Compression's GPU time: FP8 quantizes what the plan's own collectives carry (every
    // micro-batch under ZeRO 3's per-layer reduce-scatters); the others add their own.
    double compressCompute = 0;
    if (method == GradCompression::Fp8 && dp.size > 1)
        compressCompute = (dp.perMicrobatchGather ? in.mb : 1) * fp8CastSeconds(in.r, dp.params.total(), dp.heldGradBytes);
    const bool ownCollectives = method != GradCompression::None && method != GradCompression::Fp8;
    if (!dp.perMicrobatchGather) {
        const int expertGroup = static_cast<int>(std::max(1LL, p.expertDataParallel()));
        const int expertStride = (p.etp() == p.tp ? p.stride(Axis::DP) : p.etp()) * p.ep;
        const GroupSpan expertSpan = groupSpan(s.cluster, expertGroup, expertStride);
        auto sync = [&](double params, const GroupSpan& g, int size) {
            if (size <= 1 || params <= 0)
                return std::pair<double, double> { 0.0, 0.0 };
            if (p.zeroStage == 0 && ownCollectives) { // PowerSGD, 1-bit, int8 (ZeRO refused: grad_compression.h)
                const CompressedSync cs = compressedAllReduce(s, in.r, in.eff, g, dp.matrices.part(params), dp.heldGradBytes, dpRep);
                dpBytes += cs.bytesSent;
                compressCompute += cs.compute;
                return std::pair<double, double> { cs.commSeconds, 0.0 };
            }
            if (p.zeroStage == 0) {
                const CommOp ar = comm(CollectiveKind::AllReduce, params * dp.gradBytes, g, s, in.eff, dpRep);
                dpBytes += ar.bytesSent;
                return std::pair<double, double> { ar.seconds, 0.0 };
            }
            const CommOp rs = comm(CollectiveKind::ReduceScatter, params * dp.gradBytes, g, s, in.eff, dpRep);
            const CommOp ag = comm(CollectiveKind::AllGather, params * dp.gatherBytes, g, s, in.eff, dpRep);
            dpBytes += rs.bytesSent + ag.bytesSent;
            return std::pair<double, double> { rs.seconds, ag.seconds };
        };
        auto [gDense, aDense] = sync(dp.params.dense, dp.span, dp.size);
        auto [gExp, aExp] = sync(dp.params.experts, expertSpan, expertGroup);
        const double grad = gDense + gExp, gather = aDense + aExp;
        dpRep.groupSize = dp.size;
        dpRep.domains = dp.span.domains;
        dpTotal = grad + gather;

        const double gradBytesTotal = dp.params.total() * dp.gradBytes;
        const double lastBucket = gradBytesTotal > 0 ? std::min(1.0, in.c.gradBucketBytes / gradBytesTotal) : 1.0;
        const double gradExposed = p.overlapGradReduce
            ? std::max(grad - in.eta * (sc.backward + sc.recompute), grad * lastBucket)
            : grad;
        const double gatherExposed = p.overlapParamGather ? std::max(gather - in.eta * sc.forward, gather * lastBucket) : gather;
        dpExposed = gradExposed + gatherExposed;
    }
    out.breakdown.exposedComm[idx(CommGroup::DP)] = dpExposed;
    out.breakdown.compression = compressCompute;
    dpRep.totalSeconds = dpTotal;
    dpRep.exposedSeconds = dpExposed;
    dpRep.bytesPerGpu = dpBytes;
}

void optimizerAndOverhead(const StepInputs& in, const DataParallelGroup& dp, StepReport& out)
{
    const ParallelPlan& p = in.s.plan;
    const Calibration& c = in.c;
    StepBreakdown& b = out.breakdown;
    // The offloaded share of the optimizer runs on the CPU (offloadPhase).
    const double optParams = optimizerShardParams(in, dp) * gpuOptimizerShare(p.offload);
    const double optBytes = c.optimizerBytesPerParam * (in.s.training.optimizer == Optimizer::Adam ? 1.0 : 0.5);
    b.optimizer = streamTime(in.r, optParams * optBytes, 4);
    // The transformer calibration was fitted with step_overhead for every stack, captured or
    // not (docs/layers.md: captured_step_overhead serves layer tables so far).
    b.overhead = in.s.calibration.kernels.stepOverhead >= 0 ? in.s.calibration.kernels.stepOverhead : c.stepOverhead;
    // Communication hidden behind compute is not free: NCCL kernels take SMs and HBM
    // bandwidth from the kernels they overlap, stretching them.
    // Collectives that cross scale-up domains are paced by the NICs: their kernels hold
    // SMs while they wait but move far less HBM traffic a second (overlap_slowdown_scale_out).
    double hidden = 0, hiddenOut = 0;
    for (const CommReport& cr : out.comm)
        (cr.span.domains > 1 ? hiddenOut : hidden) += std::max(0.0, cr.totalSeconds - cr.exposedSeconds); // rounding can leave -1e-16
    b.contention = c.overlapSlowdown * hidden + c.overlapSlowdownScaleOut * hiddenOut;
}

void stragglerWait(const StepInputs& in, StepReport& out)
{
    StepBreakdown& b = out.breakdown;
    b.straggler = (b.forward + b.backward + b.recompute) * stragglerShare(in.s.cluster.jitter, in.s.plan.gpus());
}

void idealize(const StepInputs& in, const StageCompute& sc, const MicrobatchComm& mc, const DataParallelGroup& dp,
    double bubbleMb, StepReport& out)
{
    // Perfect overlap: a micro-batch takes the longer of its compute and all its
    // communication; the DP reduction hides under the pipeline; nothing else.
    StepBreakdown& b = out.breakdown;
    const int mb = in.mb;
    const double compute = sc.total();
    const double cpTotal = mc.cpLayer.total * in.layersPerStage;
    const double commMb = mc.tpTotal + cpTotal + mc.ep + mc.zero3Total + mc.pp;
    const double tau = std::max(compute, commMb);
    const double excess = tau - compute; // communication left after full overlap
    for (int g = 0; g < kCommGroupCount; ++g)
        b.exposedComm[g] = 0;
    if (excess > 0 && commMb > 0) {
        b.exposedComm[idx(CommGroup::TP)] = mb * excess * mc.tpTotal / commMb;
        b.exposedComm[idx(CommGroup::CP)] = mb * excess * cpTotal / commMb;
        b.exposedComm[idx(CommGroup::EP)] = mb * excess * mc.ep / commMb;
        b.exposedComm[idx(CommGroup::PP)] = mb * excess * mc.pp / commMb;
        b.exposedComm[idx(CommGroup::DP)] = mb * excess * mc.zero3Total / commMb;
    }
    b.bubble = bubbleMb * tau;
    const double pipeline = mb * tau + b.bubble;
    if (!dp.perMicrobatchGather)
        b.exposedComm[idx(CommGroup::DP)] += std::max(0.0, out.comm[idx(CommGroup::DP)].totalSeconds - pipeline);
    b.optimizer = b.overhead = b.contention = 0;
    for (int g = 0; g < kCommGroupCount; ++g)
        out.comm[g].exposedSeconds = std::min(out.comm[g].totalSeconds, b.exposedComm[g]);
}

} // namespace dtsim::step_detail
