#include "step.h"

#include "eager_autocast.h"

#include "layers/layer_step.h"
#include "plan_check.h"
#include "step_comm.h"
#include "step_layer.h"

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
    double s = forward + backward + recompute + bubble + optimizer + overhead + contention + inputStall;
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

constexpr int idx(CommGroup g) { return static_cast<int>(g); }

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
    for (const CommReport& cr : out.comm) {
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

// The slowest stage's layers' GPU kernel time in a step, by kind (StepReport::kernels),
// with each recomputation policy's rerun split the same way.
StepReport::KernelTimes kernelTimes(const Scenario& s, const LayerTimes& dense, const LayerTimes& moe, int denseLayers,
    int moeLayers, double rerun, double attnBack, int microbatches)
{
    StepReport::KernelTimes k;
    auto add = [&](const LayerTimes& lt, int layers) {
        double gemm = 3.0 * lt.gemmForward, attention = (1.0 + attnBack) * lt.attentionForward;
        double stream = lt.streamForward + lt.streamBackward;
        switch (s.plan.recompute) {
        case Recompute::Full:
            gemm += rerun * lt.gemmForward;
            attention += rerun * lt.attentionForward;
            stream += rerun * lt.streamForward;
            break;
        case Recompute::Selective:
            attention += s.training.fusedAttention() ? 0.0 : lt.attentionForward;
            break;
        case Recompute::PerOp:
            gemm += lt.perOpRecompute - lt.streamForward;
            stream += lt.streamForward;
            break;
        case Recompute::Projections:
            gemm += lt.projectionsRecompute - lt.attentionForward - lt.streamForward;
            attention += lt.attentionForward;
            stream += lt.streamForward;
            break;
        default:
            break;
        }
        // In doubles: micro-batches x layers passes int's range at the largest batches.
        const double passes = double(microbatches) * layers;
        k.gemm += passes * gemm;
        k.attention += passes * attention;
        k.stream += passes * stream;
    };
    add(dense, denseLayers);
    if (moeLayers > 0)
        add(moe, moeLayers);
    return k;
}

} // namespace

