// The app's offscreen screenshots (ctest's dtsim_screenshot* runs) are drawn windows:
// the asked size, and many colours in the tab area, not a blank or half-drawn frame.
#include <QtTest>

#include <QColor>
#include <QImage>

class TestScreenshots : public QObject {
    Q_OBJECT
private slots:
    void screenshotsAreDrawn_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("scale");
        for (const char* f : { "screenshot", "timeline", "reliability", "cost", "cluster", "topology", "whatif" })
            QTest::newRow(f) << QString(f) << 1;
        QTest::newRow("hidpi") << QString("hidpi") << 2;
    }
    void screenshotsAreDrawn()
    {
        QFETCH(QString, file);
        QFETCH(int, scale);
        const QImage img(QString(DTSIM_SCREENSHOT_DIR) + "/" + file + ".png");
        QVERIFY2(!img.isNull(), qPrintable(file + ".png was not written"));
        QCOMPARE(img.size(), QSize(1600 * scale, 1000 * scale));
        // The tab area (right of the parameter panel, below the dashboard) carries a chart:
        // saturated series colours, which text, grids and an empty frame (greys) lack.
        QSet<QRgb> colours;
        for (int y = img.height() / 5; y < img.height() * 9 / 10; y += 4 * scale)
            for (int x = img.width() / 4; x < img.width() * 95 / 100; x += 4 * scale)
                if (QColor(img.pixel(x, y)).hsvSaturation() > 80)
                    colours.insert(img.pixel(x, y));
        QVERIFY2(colours.size() >= 3, qPrintable(QString("%1: %2 chart colours in the tab area").arg(file).arg(colours.size())));
    }
};

QTEST_GUILESS_MAIN(TestScreenshots)
#include "tst_screenshots.moc"
