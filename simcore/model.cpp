#include "model.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

int ModelSpec::moeLayerCount() const
{
    // Layers first, first + n, first + 2n, ... below `layers`.
    if (!isMoe() || layers <= moe.firstDenseLayers)
        return 0;
    const long long span = static_cast<long long>(layers) - moe.firstDenseLayers;
    const long long every = std::max(1, moe.layerInterval);
    return static_cast<int>((span + every - 1) / every);
}

ParameterCounts countParameters(const ModelSpec& m, int seqLen)
{
    if (m.isLayerTable()) {
        // A layer table's parameters are all dense and all active (embedding tables included).
        ParameterCounts c;
        c.total = c.active = c.nonEmbeddingActive = m.table.resolved ? m.table.resolved->cost.parameters : 0.0;
        return c;
    }
    const double h = m.hidden, qd = m.queryDim(), kvd = m.kvDim(), f = m.ffnHidden;
    const double mats = m.mlpMatrices();
    const double bias = m.linearBias ? 1.0 : 0.0;
    const double normParams = (m.norm == NormKind::LayerNorm ? 2.0 : 1.0) * h;

    ParameterCounts c;
    c.attentionPerLayer = h * qd + 2 * h * kvd + qd * h + bias * (qd + 2 * kvd + h);
    if (m.isMla()) {
        const double nh = m.heads, qk = m.qkHeadDim(), v = m.vHeadDim();
        const double q = m.mla.qLoraRank > 0 ? h * m.mla.qLoraRank + m.mla.qLoraRank * nh * qk : h * nh * qk;
        const double kvDown = h * (m.mla.kvLoraRank + m.mla.qkRopeDim);
        const double kvUp = m.mla.kvLoraRank * nh * (m.mla.qkNopeDim + v);
        c.attentionPerLayer = q + kvDown + kvUp + nh * v * h;
    }
    c.normsPerLayer = 2 * normParams;
    c.denseMlpPerLayer = mats * h * f + bias * ((mats - 1) * f + h);
    if (m.isMoe()) {
        const double fe = m.moe.expertFfnHidden;
        const double expert = mats * h * fe + bias * ((mats - 1) * fe + h);
        const double router = h * m.moe.experts;
        c.expertParamsPerLayer = m.moe.experts * expert;
        c.moeMlpPerLayer = router + (m.moe.experts + m.moe.sharedExperts) * expert;
        c.moeMlpActivePerLayer = router + (m.moe.topK + m.moe.sharedExperts) * expert;
    }
    c.embedding = m.vocab * h + (m.position == PositionKind::Learned ? double(seqLen) * h : 0.0);
    c.outputHead = m.tiedEmbeddings ? 0.0 : m.vocab * h;
    c.finalNorm = normParams;

    const double dense = m.denseLayerCount(), moe = m.moeLayerCount();
    const double common = m.layers * (c.attentionPerLayer + c.normsPerLayer);
    c.total = common + dense * c.denseMlpPerLayer + moe * c.moeMlpPerLayer + c.embedding
        + c.outputHead + c.finalNorm;
    c.nonEmbeddingActive = common + dense * c.denseMlpPerLayer + moe * c.moeMlpActivePerLayer;
    c.active = c.nonEmbeddingActive + c.embedding + c.outputHead + c.finalNorm;
    return c;
}

ForwardFlops forwardFlopsPerToken(const ModelSpec& m, int seqLen)
{
    if (m.isLayerTable()) {
        ForwardFlops f; // per sample
        f.denseMatmul = m.table.resolved ? m.table.resolved->cost.forwardFlops : 0.0;
        return f;
    }
    const double h = m.hidden, qd = m.queryDim(), kvd = m.kvDim();
    const double mats = m.mlpMatrices();
    ForwardFlops f;
    double projections = 2.0 * (h * qd + 2 * h * kvd + qd * h);
    if (m.isMla()) {
        ParameterCounts c = countParameters(m, seqLen);
        projections = 2.0 * c.attentionPerLayer;
    }
    const double denseMlp = 2.0 * mats * h * m.ffnHidden;
    f.denseMatmul = m.layers * projections + m.denseLayerCount() * denseMlp;
    if (m.isMoe()) {
        const double expert = 2.0 * mats * h * m.moe.expertFfnHidden;
        const double router = 2.0 * h * m.moe.experts;
        f.expertMatmul = m.moeLayerCount() * (router + (m.moe.topK + m.moe.sharedExperts) * expert);
    }
    // QK^T and (softmax)V: 2 FLOPs x qd per attended position each; causal average (s+1)/2.
    // MLA: Q.K over qk_head_dim, A.V over v_head_dim per head.
    const double attnWidth = double(m.heads) * (m.qkHeadDim() + m.vHeadDim());
    f.attention = m.layers * 2.0 * attnWidth * (double(seqLen) + 1) / 2.0;
    f.logits = 2.0 * h * m.vocab;
    return f;
}

double trainingFlopsPerToken(const ModelSpec& m, int seqLen)
{
    return 3.0 * forwardFlopsPerToken(m, seqLen).total();
}

ComputeOptimalModel computeOptimalModel(double flopBudget, const ComputeOptimalRule& rule)
{
    ComputeOptimalModel out;
    out.parameters = std::sqrt(flopBudget / (rule.flopsPerParamToken * rule.tokensPerParam));
    out.tokens = rule.tokensPerParam * out.parameters;

    // Shape: non-embedding params ~ 12 * layers * hidden^2 with hidden = aspect * layers.
    const double a = rule.aspectRatio;
    double layers = std::cbrt(out.parameters / (12.0 * a * a));
    ModelSpec& m = out.model;
    m.name = "compute-optimal";
    m.layers = std::max(1, static_cast<int>(std::lround(layers)));
    const double hidden = std::sqrt(out.parameters / (12.0 * m.layers));
    const int hd = rule.headDim;
    m.heads = std::max(1, static_cast<int>(std::lround(hidden / hd)));
    m.kvHeads = m.heads;
    m.headDim = hd;
    m.hidden = m.heads * hd;
    m.ffnHidden = 4 * m.hidden;
    m.vocab = rule.vocab;
    m.tiedEmbeddings = true;
    return out;
}

} // namespace dtsim
