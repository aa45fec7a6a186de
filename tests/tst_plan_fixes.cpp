// The panel's one-click fixes (widgets/plan_fixes): every fix offered leaves a plan the
// rules accept. Every preset's neighbours are made invalid the way a user makes them
// (one panel field moved to an edge, doubled, halved, one up or down), and every fix
// is applied.
#include "test_data.h"

#include "widgets/parameter_fields.h"
#include "widgets/plan_fixes.h"

#include <QtTest>

using namespace dtsim;
using namespace dtsim::gui;

class TestPlanFixes : public QObject {
    Q_OBJECT
private slots:
    void tpBeyondTheHeadsIsFixed()
    {
        // Issue 22, item 4: TP 512 with 128 heads offered "Set TP to 512", which did nothing.
        Scenario s = test::preset("llama3-405b-h100");
        s.plan.tp = 512;
        QCOMPARE(firstViolation(s), PlanRule::TpHeads);
        const auto fix = suggestFix(s);
        QVERIFY(fix);
        QVERIFY2(fix->label.startsWith("Set TP to "), qPrintable(fix->label));
        QVERIFY(fix->fixed.plan.tp != 512);
        QCOMPARE(firstViolation(fix->fixed), PlanRule::Ok);
    }

    void refusedCompressionIsTurnedOff()
    {
        // PowerSGD is a DDP hook: under the preset's FSDP (ZeRO 3) the fix turns it off.
        Scenario s = test::preset("llama2-7b-8xa100");
        s.training.gradCompression = GradCompression::PowerSgd;
        QCOMPARE(firstViolation(s), PlanRule::GradCompression);
        const auto fix = suggestFix(s);
        QVERIFY(fix);
        QCOMPARE(fix->fixed.training.gradCompression, GradCompression::None);
        QCOMPARE(firstViolation(fix->fixed), PlanRule::Ok);
    }

    void everyFixOnEveryPresetsInvalidNeighboursLeavesAValidPlan()
    {
        int invalid = 0, fixed = 0;
        QStringList unfixed;
        for (const std::string& name : test::presetNames()) {
            const Scenario base = test::preset(name);
            for (const FieldSpec& f : scenarioFields(test::catalog())) {
                if (f.kind != FieldKind::Integer && f.kind != FieldKind::Real)
                    continue;
                const double v = f.get(base) / f.displayScale;
                for (double shown : { f.min, f.max, 2 * v, v / 2, v + 1, v - 1 }) {
                    if (shown < f.min || shown > f.max)
                        continue;
                    Scenario s = base;
                    f.set(s, shown * f.displayScale);
                    if (firstViolation(s) == PlanRule::Ok)
                        continue;
                    ++invalid;
                    const auto fix = suggestFix(s);
                    if (!fix) {
                        unfixed << QString("%1 %2=%3 (%4)").arg(QString::fromStdString(name), f.id).arg(shown)
                                       .arg(QString::fromUtf8(planRuleName(firstViolation(s)).data()));
                        continue;
                    }
                    QVERIFY2(!fix->label.isEmpty(), qPrintable(f.id));
                    QVERIFY2(firstViolation(fix->fixed) == PlanRule::Ok,
                        qPrintable(QString("%1 %2=%3: \"%4\" leaves %5").arg(QString::fromStdString(name), f.id).arg(shown)
                                       .arg(fix->label, QString::fromUtf8(planRuleName(firstViolation(fix->fixed)).data()))));
                    ++fixed;
                }
            }
        }
        qInfo("%d invalid neighbours, %d fixed in one click; no fix offered for %d", invalid, fixed, int(unfixed.size()));
        for (const QString& u : unfixed.mid(0, 12))
            qInfo("  no fix: %s", qPrintable(u));
        QVERIFY(invalid > 100);
        QCOMPARE(fixed, invalid); // every rule a panel edit can break has its fix
    }
};

QTEST_GUILESS_MAIN(TestPlanFixes)
#include "tst_plan_fixes.moc"
