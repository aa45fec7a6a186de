// Calibration overlays: the user's measurements over the shipped calibration. The file
// (read and written), a scenario naming it, and the engine using it where the shipped
// calibration applies: compute speed and measured collective links.
#include "simcore/collectives.h"
#include "simcore/input_error.h"
#include "simcore/loader/calibration_overlay_loader.h"
#include "simcore/loader/read_file.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/measure/nccl_default.h"
#include "simcore/step.h"
#include "test_data.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace dtsim;

namespace {

std::string write(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    const std::string path = (dir.path() + "/" + name).toStdString();
    std::ofstream(path) << text;
    return path;
}

CalibrationOverlay sample()
{
    CalibrationOverlay o;
    o.computeScale = 0.9;
    o.computeSource = "fit to a measured step of 3.3 s";
    MeasuredCollective m;
    m.tier = MeasuredTier::ScaleUp;
    m.collective = "allreduce";
    m.ranks = 8;
    m.source = "fit to all_reduce_perf.log";
    m.segments = { { 8, 32768, 9e-6, 0 }, { 65536, 8.6e9, 35e-6, 360e9 } };
    o.collectives.push_back(m);
    return o;
}

} // namespace

class TestCalibrationOverlay : public QObject {
    Q_OBJECT
private slots:
    void writtenAndReadBack()
    {
        QTemporaryDir dir;
        const CalibrationOverlay o = sample();
        const std::string path = write(dir, "o.yaml", calibrationOverlayText(o));
        CalibrationOverlay back = loadCalibrationOverlay(path);
        QCOMPARE(back.path, path);
        back.path = o.path;
        QVERIFY(back == o);
    }

