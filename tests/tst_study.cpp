// Issue 25: the advisor (a regime and changes whose gains the engine computes and the
// --set overrides reproduce), two-field sweeps, and scenario diffs.
#include "simcore/fields/scenario_fields.h"
#include "simcore/loader/scenario_override.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/step.h"
#include "simcore/study/advice.h"
#include "simcore/study/scenario_diff.h"
#include "simcore/study/sweep.h"
#include "test_data.h"

#include <QtTest>

#include <cmath>

using namespace dtsim;

namespace {

SweepAxis axis(const std::string& path, std::vector<double> values)
{
    SweepAxis a;
    a.field = findField(path);
    a.values = std::move(values);
    for (double v : a.values)
        a.labels.push_back(std::to_string(v));
    return a;
}

} // namespace

class TestStudy : public QObject {
    Q_OBJECT
private slots:
    // Every preset: a regime, at least three changes that help, best first, and each
    // change's overrides, applied as `--set` through the loader, give the gain it claims.
    void adviceOnEveryPresetReproducesThroughOverrides_data()
    {
        QTest::addColumn<QString>("preset");
        for (const std::string& name : test::presetNames())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }
    void adviceOnEveryPresetReproducesThroughOverrides()
    {
        QFETCH(QString, preset);
        const Scenario s = test::preset(preset.toStdString());
        const Advice a = advise(s, test::calibration(), test::catalog());
        QVERIFY(!a.diagnosis.summary.empty());
        QVERIFY(a.diagnosis.summary.starts_with(regimeName(a.diagnosis.regime)));
        // A layer table has fewer knobs (no recomputation, pipeline or FP8 on a GTX 580).
        const std::size_t least = s.model.isLayerTable() ? 2 : 3;
        QVERIFY2(a.suggestions.size() >= least, qPrintable(QString::number(a.suggestions.size())));
        for (std::size_t i = 0; i < a.suggestions.size(); ++i) {
            const Suggestion& sg = a.suggestions[i];
            QVERIFY(sg.gain > 0);
            if (i > 0)
                QVERIFY(sg.gain <= a.suggestions[i - 1].gain);
            std::vector<Override> overrides;
            for (const auto& [path, value] : sg.sets)
                overrides.push_back({ path, value });
            const Scenario applied = test::preset(preset.toStdString(), overrides);
            const Report r = predictRun(applied, test::calibration());
            QVERIFY2(std::abs(r.timeToTrain / sg.timeToTrain - 1) < 1e-9,
                qPrintable(QString::fromStdString(sg.title) + QString(": %1 against %2 s").arg(r.timeToTrain).arg(sg.timeToTrain)));
            QVERIFY(std::abs(predictRun(s, test::calibration()).timeToTrain / r.timeToTrain - 1 - sg.gain) < 1e-9);
        }
    }

    // A change that brings the run inside its deadline says so.
    void adviceNamesTheDeadline()
    {
        Scenario s = test::preset("llama3-405b-h100");
        const double now = predictRun(s, test::calibration()).timeToTrain;
        s.training.deadline = 0.95 * now; // just missed
        const Advice a = advise(s, test::calibration(), test::catalog());
        int meets = 0;
        for (const Suggestion& sg : a.suggestions) {
            const bool says = sg.note.find("meets the") != std::string::npos;
            QCOMPARE(says, sg.timeToTrain <= s.training.deadline);
            meets += says;
        }
        QVERIFY(meets >= 2);
    }

    // The regime follows the step's own breakdown: a model split over a pipeline of many
    // stages with a single micro-batch is bubble-bound; the same at many micro-batches is
    // not; an 8-GPU data-parallel run of a small model is compute-bound.
    void theRegimeFollowsTheBreakdown()
    {
        Scenario s = test::preset("gpt3-175b-a100");
        s.plan.schedule = Schedule::OneFOneB;
        s.plan.virtualStages = 1;
        s.training.globalBatch = s.plan.dp * s.training.microBatch; // one micro-batch per pipeline
        const Diagnosis bubble = diagnose(s, predictRun(s, test::calibration()));
        QCOMPARE(bubble.regime, Regime::Bubble);
        QVERIFY(bubble.shares.front().part == "pipeline bubble" || bubble.shares.front().part == "compute");
        const Scenario small = test::preset("llama2-7b-8xa100");
        const Diagnosis compute = diagnose(small, predictRun(small, test::calibration()));
        QCOMPARE(compute.regime, Regime::Compute);
        QVERIFY(compute.computeShare > 0.85);
        QVERIFY(compute.reading.find("over 85%") != std::string::npos);
        // The shares are the step's parts: they add up to the step.
        double sum = 0;
        for (const StepShare& p : compute.shares)
            sum += p.share;
        QVERIFY(std::abs(sum - 1) < 0.02);
    }

