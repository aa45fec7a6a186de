#pragma once
// The network being trained: a decoder-only transformer, dense or mixture-of-experts,
// and the closed forms for its parameter count and FLOPs per token; or a table of
// layers (CNNs, recommendation models: layers/layer_table.h), whose "token" is a sample.
#include "layers/layer_table.h"

#include <memory>
#include <string>

namespace dtsim {

enum class NormKind { LayerNorm, RmsNorm };
// A non-gated MLP's activation as the code runs it unfused: one GELU kernel, or GPT-2's
// tanh approximation written as nine tensor ops (Hugging Face's gelu_new).
enum class Activation { Gelu, GeluTanhOps };
enum class PositionKind { Learned, Rotary };

struct MoeSpec {
    int experts = 0; // 0 = dense model
    int topK = 0;
    int sharedExperts = 0;
    int expertFfnHidden = 0;
    int firstDenseLayers = 0; // leading layers that keep a dense MLP (DeepSeek style)
    int layerInterval = 1;    // every n-th layer after those is MoE (1 = all)
    double capacityFactor = 1.0;
    // Node-limited routing (DeepSeek-V2/V3): a token's experts lie on at most this many
    // nodes, and the dispatcher sends it once to each (then forwards inside the node).
    // 0: unlimited.
    int maxNodesPerToken = 0;
    bool operator==(const MoeSpec&) const = default;
};

// Multi-head latent attention (DeepSeek-V2, Sec. 2.1; DeepSeek-V3): queries and keys/values
// are projected down to low-rank latents and back up per head; each head has a
// no-position part and a shared rotary part for Q.K, and its own value width.
// All zero: standard multi-head / grouped-query attention.
struct MlaSpec {
    int qLoraRank = 0;  // 0: queries projected directly from the hidden state
    int kvLoraRank = 0; // > 0 turns MLA on
    int qkNopeDim = 0;
    int qkRopeDim = 0;
    int vHeadDim = 0;
    bool operator==(const MlaSpec&) const = default;
};

// `model.table`: a built-in family ("resnet-50") or a YAML file beside the scenario,
// resolved once (the loader reads files; built-in names resolve when set).
struct LayerTableRef {
    std::string ref;
    std::shared_ptr<const ResolvedLayerTable> resolved; // null until resolved
    // Equal when they name the same table with the same layers (two loads of one file).
    bool operator==(const LayerTableRef& o) const
    {
        if (ref != o.ref || bool(resolved) != bool(o.resolved))
            return false;
        return !resolved || resolved == o.resolved || resolved->table == o.resolved->table;
    }
};

struct ModelSpec {
    std::string name;
    LayerTableRef table; // set: the model is this table, and the transformer fields are unused
    int layers = 0;
    int hidden = 0;
    int heads = 0;
    int kvHeads = 0; // == heads for MHA, < heads for GQA, 1 for MQA
    int headDim = 0; // usually hidden / heads
    int ffnHidden = 0;
    bool gatedMlp = false; // SwiGLU/GeGLU: three matrices instead of two
    int vocab = 0;
    bool tiedEmbeddings = false;
    bool linearBias = false; // GPT-2/3 style biases on every linear layer
    NormKind norm = NormKind::LayerNorm;
    PositionKind position = PositionKind::Rotary;
    bool dropout = false; // dropout masks are stored for backward when on
    Activation activation = Activation::Gelu; // non-gated MLPs, unfused
    MoeSpec moe;
    MlaSpec mla;

    bool isLayerTable() const { return !table.ref.empty(); }
    bool isMoe() const { return moe.experts > 0; }
    bool isMla() const { return mla.kvLoraRank > 0; }
    // Per-head widths of Q.K and of V (head_dim for standard attention).
    int qkHeadDim() const { return isMla() ? mla.qkNopeDim + mla.qkRopeDim : headDim; }
    int vHeadDim() const { return isMla() ? mla.vHeadDim : headDim; }
    int moeLayerCount() const;
    int denseLayerCount() const { return layers - moeLayerCount(); }
    double queryDim() const { return double(heads) * headDim; }
    double kvDim() const { return double(kvHeads) * headDim; }
    // K/V width one tensor-parallel rank holds: heads are split, or replicated when tp > kv_heads.
    double kvDimPerRank(int tp) const { return (kvHeads >= tp ? double(kvHeads) / tp : 1.0) * headDim; }
    int mlpMatrices() const { return gatedMlp ? 3 : 2; }
    bool operator==(const ModelSpec&) const = default;
};

// What throughput counts: tokens for a transformer, samples for a layer table.
inline const char* unitOfWork(const ModelSpec& m) { return m.isLayerTable() ? "sample" : "token"; }
inline const char* unitOfWorkShort(const ModelSpec& m) { return m.isLayerTable() ? "samples" : "tok"; }

struct ParameterCounts {
    double attentionPerLayer = 0; // QKV + output projection (+ biases)
    double normsPerLayer = 0;
    double denseMlpPerLayer = 0;
    double moeMlpPerLayer = 0;       // router + all routed experts + shared experts
    double moeMlpActivePerLayer = 0; // router + top-k routed + shared
    double expertParamsPerLayer = 0; // routed experts only (sharded by EP)
    double embedding = 0;            // input token embedding (+ learned positions)
    double outputHead = 0;           // 0 when tied
    double finalNorm = 0;
    double total = 0;
    double active = 0; // per token
    double nonEmbeddingActive = 0;
};

ParameterCounts countParameters(const ModelSpec& m, int seqLen);

// FLOPs per token for one forward pass, by kind. Matmul FLOPs are 2 per multiply-add.
// Attention scores and values are counted with the causal mask: each token attends
// on average to (seq+1)/2 positions.
struct ForwardFlops {
    double denseMatmul = 0;   // QKV/out projections, dense MLPs
    double expertMatmul = 0;  // routed + shared expert MLPs and routers (active only)
    double attention = 0;     // QK^T and AV
    double logits = 0;        // output projection to the vocabulary
    double total() const { return denseMatmul + expertMatmul + attention + logits; }
};

ForwardFlops forwardFlopsPerToken(const ModelSpec& m, int seqLen);

// Model FLOPs for training one token: forward + backward = 3 x forward.
double trainingFlopsPerToken(const ModelSpec& m, int seqLen);

// Compute-optimal sizing from a FLOP budget. Rule: C = k_c * N * D with D = r * N,
// default k_c = 6, r = 20 (Hoffmann et al. 2022), so N = sqrt(C / (6 * 20)).
struct ComputeOptimalRule {
    double flopsPerParamToken = 6.0;
    double tokensPerParam = 20.0;
    double aspectRatio = 128.0; // hidden / layers (Kaplan et al. 2020 find ~50-200 flat)
    int headDim = 128;
    int seqLen = 2048;
    int vocab = 50304;
};

struct ComputeOptimalModel {
    double parameters = 0;
    double tokens = 0;
    ModelSpec model;
};

ComputeOptimalModel computeOptimalModel(double flopBudget, const ComputeOptimalRule& rule = {});

} // namespace dtsim