    void badOverlaysNameLineAndField_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const QString head = "version: 1\ncollectives:\n  - tier: scale_up\n    collective: allreduce\n    ranks: 8\n";
        QTest::newRow("tier") << "version: 1\ncollectives:\n  - tier: rack\n    collective: allreduce\n    ranks: 8\n    source: x\n    segments: [{from: 8 B, to: 16 B, latency: 1 us, bus_bandwidth: 1 GB/s}]\n"
                              << ":3: collectives[0].tier: \"rack\" is not one of";
        QTest::newRow("no source") << head + "    segments: [{from: 8 B, to: 16 B, latency: 1 us, bus_bandwidth: 1 GB/s}]\n" << "collectives[0].source";
        QTest::newRow("order") << head + "    source: x\n    segments:\n      - {from: 1 MB, to: 2 MB, latency: 1 us, bus_bandwidth: 1 GB/s}\n      - {from: 8 B, to: 16 B, latency: 1 us, bus_bandwidth: 1 GB/s}\n"
                               << "segments[1].from: segments must be in size order";
        QTest::newRow("unit") << head + "    source: x\n    segments: [{from: 8 B, to: 16 B, latency: 1 GB, bus_bandwidth: 1 GB/s}]\n"
                              << "segments[0].latency";
        QTest::newRow("scale") << "version: 1\ncompute_scale: {value: 40, source: x}\n" << ":2: compute_scale.value";
        QTest::newRow("scale source") << "version: 1\ncompute_scale: {value: 0.9}\n" << "compute_scale.source";
    }

    void badOverlaysNameLineAndField()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const std::string path = write(dir, "bad.yaml", text.toStdString());
        try {
            loadCalibrationOverlay(path);
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path)) && QString(e.what()).contains(message), e.what());
        }
    }

    // A scenario names the overlay next to it; saving keeps the name; a missing file is
    // refused on the scenario's line.
    void aScenarioUsesItsOverlay()
    {
        QTemporaryDir dir;
        write(dir, "measured.yaml", calibrationOverlayText(sample()));
        std::ifstream preset(test::dataPath("presets/llama2-7b-8xa100.yaml"));
        const std::string text((std::istreambuf_iterator<char>(preset)), std::istreambuf_iterator<char>());
        const std::string path = write(dir, "run.yaml", text + "calibration: measured.yaml\n");
        const Scenario s = loadScenarioFile(path, test::catalog(), {}, test::topologies());
        QCOMPARE(s.calibration.file, std::string("measured.yaml"));
        QCOMPARE(s.calibration.computeScale, 0.9);
        QCOMPARE(int(s.calibration.collectives.size()), 1);
        // Slower compute, a longer step; nothing else of the scenario moves.
        const Scenario plain = loadScenarioFile(test::dataPath("presets/llama2-7b-8xa100.yaml"), test::catalog(), {}, test::topologies());
        const StepReport with = predictStep(s, test::calibration()), without = predictStep(plain, test::calibration());
        QVERIFY(with.breakdown.forward > 1.05 * without.breakdown.forward);
        QCOMPARE(with.memory.total, without.memory.total);
        // Saved, it names the overlay again and loads the same.
        const std::string saved = write(dir, "saved.yaml", scenarioToYaml(s));
        QVERIFY(loadScenarioFile(saved, test::catalog(), {}, test::topologies()) == s);
        // A name that is not there.
        const std::string bad = write(dir, "bad.yaml", text + "calibration: missing.yaml\n");
        try {
            loadScenarioFile(bad, test::catalog(), {}, test::topologies());
            QFAIL("loaded a missing overlay");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("bad.yaml:") && QString(e.what()).contains("calibration: ") && QString(e.what()).contains("missing.yaml"), e.what());
        }
    }

    // A measured tier replaces the nominal link: an all-reduce on the 8 GPUs measured
    // takes the measured line's time at its size, whatever the nominal link says.
    void measuredLinksSetTheCollectiveTime()
    {
        const CalibrationOverlay o = sample();
        ClusterSpec c;
        c.scaleUpBandwidth = 900e9; // nominal, twice the measured
        c.scaleUpLatency = 1e-6;
        GroupSpan g;
        g.size = g.perDomain = 8;
        const CommEfficiency measured { 0.75, 0.75, &o };
        for (double bytes : { 1e8, 1e9 }) {
            const double t = collectiveCost(CollectiveKind::AllReduce, bytes, g, c, measured).seconds;
            const double line = 35e-6 + 1.75 * bytes / 360e9;
            QVERIFY2(std::abs(t / line - 1) < 1e-9, qPrintable(QString("%1 vs %2").arg(t).arg(line)));
        }
        // Latency-bound small messages: the flat latency.
        QVERIFY(std::abs(collectiveCost(CollectiveKind::AllReduce, 1024, g, c, measured).seconds / 9e-6 - 1) < 1e-6);
        // On 4 of those GPUs the ring has fewer steps: latency scales with them.
        GroupSpan four = g;
        four.size = four.perDomain = 4;
        const double t4 = collectiveCost(CollectiveKind::AllReduce, 1e9, four, c, measured).seconds;
        QVERIFY(std::abs(t4 / (35e-6 * 3 / 7 + 1.5 * 1e9 / 360e9) - 1) < 1e-9);
        // No overlay: the nominal link.
        const CommEfficiency nominal { 0.75, 0.75, nullptr };
        QVERIFY(collectiveCost(CollectiveKind::AllReduce, 1e9, g, c, nominal).seconds < 0.8 * collectiveCost(CollectiveKind::AllReduce, 1e9, g, c, measured).seconds);
    }

    // Beside a measurement, the shipped calibration's own figure for it: on large
    // messages the bus bandwidth approaches the link's times its bus efficiency, and it
    // grows with size (latency counts less).
    void defaultsBesideTheMeasurement()
    {
        const std::string path = test::dataPath("tests/nccl/all_reduce_perf-8xh100.log");
        const NcclTestsLog log = parseNcclTestsLog(path, readTextFile(path, "log"));
        const Scenario s = loadScenarioFile(test::dataPath("presets/llama3-405b-h100.yaml"), test::catalog(), {}, test::topologies());
        const std::vector<double> d = defaultBusBandwidths(log, MeasuredTier::ScaleUp, s, test::calibration());
        QCOMPARE(d.size(), log.rows.size());
        for (std::size_t i = 1; i < d.size(); ++i)
            QVERIFY(d[i] >= d[i - 1]);
        const double link = s.cluster.scaleUpBandwidth * test::calibration().scaleUpBusEfficiency;
        QVERIFY2(std::abs(d.back() / link - 1) < 0.02, qPrintable(QString("%1 vs %2").arg(d.back()).arg(link)));
    }
};

QTEST_GUILESS_MAIN(TestCalibrationOverlay)
#include "tst_calibration_overlay.moc"
