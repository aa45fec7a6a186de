// Pipeline schedules: bubble (p-1)/m, its interleaved form (p-1)/(v m), and how the
// schedule changes memory and step time.
#include "simcore/memory.h"
#include "simcore/plan_check.h"
#include "simcore/step.h"
#include "test_data.h"

#include <QtTest>

#include <cmath>

using namespace dtsim;

namespace {

double steadyState(const StepReport& r)
{
    const StepBreakdown& b = r.breakdown;
    double s = b.forward + b.backward + b.recompute;
    for (int i = 0; i < kCommGroupCount; ++i)
        if (i != int(CommGroup::DP))
            s += b.exposedComm[i];
    return s;
}

} // namespace

class TestPipeline : public QObject {
    Q_OBJECT
private slots:
    void bubbleFraction_data()
    {
        QTest::addColumn<int>("schedule");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("v");
        QTest::addColumn<int>("globalBatch");
        QTest::newRow("1F1B p=8 m=96") << int(Schedule::OneFOneB) << 8 << 1 << 1536;
        QTest::newRow("1F1B p=8 m=16") << int(Schedule::OneFOneB) << 8 << 1 << 256;
        QTest::newRow("GPipe p=4 m=24") << int(Schedule::GPipe) << 4 << 1 << 384;
        QTest::newRow("interleaved p=8 v=2") << int(Schedule::Interleaved1F1B) << 8 << 2 << 1536;
        QTest::newRow("interleaved p=8 v=4") << int(Schedule::Interleaved1F1B) << 8 << 4 << 1536;
    }
    void bubbleFraction()
    {
        QFETCH(int, schedule);
        QFETCH(int, pp);
        QFETCH(int, v);
        QFETCH(int, globalBatch);
        Scenario s = test::preset("gpt3-175b-a100");
        s.plan.schedule = Schedule(schedule);
        s.plan.pp = pp;
        s.plan.virtualStages = v;
        s.plan.dp = 1024 / (8 * pp);
        s.training.globalBatch = globalBatch;
        const StepReport r = predictStep(s, test::calibration());
        const double m = r.microbatches;
        QCOMPARE(m, double(globalBatch) / s.plan.dp);
        const double expected = (pp - 1.0) / (v * m);
        QVERIFY(std::abs(r.bubbleFraction - expected) < 1e-12);
        // The bubble is that fraction of the steady-state pipeline time.
        QVERIFY(std::abs(r.breakdown.bubble / steadyState(r) - expected) < 1e-9);
    }

    void interleavingShrinksBubble()
    {
        Scenario s = test::preset("gpt3-175b-a100");
        s.plan.schedule = Schedule::OneFOneB;
        s.plan.virtualStages = 1;
        const StepReport plain = predictStep(s, test::calibration());
        s.plan.schedule = Schedule::Interleaved1F1B;
        s.plan.virtualStages = 4;
        const StepReport inter = predictStep(s, test::calibration());
        QVERIFY(inter.breakdown.bubble < plain.breakdown.bubble / 3.9);
        // ... at the price of v times more pipeline sends.
        QVERIFY(inter.comm[int(CommGroup::PP)].bytesPerGpu > 3.9 * plain.comm[int(CommGroup::PP)].bytesPerGpu);
    }

    void noPipelineNoBubble()
    {
        Scenario s = test::preset("llama2-7b-8xa100");
        const StepReport r = predictStep(s, test::calibration());
        QCOMPARE(r.breakdown.bubble, 0.0);
        QCOMPARE(r.bubbleFraction, 0.0);
    }

    void unevenStagesSplitTheRest()
    {
        ParallelPlan p;
        p.pp = 16;
        p.firstStageLayers = p.lastStageLayers = 7;
        const StageLayers l = stageLayers(126, p);
        QCOMPARE(l.first, 7);
        QCOMPARE(l.middle, 8);
        QCOMPARE(l.last, 7);
        QCOMPARE(l.fullest(), 8);
        p.firstStageLayers = p.lastStageLayers = 0;
        QCOMPARE(stageLayers(126, p).fullest(), 8); // ceil(126 / 16)
    }

