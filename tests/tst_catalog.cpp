// The hardware catalogue and the calibration file: required entries, plausible values,
// and refusal of any number without a source.
#include "simcore/input_error.h"
#include "test_data.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace dtsim;

class TestCatalog : public QObject {
    Q_OBJECT
private slots:
    void requiredIdsPresent()
    {
        for (const char* id : { "gtx580", "k80", "p100", "v100", "a100-40gb", "a100-80gb", "h100-sxm", "h200", "b200",
                 "gb200", "b300", "gb300", "mi300x", "tpu-v4", "tpu-v5p" })
            QVERIFY2(findHardware(test::catalog(), id), id);
    }

    void blackwellUltraAgainstBlackwell()
    {
        // Blackwell Ultra (B300, GB300) keeps FP8 and BF16 near Blackwell's and raises
        // NVFP4 by about 1.5x and memory by half; the NVL72 rack is one 72-GPU domain.
        const HardwareSpec* b200 = findHardware(test::catalog(), "b200");
        const HardwareSpec* b300 = findHardware(test::catalog(), "b300");
        const HardwareSpec* gb200 = findHardware(test::catalog(), "gb200");
        const HardwareSpec* gb300 = findHardware(test::catalog(), "gb300");
        QCOMPARE(b300->peak(Precision::FP8), b200->peak(Precision::FP8));
        QCOMPARE(gb300->peak(Precision::FP8), gb200->peak(Precision::FP8));
        QVERIFY(std::abs(gb300->peak(Precision::FP4) / gb200->peak(Precision::FP4) - 1.5) < 0.01);
        QVERIFY(b300->memoryBytes > 1.45 * b200->memoryBytes && gb300->memoryBytes > 1.45 * gb200->memoryBytes);
        QCOMPARE(gb300->scaleUpDomain, 72);
        QCOMPARE(b300->scaleUpDomain, 8);
        QCOMPARE(gb300->scaleOutBandwidth, 2 * gb200->scaleOutBandwidth); // ConnectX-8 at 800 Gb/s
    }

    void valuesArePlausible()
    {
        for (const HardwareSpec& h : test::catalog()) {
            QVERIFY2(h.peak(Precision::FP32) > 0 || h.peak(Precision::BF16) > 0, h.id.c_str());
            QVERIFY2(h.memoryBytes >= 1e9 && h.memoryBytes < 1e12, h.id.c_str());
            QVERIFY2(h.memoryBandwidth > 1e11 && h.memoryBandwidth < 1e14, h.id.c_str());
            QVERIFY2(h.launchYear >= 2009 && h.launchYear <= 2026, h.id.c_str());
            QVERIFY2(h.scaleUpBandwidth > 0 && h.scaleOutBandwidth > 0, h.id.c_str());
            // Peaks rise with lower precision where both exist.
            if (h.supports(Precision::FP8) && h.supports(Precision::BF16))
                QVERIFY(h.peak(Precision::FP8) >= h.peak(Precision::BF16));
            if (h.supports(Precision::BF16) && h.supports(Precision::FP32))
                QVERIFY(h.peak(Precision::BF16) >= h.peak(Precision::FP32));
        }
        const HardwareSpec* gtx = findHardware(test::catalog(), "gtx580");
        QVERIFY(std::abs(gtx->memoryBytes - 3e9) < 0.3e9);
        QVERIFY(!gtx->supports(Precision::FP16));
        const HardwareSpec* h100 = findHardware(test::catalog(), "h100-sxm");
        QVERIFY(std::abs(h100->peak(Precision::BF16) / 989e12 - 1) < 0.01);
    }

    void valueWithoutSourceIsRefused()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/x.yaml").toStdString();
        std::ofstream(path) << "id: x\nname: X\nvendor: V\ngeneration: hopper\n"
                               "launch_year: {value: 2022}\n";
        try {
            loadHardwareFile(path);
            QFAIL("accepted a value without a source");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains(":5: launch_year.source: every value needs a source"), e.what());
        }
    }

    void calibrationLoads()
    {
        const Calibration& c = test::calibration();
        QVERIFY(c.generations.size() >= 8);
        QCOMPARE(c.forGeneration("hopper").generation, std::string("hopper"));
        for (const HardwareSpec& h : test::catalog())
            QVERIFY2(!c.forGeneration(h.generation).generation.empty(), h.generation.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