StepReport simulateStep(const Scenario& s, const Calibration& c, const StepOptions& opts)
{
    if (s.model.isLayerTable())
        return simulateLayerTableStep(s, c, opts.idealized);
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    const TrainingSpec& tr = s.training;
    Rates r = ratesFor(s, c);
    r.idealized = opts.idealized;
    if (opts.idealized)
        r.hostKernel = 0; // Epoch's idealized runs have no framework overhead
    const CommEfficiency eff = commEfficiencyFor(s, c);
    const double eta = c.overlapEfficiency;

    StepReport out;
    const int mb = std::max(1, microbatchesPerStep(s));
    out.microbatches = mb;
    const int v = p.schedule == Schedule::Interleaved1F1B ? std::max(1, p.virtualStages) : 1;

    Shape sh;
    sh.tokens = double(tr.microBatch) * tr.seqLen / p.cp;
    sh.normTokens = (p.sequenceParallel && p.tp > 1) ? sh.tokens / p.tp : sh.tokens;
    sh.elem = storageBytes(tr.precision);

    const StageLayers stages = stageLayers(m.layers, p);
    const int layersPerStage = stages.fullest(); // the slowest stage
    const int moePerStage = std::min(layersPerStage, layersOnFullestStage(m.moeLayerCount(), p.pp));
    const int densePerStage = layersPerStage - moePerStage;

    const LayerTimes dense = layerTimes(s, r, sh, false);
    const LayerTimes moe = m.isMoe() ? layerTimes(s, r, sh, true) : LayerTimes {};
    const double attnBack = c.attentionBackwardFactor;

    // --- Per-layer communication (one micro-batch) ---------------------------------
    auto& tpRep = out.comm[idx(CommGroup::TP)];
    auto& cpRep = out.comm[idx(CommGroup::CP)];
    auto& epRep = out.comm[idx(CommGroup::EP)];
    auto& ppRep = out.comm[idx(CommGroup::PP)];
    auto& dpRep = out.comm[idx(CommGroup::DP)];

    const CommOp tpLayer = tensorParallelLayer(s, sh, eff, tpRep); // forward of one layer
    const bool full = p.recompute == Recompute::Full;
    // Share of the stage's layers that rerun their forward (all, or Megatron's block of
    // recompute_layers).
    const double rerun = full ? (p.recomputeLayers > 0 ? std::min(1.0, double(p.recomputeLayers) / layersPerStage) : 1.0) : 0.0;
    // Keeping the attention projections reruns the attention core (its ring passes under
    // CP), the MLP input's sequence-parallel all-gather (one of a layer's four TP
    // collectives) and the dispatch all-to-all (not the combine, whose output only feeds
    // the residual add).
    const bool keepProjections = p.recompute == Recompute::Projections;
    const bool spGathers = p.sequenceParallel && p.tp > 1;
    const double tpRerun = keepProjections ? (spGathers ? 0.25 : 0.0) : rerun;
    const double tpPasses = 2.0 + tpRerun; // forward, backward, forward again
    auto tpExposed = [&](const LayerTimes& lt) {
        const double hidden = p.tpCommOverlap ? std::max(0.0, tpLayer.seconds - eta * lt.gemmForward) : tpLayer.seconds;
        const double backward = p.tpCommOverlapBackward ? hidden : tpLayer.seconds;
        return hidden * (tpPasses - 1.0) + backward; // forward passes, then the backward
    };

    const RingComm cpLayer = contextParallelLayer(s, sh, eff, dense.attentionForward / p.cp, attnBack, eta,
        keepProjections ? 1.0 : rerun, cpRep);
    const double cpExposedLayer = cpLayer.exposed, cpTotalLayer = cpLayer.total, cpBytesLayer = cpLayer.bytes;

    const CommOp epLayerOp = expertParallelLayer(s, sh, eff, keepProjections ? 0.5 : rerun, epRep);
    const double epLayer = epLayerOp.seconds, epBytesLayer = epLayerOp.bytesSent;

    // --- Stage times per micro-batch ---------------------------------------------
    double fwdCompute = densePerStage * dense.forward() + moePerStage * moe.forward();
    double bwdCompute = densePerStage * dense.backward(attnBack) + moePerStage * moe.backward(attnBack);
    double recompute = 0;
    if (full)
        recompute = rerun * (densePerStage * dense.forward() + moePerStage * moe.forward());
    else if (p.recompute == Recompute::Selective && !tr.fusedAttention())
        recompute = layersPerStage * dense.attentionForward;
    else if (p.recompute == Recompute::PerOp)
        recompute = densePerStage * dense.perOpRecompute + moePerStage * moe.perOpRecompute;
    else if (keepProjections)
        recompute = densePerStage * dense.projectionsRecompute + moePerStage * moe.projectionsRecompute;

    // Embedding lookup on the first stage; logits and cross-entropy on the last.
    double embedF = streamTime(r, sh.tokens * m.hidden * sh.elem, 1);
    const double vocabLocal = double(m.vocab) / p.tp;
    // FP8 recipes keep the output layer in 16-bit: Megatron-Core's output layer is not a
    // Transformer Engine linear, and torchao's Float8 conversion filters out "output".
    Rates outputRates = r;
    outputRates.gemmPeak = r.halfGemmPeak;
    outputRates.elementBytes = storageBytes(tr.precision);
    if (p.tp > 1) {
        // A vocabulary split over TP is padded to whole shards (Megatron: a multiple of
        // 128 x TP), so each GPU's slice of the output layer is aligned.
        outputRates.aligned8 = outputRates.unaligned = 1.0;
    }
    const double logitsGemm = gemmTime(outputRates, sh.tokens, vocabLocal, m.hidden);
    const double crossEntropy = streamTime(r, sh.tokens * vocabLocal * 4.0 * 2, 2); // fp32 softmax
    double logitsF = logitsGemm + crossEntropy;
    double logitsB = 2.0 * logitsGemm + crossEntropy;
    double embedB = embedF;
    if (tr.autocast && !tr.fusedKernels) {
        // Eager under autocast: the fp32 table's lookup, and the loss over upcast logits.
        const EagerTraffic embed = autocastEmbeddingTraffic(s, sh.tokens), loss = autocastLossTraffic(s, sh.tokens, vocabLocal);
        embedF = streamTime(r, embed.forwardBytes, embed.forwardKernels);
        embedB = streamTime(r, embed.backwardBytes, embed.backwardKernels);
        logitsF = logitsGemm + streamTime(r, loss.forwardBytes, loss.forwardKernels);
        logitsB = 2.0 * logitsGemm + streamTime(r, loss.backwardBytes, loss.backwardKernels);
    }
    if (p.pp == 1) {
        fwdCompute += embedF + logitsF;
        bwdCompute += embedB + logitsB;
    } else {
        // The slowest stage sets the pipeline's pace: an end stage runs its layers plus the
        // embedding or the output layer and loss (uneven stages give the ends fewer layers).
        const double layerF = fwdCompute / std::max(1, layersPerStage);
        const double layerB = bwdCompute / std::max(1, layersPerStage);
        const double middleF = p.pp > 2 ? stages.middle * layerF : 0.0;
        const double middleB = p.pp > 2 ? stages.middle * layerB : 0.0;
        fwdCompute = std::max({ middleF, stages.first * layerF + embedF, stages.last * layerF + logitsF });
        bwdCompute = std::max({ middleB, stages.first * layerB + embedB, stages.last * layerB + logitsB });
    }

    out.kernels = kernelTimes(s, dense, moe, densePerStage, moePerStage, rerun, attnBack, mb);
    if (moePerStage > 0) {
        // Backward runs each part's GEMMs twice (data and weight gradients) and streams
        // twice its forward bytes; full recomputation reruns the forward.
        const double passes = 3.0 + rerun;
        auto& ml = out.moeLayer;
        ml.router = passes * moe.moe.router;
        ml.permute = passes * moe.moe.permute;
        ml.experts = passes * moe.moe.experts;
        ml.shared = passes * moe.moe.shared;
        ml.dispatch = ml.combine = epLayer / 2;
    }
    if (p.pp == 1) {
        out.kernels.gemm += mb * 3.0 * logitsGemm;
        out.kernels.stream += mb * (embedF + embedB + logitsF + logitsB - 3.0 * logitsGemm);
    }

    const double tpTotalMb = layersPerStage * tpLayer.seconds * tpPasses;
    const double tpExposedMb = densePerStage * tpExposed(dense) + moePerStage * tpExposed(moe);
    const double cpExposedMb = layersPerStage * cpExposedLayer;
    const double epMb = moePerStage * epLayer;
    // With EP overlap, the all-to-alls of a micro-batch's MoE layers hide behind the
    // other micro-batch's compute of the same layers (a forward paired with a backward).
    // Only steady-state micro-batches have a partner: the pipeline's warm-up forwards
    // and cool-down backwards (pp - 1 each, at least the first and last) run alone.
    double epExposedMb = epMb;
    if ((p.epCommOverlap || p.schedule == Schedule::DualPipe) && epMb > 0) {
        const double partnerCompute = moePerStage * (moe.forward() + moe.backward(attnBack));
        const double paired = std::max(0, mb - std::max(1, p.pp - 1)) / double(mb);
        epExposedMb = epMb - paired * std::min(epMb, eta * partnerCompute);
    }

    // ZeRO-3 / FSDP: every micro-batch gathers each layer's weights (forward and
    // backward) and reduce-scatters its gradients, prefetched behind layer compute.
    const int dpGroup = p.dp * p.cp;
    const GroupSpan dpSpan = groupSpan(s.cluster, dpGroup, p.cp > 1 ? p.stride(Axis::CP) : p.stride(Axis::DP));
    const double paramBytes = storageBytes(tr.precision);
    const double gradBytes = storageBytes(tr.gradReduce);
    const ParameterCounts counts = countParameters(m, tr.seqLen);
    // Parameter all-gathers of FP8 weights: the blocks' linears move one byte a weight,
    // the embeddings, norms and output layer stay 16-bit.
    double gatherBytes = paramBytes;
    if (tr.fp8ParamGather && isScaledLowPrecision(tr.precision) && counts.total > 0) {
        const double other = counts.embedding + counts.outputHead + counts.finalNorm + m.layers * counts.normsPerLayer;
        const double linearShare = std::clamp(1.0 - other / counts.total, 0.0, 1.0);
        gatherBytes = linearShare * 1.0 + (1.0 - linearShare) * paramBytes;
    }
    StageParams sp = stageParameters(s, 0, counts);
    {
        StageParams last = stageParameters(s, p.pp - 1, counts);
        if (last.total() > sp.total())
            sp = last;
    }
    double zero3ExposedMb = 0, zero3TotalMb = 0, zero3BytesMb = 0;
    // With pipeline parallelism, FSDP keeps a stage's weights gathered across its
    // micro-batches (torchtitan sets reshard_after_forward=False under PP), so ZeRO 3
    // then communicates once per step, as ZeRO 1/2 do.
    const bool perMicrobatchGather = p.zeroStage == 3 && p.pp == 1;
    if (perMicrobatchGather && dpGroup > 1) {
        const double perLayer = sp.total() / std::max(1, layersPerStage);
        const double ag = comm(CollectiveKind::AllGather, perLayer * gatherBytes, dpSpan, s, eff, dpRep).seconds;
        const double rs = comm(CollectiveKind::ReduceScatter, perLayer * gradBytes, dpSpan, s, eff, dpRep).seconds;
        const double layerF = fwdCompute / std::max(1, layersPerStage);
        const double layerB = bwdCompute / std::max(1, layersPerStage);
        // A checkpointed layer's backward window also runs its recomputed forward (the
        // block reruns inside its own backward, after the next gather was issued). Under
        // block recomputation only `rerun` of the layers have it.
        const double rerunLayers = full ? rerun * layersPerStage : (recompute > 0 ? layersPerStage : 0.0);
        const double layerRerun = rerunLayers > 0 ? recompute / rerunLayers : 0.0;
        auto backwardExposed = [&](double window) { return std::max(0.0, ag + rs - eta * window); };
        zero3ExposedMb = layersPerStage * std::max(0.0, ag - eta * layerF)
            + rerunLayers * backwardExposed(layerB + layerRerun)
            + (layersPerStage - rerunLayers) * backwardExposed(layerB);
        zero3TotalMb = layersPerStage * (2 * ag + rs);
        const double frac = double(dpGroup - 1) / dpGroup;
        zero3BytesMb = sp.total() * (2 * gatherBytes + gradBytes) * frac;
    }

    // Pipeline: per micro-batch each stage receives activations and sends them on,
    // once per model chunk, forward and backward.
    double ppMb = 0, ppBytesMb = 0;
    if (p.pp > 1) {
        const GroupSpan g = groupSpan(s.cluster, 2, p.stride(Axis::PP));
        const double n = sh.tokens * m.hidden * sh.elem / p.tp; // scatter/gather optimization
        CommOp hop = comm(CollectiveKind::SendRecv, n, g, s, eff, ppRep);
        ppRep.groupSize = p.pp;
        ppMb = 2.0 * v * hop.seconds;
        ppBytesMb = 2.0 * v * hop.bytesSent;
    }

    const double perMb = fwdCompute + bwdCompute + recompute + tpExposedMb + cpExposedMb + epExposedMb
        + zero3ExposedMb + ppMb;
    {
        const double computeMb = fwdCompute + bwdCompute + recompute;
        const double inLayer = tpExposedMb + cpExposedMb + epExposedMb + zero3ExposedMb;
        const double fwdShare = computeMb > 0 ? fwdCompute / computeMb : 0.5;
        out.pipeline.forward = fwdCompute + inLayer * fwdShare;
        out.pipeline.backward = bwdCompute + inLayer * (1 - fwdShare);
        out.pipeline.recompute = recompute;
        out.pipeline.hop = p.pp > 1 ? ppMb / (2.0 * v) : 0.0;
        out.pipeline.chunks = v;
        out.pipeline.layers = layersPerStage;
        out.pipeline.forwardCollectives = inLayer * fwdShare;
        out.pipeline.backwardCollectives = inLayer * (1 - fwdShare);
        out.pipeline.gradientBuckets = std::max(1.0, std::ceil(sp.total() * gradBytes / c.gradBucketBytes));
    }
    // DualPipe's bubble is (pp/2 - 1)(F&B + B - 3W) against 1F1B's (pp - 1)(F + B)
    // (DeepSeek-V3 report, Table 2): with the paired F&B chunk taking F + B and the
    // weight gradients W half of B, (pp/2 - 1)(F + B/2).
    double bubbleMb = double(p.pp - 1) / v;
    if (p.schedule == Schedule::DualPipe) {
        const double fb = fwdCompute + bwdCompute + recompute;
        out.pipeline.bubbleWeight = fb > 0 ? (fwdCompute + recompute + 0.5 * bwdCompute) / fb : 0.0;
        bubbleMb = std::max(0.0, p.pp / 2.0 - 1.0) * out.pipeline.bubbleWeight;
    }

    StepBreakdown& b = out.breakdown;
    b.forward = mb * fwdCompute;
    b.backward = mb * bwdCompute;
    b.recompute = mb * recompute;
    b.exposedComm[idx(CommGroup::TP)] = mb * tpExposedMb;
    b.exposedComm[idx(CommGroup::CP)] = mb * cpExposedMb;
    b.exposedComm[idx(CommGroup::EP)] = mb * epExposedMb;
    b.exposedComm[idx(CommGroup::PP)] = mb * ppMb;
    b.bubble = bubbleMb * perMb;
    out.bubbleFraction = bubbleMb / mb;

    tpRep.totalSeconds = mb * tpTotalMb;
    tpRep.exposedSeconds = b.exposedComm[idx(CommGroup::TP)];
    tpRep.bytesPerGpu = double(mb) * layersPerStage * tpLayer.bytesSent * tpPasses;
    cpRep.totalSeconds = double(mb) * layersPerStage * cpTotalLayer;
    cpRep.exposedSeconds = b.exposedComm[idx(CommGroup::CP)];
    cpRep.bytesPerGpu = double(mb) * layersPerStage * cpBytesLayer;
    epRep.totalSeconds = mb * epMb;
    epRep.exposedSeconds = mb * epExposedMb;
    epRep.bytesPerGpu = double(mb) * moePerStage * epBytesLayer;
    ppRep.totalSeconds = ppRep.exposedSeconds = mb * ppMb;
    ppRep.bytesPerGpu = mb * ppBytesMb;

    // --- Data-parallel gradient synchronisation ----------------------------------
    double dpTotal = mb * zero3TotalMb, dpExposed = mb * zero3ExposedMb, dpBytes = mb * zero3BytesMb;
    if (!perMicrobatchGather) {
        const int expertGroup = static_cast<int>(std::max(1LL, p.expertDataParallel()));
        const int expertStride = (p.etp() == p.tp ? p.stride(Axis::DP) : p.etp()) * p.ep;
        const GroupSpan expertSpan = groupSpan(s.cluster, expertGroup, expertStride);
        auto sync = [&](double params, const GroupSpan& g, int size) {
            if (size <= 1 || params <= 0)
                return std::pair<double, double> { 0.0, 0.0 };
            double grad = 0, gather = 0;
            if (p.zeroStage == 0) {
                CommOp ar = comm(CollectiveKind::AllReduce, params * gradBytes, g, s, eff, dpRep);
                grad = ar.seconds;
                dpBytes += ar.bytesSent;
            } else {
                CommOp rs = comm(CollectiveKind::ReduceScatter, params * gradBytes, g, s, eff, dpRep);
                CommOp ag = comm(CollectiveKind::AllGather, params * gatherBytes, g, s, eff, dpRep);
                grad = rs.seconds;
                gather = ag.seconds;
                dpBytes += rs.bytesSent + ag.bytesSent;
            }
            return std::pair<double, double> { grad, gather };
        };
        auto [gDense, aDense] = sync(sp.dense, dpSpan, dpGroup);
        auto [gExp, aExp] = sync(sp.experts, expertSpan, expertGroup);
        const double grad = gDense + gExp, gather = aDense + aExp;
        dpRep.groupSize = dpGroup;
        dpRep.domains = dpSpan.domains;
        dpTotal = grad + gather;

        const double gradBytesTotal = sp.total() * gradBytes;
        const double lastBucket = gradBytesTotal > 0 ? std::min(1.0, c.gradBucketBytes / gradBytesTotal) : 1.0;
        const double gradExposed = p.overlapGradReduce
            ? std::max(grad - eta * (bwdCompute + recompute), grad * lastBucket)
            : grad;
        const double gatherExposed = p.overlapParamGather
            ? std::max(gather - eta * fwdCompute, gather * lastBucket)
            : gather;
        dpExposed = gradExposed + gatherExposed;
    }
    b.exposedComm[idx(CommGroup::DP)] = dpExposed;
    dpRep.totalSeconds = dpTotal;
    dpRep.exposedSeconds = dpExposed;
    dpRep.bytesPerGpu = dpBytes;

    // --- Optimizer and overhead --------------------------------------------------
    const double denseShard = p.zeroStage >= 1 ? dpGroup : 1;
    const double expertShard = p.zeroStage >= 1 ? std::max(1LL, p.expertDataParallel()) : 1;
    const double optParams = sp.dense / denseShard + sp.experts / expertShard;
    const double optBytes = c.optimizerBytesPerParam * (tr.optimizer == Optimizer::Adam ? 1.0 : 0.5);
    b.optimizer = streamTime(r, optParams * optBytes, 4);
    // The transformer calibration was fitted with step_overhead for every stack, captured or
    // not (docs/layers.md: captured_step_overhead serves layer tables so far).
    b.overhead = s.calibration.kernels.stepOverhead >= 0 ? s.calibration.kernels.stepOverhead : c.stepOverhead;
    // Communication hidden behind compute is not free: NCCL kernels take SMs and HBM
    // bandwidth from the kernels they overlap, stretching them.
    // Collectives that cross scale-up domains are paced by the NICs: their kernels hold
    // SMs while they wait but move far less HBM traffic a second (overlap_slowdown_scale_out).
    double hidden = 0, hiddenOut = 0;
    for (const CommReport& cr : out.comm)
        (cr.span.domains > 1 ? hiddenOut : hidden) += std::max(0.0, cr.totalSeconds - cr.exposedSeconds); // rounding can leave -1e-16
    b.contention = c.overlapSlowdown * hidden + c.overlapSlowdownScaleOut * hiddenOut;

    if (opts.idealized) {
        // Perfect overlap: a micro-batch takes the longer of its compute and all its
        // communication; the DP reduction hides under the pipeline; nothing else.
        const double compute = fwdCompute + bwdCompute + recompute;
        const double commMb = tpTotalMb + cpTotalLayer * layersPerStage + epMb + zero3TotalMb + ppMb;
        const double tau = std::max(compute, commMb);
        const double excess = tau - compute; // communication left after full overlap
        for (int g = 0; g < kCommGroupCount; ++g)
            b.exposedComm[g] = 0;
        if (excess > 0 && commMb > 0) {
            b.exposedComm[idx(CommGroup::TP)] = mb * excess * tpTotalMb / commMb;
            b.exposedComm[idx(CommGroup::CP)] = mb * excess * cpTotalLayer * layersPerStage / commMb;
            b.exposedComm[idx(CommGroup::EP)] = mb * excess * epMb / commMb;
            b.exposedComm[idx(CommGroup::PP)] = mb * excess * ppMb / commMb;
            b.exposedComm[idx(CommGroup::DP)] = mb * excess * zero3TotalMb / commMb;
        }
        b.bubble = bubbleMb * tau;
        const double pipeline = mb * tau + b.bubble;
        if (!perMicrobatchGather)
            b.exposedComm[idx(CommGroup::DP)] += std::max(0.0, dpTotal - pipeline);
        b.optimizer = b.overhead = b.contention = 0;
        for (int g = 0; g < kCommGroupCount; ++g)
            out.comm[g].exposedSeconds = std::min(out.comm[g].totalSeconds, b.exposedComm[g]);
    }

    out.stepTime = b.sum();

    // --- Throughput and utilization ----------------------------------------------
    const double tokens = tr.tokensPerStep();
    ForwardFlops ff = forwardFlopsPerToken(m, tr.seqLen);
    if (opts.idealized)
        ff.attention = 0;
    out.modelFlopsPerStep = 3.0 * ff.total() * tokens;
    double recomputeFlops = 0;
    if (full)
        recomputeFlops = rerun * (ff.total() - ff.logits);
    else if (p.recompute == Recompute::Selective && !tr.fusedAttention())
        recomputeFlops = ff.attention;
    else if (p.recompute == Recompute::PerOp) {
        // The matmuls per-op checkpointing reruns (layerTimes): bf16 wk and w3, FP8
        // wq, wk, wv and the up projection; eager replay adds wo. 2 h n FLOPs a token.
        const bool fp8 = isScaledLowPrecision(tr.precision);
        const double h = m.hidden, qd = m.queryDim(), kvd = m.kvDim();
        const double attention = (fp8 ? qd + 2 * kvd : kvd) + (tr.fusedKernels ? 0.0 : qd);
        const double upWidth = fp8 ? (m.gatedMlp ? 2.0 : 1.0) : (m.gatedMlp ? 1.0 : 0.0);
        const double moeFfn = m.moe.expertFfnHidden * double(m.moe.topK + m.moe.sharedExperts);
        recomputeFlops = 2.0 * h
            * (m.layers * attention + upWidth * (m.denseLayerCount() * double(m.ffnHidden) + m.moeLayerCount() * moeFfn));
    } else if (keepProjections) {
        // The attention core, the MLPs' input projections (gate and up: 2/3 of a gated
        // MLP, all of a plain one's weights but the down projection) and the routers.
        const double upShare = m.gatedMlp ? 2.0 / 3.0 : 0.5;
        const double mlpFlops = 2.0 * m.mlpMatrices() * m.hidden
            * (m.denseLayerCount() * double(m.ffnHidden)
                + m.moeLayerCount() * double(m.moe.topK + m.moe.sharedExperts) * m.moe.expertFfnHidden);
        const double routers = 2.0 * m.hidden * double(m.moe.experts) * m.moeLayerCount();
        recomputeFlops = ff.attention + upShare * mlpFlops + routers;
    }
    out.hardwareFlopsPerStep = out.modelFlopsPerStep + recomputeFlops * tokens;
    out.peakFlopsPerGpu = s.hardware.peak(tr.precision);
    const double gpus = p.gpus();
    out.tokensPerSecond = tokens / out.stepTime;
    out.tflopsPerGpu = out.modelFlopsPerStep / out.stepTime / gpus / 1e12;
    out.mfu = out.modelFlopsPerStep / (out.stepTime * gpus * out.peakFlopsPerGpu);
    out.hfu = out.hardwareFlopsPerStep / (out.stepTime * gpus * out.peakFlopsPerGpu);
    out.memory = memoryPerGpu(s, c, counts);
    computeLevelLoads(s, out);
    return out;
}

Report simulate(const Scenario& s, const Calibration& c)
{
    Report rep;
    rep.step = simulateStep(s, c);
    const TrainingSpec& tr = s.training;
    rep.steps = tr.steps();
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
