// The analyses the window and dtsim-cli share (simcore/analysis/): each composed once,
// with the choices that differ between the two front ends as options.
#include "simcore/analysis/cost_analysis.h"
#include "simcore/analysis/run_outlook.h"
#include "simcore/analysis/timeline_setup.h"
#include "simcore/loader/scenario_override.h"
#include "simcore/step.h"
#include "test_data.h"

#include <QtTest>

using namespace dtsim;

class TestAnalysis : public QObject {
    Q_OBJECT
private slots:
    // The Monte Carlo follows every failure: asked for more trials than the run affords,
    // the CLI (strict) refuses before running any, the tab runs fewer.
    void tooManyTrialsAreRefusedOrReduced()
    {
        const Scenario s = test::preset("llama3-405b-h100");
        RunOutlookOptions o;
        o.trials = 100000;
        o.strictTrials = true;
        const RunOutlook strict = runOutlook(s, test::calibration(), test::failureRates(), o);
        QVERIFY(strict.tooManyTrials);
        QVERIFY(strict.trials > 0 && strict.trials < o.trials);
        QVERIFY(strict.run.times.empty());

        o.trials = 200;
        o.strictTrials = false;
        const RunOutlook fits = runOutlook(s, test::calibration(), test::failureRates(), o);
        QVERIFY(!fits.tooManyTrials && !fits.problem);
        QCOMPARE(fits.trials, 200);
        QCOMPARE(int(fits.run.times.size()), 200);
        QVERIFY(fits.clean.times.empty()); // no chaos events in this preset
        // The same seed gives the same outlook: the CLI and the tab show one answer.
        QCOMPARE(runOutlook(s, test::calibration(), test::failureRates(), o).run.times, fits.run.times);
    }

    // A chaos preset runs the same seeds again without its events.
    void chaosRunsTheCleanRunToo()
    {
        RunOutlookOptions o;
        o.trials = 50;
        const RunOutlook r = runOutlook(test::preset("llama3-405b-chaos"), test::calibration(), test::failureRates(), o);
        QVERIFY(r.hasChaos);
        QCOMPARE(int(r.clean.times.size()), 50);
        QVERIFY(r.run.times != r.clean.times);
    }

    // A run that can never finish is named with its field; nothing is priced or run.
    void aRunThatCannotFinishHasAProblemAndNoFigures()
    {
        const Scenario s = test::preset("llama3-405b-h100", { parseOverride("reliability.recovery.provision=100 days") });
        const CostAnalysis cost = analyzeCostStudy(s, test::calibration(), test::catalog(), test::failureRates(), test::costRates());
        QVERIFY(cost.problem);
        QVERIFY(!cost.problem->field.empty());
        QCOMPARE(cost.report.totalUsd, 0.0);
        QVERIFY(cost.byGpuCount.empty() && cost.byGpuType.empty());
        const RunOutlook run = runOutlook(s, test::calibration(), test::failureRates(), {});
        QVERIFY(run.problem);
        QCOMPARE(run.problem->field, cost.problem->field);
        QVERIFY(run.run.times.empty());
    }

    // The CLI prices the sweep and the GPU comparison only when asked; the tab always.
    void costPartsAreOptional()
    {
        const Scenario s = test::preset("llama2-7b-8xa100");
        CostAnalysisOptions o;
        o.byGpuCount = o.byGpuType = false;
        const CostAnalysis bare = analyzeCostStudy(s, test::calibration(), test::catalog(), test::failureRates(), test::costRates(), o);
        QVERIFY(!bare.problem);
        QVERIFY(bare.report.totalUsd > 0);
        QVERIFY(bare.byGpuCount.empty() && bare.byGpuType.empty());
        const CostAnalysis all = analyzeCostStudy(s, test::calibration(), test::catalog(), test::failureRates(), test::costRates());
        QCOMPARE(all.report.totalUsd, bare.report.totalUsd);
        QVERIFY(!all.byGpuCount.empty());
        QVERIFY(!all.byGpuType.empty());
    }

    // The timeline's checkpoints: the reliability model's interval, or one at the window's end.
    void timelineCheckpointsFollowTheReliabilityModel()
    {
        const Scenario s = test::preset("llama2-7b-8xa100");
        TimelineOptions o;
        o.steps = 3;
        const TimelineSetup model = timelineSetup(s, test::calibration(), test::failureRates(), o);
        QVERIFY(model.intervalSteps > 3); // a small run checkpoints rarely
        QCOMPARE(model.options.checkpointEverySteps, int(model.intervalSteps));
        QVERIFY(model.options.checkpointSeconds > 0);
        QCOMPARE(model.step.stepTime, predictStep(s, test::calibration()).stepTime);
        QCOMPARE(model.estimatedBars, estimateTimelineEvents(s, model.step, model.options));
        const TimelineSetup atEnd = timelineSetup(s, test::calibration(), test::failureRates(), o, true);
        QCOMPARE(atEnd.options.checkpointEverySteps, 3);
        QCOMPARE(atEnd.options.checkpointSeconds, model.options.checkpointSeconds);
    }
};

QTEST_GUILESS_MAIN(TestAnalysis)
#include "tst_analysis.moc"
