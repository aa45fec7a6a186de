#include "memory.h"
#include "offload.h"

#include "eager_autocast.h"
#include "grad_compression.h"
#include "layers/layer_step.h"
#include "recompute_plan.h"
#include "units.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

namespace {

int layersOnStage(const Scenario& s, int stage) { return stageLayers(s.model.layers, s.plan).onStage(stage, s.plan.pp); }

int moeLayersOnStage(const Scenario& s)
{
    return layersOnFullestStage(s.model.moeLayerCount(), s.plan.pp);
}

double weightBytes(Precision p) { return storageBytes(p); }

// What offload takes off one stage's GPUs (parallel.offload), per GPU.
struct OffloadSizes {
    double hostGradientBytes = 0; // the gradient shard on the host: fp32, and the 16-bit copy it came as
    double gpuGradientBuffers = 0; // what the GPU keeps while gradients stream out
    double layerActivations = 0;  // one layer's saved activations of one micro-batch, which stay
    double paramBytes = 2;        // per parameter on the GPU
};

// Moves offloaded state from the GPU's columns to the host's or NVMe's. The GPU keeps
// a layer's activations at a time; prefetch and copy buffers are transient.
void moveOffloaded(const Scenario& s, const OffloadSizes& z, MemoryReport& r)
{
    const OffloadSpec& o = s.plan.offload;
    auto place = [&](OffloadTarget t, double bytes) { (t == OffloadTarget::Nvme ? r.nvmeBytes : r.hostBytes) += bytes; };
    if (o.optimizer != OffloadTarget::None) {
        const double moved = r.optimizer * o.optimizerFraction;
        place(o.optimizer, moved);
        r.optimizer -= moved;
    }
    if (o.gradients != OffloadTarget::None) {
        // With the optimizer on NVMe DeepSpeed swaps the gradient partitions out beside its
        // states (optimizer swapper, swap_out_gradients).
        place(o.optimizer == OffloadTarget::Nvme ? OffloadTarget::Nvme : o.gradients, z.hostGradientBytes);
        r.gradients = std::min(r.gradients, z.gpuGradientBuffers);
    }
    if (o.parameters != OffloadTarget::None) {
        place(o.parameters, r.weights);
        r.weights = 0;
    }
    if (o.activations != OffloadTarget::None) {
        const double moved = std::max(0.0, r.activations - z.layerActivations);
        place(o.activations, moved);
        r.activations -= moved;
    }
}

} // namespace

