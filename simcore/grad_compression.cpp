#include "grad_compression.h"

#include "layers/layer_table.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

std::string_view gradCompressionName(GradCompression m)
{
    switch (m) {
    case GradCompression::None: return "none";
    case GradCompression::PowerSgd: return "powersgd";
    case GradCompression::OneBit: return "onebit";
    case GradCompression::Fp8: return "fp8";
    case GradCompression::Int8: return "int8";
    }
    return "?";
}

GradMatrices GradMatrices::part(double params) const
{
    const double share = total() > 0 ? params / total() : 0.0;
    return { elements * share, sides * share, matrices * share, vectors * share };
}

double GradMatrices::typicalSide() const
{
    return matrices > 0 ? std::sqrt(elements / matrices) : 0.0;
}

namespace {

// Every weight matrix of a transformer has the hidden size h on one side (QKV h x 3h/tp,
// the output projection, the MLP's h x ffn and ffn x h, the embedding vocab x h), so
// sum(n + m) = count x h + elements / h. Per layer: QKV, output, the MLP's input (gate and
// up fused) and output (Megatron-Core's linear_qkv, linear_proj, linear_fc1, linear_fc2);
// separate Q, K, V and gate/up linears (torchtitan) are three more. An MoE layer's local
// experts have two (three) each, plus its router.
GradMatrices transformerMatrices(const Scenario& s, double stageParams, double normParams)
{
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    const double layers = std::ceil(double(m.layers) / std::max(1, p.pp));
    const double perDense = s.training.fusedProjections ? 4.0 : (m.gatedMlp ? 7.0 : 6.0);
    double perLayer = perDense;
    if (m.isMoe()) {
        const double local = double(m.moe.experts) / std::max(1, p.ep);
        const double moeShare = double(m.moeLayerCount()) / std::max(1, m.layers);
        const double mlp = m.gatedMlp && !s.training.fusedProjections ? 3.0 : 2.0;
        // An MoE layer's router and experts take the place of the dense MLP's matrices.
        perLayer = perDense + moeShare * (1.0 + mlp * (local + (m.moe.sharedExperts > 0 ? 1.0 : 0.0)) - mlp);
    }
    GradMatrices g;
    g.vectors = std::clamp(normParams, 0.0, stageParams);
    g.elements = stageParams - g.vectors;
    g.matrices = layers * perLayer + 1.0; // and the embedding or the output layer
    const double h = std::max(1, m.hidden);
    g.sides = g.matrices * h + g.elements / h;
    return g;
}

// A layer table's convolutions and linear layers as out x (the rest); norms and biases
// are vectors; sharded embedding tables are not data-parallel gradients at all.
GradMatrices tableMatrices(const Scenario& s)
{
    GradMatrices g;
    const ResolvedLayerTable& t = *s.model.table.resolved;
    for (std::size_t i = 0; i < t.table.layers.size(); ++i) {
        const Layer& l = t.table.layers[i];
        const double params = t.cost.layers[i].parameters;
        if (params <= 0)
            continue;
        const bool matrix = (l.type == LayerType::Convolution || l.type == LayerType::Linear) && l.tied.empty();
        if (!matrix) {
            g.vectors += l.type == LayerType::Embedding ? 0.0 : params;
            continue;
        }
        const double split = l.split == LayerSplit::Channels ? std::max(1, s.plan.tp) : 1.0;
        const double bias = l.bias ? double(l.outChannels) : 0.0;
        const double n = double(l.outChannels) / split;
        const double weights = (params - bias) / split;
        if (n <= 0 || weights <= 0)
            continue;
        g.vectors += bias / split;
        g.elements += weights;
        g.sides += n + weights / n;
        g.matrices += 1;
    }
    return g;
}

} // namespace

GradMatrices gradMatrices(const Scenario& s, double stageParams, double normParams)
{
    if (s.model.isLayerTable())
        return s.model.table.resolved ? tableMatrices(s) : GradMatrices {};
    return transformerMatrices(s, stageParams, normParams);
}

double compressionStateBytes(const Scenario& s, double params, int groupSize)
{
    if (groupSize <= 1)
        return 0.0; // nothing to synchronise, no hook installed
    switch (s.training.gradCompression) {
    case GradCompression::PowerSgd: return params * storageBytes(s.training.gradReduce);
    case GradCompression::OneBit: return params * 4.0 * (1.0 + 1.0 / std::max(1, groupSize));
    case GradCompression::None:
    case GradCompression::Fp8:
    case GradCompression::Int8: return 0.0;
    }
    return 0.0;
}

bool gradCompressionRefused(const Scenario& s) noexcept
{
    const TrainingSpec& t = s.training;
    const int zero = s.plan.zeroStage;
    switch (t.gradCompression) {
    case GradCompression::None:
    case GradCompression::Fp8: return false; // MS-AMP/FP8-LM reduce FP8 gradients under ZeRO too
    case GradCompression::PowerSgd:
    case GradCompression::Int8: return zero > 0;
    case GradCompression::OneBit:
        return t.optimizer != Optimizer::Adam || zero > 0 || !(t.gradCompressionWarmup >= 0 && t.gradCompressionWarmup < 1);
    }
    return false;
}

std::optional<CompressionIssue> gradCompressionIssue(const Scenario& s)
{
    if (!gradCompressionRefused(s))
        return std::nullopt;
    const TrainingSpec& t = s.training;
    const std::string field = "training.grad_compression";
    const std::string zero = std::to_string(s.plan.zeroStage);
    switch (t.gradCompression) {
    case GradCompression::PowerSgd:
        return CompressionIssue { field, "powersgd is a DistributedDataParallel communication hook: it all-reduces whole gradient "
                                         "matrices, which ZeRO/FSDP (parallel.zero = " + zero
                                         + ") reduce-scatter instead; set parallel.zero: 0 or choose fp8" };
    case GradCompression::Int8:
        return CompressionIssue { field, "int8 is PyTorch's quantization communication hook for DistributedDataParallel (it "
                                         "all-gathers the quantized gradients); ZeRO/FSDP (parallel.zero = " + zero
                                         + ") have none; set parallel.zero: 0 or choose fp8" };
    case GradCompression::OneBit:
        if (t.optimizer != Optimizer::Adam)
            return CompressionIssue { field, "onebit is 1-bit Adam/LAMB (DeepSpeed's OneBitAdam, OneBitLamb): it compresses "
                                             "Adam's momentum, so training.optimizer must be adam" };
        if (s.plan.zeroStage > 0)
            return CompressionIssue { field, "DeepSpeed's 1-bit Adam/LAMB do not run under ZeRO (parallel.zero = " + zero
                                             + "); set parallel.zero: 0 or choose fp8" };
        return CompressionIssue { "training.grad_compression_warmup", "the warm-up is a share of the steps, from 0 to below 1" };
    case GradCompression::None:
    case GradCompression::Fp8: break;
    }
    return std::nullopt;
}

} // namespace dtsim
