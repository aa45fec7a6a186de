// Unit strings in scenario files: each accepted form and each rejection.
#include "simcore/units.h"

#include <QtTest>

using namespace dtsim;

class TestUnits : public QObject {
    Q_OBJECT
private slots:
    void parses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("expected");
        const int B = int(Dimension::Bytes), R = int(Dimension::BytesPerSecond), S = int(Dimension::Seconds),
                  F = int(Dimension::FlopPerSecond), C = int(Dimension::Count), W = int(Dimension::Watts);
        QTest::newRow("GiB") << "80 GiB" << B << 80.0 * 1073741824.0;
        QTest::newRow("GB") << "80 GB" << B << 80e9;
        QTest::newRow("plain bytes") << "1024" << B << 1024.0;
        QTest::newRow("Gbps") << "400 Gbps" << R << 50e9;
        QTest::newRow("Gb/s") << "200 Gb/s" << R << 25e9;
        QTest::newRow("TB/s") << "3.35 TB/s" << R << 3.35e12;
        QTest::newRow("GB/s no space") << "450GB/s" << R << 450e9;
        QTest::newRow("us") << "2 us" << S << 2e-6;
        QTest::newRow("micro sign") << "2 \xC2\xB5s" << S << 2e-6;
        QTest::newRow("ms") << "27 ms" << S << 0.027;
        QTest::newRow("days") << "90 days" << S << 90 * 86400.0;
        QTest::newRow("TFLOP/s") << "989 TFLOP/s" << F << 989e12;
        QTest::newRow("TFLOPS") << "1.58 TFLOPS" << F << 1.58e12;
        QTest::newRow("exponent") << "300e9" << C << 300e9;
        QTest::newRow("T suffix") << "15.6T" << C << 15.6e12;
        QTest::newRow("B suffix") << "20B" << C << 20e9;
        QTest::newRow("kW") << "1.2 kW" << W << 1200.0;
    }
    void parses()
    {
        QFETCH(QString, text);
        QFETCH(int, dim);
        QFETCH(double, expected);
        const QuantityParse q = parseQuantity(text.toStdString(), Dimension(dim));
        QVERIFY2(q.value.has_value(), q.error.c_str());
        QCOMPARE(*q.value, expected);
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("dim");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("empty") << "" << int(Dimension::Bytes) << "empty";
        QTest::newRow("word") << "lots" << int(Dimension::Bytes) << "is not";
        QTest::newRow("nan") << "nan" << int(Dimension::Count) << "finite";
        QTest::newRow("inf") << "inf GB" << int(Dimension::Bytes) << "finite";
        QTest::newRow("wrong unit") << "80 GB" << int(Dimension::Seconds) << "unknown unit";
        QTest::newRow("rate as size") << "400 Gbps" << int(Dimension::Bytes) << "unknown unit";
        QTest::newRow("overflow") << "1e308 TB" << int(Dimension::Bytes) << "overflows";
    }
    void rejects()
    {
        QFETCH(QString, text);
        QFETCH(int, dim);
        QFETCH(QString, messagePart);
        const QuantityParse q = parseQuantity(text.toStdString(), Dimension(dim));
        QVERIFY(!q.value.has_value());
        QVERIFY2(QString::fromStdString(q.error).contains(messagePart), q.error.c_str());
    }

    void formats()
    {
        QCOMPARE(QString::fromStdString(formatBytes(1.37e9)), QString("1.37 GB"));
        QCOMPARE(QString::fromStdString(formatSeconds(0.0273)), QString("27.3 ms"));
        QCOMPARE(QString::fromStdString(formatDuration(34.2 * 86400)), QString("34.2 days"));
    }
};

QTEST_GUILESS_MAIN(TestUnits)
#include "tst_units.moc"