double activationBytesPerLayer(const Scenario& s, bool moeLayer, Recompute policy)
{
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    const double t = p.tp;
    const double tokens = double(s.training.microBatch) * s.training.seqLen / p.cp;
    const double e = storageBytes(s.training.precision);
    const bool sp = (p.sequenceParallel || p.tp2d) && p.tp > 1; // 2D TP shards every activation
    const double repl = sp ? 1.0 / t : 1.0; // tensors TP leaves replicated unless SP
    const double h = m.hidden, qd = m.queryDim(), kvdLocal = m.kvDimPerRank(p.headSplit());
    const double mask = m.dropout ? 1.0 : 0.0;

    // A policy that keeps less than the layer's activations says what it keeps.
    const step_detail::RecomputePlan plan = step_detail::recomputePlan(s, policy, 0);
    if (const std::optional<double> kept = plan.keptActivationBytes(s, moeLayer))
        return *kept;
    if (s.training.autocast && !s.training.fusedKernels && plan.keepsEverything)
        return autocastSavedBytes(s, tokens);

    // FP8 recipes save the quantized copy of each linear layer's input for its weight
    // gradient (Transformer Engine): 1 byte instead of 2 for those four tensors.
    const bool fp8 = isScaledLowPrecision(s.training.precision);
    const double lin = fp8 ? 1.0 : e;

    // Per token, bytes. Norm inputs (2), QKV input, Q/K/V, out-projection input, dropout mask.
    double perToken = 2 * e * h * repl + lin * h * repl + e * (qd / t + 2 * kvdLocal) + lin * qd / t
        + mask * h * repl;
    if (m.isMla()) {
        // MLA keeps the latents (replicated across TP) as up-projection inputs, and Q, K
        // at qk_head_dim and V and the attention output at v_head_dim per local head.
        const double nh = m.heads / t, qk = m.qkHeadDim(), v = m.vHeadDim();
        perToken = 2 * e * h * repl + lin * h * repl
            + lin * (m.mla.qLoraRank + m.mla.kvLoraRank + m.mla.qkRopeDim)
            + e * nh * (2 * qk + v) + lin * nh * v + mask * h * repl;
    }
    // Attention scores: kept unless flash-style kernels or recomputation drop them.
    const bool storeScores = !s.training.fusedAttention() && plan.keepsEverything;
    const double ctx = double(s.training.seqLen); // full key length per query (CP splits queries)
    if (storeScores)
        perToken += (e + mask * (1.0 + e)) * m.heads / t * ctx;
    else if (s.training.fusedAttention())
        perToken += 4.0 * m.heads / t; // fp32 softmax statistics (log-sum-exp) for backward

    auto mlp = [&](double ffn, double tokensShare) {
        const double upOut = (m.gatedMlp ? 2.0 : 1.0) * ffn / t; // activation-function input
        const double downIn = ffn / t;                           // down-projection input
        return tokensShare * (lin * h * repl + e * upOut + lin * downIn);
    };
    if (moeLayer) {
        const double cf = std::max(1.0, m.moe.capacityFactor);
        perToken += e * h * repl;                                   // router input
        if (p.etp() == p.tp) {
            perToken += mlp(m.moe.expertFfnHidden, cf * m.moe.topK); // routed experts
        } else {
            // Folded: this GPU's experts serve etp/tp of a TP rank's top-k copies, whole
            // tokens in (h wide), their widths split etp ways.
            const double share = cf * m.moe.topK * p.etp() / t, etp = p.etp();
            perToken += share * (lin * h + e * (m.gatedMlp ? 2.0 : 1.0) * m.moe.expertFfnHidden / etp + lin * m.moe.expertFfnHidden / etp);
        }
        perToken += mlp(m.moe.expertFfnHidden, m.moe.sharedExperts); // shared experts
    } else {
        perToken += mlp(m.ffnHidden, 1.0);
    }
    perToken += mask * h * repl;
    return tokens * perToken;
}

StageParams stageParameters(const Scenario& s, int stage, const ParameterCounts& c)
{
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    const int layers = layersOnStage(s, stage);
    const int moeLayers = std::min(layers, moeLayersOnStage(s));
    const int denseLayers = layers - moeLayers;
    const double routedExpertsPerLayer = c.expertParamsPerLayer;

    StageParams out;
    out.dense = layers * (c.attentionPerLayer / p.tp + c.normsPerLayer)
        + denseLayers * c.denseMlpPerLayer / p.tp
        + moeLayers * (c.moeMlpPerLayer - routedExpertsPerLayer) / p.tp;
    out.experts = moeLayers * routedExpertsPerLayer / (double(p.ep) * p.etp());
    const bool first = stage == 0, last = stage == p.pp - 1;
    if (first)
        out.dense += c.embedding / p.tp;
    if (last) {
        // Untied: the output head; tied with PP > 1: a copy of the embedding (Megatron).
        const double head = m.tiedEmbeddings ? (p.pp > 1 ? c.embedding : 0.0) : c.outputHead;
        out.dense += head / p.tp + c.finalNorm;
    }
    return out;
}

MemoryReport memoryPerGpu(const Scenario& s, const Calibration& c)
{
    if (s.model.isLayerTable())
        return layerTableMemory(s, c);
    return memoryPerGpu(s, c, countParameters(s.model, s.training.seqLen));
}

