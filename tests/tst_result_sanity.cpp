// Results that cannot be (issue 38): an MFU above 100%, a run faster with failures than
// without, goodput above 1, a plan that does not fit priced as if it ran, a sweep of a
// field the model does not have. Each case is a scenario a user could write; each must
// be refused or flagged with the input that caused it, never printed as a result.
#include "simcore/fields/scenario_fields.h"
#include "simcore/input_error.h"
#include "simcore/loader/calibration_overlay_loader.h"
#include "simcore/measure/compute_fit.h"
#include "simcore/memory.h"
#include "simcore/reliability/reliability.h"
#include "simcore/report_check.h"
#include "simcore/scenario_limits.h"
#include "simcore/step.h"
#include "simcore/study/advice.h"
#include "simcore/study/sweep.h"
#include "simcore/units.h"
#include "test_data.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace dtsim;

namespace {

std::string writeText(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    const std::string path = (dir.path() + "/" + name).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

Scenario withChaos(Scenario s, int failures, double spreadDays)
{
    for (int i = 0; i < failures; ++i) {
        ChaosEvent e;
        e.atSeconds = spreadDays * units::day * i / failures;
        s.reliability.chaos.push_back(e);
    }
    return s;
}

} // namespace

class TestResultSanity : public QObject {
    Q_OBJECT
private slots:
    // --- 3a. A compute speed beyond the GPU's peak ---------------------------------------
    void anOverlayFasterThanThePeakIsRefusedNamingItsLine()
    {
        QTemporaryDir dir;
        const std::string overlay = writeText(dir, "fast.yaml", "version: 1\n# measured\ncompute_scale: {value: 10, source: \"a typo\"}\n");
        Scenario s = test::preset("llama2-7b-8xa100");
        s.calibration = loadCalibrationOverlay(overlay);
        s.calibration.file = "fast.yaml";
        try {
            checkOverlay(s, test::calibration());
            QFAIL("an MFU above 100% was let through");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.where()), QString::fromStdString(overlay));
            QCOMPARE(e.line(), 3);
            QCOMPARE(QString::fromStdString(e.field()), QString("compute_scale.value"));
        }
        // At the limit, every kernel runs at most at the peak: the MFU stays below 1.
        s.calibration.computeScale = Calibration::maxComputeScale(test::calibration().forGeneration(s.hardware.generation));
        checkOverlay(s, test::calibration());
        const StepReport r = predictStep(s, test::calibration());
        QVERIFY2(r.mfu <= 1, qPrintable(QString::number(r.mfu)));
        QVERIFY(!badQuantity(r));
    }

    void aMeasuredStepFasterThanThePeakIsNotFitted()
    {
        // The issue's case: a 6 s step on a scenario whose kernels at peak take longer
        // was fitted to x7.83, an MFU of 300%.
        const Scenario s = test::preset("llama2-7b-8xa100");
        const ComputeFit fit = fitComputeScale(s, test::calibration(), 6.0);
        QVERIFY(!fit.reached);
        QVERIFY(fit.tooFast());
        QVERIFY(fit.scale <= fit.maxScale * (1 + 1e-9));
        QVERIFY(fit.fittedStep > 6.0);
        // A reachable one is still fitted.
        const double predicted = predictStep(s, test::calibration()).stepTime;
        QVERIFY(fitComputeScale(s, test::calibration(), 1.05 * predicted).reached);
    }

    void theEdgeFlagsAnMfuAboveOne()
    {
        StepReport r = predictStep(test::preset("llama2-7b-8xa100"), test::calibration());
        QVERIFY(!badQuantity(r));
        r.mfu = 3.0;
        QCOMPARE(QString::fromStdString(badQuantity(r).value_or("")), QString("step.mfu"));
        r.mfu = 0.5;
        r.stepTime = 0;
        QCOMPARE(QString::fromStdString(badQuantity(r).value_or("")), QString("step.stepTime"));
    }

    // --- 3d. Ten thousand chaos failures -------------------------------------------------
    void manyChaosFailuresNeverMakeTheRunFaster()
    {
        // Capped after 1,002 failures, each trial stopped short and reported a run
        // shorter than the failure-free one: goodput 111%.
        const Scenario s = withChaos(test::preset("llama2-7b-8xa100"), 10000, 6.5);
        const ReliabilityReport r = analyzeReliability(s, test::calibration(), test::failureRates());
        const MonteCarloResult m = sampleRuns(r, s.reliability, 50, 1);
        QVERIFY2(!badQuantity(m, r), badQuantity(m, r).value_or("").c_str());
        QVERIFY(m.goodput <= 1);
        QVERIFY(m.times.front() >= r.failureFreeTime);
        QVERIFY2(m.failuresMean >= 10000, qPrintable(QString::number(m.failuresMean))); // every injected one happened
        QCOMPARE(m.cappedTrials, 0);
        // Each costs at least its recovery: the run is at least that much longer.
        QVERIFY(m.mean > r.failureFreeTime + 10000 * (r.detect + r.drain + r.reinit));
    }

    void aCappedTrialIsALowerBoundAtLeastTheFailureFreeRun()
    {
        // A cluster failing every 10 s with a 60 s recovery: every trial is capped. Its
        // time is a lower bound, and never below the run without failures.
        ReliabilityReport r;
        r.clusterMtbf = 10;
        r.failuresPerDayByCause = { 8640, 0, 0, 0, 0, 0 };
        r.checkpointWrite = 1;
        r.recovery = 60;
        r.interval = 5;
        r.failureFreeTime = 86400;
        r.gpus = 8;
        r.expectedTime = r.failureFreeTime * 2;
        r.expectedFailures = 10;
        r.plan = storagePlan(r);
        const MonteCarloResult m = sampleRuns(r, {}, 5, 1);
        QCOMPARE(m.cappedTrials, 5);
        QVERIFY(m.times.front() >= r.failureFreeTime);
        QVERIFY(m.goodput <= 1);
    }

    void aStragglerBeyondAnyRealOneIsRefused()
    {
        // 1e20 gave 766 years with every trial capped, beside an analytical 6.57 days.
        for (const char* set : { "reliability.straggler_slowdown=1e20" }) {
            try {
                test::preset("llama2-7b-8xa100", { parseOverride(set) });
                QFAIL(set);
            } catch (const InputError& e) {
                QCOMPARE(QString::fromStdString(e.field()), QString("reliability.straggler_slowdown"));
            }
        }
        QTemporaryDir dir;
        std::ifstream in(test::dataPath("presets/llama2-7b-8xa100.yaml"));
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string path = writeText(dir, "s.yaml", text + "reliability:\n  chaos:\n    - {at: 3 days, event: straggler, slowdown: 1e20}\n");
        try {
            loadScenarioFile(path, test::catalog(), {}, test::topologies());
            QFAIL("a chaos straggler of 1e20 was accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QString("reliability.chaos[0].slowdown"));
            QVERIFY(e.line() > 0);
        }
    }

    // --- 3e. The analytical run and the Monte Carlo agree ------------------------------
    void aCheckpointLongerThanTheRunIsNeverWritten()
    {
        // Staging at 1 kB/s: a checkpoint takes 136 days, Young's interval is longer than
        // the run, and the analytical model charged a fraction of one anyway (22.4 days
        // against the Monte Carlo's 6.66). The run's last segment writes none.
        const Scenario s = test::preset("llama2-7b-8xa100",
            { parseOverride("reliability.async_checkpoint=true"), parseOverride("reliability.staging_bandwidth=1 kB/s") });
        const ReliabilityReport r = analyzeReliability(s, test::calibration(), test::failureRates());
        QVERIFY(r.interval >= r.failureFreeTime);
        const MonteCarloResult m = sampleRuns(r, s.reliability, 2000, 7);
        QVERIFY2(std::abs(r.expectedTime / m.mean - 1) < 0.02,
            qPrintable(QString("analytical %1 days, Monte Carlo %2").arg(r.expectedTime / units::day).arg(m.mean / units::day)));
        QVERIFY(!badQuantity(r));
        // With no failures at all the run is the failure-free one, to the second.
        FailureRates none = test::failureRates();
        none.mtbf.fill(0);
        const ReliabilityReport calm = analyzeReliability(s, test::calibration(), none);
        QCOMPARE(calm.expectedTime, calm.failureFreeTime);
    }

    void theEdgeFlagsARunShorterThanWithoutFailures()
    {
        const Scenario s = test::preset("llama2-7b-8xa100");
        ReliabilityReport r = analyzeReliability(s, test::calibration(), test::failureRates());
        QVERIFY(!badQuantity(r));
        r.expectedTime = 0.9 * r.failureFreeTime;
        QCOMPARE(QString::fromStdString(badQuantity(r).value_or("")), QString("run.expectedTime"));
        MonteCarloResult m;
        m.times = { 0.9 * r.failureFreeTime };
        m.mean = m.p50 = m.p90 = m.p99 = m.times.front();
        m.goodput = 1.11;
        QCOMPARE(QString::fromStdString(badQuantity(m, analyzeReliability(s, test::calibration(), test::failureRates())).value_or("")),
            QString("monteCarlo.goodput"));
    }

    // --- 3f. Plans that do not fit ------------------------------------------------------
    void aPlanThatDoesNotFitIsNotRunPricedOrAdvisedAsIfItRan()
    {
        // Llama 2 7B on one A100: 151 GiB on 80 GiB.
        const Scenario s = test::preset("llama2-7b-8xa100", { parseOverride("cluster.gpus=1"), parseOverride("parallel.dp=1") });
        const ReliabilityReport r = analyzeReliability(s, test::calibration(), test::failureRates());
        const auto issue = runIssue(s, r);
        QVERIFY2(issue, "a run that cannot start was analysed");
        QVERIFY2(issue->reason.find("does not fit") != std::string::npos, issue->reason.c_str());
        QVERIFY(findField(issue->field));
        // The advisor says so and proposes only what makes it fit, each checked.
        const Advice a = advise(s, test::calibration(), test::catalog());
        QVERIFY(!a.fits);
        QCOMPARE(a.diagnosis.regime, Regime::Memory);
        QVERIFY2(a.diagnosis.summary.find("does not fit") != std::string::npos, a.diagnosis.summary.c_str());
        QVERIFY(!a.suggestions.empty());
        for (const Suggestion& sg : a.suggestions) {
            QVERIFY(sg.makesItFit);
            QVERIFY2(memoryPerGpu(sg.scenario, test::calibration()).fits, sg.title.c_str());
            QVERIFY(sg.timeToTrain > 0);
        }
        for (std::size_t i = 1; i < a.suggestions.size(); ++i) // fastest first
            QVERIFY(a.suggestions[i - 1].timeToTrain <= a.suggestions[i].timeToTrain);
        // A plan that fits is advised as before: gains, not fits.
        const Advice fitting = advise(test::preset("llama2-7b-8xa100"), test::calibration(), test::catalog());
        QVERIFY(fitting.fits);
        for (const Suggestion& sg : fitting.suggestions)
            QVERIFY(!sg.makesItFit && sg.gain > 0);
    }

    // --- 3g. A layer table beyond any network --------------------------------------------
    void aLayerTableOfImpossibleSizeIsRefusedNamingTheTable()
    {
        QTemporaryDir dir;
        writeText(dir, "huge.yaml",
            "version: 1\nname: huge positions\nsource: test\ninput: {channels: 96, height: 2000000000, width: 2000000000}\n"
            "layers:\n  - {name: attn, type: attention, heads: 1}\n");
        std::ifstream in(test::dataPath("presets/resnet50-mlperf.yaml"));
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        text.replace(text.find("table: resnet-50"), std::string("table: resnet-50").size(), "table: huge.yaml");
        const std::string path = writeText(dir, "s.yaml", text);
        try {
            loadScenarioFile(path, test::catalog(), {}, test::topologies());
            QFAIL("a step of 9e20 years was accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QString("model.table"));
            QVERIFY(e.line() > 0);
            QVERIFY2(e.reason().find("huge positions") != std::string::npos, e.what());
            // Not blamed on the transformer fields a table does not have.
            QVERIFY2(e.reason().find("vocabulary") == std::string::npos, e.what());
        }
    }

    // --- 3h. A sweep of a field the model does not have ---------------------------------
    void aSweepOfAFieldTheModelLacksHasNoResults()
    {
        const Scenario s = test::preset("resnet50-mlperf");
        SweepAxis x { findField("model.hidden"), { 1, 2 }, { "1", "2" } };
        SweepAxis y { findField("training.micro_batch"), { 128, 256 }, { "128", "256" } };
        const SweepResult r = sweep(s, test::calibration(), x, y, Headline::StepTime);
        for (const SweepCell& c : r.cells) {
            QVERIFY(!c.ok());
            QVERIFY2(c.issue.find("model.hidden") != std::string::npos, c.issue.c_str());
        }
    }

    // --- 3i. A PUE of a billion ---------------------------------------------------------
    void aPueBeyondAnyDataCentreIsRefused()
    {
        try {
            test::preset("llama2-7b-8xa100", { parseOverride("cost.pue=1e9") });
            QFAIL("cost.pue=1e9 accepted (419 Mt CO2e)");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QString("cost.pue"));
        }
        QVERIFY(test::preset("llama2-7b-8xa100", { parseOverride("cost.pue=1.6") }).cost.pue == 1.6);
    }

    // --- 6. Units printed in the unit they reach -----------------------------------------
    void quantitiesBetween1000And1024OfAUnitPrintInTheNextUnit()
    {
        QCOMPARE(QString::fromStdString(formatMemory(1.05e9)), QString("0.978 GiB")); // was "1.05e+09 B"
        QCOMPARE(QString::fromStdString(formatMemory(1000.0 * 1024)), QString("0.977 MiB"));
        QCOMPARE(QString::fromStdString(formatBytes(999.7e6)), QString("1 GB")); // was "1e+03 MB"
        QCOMPARE(QString::fromStdString(formatMemory(80.0 * (1 << 30))), QString("80 GiB"));
    }
};

QTEST_GUILESS_MAIN(TestResultSanity)
#include "tst_result_sanity.moc"
