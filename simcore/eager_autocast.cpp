#include "eager_autocast.h"

#include "recompute_plan.h"

namespace dtsim {

namespace {

// Bytes an element costs: read and written by one kernel.
constexpr double kCast = 6;        // fp32 -> bf16 or back: read 4, write 2 (or 2 and 4)
constexpr double kFp32Unary = 8;   // fp32 in, fp32 out
constexpr double kMixedAdd = 10;   // fp32 + bf16 -> fp32 (the residual add)
constexpr double kFp32Binary = 12; // fp32 + fp32 -> fp32 (in-place accumulation too)

// What one layer's linears are, as the modeling code declares them.
struct Linears {
    int attention = 0, mlp = 0;       // nn.Linear modules
    int castInputs = 0;               // linears whose input arrives in fp32 and is cast per call
    double parameters = 0;            // weights of one layer (all its experts)
};

Linears linears(const ModelSpec& m, bool separate)
{
    Linears l;
    const double h = m.hidden, qd = m.queryDim(), kvd = m.kvDim();
    l.attention = (separate ? 3 : 1) + 1; // q, k, v (or one fused c_attn), and the output projection
    l.mlp = m.gatedMlp ? (separate ? 3 : 2) : 2;
    // The normed fp32 hidden state reaches q, k, v and the MLP's input projections, each of
    // which casts it for itself (autocast caches weight casts, not activations).
    l.castInputs = (separate ? 3 : 1) + (m.gatedMlp ? (separate ? 2 : 1) : 1);
    const double ffn = m.isMoe() ? double(m.moe.experts + m.moe.sharedExperts) * m.moe.expertFfnHidden : double(m.ffnHidden);
    l.parameters = h * (qd + 2 * kvd) + qd * h + (m.gatedMlp ? 3.0 : 2.0) * h * ffn;
    return l;
}

// One layer's tensors for T tokens on one GPU, in elements: the hidden state E, the query
// Q, a key or value K and the MLP's width F; and what the modeling code does with them.
struct LayerTensors {
    bool separate, rms, rotary, cache;
    double E, Q, K, F;
    Linears lin;
    double kBytes; // bytes of a q or k element after rotary
};

LayerTensors layerTensors(const Scenario& s, double T)
{
    const ModelSpec& m = s.model;
    LayerTensors l;
    l.separate = !s.training.fusedProjections;
    l.rms = m.norm == NormKind::RmsNorm;
    l.rotary = m.position == PositionKind::Rotary;
    // transformers keeps a KV cache during training (use_cache defaults to true) and turns it
    // off under gradient checkpointing: each layer appends K and V to it.
    l.cache = step_detail::recomputePlan(s, 0).keepsEverything;
    l.E = T * m.hidden;
    l.Q = T * m.queryDim() / s.plan.tp;
    l.K = T * m.kvDimPerRank(s.plan.headSplit());
    l.F = T * (m.isMoe() ? m.moe.topK * double(m.moe.expertFfnHidden) : double(m.ffnHidden)) / s.plan.tp;
    l.lin = linears(m, l.separate);
    l.kBytes = l.rotary ? 4.0 : 2.0; // rotary multiplies by fp32 cos/sin: q and k leave it in fp32
    return l;
}

} // namespace

EagerTraffic autocastLayerTraffic(const Scenario& s, double T)
{
    const ModelSpec& m = s.model;
    const auto [separate, rms, rotary, cache, E, Q, K, F, lin, kBytes] = layerTensors(s, T);
    EagerTraffic t;

    // --- forward ----------------------------------------------------------------------
    // RMSNorm as written (LlamaRMSNorm): pow, mean, add eps, rsqrt, mul, weight mul, on the
    // fp32 stream; LayerNorm is one fp32 kernel (native_layer_norm, on autocast's fp32 list).
    const double normBytes = rms ? 28 * E : 8 * E;
    const int normKernels = rms ? 6 : 1;
    t.forwardBytes += 2 * normBytes;
    t.forwardKernels += 2 * normKernels;
    t.forwardBytes += lin.castInputs * kCast * E + kCast * lin.parameters / s.plan.tp; // input and weight casts
    t.forwardKernels += lin.castInputs + lin.attention + lin.mlp;
    if (rotary) { // q * cos + rotate_half(q) * sin: mul, neg, cat, mul, add into fp32 (30 B an element)
        t.forwardBytes += 30 * (Q + K);
        t.forwardKernels += 10;
    }
    if (cache) { // torch.cat onto the cache, whose dtype is the first K's: K, and V promoted to it
        t.forwardBytes += 2 * kBytes * K + (2 + kBytes) * K;
        t.forwardKernels += 2;
    }
    // Autocast casts fp32 inputs of scaled_dot_product_attention to 16 bits.
    const int sdpaCasts = rotary ? (cache ? 3 : 2) : 0;
    t.forwardBytes += rotary ? kCast * (Q + K + (cache ? K : 0.0)) : 0.0;
    t.forwardKernels += sdpaCasts;
    if (m.dropout) { // residual dropouts on 16-bit outputs: read, write, mask
        t.forwardBytes += 2 * 5 * E;
        t.forwardKernels += 2;
    }
    t.forwardBytes += 2 * kMixedAdd * E; // the two residual adds into the fp32 stream
    t.forwardKernels += 2;
    if (m.gatedMlp) { // silu(gate) * up in 16 bits
        t.forwardBytes += 10 * F;
        t.forwardKernels += 2;
    } else if (m.activation == Activation::GeluTanhOps) {
        // GPT-2's gelu_new written as ops: 0.5 x (1 + tanh(c (x + 0.044715 x^3))); pow is on
        // autocast's fp32 list, so the chain runs in fp32 (9 kernels, 70 B an element), and the
        // down projection casts its fp32 input back.
        t.forwardBytes += 70 * F + kCast * F;
        t.forwardKernels += 10;
    } else {
        t.forwardBytes += 4 * F;
        t.forwardKernels += 1;
    }

    // --- backward (autograd's kernels for the same ops) ---------------------------------
    t.backwardBytes += rotary ? kCast * (Q + K + (cache ? K : 0.0)) : 0.0; // the SDPA casts' gradients
    t.backwardKernels += sdpaCasts;
    // Q, K and V gradients from [batch, heads, seq, dim] back to the projections' layout:
    // a copy each, and a cat into one tensor for a fused projection.
    t.backwardBytes += separate ? 4 * (Q + 2 * K) : 4 * (2 * K) + 4 * (Q + 2 * K);
    t.backwardKernels += 3;
    if (rotary) { // each forward op's backward, and the slice gradients of rotate_half
        t.backwardBytes += 50 * (Q + K) + (cache ? 6 * K : 0.0);
        t.backwardKernels += 22 + (cache ? 1 : 0);
    }
    // Each cast input's gradient back to fp32, summed over the linears that share it; the
    // weight gradients cast to the fp32 parameters; bias gradients reduced over the tokens.
    const int sharedInputs = lin.castInputs - 2; // the q/k/v group and the MLP input group each sum into one
    t.backwardBytes += lin.castInputs * kCast * E + sharedInputs * kFp32Binary * E + kCast * lin.parameters / s.plan.tp;
    t.backwardKernels += lin.castInputs + sharedInputs + lin.attention + lin.mlp;
    if (m.linearBias) {
        t.backwardBytes += 2 * (Q + 2 * K + E + F + E);
        t.backwardKernels += lin.attention + lin.mlp;
    }
    // Norm backward: RMSNorm's ops' gradients (14 kernels, 100 B an element, its residual
    // accumulation included); LayerNorm's native backward (dx, then gamma and beta), and the
    // residual stream's own accumulation.
    t.backwardBytes += rms ? 2 * 100 * E : 2 * (20 + kFp32Binary) * E;
    t.backwardKernels += rms ? 28 : 6;
    t.backwardBytes += 2 * kCast * E; // the residual gradient cast for each 16-bit branch
    t.backwardKernels += 2;
    if (m.dropout) {
        t.backwardBytes += 2 * 5 * E;
        t.backwardKernels += 2;
    }
    if (m.gatedMlp) { // the product's two gradients and silu_backward
        t.backwardBytes += 18 * F;
        t.backwardKernels += 3;
    } else if (m.activation == Activation::GeluTanhOps) {
        t.backwardBytes += 108 * F + kCast * F;
        t.backwardKernels += 15;
    } else {
        t.backwardBytes += 6 * F;
        t.backwardKernels += 1;
    }
    return t;
}

double autocastSavedBytes(const Scenario& s, double T)
{
    const ModelSpec& m = s.model;
    const auto [separate, rms, rotary, cache, E, Q, K, F, lin, kBytes] = layerTensors(s, T);
    // The fp32 layer input and the residual after attention (each a norm's saved input),
    // and RMSNorm's fp32 normalized value (saved by its weight multiply); LayerNorm keeps
    // statistics only.
    double bytes = 2 * 4 * E + (rms ? 2 * 4 * E : 0.0);
    bytes += lin.castInputs * 2 * E;                           // each linear's 16-bit input copy
    bytes += 2 * (Q + 2 * K) + 2 * Q + 4.0 * T * m.heads / s.plan.tp; // attention's q, k, v, output, log-sum-exp
    if (cache)
        bytes += kBytes * K + kBytes * K;                      // the cache's K and V (promoted to K's dtype)
    if (m.dropout)
        bytes += 2 * E;                                        // residual dropouts' masks
    if (m.gatedMlp)
        bytes += 4 * 2 * F;                                    // gate, silu(gate), up and their product, 16-bit
    else if (m.activation == Activation::GeluTanhOps)
        bytes += 2 * F + 3 * 4 * F + 2 * F;                    // 0.5 x; x in fp32 (pow's), tanh's output, 1 + tanh; the cast down-projection input
    else
        bytes += 2 * 2 * F;                                    // the activation's input and output
    return bytes;
}

EagerTraffic autocastEmbeddingTraffic(const Scenario& s, double T)
{
    const ModelSpec& m = s.model;
    const double E = T * m.hidden;
    EagerTraffic t;
    // The fp32 table's rows gathered (and a learned position table's, added), then dropout.
    t.forwardBytes = kFp32Unary * E + (m.position == PositionKind::Learned ? kFp32Binary * E : 0.0) + (m.dropout ? 9 * E : 0.0);
    t.forwardKernels = 1 + (m.position == PositionKind::Learned ? 2 : 0) + (m.dropout ? 1 : 0);
    // embedding_dense_backward sums the rows' gradients into a zeroed fp32 table.
    t.backwardBytes = kFp32Unary * E + 4.0 * m.vocab * m.hidden + (m.dropout ? 9 * E : 0.0);
    t.backwardKernels = 3 + (m.dropout ? 1 : 0);
    return t;
}

EagerTraffic autocastLossTraffic(const Scenario& s, double T, double vocabLocal)
{
    const double L = T * vocabLocal;
    EagerTraffic t;
    // The output layer's weight cast, the logits upcast to fp32, log_softmax over them;
    // backward: a zeroed fp32 gradient, nll's scatter into it, log_softmax's backward, the
    // cast back to 16 bits, and the weight gradient's cast to fp32.
    const double weights = vocabLocal * s.model.hidden;
    t.forwardBytes = kCast * weights + kCast * L + kFp32Unary * L;
    t.forwardKernels = 4;
    t.backwardBytes = 4 * L + kFp32Binary * L + kCast * L + kCast * weights;
    t.backwardKernels = 5;
    return t;
}

} // namespace dtsim