MemoryReport memoryPerGpu(const Scenario& s, const Calibration& c, const ParameterCounts& counts)
{
    if (s.model.isLayerTable())
        return layerTableMemory(s, c);
    const ParallelPlan& p = s.plan;
    const TrainingSpec& tr = s.training;
    const int microbatches = tr.globalBatch / std::max(1, p.dp * tr.microBatch);

    // Micro-batches whose activations stage k holds at its peak: 1F1B runs pp - k forwards
    // before its first backward; interleaving (Megatron) runs (pp - k - 1) x 2 + (v - 1) x pp
    // + 1 chunk forwards of 1/v of a stage each; GPipe holds them all.
    auto inflightOn = [&](int stage) {
        if (p.pp <= 1)
            return 1.0;
        switch (p.schedule) {
        case Schedule::GPipe: return double(microbatches);
        // DeepSeek-V3 report, Table 2: DualPipe holds PP + 1 micro-batches' activations.
        case Schedule::DualPipe: return double(std::min(p.pp + 1, microbatches));
        case Schedule::OneFOneB: return double(std::min(p.pp - stage, microbatches));
        case Schedule::Interleaved1F1B: {
            const double v = std::max(1, p.virtualStages);
            return std::min<double>(microbatches, ((p.pp - stage - 1) * 2.0 + (v - 1) * p.pp + 1) / v);
        }
        }
        return 1.0;
    };

    // Under autocast the parameters and their gradients are fp32 and the optimizer keeps no
    // separate master copy; each forward's 16-bit copies of the weights live until backward.
    const bool autocast = tr.autocast;
    const double paramBytes = autocast ? 4.0 : weightBytes(tr.precision);
    const bool mixed = tr.precision != Precision::FP32 && tr.precision != Precision::TF32;
    const double gradBytes = autocast ? 4.0 : storageBytes(tr.gradReduce);
    const double masterBytes = (mixed && tr.masterWeightsFp32 && !autocast) ? 4.0 : 0.0;
    // DiLoCo keeps the outer parameters and the outer Nesterov momentum, fp32, beside the
    // inner optimizer's (sharded as its states are; implementations may hold them on the host).
    const double outerBytes = p.diloco.on() ? 8.0 : 0.0;
    const double stateBytes = (tr.optimizer == Optimizer::Adam ? 8.0 : 4.0) + masterBytes + outerBytes;
    const double denseShard = double(p.syncReplicas()) * p.cp;
    const double expertShard = double(std::max(1LL, p.expertDataParallel()));
    auto shard = [&](const StageParams& sp, int minStage) {
        return p.zeroStage >= minStage ? sp.dense / denseShard + sp.experts / expertShard : sp.total();
    };

    const step_detail::RecomputePlan plan = step_detail::recomputePlan(s, 0);
    const double denseAct = activationBytesPerLayer(s, false);
    const double moeAct = s.model.isMoe() ? activationBytesPerLayer(s, true) : 0.0;
    // Activations of one micro-batch on a stage of `layers` layers.
    auto perMicrobatchOn = [&](int layers) {
        const int moeLayers = std::min(layers, moeLayersOnStage(s));
        double bytes = (layers - moeLayers) * denseAct + moeLayers * moeAct;
        if (const int kept = plan.layersKeepingAll(layers); kept > 0) {
            // Block recomputation: the first recompute_layers layers keep their input only,
            // the rest keep everything (dense layers first, as the stage runs them).
            const int keptMoe = std::min(kept, moeLayers);
            bytes += (kept - keptMoe) * (activationBytesPerLayer(s, false, Recompute::Selective) - denseAct)
                + keptMoe * (activationBytesPerLayer(s, true, Recompute::Selective) - moeAct);
        }
        return bytes;
    };
    // Backward recomputes one layer of one micro-batch at a time: its full activations
    // exist briefly, once, on top of what the in-flight micro-batches keep.
    auto recomputeTransientOn = [&](int layers) {
        if (plan.rebuildsLayer)
            return activationBytesPerLayer(s, std::min(layers, moeLayersOnStage(s)) > 0, Recompute::Selective);
        return 0.0;
    };

    MemoryReport best;
    const double reservedBytes = c.forGeneration(s.hardware.generation).reservedMemoryBytes;
    const StageLayers stages = stageLayers(s.model.layers, p);
    for (int stage : { 0, std::min(1, p.pp - 1), p.pp - 1 }) {
        const StageParams sp = stageParameters(s, stage, counts);
        MemoryReport r;
        // ZeRO 3 under pipeline parallelism keeps the stage's weights gathered (see step.cpp).
        r.weights = (p.pp > 1 ? sp.total() : shard(sp, 3)) * paramBytes;
        r.gradients = shard(sp, 2) * gradBytes;
        if (p.schedule == Schedule::DualPipe) {
            // Each rank holds its own stage and the mirrored one the reverse direction
            // runs: "DualPipe requires keeping two copies of the model parameters" (ibid.).
            r.weights *= 2;
            r.gradients *= 2;
        }
        r.optimizer = shard(sp, 1) * stateBytes;
        const double stageInflight = inflightOn(stage);
        const int layers = stages.onStage(stage, p.pp);
        r.activations = perMicrobatchOn(layers) * stageInflight + recomputeTransientOn(layers);
        if (stage == p.pp - 1) {
            const double tokens = double(tr.microBatch) * tr.seqLen / p.cp;
            // fp32 logits; under eager autocast the 16-bit logits, their fp32 upcast, the
            // log-softmax output kept for backward and its fp32 gradient (14 bytes each).
            r.logits = tokens * s.model.vocab / double(p.tp) * (autocast && !tr.fusedKernels ? 14.0 : 4.0);
        }
        if (autocast) {
            // The 16-bit weight copies autocast caches for backward: every linear's but the
            // checkpointed layers' (recast when they rerun) and the embedding's (not autocast).
            const bool last = stage == p.pp - 1;
            const double head = last ? (s.model.tiedEmbeddings ? counts.embedding : counts.outputHead) / p.tp : 0.0;
            const double layers = sp.dense - (stage == 0 ? counts.embedding / p.tp : 0.0) - (last ? counts.outputHead / p.tp : 0.0);
            r.weights += 2.0 * ((plan.keepsAutocastCopies ? std::max(0.0, layers) : 0.0) + head);
            // torch.optim's zero_grad(set_to_none=True): gradients are allocated as backward
            // frees the activations, so at the peak (backward's start) none exist yet; they
            // raise it only by what they exceed the activations and logits by.
            r.gradients = std::max(0.0, r.gradients - r.activations - r.logits);
        }
        if (p.offload.any())
            // ZeRO-Infinity counts 20 bytes of model states a parameter (Sec. 3): fp16 weights and
            // gradients, fp32 weights, moments and gradients; offloaded gradients are both.
            moveOffloaded(s, { shard(sp, 2) * (4.0 + paramBytes), c.offloadGradientBufferBytes, perMicrobatchOn(std::min(1, layers)), paramBytes }, r);
        r.compression = compressionStateBytes(s, sp.total(), p.syncReplicas() * p.cp);
        const double allocated = r.weights + r.gradients + r.optimizer + r.activations + r.logits + r.compression;
        r.reserved = reservedBytes + c.allocatorOverhead * allocated;
        r.total = allocated + r.reserved;
        r.capacity = s.hardware.memoryBytes;
        r.inflightMicrobatches = stageInflight;
        r.worstStage = stage;
        r.hostCapacity = s.hardware.hostMemoryBytes * hostShareScale(s);
        r.nvmeCapacity = s.hardware.nvmeBytes * hostShareScale(s);
        r.fits = r.total <= r.capacity && r.hostFits();
        if (r.total > best.total)
            best = r;
    }
    return best;
}

