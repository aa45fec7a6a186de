// Presets that cite a published figure reproduce it, or their header says why not.
#include "simcore/memory.h"
#include "simcore/step.h"
#include "test_data.h"

#include <QtTest>

using namespace dtsim;

class TestPresets : public QObject {
    Q_OBJECT
private slots:
    void llama3Reproduces38To43PercentMfu()
    {
        // Dubey et al. 2024, Sec. 3.3: 38-43% MFU on 16,384 H100 with Meta's layout and
        // no activation checkpointing. Within 10% of that range, and it must fit.
        const Scenario s = test::preset("llama3-405b-h100");
        QCOMPARE(s.plan.recompute, Recompute::None);
        const StepReport r = predictStep(s, test::calibration());
        QVERIFY2(r.mfu >= 0.38 * 0.9 && r.mfu <= 0.43 * 1.1, qPrintable(QString::number(r.mfu)));
        QVERIFY(memoryPerGpu(s, test::calibration()).fits);
    }

    void gpt3WithinItsHeadersStatedGap()
    {
        // Narayanan et al. 2021 report 138 TFLOP/s per GPU counting recomputation; the
        // preset's header explains why dtsim gives about 12% more. The test holds that gap.
        const Scenario s = test::preset("gpt3-175b-a100");
        const StepReport r = predictStep(s, test::calibration());
        const double tflops = r.hfu * s.hardware.peak(s.training.precision) / 1e12;
        QVERIFY2(tflops >= 138 * 0.95 && tflops <= 138 * 1.15, qPrintable(QString::number(tflops)));
    }

    void torchtitan70bFp8WithinItsHeadersStatedGap()
    {
        // torchtitan's 2024-12 benchmark, Table 4 ("2D"): 829 tokens/s per GPU. The header
        // says why dtsim gives about 8% less; the test holds that gap and the code facts.
        const Scenario s = test::preset("llama3-70b-torchtitan-fp8");
        QVERIFY(!s.training.fusedProjections && s.training.fp8TpAllGather && !s.training.fp8ParamGather);
        const StepReport r = predictStep(s, test::calibration());
        const double perGpu = s.training.tokensPerStep() / r.stepTime / s.cluster.gpus;
        QVERIFY2(perGpu >= 829 * 0.88 && perGpu <= 829 * 1.0, qPrintable(QString::number(perGpu)));
    }

    void everyPresetFits()
    {
        for (const std::string& name : test::presetNames()) {
            const Scenario s = test::preset(name);
            QVERIFY2(memoryPerGpu(s, test::calibration()).fits, name.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestPresets)
#include "tst_presets.moc"
