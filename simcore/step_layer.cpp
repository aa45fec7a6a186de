// One layer's work for one micro-batch on one GPU: GEMMs at the generation's shape
// efficiency, attention by kernel class, memory-bound elementwise traffic, FP8 casts and
// the host's kernel issue (docs/model.md, "Compute").
#include "step_layer.h"

#include "eager_autocast.h"
#include "step.h"

#include <algorithm>
#include <cmath>

namespace dtsim::step_detail {

Rates ratesFor(const Scenario& s, const Calibration& c)
{
    Rates r;
    r.eff = &c.forGeneration(s.hardware.generation);
    const HardwareSpec& hw = s.hardware;
    const Precision p = s.training.precision;
    // Attention and non-FP8 GEMMs run in 16-bit on parts that have it.
    const double half = hw.supports(Precision::BF16) ? hw.peak(Precision::BF16) : hw.peak(p);
    if (isScaledLowPrecision(p)) {
        const RecipeCalibration& recipe = c.forRecipe(s.training.scaling);
        const double low = std::min(hw.peak(p), half * recipe.speedup);
        const double share = recipe.gemmShare;
        r.castBytes = share * recipe.castBytes;
        if (recipe.hasNarrowLimit())
            r.narrow = &recipe;
        r.gemmPeak = 1.0 / (share / low + (1.0 - share) / half);
        r.halfGemmPeak = half;
        r.attentionRate = half * r.eff->attentionFraction;
        r.nativeAttentionRate = half * r.eff->nativeAttentionFraction;
    } else {
        r.gemmPeak = r.halfGemmPeak = hw.peak(p);
        r.attentionRate = hw.peak(p) * r.eff->attentionFraction;
        r.nativeAttentionRate = hw.peak(p) * r.eff->nativeAttentionFraction;
    }
    // A board power cap below TDP lowers sustained clocks. Dynamic power goes as f V^2
    // with V roughly proportional to f across the DVFS range, so f ~ P^(1/3) of the
    // power above idle (standard CMOS scaling; Weste & Harris, CMOS VLSI Design, Ch. 5).
    if (hw.powerLimitWatts > 0 && hw.powerLimitWatts < hw.tdpWatts) {
        const double above = std::max(0.0, hw.powerLimitWatts - hw.idleWatts);
        const double clock = std::cbrt(above / std::max(1.0, hw.tdpWatts - hw.idleWatts));
        r.gemmPeak *= clock;
        r.halfGemmPeak *= clock;
        r.attentionRate *= clock;
        r.nativeAttentionRate *= clock;
    }
    // The user's measured compute speed (a calibration overlay fitted to a step they ran).
    const double measured = s.calibration.computeScale;
    r.gemmPeak *= measured;
    r.halfGemmPeak *= measured;
    r.attentionRate *= measured;
    r.nativeAttentionRate *= measured;
    // Each kind's speed as a profiler trace of the user's step measured it, up to the
    // part's peaks: a GEMM's efficiency at most 1 (gemmTime), attention at most the
    // 16-bit peak, streaming at most the HBM bandwidth.
    const MeasuredKernels& traced = s.calibration.kernels;
    r.gemmEfficiencyScale = traced.gemmScale;
    r.attentionRate = std::min(r.halfGemmPeak, r.attentionRate * traced.attentionScale);
    r.nativeAttentionRate = std::min(r.halfGemmPeak, r.nativeAttentionRate * traced.attentionScale);
    // Only 4-byte operands can move fewer bytes a second than the 16-bit GEMMs (the usual
    // path skips the lookups: the planner runs this millions of times a second).
    if (storageBytes(p) == 4.0) {
        const double tensor16 = hw.supports(Precision::BF16) ? hw.peak(Precision::BF16)
            : hw.supports(Precision::FP16)                    ? hw.peak(Precision::FP16) : hw.peak(p);
        if (tensor16 > 0 && hw.peak(p) > 0)
            r.tileScale = std::min(1.0, hw.peak(p) * 4.0 / (tensor16 * 2.0));
    }
    r.memoryRate = std::min(hw.memoryBandwidth, hw.memoryBandwidth * r.eff->memoryFraction * traced.memoryScale);
    r.aligned8 = c.gemmAligned8Bytes;
    r.unaligned = c.gemmUnaligned;
    r.vectorRate = hw.supports(Precision::FP32) ? hw.peak(Precision::FP32) : hw.peak(p);
    r.elementBytes = isScaledLowPrecision(p) ? 1.0 : storageBytes(p);
    r.kernel = c.kernelOverhead;
    r.hostKernel = s.training.graphCapture ? 0.0 : c.hostLaunchOverhead;
    r.attentionHalfHeadDim = c.attentionHalfHeadDim;
    r.attentionHalfSeq = c.attentionHalfSeqFor(*r.eff);
    return r;
}

// Roofline: a GEMM is bound by its FLOPs at the achieved rate, or by reading its two
// inputs and writing its output once at the achieved memory bandwidth, whichever is
// slower. Very wide parallelism shrinks per-GPU matrices into the memory-bound regime.
double gemmTime(const Rates& r, double m, double n, double k)
{
    if (m <= 0 || n <= 0 || k <= 0)
        return 0.0;
    // A GEMM too narrow for the scaled recipe to pay off runs at the 16-bit rate.
    const bool narrow = r.narrow
        && ((r.narrow->narrowN > 0 && n <= r.narrow->narrowN) || (r.narrow->narrowK > 0 && k <= r.narrow->narrowK)
            || (n <= r.narrow->narrowBoxN && k <= r.narrow->narrowBoxK));
    const double peak = narrow ? r.halfGemmPeak : r.gemmPeak;
    const double efficiency = gemmEfficiency(*r.eff, m, n, k, r.tileScale) * gemmAlignment(r, m, n, k);
    const double compute = 2.0 * m * n * k / (peak * (r.gemmEfficiencyScale == 1 ? efficiency : std::min(1.0, efficiency * r.gemmEfficiencyScale)));
    const double memory = (m * k + k * n + m * n) * r.elementBytes / r.memoryRate;
    return std::max(compute, memory) + r.kernel;
}

// The worst-aligned dimension sets the kernel class: every dimension is a row stride of
// one operand in one of the three GEMMs of a linear (forward, data and weight gradient).
double gemmAlignment(const Rates& r, double m, double n, double k)
{
    double worst = 1.0;
    for (double d : { m, n, k }) {
        const double bytes = d * r.elementBytes;
        if (d != std::floor(d) || std::fmod(bytes, 16.0) == 0)
            continue; // whole 16-byte rows (or a fraction of a split, which the plan rounds)
        worst = std::min(worst, std::fmod(bytes, 8.0) == 0 ? r.aligned8 : r.unaligned);
    }
    return worst;
}

double streamTime(const Rates& r, double bytes, int kernels)
{
    return bytes / r.memoryRate + kernels * r.kernel;
}


// HBM traffic of the memory-bound work around a layer's GEMMs (the MLP activation is
// added with the MLP). Two stacks differ a lot here:
//  - fused (Megatron-Core/Transformer Engine, XLA, torch.compile): norm, bias-dropout-add,
//    rotary and the activation each one kernel reading and writing 16-bit tensors;
//  - eager PyTorch (autocast): the residual stream stays fp32, norms read fp32 and write
//    16-bit, Q/K/V are split and transposed into heads and back with copies, rotary is a
//    chain of small ops, and each elementwise op is its own kernel.
// Token permutation before the experts and unpermutation after (read + write each,
// top-k copies of the tokens this GPU's experts serve: etp/tp of a TP rank's under
// folding), forward.
double permutationBytes(const Scenario& s, const Shape& sh)
{
    const ModelSpec& m = s.model;
    return 2.0 * 2.0 * std::max(1.0, m.moe.capacityFactor) * m.moe.topK * sh.tokens * m.hidden * sh.elem * s.plan.etp() / s.plan.tp;
}

ElementwiseTraffic elementwiseTraffic(const Scenario& s, const Shape& sh, bool moeLayer, double castBytes)
{
    const ModelSpec& m = s.model;
    const double t = s.plan.tp, T = sh.tokens, Tn = sh.normTokens, h = m.hidden, e = sh.elem;
    const double qkv = m.queryDim() / t + 2 * m.kvDimPerRank(s.plan.headSplit());
    const double qk = m.queryDim() / t + m.kvDimPerRank(s.plan.headSplit());
    ElementwiseTraffic w;
    if (s.training.fusedKernels) {
        w.bytes = Tn * e * h * (2 * 2 + 2 * 3)  // two norms (r+w), two residual adds (2r+w)
            + T * e * 2 * qk;                  // rotary on Q and K (r+w)
        w.kernels = 5;
    } else {
        const double fp32 = 4.0;
        w.bytes = Tn * h * 2 * (fp32 + e)       // two norms: read fp32 residual, write 16-bit
            + Tn * h * 2 * (2 * fp32 + e)       // two residual adds into the fp32 stream
            + T * e * 2 * qkv                   // split Q/K/V into heads (copy)
            + T * e * 2 * m.queryDim() / t      // attention output back from heads (copy)
            + T * e * 4 * qk;                   // rotary as separate multiply/add/cat ops
        w.kernels = 14;
    }
    if (m.dropout) {
        w.bytes += Tn * 2 * (2 * e + 1) * h; // two dropouts: read, write, mask
        w.kernels += 2;
    }
    if (isScaledLowPrecision(s.training.precision))
        w.bytes += T * castBytes * (h + m.queryDim() / t); // QKV and output GEMM inputs (quantized per the recipe)
    if (moeLayer) {
        w.bytes += permutationBytes(s, sh);
        w.kernels += kPermutationKernels;
    }
    return w;
}

namespace {

// The attention core's forward time, one layer and micro-batch of T tokens on one GPU.
double attentionCoreTime(const Scenario& s, const Rates& r, double T)
{
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    const double t = p.tp, e = storageBytes(s.training.precision);
    const double seq = s.training.seqLen;
    if (r.idealized)
        return 0;
    if (s.training.fusedAttention()) {
        // Q.K over qk_head_dim and A.V over v_head_dim (both head_dim unless MLA).
        const double width = double(m.heads) * (m.qkHeadDim() + m.vHeadDim());
        const double attnFlops = 2.0 * (width / t) * T * (seq + 1) / 2.0;
        // Fused attention works on head_dim-wide tiles; small heads use the tensor cores
        // less well (FlashAttention-2 paper, Fig. 5-6: head dim 64 ~20% slower than 128).
        const double hd = 0.5 * (m.qkHeadDim() + m.vHeadDim());
        const double headShape = hd / (hd + r.attentionHalfHeadDim);
        // Short sequences leave the kernel's tiles and SMs part idle (causal tiles on the
        // diagonal, fewer query blocks per head): FlashAttention-2/3 papers, Fig. 4-5, show
        // throughput rising with length to a plateau past ~8k. Ring attention (CP) calls
        // the kernel on seq/cp-long chunks.
        const double len = seq / std::max(1, p.cp);
        const double lengthShape = r.attentionHalfSeq > 0 ? len / (len + r.attentionHalfSeq) : 1.0;
        const double rate = s.training.attention == AttentionKernel::Native ? r.nativeAttentionRate : r.attentionRate;
        return attnFlops / (rate * headShape * lengthShape) + r.kernel;
    }
    // Unfused attention (before FlashAttention, 2022): QK^T and AV as batched GEMMs
    // over the full s x s score matrix (the causal mask is applied, not skipped),
    // and a softmax kernel that writes the scores to memory: read + write of the
    // scores, and with dropout its mask and a second copy (Korthikanti et al. 2022).
    const double heads = m.heads / t;
    const double batchSeqs = T / seq;
    const double gemms = 2.0 * batchSeqs * heads * 2.0 * seq * seq * m.headDim;
    double attention = gemms / (r.gemmPeak * gemmEfficiency(*r.eff, seq, seq, m.headDim, r.tileScale)) + 2 * r.kernel;
    const double scoreBytes = batchSeqs * heads * seq * seq * e;
    const double passes = 2.0 + (m.dropout ? 3.0 : 0.0);
    return attention + streamTime(r, passes * scoreBytes, m.dropout ? 2 : 1);
}

// The host's time to issue one layer's forward and backward kernels (`kernels`
// elementwise forward kernels, `backwardKernels` backward ones), into `lt`.
void hostIssue(const Scenario& s, const Rates& r, bool moeLayer, int kernels, int backwardKernels, LayerTimes& lt)
{
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    const bool fusedProjections = s.training.fusedProjections;
    // Kernels the host issues for this layer's forward: the GEMMs (one per expert under
    // MoE), attention, the elementwise kernels, one quantization kernel per GEMM under
    // FP8, and the layer's collectives.
    double gemmLaunches = m.isMla() ? (m.mla.qLoraRank > 0 ? 5 : 4) : 2; // MLA: q (down, up), kv down, kv up, out
    if (!fusedProjections && !m.isMla())
        gemmLaunches += 2; // wq, wk, wv
    if (!moeLayer) {
        gemmLaunches += (m.gatedMlp && !fusedProjections) ? 3 : 2;
    } else {
        gemmLaunches += 1 + 2.0 * m.moe.experts / p.ep + (m.moe.sharedExperts > 0 ? 2 : 0);
    }
    double launches = gemmLaunches + (s.training.fusedAttention() ? 1 : 4) + kernels;
    if (isScaledLowPrecision(s.training.precision))
        launches += gemmLaunches;
    if (p.tp > 1)
        launches += 4;
    if (moeLayer && p.ep > 1)
        launches += 2;
    lt.hostForward = launches * r.hostKernel;
    // Backward launches two of every other kernel (data and weight gradients) and the
    // elementwise backward kernels (twice the forward's, or as counted op by op).
    lt.hostBackward = (2 * (launches - kernels) + backwardKernels) * r.hostKernel;
}

} // namespace

LayerTimes layerTimes(const Scenario& s, const Rates& r, const Shape& sh, bool moeLayer)
{
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    const double t = p.tp, T = sh.tokens, h = m.hidden, qd = m.queryDim(), kvdLocal = m.kvDimPerRank(p.headSplit());
    const double e = sh.elem;
    const bool fused = s.training.fusedKernels;
    const bool fp8 = isScaledLowPrecision(s.training.precision);
    LayerTimes lt;

    // A TP-split GEMM of (T x K)(K x N): 1D TP splits N (column-parallel) or K (row-
    // parallel) t ways; 2D TP splits both, a and b ways, so shapes stay large.
    const int a2 = p.tpRows(), b2 = p.tp2d ? p.tpColumns() : p.tp;
    auto tpGemm = [&](double tokens, double n, double k, bool columnParallel) {
        if (!p.tp2d)
            return columnParallel ? gemmTime(r, tokens, n / t, k) : gemmTime(r, tokens, n, k / t);
        return columnParallel ? gemmTime(r, tokens, n / b2, k / a2) : gemmTime(r, tokens, n / a2, k / b2);
    };
    const bool fusedProjections = s.training.fusedProjections;
    auto kvGemm = [&] { return tpGemm(T, kvdLocal * p.headSplit(), h, true); }; // one of K, V
    const double qkvGemm = fusedProjections ? tpGemm(T, qd + 2 * kvdLocal * p.headSplit(), h, true)
                                            : tpGemm(T, qd, h, true) + 2 * kvGemm();
    const double outGemm = tpGemm(T, h, qd, false);
    if (m.isMla()) {
        // MLA: the down-projections to the latents are replicated on every TP rank
        // (Megatron-Core MLASelfAttention), the per-head up-projections are
        // column-parallel and the output projection row-parallel.
        const double nh = m.heads, qk = m.qkHeadDim(), v = m.vHeadDim();
        const MlaSpec& a = m.mla;
        if (a.qLoraRank > 0)
            lt.gemmForward += gemmTime(r, T, a.qLoraRank, h) + tpGemm(T, nh * qk, a.qLoraRank, true);
        else
            lt.gemmForward += tpGemm(T, nh * qk, h, true);
        lt.gemmForward += gemmTime(r, T, a.kvLoraRank + a.qkRopeDim, h)
            + tpGemm(T, nh * (a.qkNopeDim + v), a.kvLoraRank, true) + tpGemm(T, h, nh * v, false);
    } else {
        lt.gemmForward = qkvGemm + outGemm;
    }
    lt.projections.attention = lt.gemmForward;
    if (!m.isMla()) {
        lt.projections.qkv = qkvGemm;
        lt.projections.oneKv = kvGemm();
        lt.projections.output = outGemm;
    }
    lt.attentionForward = attentionCoreTime(s, r, T);

    // Memory-bound kernels around the GEMMs: see elementwiseTraffic().
    const ElementwiseTraffic ew = elementwiseTraffic(s, sh, moeLayer, r.castBytes);
    double bytes = ew.bytes;
    int kernels = ew.kernels;

    // An MLP whose weights are split `split` ways: the attention's TP (dense layers,
    // shared experts), or the experts' own TP degree under MoE parallel folding.
    auto mlp = [&](double tokens, double ffn, int split) {
        auto gemm = [&](double n, double k, bool columnParallel) {
            if (split == p.tp)
                return tpGemm(tokens, n, k, columnParallel);
            return columnParallel ? gemmTime(r, tokens, n / split, k) : gemmTime(r, tokens, n, k / split);
        };
        const double upAlone = m.gatedMlp ? gemm(ffn, h, true) : 0.0;
        const double up = m.gatedMlp && !fusedProjections ? 2.0 * upAlone : gemm((m.gatedMlp ? 2.0 : 1.0) * ffn, h, true);
        const double down = gemm(h, ffn, false);
        lt.projections.mlpUp += up;
        lt.projections.mlpUpAlone += upAlone;
        // Activation function: fused (gate * silu(up) in one pass: read 2f, write f) or
        // eager (silu, then multiply: read f write f, read 2f write f).
        const double act = m.gatedMlp ? (fused ? 3.0 : 5.0) : 2.0;
        bytes += tokens * e * act * ffn / split;
        kernels += fused ? 1 : (m.gatedMlp ? 2 : 1);
        if (fp8) // input casts of the two MLP GEMMs
            bytes += tokens * r.castBytes * (h + ffn / split);
        return up + down;
    };

    if (!moeLayer) {
        lt.gemmForward += mlp(T, m.ffnHidden, p.tp);
    } else {
        const MoeSpec& moe = m.moe;
        const double cf = std::max(1.0, moe.capacityFactor);
        const double router = gemmTime(r, T, moe.experts, h);
        lt.gemmForward += router;
        lt.moe.router = router;
        lt.moe.permute = streamTime(r, permutationBytes(s, sh), kPermutationKernels);
        const double gemmBefore = lt.gemmForward, bytesBefore = bytes;
        const int kernelsBefore = kernels;
        // Balanced routing: a GPU holds E/ep experts, each split etp ways, and serves its
        // expert-DP slice of the stage's tokens: cf * T * topK * ep * etp / (tp * E) tokens
        // a local expert (T per TP rank; with etp = tp, cf * T * topK * ep / E).
        const int etp = p.etp();
        const double localExperts = double(moe.experts) / p.ep;
        const double perExpert = cf * T * moe.topK * p.ep * etp / (t * moe.experts);
        const LayerTimes::Projections before = lt.projections;
        lt.gemmForward += localExperts * mlp(perExpert, moe.expertFfnHidden, etp);
        // Every local expert's activation and input casts stream its own tokens; the
        // grouped kernels run them as one launch (Megatron-Core's GroupedMLP/TEGroupedMLP).
        bytes = bytesBefore + localExperts * (bytes - bytesBefore);
        lt.moe.experts = lt.gemmForward - gemmBefore + streamTime(r, bytes - bytesBefore, kernels - kernelsBefore);
        lt.projections.mlpUp = before.mlpUp + localExperts * (lt.projections.mlpUp - before.mlpUp);
        lt.projections.mlpUpAlone = before.mlpUpAlone + localExperts * (lt.projections.mlpUpAlone - before.mlpUpAlone);
        lt.projections.router = router;
        if (moe.sharedExperts > 0) {
            const double sharedGemmBefore = lt.gemmForward, sharedBytesBefore = bytes;
            const int sharedKernelsBefore = kernels;
            lt.gemmForward += mlp(T, double(moe.sharedExperts) * moe.expertFfnHidden, p.tp);
            lt.moe.shared = lt.gemmForward - sharedGemmBefore + streamTime(r, bytes - sharedBytesBefore, kernels - sharedKernelsBefore);
        }
    }
    lt.streamForward = streamTime(r, bytes, kernels);
    lt.streamBackward = 2.0 * lt.streamForward;
    int backwardKernels = 2 * kernels;
    if (s.training.autocast && !fused && !moeLayer) {
        // Eager under autocast: the kernels the modeling code launches, op by op.
        const EagerTraffic et = autocastLayerTraffic(s, T);
        lt.streamForward = streamTime(r, et.forwardBytes, et.forwardKernels);
        lt.streamBackward = streamTime(r, et.backwardBytes, et.backwardKernels);
        kernels = et.forwardKernels;
        backwardKernels = et.backwardKernels;
    }

    hostIssue(s, r, moeLayer, kernels, backwardKernels, lt);
    return lt;
}

} // namespace dtsim::step_detail
