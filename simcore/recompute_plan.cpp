#include "recompute_plan.h"

#include "units.h"

#include <algorithm>

namespace dtsim::step_detail {

namespace {

// One policy's decisions, each beside the others so that a policy reads as one entry.
struct PolicyEntry {
    Recompute policy;
    // Flags and collective reruns; `share` is the layers' share that rerun (block method).
    void (*configure)(RecomputePlan& plan, const Scenario& s, double share);
    LayerRerun (*rerun)(const Scenario& s, const LayerTimes& lt);
    double (*flops)(const Scenario& s, const ForwardFlops& ff);
    // Bytes a layer keeps per micro-batch when it keeps less than its full activations.
    std::optional<double> (*kept)(const Scenario& s, bool moeLayer);
};

// Tokens of one micro-batch on one GPU, and the share of a replicated tensor it holds.
struct ActivationShape {
    double tokens, elem, repl;
};

ActivationShape activationShape(const Scenario& s)
{
    const ParallelPlan& p = s.plan;
    const bool sp = (p.sequenceParallel || p.tp2d) && p.tp > 1; // 2D TP shards every activation
    return { double(s.training.microBatch) * s.training.seqLen / p.cp, storageBytes(s.training.precision),
        sp ? 1.0 / p.tp : 1.0 };
}

LayerRerun nothing(const Scenario&, const LayerTimes&) { return {}; }
double noFlops(const Scenario&, const ForwardFlops&) { return 0.0; }
std::optional<double> fullActivations(const Scenario&, bool) { return std::nullopt; }

// --- none: autograd keeps what it saves -----------------------------------------------
const PolicyEntry kNone {
    Recompute::None,
    [](RecomputePlan& plan, const Scenario&, double) { plan.keepsEverything = true; },
    nothing,
    noFlops,
    fullActivations,
};

// --- selective (Korthikanti et al. 2022): drop the unfused attention's s x s scores and
// rerun the attention core; flash-style kernels already rerun it in their backward.
const PolicyEntry kSelective {
    Recompute::Selective,
    [](RecomputePlan&, const Scenario&, double) {},
    [](const Scenario& s, const LayerTimes& lt) {
        LayerRerun r;
        if (!s.training.fusedAttention())
            r.attention = r.seconds = lt.attentionForward;
        return r;
    },
    [](const Scenario& s, const ForwardFlops& ff) { return s.training.fusedAttention() ? 0.0 : ff.attention; },
    fullActivations,
};

// --- full: keep each layer's input and rerun its forward in backward, with the forward's
// collectives (Megatron's --recompute-granularity full; the block method reruns
// recompute_layers layers a stage).
const PolicyEntry kFull {
    Recompute::Full,
    [](RecomputePlan& plan, const Scenario& s, double share) {
        plan.layerShare = share;
        plan.blockLayers = s.plan.recomputeLayers;
        plan.collectives = { share, share, share };
        plan.moeParts = share;
        plan.keepsAutocastCopies = false; // the checkpointed layers recast their weights when they rerun
        plan.rebuildsLayer = true;
    },
    [](const Scenario&, const LayerTimes& lt) {
        return LayerRerun { lt.gemmForward, lt.attentionForward, lt.streamForward, lt.forward() };
    },
    [](const Scenario&, const ForwardFlops& ff) { return ff.total() - ff.logits; },
    [](const Scenario& s, bool) -> std::optional<double> {
        const ActivationShape a = activationShape(s);
        const bool autocastEager = s.training.autocast && !s.training.fusedKernels;
        return a.tokens * (autocastEager ? 4.0 : a.elem) * s.model.hidden * a.repl; // the input (fp32 under autocast)
    },
};

// --- per-op (torchtitan): save each aten.mm output except every second one in call order
// (wq, wk, wv, wo, w1, w3, w2); FP8 linears call _scaled_mm, which is not on the save
// list. Backward reruns only what it needs: the inputs of attention (q, k, v) and of the
// gated activation (w1, w3 outputs). Outputs that only feed a residual add (wo, w2) are
// not needed; torch.compile's partitioner drops their rerun, while eager checkpointing
// replays the block up to the last needed op and so reruns wo too. Reruns, bf16: wk and
// w3 (+ wo eager); FP8: wq, wk, wv, w1, w3 (+ wo eager). MLA's five projections: about
// half of their time.
double perOpGemms(const Scenario& s, const LayerTimes& lt)
{
    const bool fp8 = isScaledLowPrecision(s.training.precision);
    const LayerTimes::Projections& g = lt.projections;
    const double attention = s.model.isMla() ? 0.5 * g.attention
                                             : (fp8 ? g.qkv : g.oneKv) + (s.training.fusedKernels ? 0.0 : g.output);
    return attention + (fp8 ? g.mlpUp : g.mlpUpAlone);
}

const PolicyEntry kPerOp {
    Recompute::PerOp,
    [](RecomputePlan& plan, const Scenario& s, double) { plan.rebuildsLayer = !s.model.isMla(); },
    [](const Scenario& s, const LayerTimes& lt) {
        const double gemm = perOpGemms(s, lt);
        return LayerRerun { gemm, 0.0, lt.streamForward, gemm + lt.streamForward };
    },
    [](const Scenario& s, const ForwardFlops&) {
        // 2 h n FLOPs a token for each rerun matmul of width n (see perOpGemms).
        const ModelSpec& m = s.model;
        const bool fp8 = isScaledLowPrecision(s.training.precision);
        const double h = m.hidden, qd = m.queryDim(), kvd = m.kvDim();
        const double attention = (fp8 ? qd + 2 * kvd : kvd) + (s.training.fusedKernels ? 0.0 : qd);
        const double upWidth = fp8 ? (m.gatedMlp ? 2.0 : 1.0) : (m.gatedMlp ? 1.0 : 0.0);
        const double moeFfn = m.moe.expertFfnHidden * double(m.moe.topK + m.moe.sharedExperts);
        return 2.0 * h
            * (m.layers * attention + upWidth * (m.denseLayerCount() * double(m.ffnHidden) + m.moeLayerCount() * moeFfn));
    },
    [](const Scenario& s, bool moeLayer) -> std::optional<double> {
        const ModelSpec& m = s.model;
        if (m.isMla())
            return std::nullopt;
        // Kept: the block input, the residual stream after attention, the attention output
        // and its log-sum-exp, and in bf16 also q, v and the gate projection's output (k
        // and the up projection are rerun); FP8 reruns all of q, k, v and both MLP inputs.
        const ActivationShape a = activationShape(s);
        const double t = s.plan.tp, h = m.hidden, qd = m.queryDim(), kvdLocal = m.kvDimPerRank(s.plan.headSplit());
        const bool fp8Rerun = isScaledLowPrecision(s.training.precision);
        const double kept = fp8Rerun ? 0.0 : qd / t + kvdLocal;
        auto gate = [&](double ffn, double share) { return fp8Rerun ? 0.0 : share * ffn / t; };
        double ffnKept = gate(m.ffnHidden, 1.0);
        if (moeLayer)
            ffnKept = gate(m.moe.expertFfnHidden, std::max(1.0, m.moe.capacityFactor) * m.moe.topK)
                + gate(m.moe.expertFfnHidden, m.moe.sharedExperts) + h * a.repl; // + router input
        return a.tokens * (a.elem * (2 * h * a.repl + qd / t + kept + ffnKept) + 4.0 * m.heads / t);
    },
};

// --- projections: keep Q, K, V and the output projection's output. Backward reruns the
// norms and other elementwise ops, the attention core (its output feeds the output
// projection's weight gradient), the MLPs' input projections (their outputs feed the
// activation) and the router (to route again); the down projection only feeds the
// residual add. With them rerun the attention core's ring passes under CP, the MLP
// input's sequence-parallel all-gather (one of a layer's four TP collectives) and the
// dispatch all-to-all (not the combine, whose output only feeds the residual add).
const PolicyEntry kProjections {
    Recompute::Projections,
    [](RecomputePlan& plan, const Scenario& s, double) {
        const bool spGathers = s.plan.sequenceParallel && s.plan.tp > 1;
        plan.collectives = { spGathers ? 0.25 : 0.0, 1.0, 0.5 };
        plan.rebuildsLayer = true;
    },
    [](const Scenario&, const LayerTimes& lt) {
        const double gemm = lt.projections.mlpUp + lt.projections.router;
        return LayerRerun { gemm, lt.attentionForward, lt.streamForward, lt.attentionForward + gemm + lt.streamForward };
    },
    [](const Scenario& s, const ForwardFlops& ff) {
        // Gate and up: 2/3 of a gated MLP's weights, all of a plain one's but the down projection.
        const ModelSpec& m = s.model;
        const double upShare = m.gatedMlp ? 2.0 / 3.0 : 0.5;
        const double mlpFlops = 2.0 * m.mlpMatrices() * m.hidden
            * (m.denseLayerCount() * double(m.ffnHidden)
                + m.moeLayerCount() * double(m.moe.topK + m.moe.sharedExperts) * m.moe.expertFfnHidden);
        const double routers = 2.0 * m.hidden * double(m.moe.experts) * m.moeLayerCount();
        return ff.attention + upShare * mlpFlops + routers;
    },
    [](const Scenario& s, bool) -> std::optional<double> {
        // The layer input, Q, K, V (16-bit outputs of their GEMMs, also under FP8), the
        // output projection's output (after its reduce-scatter under SP) and the
        // attention's log-sum-exp.
        const ModelSpec& m = s.model;
        const ActivationShape a = activationShape(s);
        const double t = s.plan.tp, h = m.hidden, qd = m.queryDim(), kvdLocal = m.kvDimPerRank(s.plan.headSplit());
        return a.tokens * (a.elem * (2 * h * a.repl + qd / t + 2 * kvdLocal) + 4.0 * m.heads / t);
    },
};

const PolicyEntry& entryFor(Recompute policy)
{
    static const PolicyEntry* const entries[] = { &kNone, &kSelective, &kFull, &kPerOp, &kProjections };
    static_assert(std::size(entries) == kRecomputePolicies.size(), "every policy has its entry here");
    for (const PolicyEntry* e : entries)
        if (e->policy == policy)
            return *e;
    return kNone;
}

} // namespace

LayerRerun RecomputePlan::layerRerun(const Scenario& s, const LayerTimes& lt) const
{
    return entryFor(policy).rerun(s, lt);
}

double RecomputePlan::flopsPerToken(const Scenario& s, const ForwardFlops& ff) const
{
    return layerShare * entryFor(policy).flops(s, ff);
}

std::optional<double> RecomputePlan::keptActivationBytes(const Scenario& s, bool moeLayer) const
{
    return entryFor(policy).kept(s, moeLayer);
}

int RecomputePlan::layersKeepingAll(int stageLayers) const
{
    return blockLayers > 0 && blockLayers < stageLayers ? stageLayers - blockLayers : 0;
}

RecomputePlan recomputePlan(const Scenario& s, Recompute policy, int layersPerStage)
{
    RecomputePlan plan;
    plan.policy = policy;
    // Megatron's block method reruns recompute_layers of the fullest stage's layers.
    const int block = s.plan.recomputeLayers;
    const double share = block > 0 && layersPerStage > 0 ? std::min(1.0, double(block) / layersPerStage) : 1.0;
    entryFor(policy).configure(plan, s, share);
    return plan;
}

RecomputePlan recomputePlan(const Scenario& s, int layersPerStage)
{
    return recomputePlan(s, s.plan.recompute, layersPerStage);
}

} // namespace dtsim::step_detail
