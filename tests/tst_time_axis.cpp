// The time axis the three Gantt views share: mapping, zoom about a point, pan, drag,
// limits, ticks, row by row.
#include "simcore/reliability/reliability.h"
#include "simcore/timeline/trace.h"
#include "widgets/cluster_gantt_view.h"
#include "widgets/gantt_view.h"
#include "widgets/run_timeline_view.h"
#include "widgets/time_axis.h"

#include <QtTest>

using dtsim::gui::TimeAxis;

class TestTimeAxis : public QObject {
    Q_OBJECT
private slots:
    void mapsTimeToPixelsAndBack_data()
    {
        QTest::addColumn<double>("t");
        QTest::addColumn<double>("x");
        // [0, 100] s drawn over 500 px from x = 50.
        QTest::newRow("start") << 0.0 << 50.0;
        QTest::newRow("middle") << 50.0 << 300.0;
        QTest::newRow("end") << 100.0 << 550.0;
        QTest::newRow("before") << -10.0 << 0.0;
    }
    void mapsTimeToPixelsAndBack()
    {
        QFETCH(double, t);
        QFETCH(double, x);
        TimeAxis a;
        a.fit(100);
        QCOMPARE(a.x(t, 50, 500), x);
        QCOMPARE(a.time(x, 50, 500), t);
    }

    void zoomKeepsThePointUnderTheCursor()
    {
        TimeAxis a;
        a.fit(100);
        const double before = a.x(30, 0, 1000);
        QVERIFY(a.zoom(2, 30));
        QCOMPARE(a.span(), 50.0);
        QCOMPARE(a.x(30, 0, 1000), before);
        QVERIFY(a.zoom(0.5, 30));
        QCOMPARE(a.start(), 0.0);
        QCOMPARE(a.end(), 100.0);
    }

    void wheelNotchesCompose()
    {
        TimeAxis a;
        a.fit(100);
        a.wheel(2, 500, 0, 1000); // two notches in, about the middle
        QVERIFY(std::abs(a.span() - 100 / (TimeAxis::kWheelZoom * TimeAxis::kWheelZoom)) < 1e-9);
        QVERIFY(std::abs((a.start() + a.end()) / 2 - 50) < 1e-9);
    }

    void keysZoomAndPan()
    {
        TimeAxis a;
        a.fit(100);
        QVERIFY(a.key('W'));
        QVERIFY(std::abs(a.span() - 100 / TimeAxis::kKeyZoom) < 1e-9);
        QVERIFY(std::abs((a.start() + a.end()) / 2 - 50) < 1e-9); // about the middle
        const double start = a.start();
        QVERIFY(a.key('D'));
        QVERIFY(std::abs(a.start() - (start + TimeAxis::kKeyPan * a.span())) < 1e-9);
        QVERIFY(a.key('S'));
        QVERIFY(std::abs(a.span() - 100) < 1e-9);
        QVERIFY(!a.key('Q'));
    }

    void limitsRefuseTooNarrowOrTooWide()
    {
        TimeAxis a;
        a.setLimits(60, 150, false);
        a.fit(100);
        QVERIFY(a.zoom(1.0 / 1.4, 50)); // 140 s: allowed
        QVERIFY(a.zoom(0.5, 50));        // 280 s asked, 150 s given
        QCOMPARE(a.span(), 150.0);
        QVERIFY(!a.zoom(0.5, 50)); // already at the widest
        a.fit(100);
        QVERIFY(a.zoom(10, 50)); // 10 s asked, 60 s given
        QCOMPARE(a.span(), 60.0);
    }

    void keepInsideClampsPanAndDrag()
    {
        TimeAxis a;
        a.setLimits(1, 1e9, true);
        a.fit(100);
        QVERIFY(a.zoom(4, 0)); // [0, 25]
        a.pan(-50);
        QCOMPARE(a.start(), 0.0);
        a.pan(500);
        QCOMPARE(a.end(), 100.0);
        QCOMPARE(a.span(), 25.0);
        a.drag(40, 100, 400); // 100 px of 400 = a quarter span to the right: earlier times
        QCOMPARE(a.start(), 40 - 25.0 / 4);
        QVERIFY(!a.zoom(0.1, 50) || a.span() <= 100); // never wider than the whole run
        QVERIFY(a.span() <= 100);
    }

    void ticksAreMultiplesInsideTheWindow()
    {
        TimeAxis a;
        a.show(12, 47);
        const std::vector<double> t = a.ticks(10);
        QCOMPARE(int(t.size()), 3);
        QCOMPARE(t.front(), 20.0);
        QCOMPARE(t.back(), 40.0);
        QVERIFY(a.ticks(0).empty());
        QVERIFY(a.ticks(1e-9).empty()); // refuses a step that would draw 10^10 ticks
    }

