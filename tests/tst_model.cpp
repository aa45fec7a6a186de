// Parameter and FLOP counts against published figures and the Megatron closed form.
#include "simcore/model.h"

#include <QtTest>

#include <cmath>

using namespace dtsim;

namespace {

ModelSpec gpt3_175b()
{
    // Brown et al. 2020, Table 2.1: 96 layers, d_model 12288, 96 heads of 128; vocab 50257.
    ModelSpec m;
    m.layers = 96;
    m.hidden = 12288;
    m.heads = m.kvHeads = 96;
    m.headDim = 128;
    m.ffnHidden = 4 * 12288;
    m.vocab = 50257;
    m.tiedEmbeddings = true;
    m.linearBias = true;
    m.position = PositionKind::Learned;
    return m;
}

ModelSpec llama3_405b()
{
    // Llama 3 Herd of Models, Table 3: 126 layers, 16384 model dim, FFN 53248, 128 heads,
    // 8 KV heads, vocabulary 128,000 (128,256 in the released tokenizer).
    ModelSpec m;
    m.layers = 126;
    m.hidden = 16384;
    m.heads = 128;
    m.kvHeads = 8;
    m.headDim = 128;
    m.ffnHidden = 53248;
    m.gatedMlp = true;
    m.vocab = 128256;
    m.norm = NormKind::RmsNorm;
    return m;
}

} // namespace

class TestModel : public QObject {
    Q_OBJECT
private slots:
    void gpt3ParameterCountWithinOnePercent()
    {
        const double n = countParameters(gpt3_175b(), 2048).total;
        QVERIFY2(std::abs(n / 175.0e9 - 1.0) < 0.01, qPrintable(QString::number(n)));
    }

    void llama3ParameterCountWithinOnePercent()
    {
        const double n = countParameters(llama3_405b(), 8192).total;
        QVERIFY2(std::abs(n / 405e9 - 1.0) < 0.01, qPrintable(QString::number(n)));
    }

    void gqaShrinksAttentionOnly()
    {
        ModelSpec mha = llama3_405b();
        mha.kvHeads = mha.heads;
        const ParameterCounts a = countParameters(mha, 8192), b = countParameters(llama3_405b(), 8192);
        // K and V projections shrink from h*h to h*(8*128) each.
        QCOMPARE(a.attentionPerLayer - b.attentionPerLayer, 2.0 * 16384 * (16384 - 1024));
        QCOMPARE(a.denseMlpPerLayer, b.denseMlpPerLayer);
    }

    // Narayanan et al. 2021 Eq. 3 without recompute: per token 3 x (24 l h^2 + 4 l s h + 2 h V),
    // counting full (non-causal) attention. dtsim counts causal attention, 2 l h (s+1).
    void flopsMatchMegatronFormulaWithCausalAttention()
    {
        const ModelSpec m = gpt3_175b();
        const double l = m.layers, h = m.hidden, V = m.vocab, s = 2048;
        const double megatron = 3 * (24 * l * h * h + 4 * l * s * h + 2 * h * V);
        const double causalCorrection = 3 * (-2 * l * h * s + 2 * l * h);
        QCOMPARE(trainingFlopsPerToken(m, 2048), megatron + causalCorrection);
    }

    void flopsCloseToSixN()
    {
        const ModelSpec m = llama3_405b();
        const double sixN = 6 * countParameters(m, 8192).nonEmbeddingActive;
        const double f = trainingFlopsPerToken(m, 8192);
        QVERIFY(f > sixN);
        QVERIFY(f < 1.1 * sixN); // attention and logits add a few percent at this size
    }

    void moeActiveParameters()
    {
        // Mixtral 8x7B: 46.7B total, 12.9B active (Jiang et al. 2024).
        ModelSpec m;
        m.layers = 32;
        m.hidden = 4096;
        m.heads = 32;
        m.kvHeads = 8;
        m.headDim = 128;
        m.ffnHidden = 14336;
        m.gatedMlp = true;
        m.vocab = 32000;
        m.norm = NormKind::RmsNorm;
        m.moe.experts = 8;
        m.moe.topK = 2;
        m.moe.expertFfnHidden = 14336;
        const ParameterCounts c = countParameters(m, 4096);
        QVERIFY2(std::abs(c.total / 46.7e9 - 1) < 0.01, qPrintable(QString::number(c.total)));
        QVERIFY2(std::abs(c.active / 12.9e9 - 1) < 0.01, qPrintable(QString::number(c.active)));
    }

    void computeOptimalSizing()
    {
        const ComputeOptimalModel co = computeOptimalModel(1e24);
        QVERIFY(std::abs(co.parameters - std::sqrt(1e24 / 120)) < 1.0);
        QCOMPARE(co.tokens, 20 * co.parameters);
        QVERIFY(std::abs(6 * co.parameters * co.tokens / 1e24 - 1) < 1e-9);
        // The shaped model lands near the requested size (rounding of layers and width).
        const double shaped = countParameters(co.model, 2048).nonEmbeddingActive;
        QVERIFY2(std::abs(shaped / co.parameters - 1) < 0.15, qPrintable(QString::number(shaped)));
    }
};

QTEST_GUILESS_MAIN(TestModel)
#include "tst_model.moc"
