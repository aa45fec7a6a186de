// The teaching panel's formulas: on every preset, the substituted terms, combined as
// the formula says, give the figure the dashboard shows.
#include "simcore/explain.h"
#include "simcore/plan_check.h"
#include "simcore/step.h"
#include "test_data.h"
#include "simcore/planner/sync_wall.h"

#include <QtTest>

#include <cmath>
#include <numeric>

using namespace dtsim;

class TestExplain : public QObject {
    Q_OBJECT
private slots:
    void formulasGiveTheFigures_data()
    {
        QTest::addColumn<QString>("preset");
        for (const std::string& name : test::presetNames())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }

    void formulasGiveTheFigures()
    {
        QFETCH(QString, preset);
        const Scenario s = test::preset(preset.toStdString());
        QVERIFY(!checkPlan(s));
        const Report r = predictRunWithSyncWall(s, test::calibration());
        auto check = [&](const std::string& key, double computed, double shown) {
            const Explanation e = explainFigure(key, s, r);
            QVERIFY2(!e.title.empty() && !e.formula.empty() && !e.substituted.empty() && !e.result.empty(), key.c_str());
            const double rel = std::abs(computed - shown) / std::max(1e-300, std::abs(shown));
            QVERIFY2(rel < 1e-9, qPrintable(QString("%1: formula gives %2, the figure is %3").arg(key.c_str()).arg(computed).arg(shown)));
            QCOMPARE(e.value, shown);
        };
        auto t = [&](const std::string& key) { return explainFigure(key, s, r).terms; };
        auto sum = [](const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); };
        check("step", sum(t("step")), r.step.stepTime);
        { const auto v = t("mfu"); check("mfu", v[0] / (v[1] * v[2] * v[3]), r.step.mfu); }
        { const auto v = t("tflops"); check("tflops", v[0] / (v[1] * v[2]) / 1e12, r.step.tflopsPerGpu); }
        { const auto v = t("tokens"); check("tokens", v[0] * v[1] / v[2], r.step.tokensPerSecond); }
        check("memory", sum(t("memory")), r.step.memory.total);
        { const auto v = t("ttt"); check("ttt", v[0] * v[1], r.timeToTrain); }
        { const auto v = t("min"); check("min", v[0] * v[1] / (v[2] * v[3]), r.theoreticalMinTime); }
        { const auto v = t("gpuh"); check("gpuh", v[0] * v[1] / 3600, r.gpuHours); }
        { const auto v = t("flops"); check("flops", v[0] * v[1], r.step.modelFlopsPerStep); }
        {
            // The sync wall, checked by running the plan it names: the same model split
            // and global batch at wall / (tp pp cp) replicas trains in the time it quotes,
            // and no slower than this plan.
            const auto v = t("wall");
            QCOMPARE(explainFigure("wall", s, r).value, double(r.syncWallGpus));
            Scenario wall = s;
            wall.plan.dp = static_cast<int>(v[0] / (s.plan.tp * s.plan.pp * s.plan.cp));
            wall.cluster.gpus = static_cast<int>(v[0]);
            QCOMPARE(wall.plan.gpus(), static_cast<long long>(v[0]));
            const Report atWall = predictRun(wall, test::calibration());
            QVERIFY2(std::abs(atWall.timeToTrain - v[1]) <= 1e-9 * v[1], qPrintable(QString("%1 vs %2").arg(atWall.timeToTrain).arg(v[1])));
            QVERIFY(v[1] <= r.timeToTrain * (1 + 1e-12));
        }
        { const auto v = t("bubble"); check("bubble", (v[0] - 1) / (v[1] * v[2]), r.step.bubbleFraction); }
        QVERIFY(explainFigure("nope", s, r).title.empty());
        // DualPipe's bubble has its own formula (DeepSeek-V3 report, Table 2).
        Scenario dual = s;
        dual.plan.schedule = Schedule::DualPipe;
        dual.plan.virtualStages = 1;
        if (s.plan.pp >= 2 && s.plan.pp % 2 == 0 && !checkPlan(dual)) {
            const Report rd = predictRun(dual, test::calibration());
            const auto v = explainFigure("bubble", dual, rd).terms;
            const double shown = rd.step.bubbleFraction;
            QVERIFY(std::abs((v[0] / 2 - 1) * v[1] / v[2] - shown) <= 1e-9 * std::max(1e-300, shown));
            QVERIFY(v[1] > 0.5 && v[1] < 1); // forward + half the backward, of forward + backward
        }
        // Every listed figure explains itself.
        for (const std::string& key : explainedFigures())
            QVERIFY2(!explainFigure(key, s, r).title.empty(), key.c_str());
    }
};

QTEST_GUILESS_MAIN(TestExplain)
#include "tst_explain.moc"