std::string memoryShortfall(const MemoryReport& m)
{
    return formatMemory(m.total) + " per GPU does not fit in its " + formatMemory(m.capacity) + " (weights, gradients and optimizer states "
        + formatMemory(m.weights + m.gradients + m.optimizer) + ", activations " + formatMemory(m.activations + m.logits) + ")";
}

std::optional<PlanIssue> memoryIssue(const Scenario& s, const MemoryReport& m)
{
    if (m.fits)
        return std::nullopt;
    if (m.total <= m.capacity) { // the GPU fits; what offload moved does not
        const bool host = m.hostBytes > m.hostCapacity;
        return PlanIssue { host ? "hardware.host_memory" : "hardware.nvme_capacity",
            formatMemory(host ? m.hostBytes : m.nvmeBytes) + " offloaded per GPU does not fit in the host's " + formatMemory(host ? m.hostCapacity : m.nvmeCapacity)
                + (host ? " of CPU memory" : " of NVMe") + ": offload less (parallel.offload) or spread the run over more GPUs" };
    }
    const double states = m.weights + m.gradients + m.optimizer;
    const double activations = m.activations + m.logits;
    // The field that shrinks the larger part: activations by the micro-batch (or by
    // recomputation, for a transformer that keeps them all), states by sharding them.
    std::string field = "cluster.gpus";
    if (activations >= states)
        field = s.model.isLayerTable() || s.plan.recompute == Recompute::Full || s.training.microBatch > 1 ? "training.micro_batch" : "parallel.recompute";
    else if (s.plan.zeroStage < 3 && !s.model.isLayerTable())
        field = "parallel.zero";
    return PlanIssue { field,
        memoryShortfall(m) + ": the run cannot start; the advisor (What-if tab, dtsim-cli advise) lists changes that make it fit" };
}

} // namespace dtsim
