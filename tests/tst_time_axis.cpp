// The time axis the three Gantt views share: mapping, zoom about a point, pan, drag,
// limits, ticks, row by row.
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
};

QTEST_GUILESS_MAIN(TestTimeAxis)
#include "tst_time_axis.moc"