    void unevenStagesRelieveTheEnds()
    {
        // Llama 3's layout: one layer fewer on the stages that also run the embedding
        // and the output layer makes the pipeline's slowest stage faster.
        Scenario even = test::preset("llama3-405b-h100");
        even.plan.firstStageLayers = even.plan.lastStageLayers = 0;
        const Scenario uneven = test::preset("llama3-405b-h100");
        QVERIFY(uneven.plan.unevenStages());
        const StepReport a = predictStep(even, test::calibration()), b = predictStep(uneven, test::calibration());
        QVERIFY(b.stepTime < a.stepTime * 0.97);
        // Memory follows the layers: the first stage holds two micro-batches under 1F1B,
        // so giving it three quarters of the layers raises the peak and keeps it there.
        Scenario twoStage = test::preset("llama2-7b-8xa100");
        twoStage.plan.pp = 2;
        twoStage.plan.dp /= 2;
        const double evenMem = memoryPerGpu(twoStage, test::calibration()).total;
        twoStage.plan.firstStageLayers = twoStage.model.layers - 8;
        twoStage.plan.lastStageLayers = 8;
        QCOMPARE(firstViolation(twoStage), PlanRule::Ok);
        const MemoryReport m = memoryPerGpu(twoStage, test::calibration());
        QCOMPARE(m.worstStage, 0);
        QVERIFY(m.total > evenMem);
    }

    void unevenStagesMustAddUp()
    {
        Scenario s = test::preset("llama3-405b-h100");
        s.plan.lastStageLayers = 6; // 126 - 13 = 113 does not split over 14 stages
        QCOMPARE(firstViolation(s), PlanRule::UnevenStages);
        QCOMPARE(QString::fromStdString(checkPlan(s)->field), QString("parallel.last_stage_layers"));
        s.plan.lastStageLayers = 0; // one end alone is ambiguous
        QCOMPARE(firstViolation(s), PlanRule::UnevenStages);
        QCOMPARE(QString::fromStdString(checkPlan(s)->field), QString("parallel.last_stage_layers"));
    }

    void dualPipeHalvesTheBubbleAtTwiceTheWeights()
    {
        // DeepSeek-V3 report, Table 2: bubble (pp/2 - 1)(F&B + B - 3W) against 1F1B's
        // (pp - 1)(F + B); parameters x2; activations of pp + 1 micro-batches.
        Scenario s = test::preset("mixtral-8x7b-h100");
        const StepReport oneF = predictStep(s, test::calibration());
        const MemoryReport oneFMem = memoryPerGpu(s, test::calibration());
        s.plan.schedule = Schedule::DualPipe;
        QCOMPARE(firstViolation(s), PlanRule::Ok);
        const StepReport dual = predictStep(s, test::calibration());
        QVERIFY(dual.bubbleFraction < 0.5 * oneF.bubbleFraction);
        QVERIFY(dual.bubbleFraction > 0);
        // The paired chunks hide the expert all-to-alls as --overlap-moe-expert-parallel-comm does.
        QVERIFY(dual.comm[int(CommGroup::EP)].exposedSeconds < oneF.comm[int(CommGroup::EP)].exposedSeconds);
        const MemoryReport dualMem = memoryPerGpu(s, test::calibration());
        QVERIFY(std::abs(dualMem.weights / oneFMem.weights - 2.0) < 0.01); // the worst stage may differ by the embedding
        s.plan.pp = 1;
        s.plan.dp *= 4;
        QCOMPARE(firstViolation(s), PlanRule::DualPipeShape);
    }

    void breakdownAddsUpToStepTime()
    {
        for (const std::string& name : test::presetNames()) {
            const StepReport r = predictStep(test::preset(name), test::calibration());
            QVERIFY2(std::abs(r.breakdown.sum() - r.stepTime) < 1e-9 * r.stepTime, name.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"
