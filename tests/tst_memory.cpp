// Activation memory against Korthikanti et al. 2022 ("Reducing Activation Recomputation
// in Large Transformer Models"), Table 2, and the sharding of states by ZeRO.
#include "simcore/memory.h"
#include "test_data.h"

#include <QtTest>

#include <cmath>

using namespace dtsim;

namespace {

// A GPT-3-like layer exactly as the paper assumes: MHA, 4h MLP, dropout, 16-bit
// activations, no flash attention.
Scenario paperScenario(int tp, bool sp, Recompute r)
{
    Scenario s;
    s.model.layers = 96;
    s.model.hidden = 12288;
    s.model.heads = s.model.kvHeads = 96;
    s.model.headDim = 128;
    s.model.ffnHidden = 4 * 12288;
    s.model.vocab = 51200;
    s.model.dropout = true;
    s.training.seqLen = 2048;
    s.training.microBatch = 1;
    s.training.globalBatch = 8;
    s.training.precision = Precision::FP16;
    s.training.attention = AttentionKernel::Unfused;
    s.plan.tp = tp;
    s.plan.sequenceParallel = sp;
    s.plan.recompute = r;
    return s;
}

} // namespace

class TestMemory : public QObject {
    Q_OBJECT
private slots:
    void korthikantiTable2_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<double>("perSbh"); // bytes / (s b h), from the paper's table
        const double s = 2048, h = 12288, a = 96;
        const int none = int(Recompute::None), sel = int(Recompute::Selective), full = int(Recompute::Full);
        QTest::newRow("no parallelism") << 1 << false << none << 34 + 5 * a * s / h;
        QTest::newRow("tensor parallel t=8") << 8 << false << none << 10 + 24.0 / 8 + 5 * a * s / (h * 8);
        QTest::newRow("tensor + sequence parallel") << 8 << true << none << 34.0 / 8 + 5 * a * s / (h * 8);
        QTest::newRow("TP + SP + selective recompute") << 8 << true << sel << 34.0 / 8;
        QTest::newRow("TP + selective recompute") << 8 << false << sel << 10 + 24.0 / 8;
        QTest::newRow("full recompute") << 8 << false << full << 2.0;
    }
    void korthikantiTable2()
    {
        QFETCH(int, tp);
        QFETCH(bool, sp);
        QFETCH(int, recompute);
        QFETCH(double, perSbh);
        const Scenario sc = paperScenario(tp, sp, Recompute(recompute));
        const double sbh = 2048.0 * 1 * 12288;
        const double got = activationBytesPerLayer(sc, false) / sbh;
        QVERIFY2(std::abs(got - perSbh) < 1e-9, qPrintable(QString("%1 vs %2").arg(got).arg(perSbh)));
    }

    void zeroStagesShardStates()
    {
        Scenario s = test::preset("llama2-7b-8xa100");
        MemoryReport prev;
        for (int stage = 0; stage <= 3; ++stage) {
            s.plan.zeroStage = stage;
            const MemoryReport m = memoryPerGpu(s, test::calibration());
            if (stage > 0) {
                QVERIFY(m.total < prev.total);
                QCOMPARE(m.activations, prev.activations);
            }
            prev = m;
        }
        // Stage 3: weights, gradients and optimizer states are all divided by DP = 8.
        s.plan.zeroStage = 0;
        const MemoryReport z0 = memoryPerGpu(s, test::calibration());
        s.plan.zeroStage = 3;
        const MemoryReport z3 = memoryPerGpu(s, test::calibration());
        QVERIFY(std::abs(z3.weights * 8 - z0.weights) < 1.0);
        QVERIFY(std::abs(z3.optimizer * 8 - z0.optimizer) < 1.0);
    }

    void oneFOneBHoldsPipelineDepthMicrobatches()
    {
        Scenario s = test::preset("gpt3-175b-a100");
        s.plan.schedule = Schedule::OneFOneB;
        s.plan.virtualStages = 1;
        const MemoryReport m = memoryPerGpu(s, test::calibration());
        QCOMPARE(m.inflightMicrobatches, double(s.plan.pp));
        s.plan.schedule = Schedule::GPipe;
        const MemoryReport g = memoryPerGpu(s, test::calibration());
        QCOMPARE(g.inflightMicrobatches, double(s.training.globalBatch / (s.plan.dp * s.training.microBatch)));
        QVERIFY(g.activations > m.activations);
    }

    void adamStatesAreTwelveBytesPerParameter()
    {
        Scenario s = test::preset("llama2-7b-8xa100");
        s.plan.zeroStage = 0;
        const MemoryReport m = memoryPerGpu(s, test::calibration());
        const double params = stageParameters(s, 0).total();
        QVERIFY(std::abs(m.weights - 2 * params) < 1.0);
        QVERIFY(std::abs(m.gradients - 4 * params) < 1.0);
        QVERIFY(std::abs(m.optimizer - 12 * params) < 1.0);
    }
};

QTEST_GUILESS_MAIN(TestMemory)
#include "tst_memory.moc"