    // Seed 002's reading, checked on the presets: where compute is under 70% of the step,
    // the plan alone (same GPUs, same numerics) gains more than 10%; over 85%, it gains
    // under 10%. It is a transformer's reading (TP, PP, CP, recomputation to trade); a
    // layer table's plan is its data parallelism, and its reading says so.
    void theReadingHoldsOnThePresets()
    {
        int low = 0, high = 0;
        for (const std::string& name : test::presetNames()) {
            const Scenario s = test::preset(name);
            if (s.model.isLayerTable()) {
                const Diagnosis d = diagnose(s, predictRun(s, test::calibration()));
                if (d.computeShare < 0.70)
                    QVERIFY(d.reading.find("data parallelism") != std::string::npos);
                continue;
            }
            const Advice a = advise(s, test::calibration(), test::catalog());
            double planGain = 0;
            for (const Suggestion& sg : a.suggestions)
                if (sg.kind == Suggestion::Kind::Plan)
                    planGain = std::max(planGain, sg.gain);
            if (a.diagnosis.computeShare < 0.70) {
                ++low;
                QVERIFY2(planGain > 0.10, qPrintable(QString::fromStdString(name) + QString(": %1").arg(planGain)));
            } else if (a.diagnosis.computeShare > 0.85) {
                ++high;
                QVERIFY2(planGain < 0.10, qPrintable(QString::fromStdString(name) + QString(": %1").arg(planGain)));
            }
        }
        QVERIFY(low >= 3 && high >= 1);
    }

    // A cell of a sweep is the simulation of that cell's scenario; the scenario's own cell
    // is marked; cells the loader would refuse, or that do not fit, say why.
    void sweepCellsAreSimulations()
    {
        const Scenario s = test::preset("llama3-405b-h100");
        const SweepAxis x = axis("parallel.tp", { 1, 2, 4, 8, 16 });
        const SweepAxis y = axis("parallel.pp", { 1, 2, 4, 8, 16, 32 });
        const SweepResult r = sweep(s, test::calibration(), x, y, Headline::Mfu);
        QCOMPARE(r.currentX, 3);
        QCOMPARE(r.currentY, 4);
        QVERIFY(r.at(3, 4).ok());
        QCOMPARE(r.at(3, 4).value, predictRun(s, test::calibration()).step.mfu);
        int ok = 0, oom = 0;
        for (std::size_t iy = 0; iy < y.values.size(); ++iy)
            for (std::size_t ix = 0; ix < x.values.size(); ++ix) {
                const SweepCell& c = r.at(ix, iy);
                if (!c.ok()) {
                    oom += c.issue.starts_with("out of memory");
                    continue;
                }
                ++ok;
                const Scenario cell = sweepScenario(s, x, y, ix, iy);
                QCOMPARE(cell.plan.tp, int(x.values[ix]));
                QCOMPARE(cell.plan.pp, int(y.values[iy]));
                QCOMPARE(cell.plan.tp * cell.plan.pp * cell.plan.dp * cell.plan.cp, int(s.cluster.gpus)); // DP followed
                QCOMPARE(c.value, predictRun(cell, test::calibration()).step.mfu);
            }
        QVERIFY(ok >= 5);
        QVERIFY(oom >= 5); // a 405B model at TP 1-4 and few stages does not fit in 80 GB
        // Cells that broke the preset's uneven stages or interleaving relaxed them, and say so.
        QVERIFY(r.at(3, 0).ok());
        QVERIFY2(r.at(3, 0).adjusted.find("even pipeline stages") != std::string::npos, r.at(3, 0).adjusted.c_str());
    }

    void diffNamesEveryChangedField()
    {
        const Scenario a = test::preset("llama3-405b-h100");
        QVERIFY(diffScenarios(a, a).empty());
        Scenario b = a;
        b.plan.tp = 4;
        b.plan.cp = 2;
        b.cluster.scaleOutBandwidth = 100e9;
        b.reliability.chaos.push_back({});
        const std::vector<FieldDifference> d = diffScenarios(a, b);
        auto find = [&](const std::string& path) -> const FieldDifference* {
            for (const FieldDifference& f : d)
                if (f.path == path)
                    return &f;
            return nullptr;
        };
        QVERIFY(find("parallel.tp") && find("parallel.tp")->a == "8" && find("parallel.tp")->b == "4");
        QVERIFY(find("parallel.cp"));
        QVERIFY(find("cluster.scale_out_bandwidth") && find("cluster.scale_out_bandwidth")->b == "100 GB/s");
        QVERIFY(find("reliability.chaos") && find("reliability.chaos")->b == "1 entry");
        QCOMPARE(int(d.size()), 4);
    }

    void headlineNamesRoundTrip()
    {
        for (int i = 0; i < kHeadlineCount; ++i)
            QCOMPARE(headlineFromName(headlineInfo(Headline(i)).key), std::optional<Headline>(Headline(i)));
        QVERIFY(!headlineFromName("speed"));
    }
};

QTEST_GUILESS_MAIN(TestStudy)
#include "tst_study.moc"