    void niceStepsAreOneTwoFive_data()
    {
        QTest::addColumn<double>("span");
        QTest::addColumn<int>("ticks");
        QTest::addColumn<double>("step");
        QTest::newRow("100/10") << 100.0 << 10 << 10.0;
        QTest::newRow("100/8") << 100.0 << 8 << 20.0;
        QTest::newRow("100/30") << 100.0 << 30 << 5.0;
        QTest::newRow("7/3") << 7.0 << 3 << 5.0;
        QTest::newRow("0.9/2") << 0.9 << 2 << 0.5;
        QTest::newRow("empty") << 0.0 << 5 << 1.0;
    }
    void niceStepsAreOneTwoFive()
    {
        QFETCH(double, span);
        QFETCH(int, ticks);
        QFETCH(double, step);
        QVERIFY2(std::abs(TimeAxis::niceStep(span, ticks) - step) < 1e-12 * step,
            qPrintable(QString::number(TimeAxis::niceStep(span, ticks))));
    }

    // One labeller for the three views: seconds below three hours, hours below three
    // days, then days.
    void tickLabelsCarryTheirUnit_data()
    {
        QTest::addColumn<double>("span");
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("unit");
        QTest::newRow("a step, ms") << 0.8 << "0 s" << " ms";
        QTest::newRow("a minute, s") << 60.0 << "0 s" << " s";
        QTest::newRow("ten hours, h") << 36000.0 << "0 h" << " h";
        QTest::newRow("three months, d") << 90 * 86400.0 << "0 d" << " d";
    }
    void tickLabelsCarryTheirUnit()
    {
        QFETCH(double, span);
        QFETCH(QString, first);
        QFETCH(QString, unit);
        TimeAxis a;
        a.show(0, span);
        const std::vector<TimeAxis::Tick> ticks = a.labelledTicks(8);
        QVERIFY(ticks.size() >= 4 && ticks.size() <= 9);
        QCOMPARE(QString::fromStdString(ticks.front().label), first);
        for (std::size_t i = 1; i < ticks.size(); ++i) {
            QVERIFY2(QString::fromStdString(ticks[i].label).endsWith(unit), ticks[i].label.c_str());
            QCOMPARE(ticks[i].t, a.ticks(ticks[1].t)[i]); // evenly spaced multiples
        }
    }

    // The three views take their gestures from one controller (TimeAxisInput): a double
    // click fits, W zooms, only the left button drags, F fits again.
    void theThreeViewsShareTheirGestures()
    {
        using namespace dtsim::gui;
        auto trace = std::make_shared<dtsim::Trace>();
        trace->totalTime = 10.0;
        trace->rowNames = { "stage 0" };
        GanttView gantt;
        gantt.resize(600, 300);
        gantt.setTrace(trace);
        RunTimelineView run;
        run.resize(600, 300);
        run.setRun({ dtsim::RunPhase { dtsim::RunPhase::Kind::Training, 0, 5 * 86400.0 } }, {}, 5 * 86400.0, 5 * 86400.0);
        dtsim::ClusterResult schedule;
        schedule.makespan = 30 * 86400.0;
        ClusterGanttView cluster;
        cluster.resize(600, 300);
        cluster.setResult(&schedule);
        for (QWidget* view : std::initializer_list<QWidget*> { &gantt, &run, &cluster }) {
            auto span = [&] {
                if (view == &gantt)
                    return gantt.visibleEnd() - gantt.visibleStart();
                if (view == &run)
                    return run.visibleSpanForTest();
                return cluster.visibleSpanForTest();
            };
            const double fitted = span();
            QTest::keyClick(view, Qt::Key_W);
            QVERIFY2(span() < fitted, view->metaObject()->className());
            const double zoomed = span();
            QTest::keyClick(view, Qt::Key_F);
            QCOMPARE(span(), fitted);
            QTest::keyClick(view, Qt::Key_W);
            QTest::mouseDClick(view, Qt::LeftButton, Qt::NoModifier, QPoint(300, 100));
            QCOMPARE(span(), fitted);
            QTest::keyClick(view, Qt::Key_W);
            QCOMPARE(span(), zoomed);
        }
        // GanttView dragged with any button; now the right button leaves the view alone.
        const double start = gantt.visibleStart();
        QTest::mousePress(&gantt, Qt::RightButton, Qt::NoModifier, QPoint(300, 100));
        QTest::mouseMove(&gantt, QPoint(350, 100));
        QTest::mouseRelease(&gantt, Qt::RightButton, Qt::NoModifier, QPoint(350, 100));
        QCOMPARE(gantt.visibleStart(), start);
        QTest::mousePress(&gantt, Qt::LeftButton, Qt::NoModifier, QPoint(300, 100));
        QTest::mouseMove(&gantt, QPoint(350, 100));
        QTest::mouseRelease(&gantt, Qt::LeftButton, Qt::NoModifier, QPoint(350, 100));
        QVERIFY(gantt.visibleStart() < start); // dragged right: earlier times come in
    }
};

QTEST_MAIN(TestTimeAxis)
#include "tst_time_axis.moc"
