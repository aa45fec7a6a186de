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
        const StepReport r = simulateStep(s, test::calibration());
        QVERIFY2(r.mfu >= 0.38 * 0.9 && r.mfu <= 0.43 * 1.1, qPrintable(QString::number(r.mfu)));
        QVERIFY(memoryPerGpu(s, test::calibration()).fits);
    }

    void gpt3WithinItsHeadersStatedGap()
    {
        // Narayanan et al. 2021 report 138 TFLOP/s per GPU counting recomputation; the
        // preset's header explains why dtsim gives about 12% more. The test holds that gap.
        const Scenario s = test::preset("gpt3-175b-a100");
        const StepReport r = simulateStep(s, test::calibration());
        const double tflops = r.hfu * s.hardware.peak(s.training.precision) / 1e12;
        QVERIFY2(tflops >= 138 * 0.95 && tflops <= 138 * 1.15, qPrintable(QString::number(tflops)));
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
