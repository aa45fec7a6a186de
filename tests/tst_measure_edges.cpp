// The measurement readers at their edges (issue 38): nccl-tests logs, calibration
// overlays, profiler traces and layer tables given what no real measurement holds.
// Each is refused naming file, line and field, in bounded time and memory, or read to
// a value that can be; never a crash, a stale message or an impossible number.
#include "simcore/calibration_overlay.h"
#include "simcore/input_error.h"
#include "simcore/layers/layer_table.h"
#include "simcore/loader/calibration_overlay_loader.h"
#include "simcore/loader/layer_table_loader.h"
#include "simcore/loader/read_file.h"
#include "simcore/measure/json_reader.h"
#include "simcore/measure/kineto_trace.h"
#include "simcore/measure/nccl_tests.h"
#include "test_data.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <sys/stat.h>

using namespace dtsim;

namespace {

// The sanitizer build runs the code several times slower (packaging/sanitize.sh).
int scaledMs(int ms) { return ms * std::max(1, qEnvironmentVariableIntValue("DTSIM_TIME_SCALE")); }

std::string writeText(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    const std::string path = (dir.path() + "/" + name).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// The refusal `work` throws, or a failed check when it throws none.
template <typename Work>
InputError refusal(Work work)
{
    try {
        work();
    } catch (const InputError& e) {
        return e;
    }
    return InputError("(accepted)", 0, "", "no error");
}

const char* kHeader = "# size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n";

std::string ncclRow(double bytes, const std::string& time, const std::string& busbw)
{
    return std::to_string((long long)bytes) + " " + std::to_string((long long)bytes / 4) + " float sum -1 " + time + " 1.00 " + busbw
        + " 0 " + time + " 1.00 " + busbw + " 0\n";
}

std::string overlayWith(const std::string& segment)
{
    return "version: 1\ncollectives:\n  - tier: scale_up\n    collective: allreduce\n    ranks: 8\n    source: x\n    segments:\n      - "
        + segment + "\n";
}

} // namespace

class TestMeasureEdges : public QObject {
    Q_OBJECT
private slots:
    // --- 1. The crash: a header that puts time after busbw ------------------------------
    void aLateTimeColumnIsAShortRowNotACrash_data()
    {
        QTest::addColumn<int>("extraColumns");
        QTest::newRow("5,000 columns between") << 5000; // read past the row: SIGSEGV
        QTest::newRow("none between") << 0;             // read a stale word: "busbw is not a positive time"
    }
    void aLateTimeColumnIsAShortRowNotACrash()
    {
        QFETCH(int, extraColumns);
        std::string header = "# size count busbw";
        for (int i = 0; i < extraColumns; ++i)
            header += " c" + std::to_string(i);
        const std::string text = header + " time\n8 2 0.5\n16 4 0.9\n";
        const InputError e = refusal([&] { parseNcclTestsLog("x_all_reduce_perf.log", text); });
        QCOMPARE(e.line(), 2);
        QCOMPARE(QString::fromStdString(e.field()), QString("row"));
        QVERIFY2(e.reason().find("columns") != std::string::npos, e.what());
    }

    // --- 2. Quadratic cost: refused early, the limit named ------------------------------
    void aHundredThousandRowLogIsRefusedAtItsLimit()
    {
        std::string text = kHeader;
        for (int i = 1; i <= 100000; ++i)
            text += ncclRow(8.0 * i, "10.00", "1.00");
        QElapsedTimer timer;
        timer.start();
        const InputError e = refusal([&] { parseNcclTestsLog("big_all_reduce_perf.log", text); });
        QVERIFY2(e.reason().find(std::to_string(kMaxNcclTestsRows)) != std::string::npos, e.what());
        QCOMPARE(QString::fromStdString(e.field()), QString("rows"));
        QVERIFY2(timer.elapsed() < scaledMs(2000), qPrintable(QString::number(timer.elapsed())));
    }

    void aHundredThousandLayerTableIsRefusedAtItsLimit_data()
    {
        QTest::addColumn<QString>("layer");
        QTest::newRow("chain") << "{name: l%1, type: elementwise}";
        QTest::newRow("convolutions") << "{name: l%1, type: convolution, out_channels: 8, kernel: 3, padding: 1}";
    }
    void aHundredThousandLayerTableIsRefusedAtItsLimit()
    {
        QFETCH(QString, layer);
        std::string text = "version: 1\nname: deep\nsource: test\ninput: {channels: 8, height: 8, width: 8}\nlayers:\n";
        for (int i = 0; i < 100000; ++i)
            text += "  - " + layer.arg(i).toStdString() + "\n";
        QElapsedTimer timer;
        timer.start();
        const InputError e = refusal([&] { loadLayerTableText(text, "deep.yaml"); });
        QVERIFY2(e.reason().find("at most") != std::string::npos && e.reason().find("10000 layers") != std::string::npos, e.what());
        QVERIFY2(timer.elapsed() < scaledMs(2000), qPrintable(QString::number(timer.elapsed())));
    }

    void tenThousandLayersWithBranchesResolveInLinearTime()
    {
        // Every other layer adds the output of the one before (a residual at every step):
        // each branch found by name, never by a walk back through the table.
        std::string text = "version: 1\nname: deep\nsource: test\ninput: {channels: 8, height: 8, width: 8}\nlayers:\n";
        for (int i = 0; i < 10000; ++i)
            text += i % 2 == 0 ? "  - {name: l" + std::to_string(i) + ", type: convolution, out_channels: 8, kernel: 3, padding: 1}\n"
                               : "  - {name: l" + std::to_string(i) + ", type: elementwise, residual: l" + std::to_string(i - 1) + "}\n";
        QElapsedTimer timer;
        timer.start();
        const LayerTable t = loadLayerTableText(text, "deep.yaml");
        const TableShapes shapes = tableShapes(t);
        QCOMPARE(shapes.errorLayer, -1);
        QCOMPARE(int(shapes.outputs.size()), 10000);
        QCOMPARE(shapes.source[9999], 9998);
        QVERIFY2(timer.elapsed() < scaledMs(5000), qPrintable(QString::number(timer.elapsed())));
    }

    // --- 3. Impossible rows and overlays ------------------------------------------------
    void impossibleNcclRowsAreRefused_data()
    {
        QTest::addColumn<QString>("time");
        QTest::addColumn<QString>("busbw");
        QTest::addColumn<QString>("field");
        QTest::newRow("busbw 1e300") << "10.00" << "1e300" << "busbw";
        QTest::newRow("time 1e300") << "1e300" << "1.00" << "time";
        QTest::newRow("time and busbw disagree") << "1000000.00" << "500.00" << "busbw"; // a bus factor of 5e5
    }
    void impossibleNcclRowsAreRefused()
    {
        QFETCH(QString, time);
        QFETCH(QString, busbw);
        QFETCH(QString, field);
        const std::string text = std::string(kHeader) + ncclRow(8, "10.00", "0.00") + ncclRow(1 << 20, time.toStdString(), busbw.toStdString());
        const InputError e = refusal([&] { parseNcclTestsLog("x_all_reduce_perf.log", text); });
        QCOMPARE(QString::fromStdString(e.field()), field);
        QCOMPARE(e.line(), 3);
    }

    void aZeroBandwidthInAnOverlayIsNotUnbounded()
    {
        QTemporaryDir dir;
        // 0 B/s read as "latency-bound" made the collective free.
        const InputError zero = refusal([&] {
            loadCalibrationOverlay(writeText(dir, "zero.yaml", overlayWith("{from: 8 B, to: 1 MB, latency: 10 us, bus_bandwidth: 0 B/s}")));
        });
        QCOMPARE(QString::fromStdString(zero.field()), QString("collectives[0].segments[0].bus_bandwidth"));
        QVERIFY2(zero.reason().find("unbounded") != std::string::npos, zero.what());
        // A segment with neither a latency nor a bandwidth term costs nothing.
        const InputError free = refusal([&] {
            loadCalibrationOverlay(writeText(dir, "free.yaml", overlayWith("{from: 8 B, to: 1 MB, latency: 0 s, bus_bandwidth: unbounded}")));
        });
        QCOMPARE(QString::fromStdString(free.field()), QString("collectives[0].segments[0].latency"));
        // Latency-bound is written as `unbounded`, and reads back.
        const CalibrationOverlay o = loadCalibrationOverlay(
            writeText(dir, "flat.yaml", overlayWith("{from: 8 B, to: 1 MB, latency: 10 us, bus_bandwidth: unbounded}")));
        QCOMPARE(o.collectives.front().segments.front().busBandwidth, 0.0);
        QVERIFY(calibrationOverlayText(o).find("bus_bandwidth: unbounded") != std::string::npos);
        // Past its largest size a latency-bound line is not free: at least the bandwidth
        // that moved its largest size in its latency (all-reduce, 8 ranks: factor 1.75).
        const MeasuredLink inside = measuredLink(o.collectives.front(), 1e5), beyond = measuredLink(o.collectives.front(), 1e9);
        QVERIFY(inside.beta > 1e300);
        QVERIFY(std::abs(beyond.beta / (1.75 * 1e6 / 10e-6) - 1) < 1e-9);
    }

    void traceValuesNoGpuCouldRecordAreRefused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("field");
        const QString kernel = "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": %1, \"dur\": %2, \"args\": {%3}}";
        auto trace = [&](const QString& events, const QString& extra = {}) { return QString("{\"traceEvents\": [%1]%2}").arg(events, extra); };
        QTest::newRow("ts 1e300") << trace(kernel.arg("1e300", "1", "")) << "traceEvents[0].ts";
        QTest::newRow("dur 1e300") << trace(kernel.arg("1", "1e300", "")) << "traceEvents[0].dur";
        QTest::newRow("events years apart") << trace(kernel.arg("1", "1", "") + ", " + kernel.arg("1e16", "1", "")) << "traceEvents";
        QTest::newRow("memory -1") << trace(kernel.arg("1", "1", ""), ", \"deviceProperties\": [{\"totalGlobalMem\": -1}]")
                                   << "deviceProperties[0].totalGlobalMem";
        QTest::newRow("memory 1e300") << trace(kernel.arg("1", "1", ""), ", \"deviceProperties\": [{\"totalGlobalMem\": 1e300}]")
                                      << "deviceProperties[0].totalGlobalMem";
        QTest::newRow("rank 9 of 8") << trace(kernel.arg("1", "1", ""), ", \"distributedInfo\": {\"rank\": 9, \"world_size\": 8}")
                                     << "distributedInfo.rank";
        QTest::newRow("1e308 elements") << trace("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclKernel_AllReduce\", \"ts\": 1, \"dur\": 1, \"args\": {\"In msg nelems\": 1e308, \"dtype\": \"Float\"}}")
                                        << "traceEvents[0].args.In msg nelems";
    }
    void traceValuesNoGpuCouldRecordAreRefused()
    {
        QFETCH(QString, text);
        QFETCH(QString, field);
        QTemporaryDir dir;
        const InputError e = refusal([&] { readKinetoTrace(writeText(dir, "t.json", text.toStdString())); });
        QCOMPARE(QString::fromStdString(e.field()), field);
        QVERIFY2(e.line() > 0, e.what());
    }

    // --- 5. A string of gigabytes is refused, not held --------------------------------
    void aHugeStringIsRefusedWithItsEventIndex()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/long.json").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            out << "{\"traceEvents\": [{\"ph\": \"X\"}, {\"ph\": \"X\", \"name\": \"";
            const std::string chunk(1 << 20, 'a');
            for (std::size_t i = 0; i <= (JsonReader::kMaxStringBytes >> 20); ++i)
                out << chunk;
            out << "\"}]}";
        }
        const InputError e = refusal([&] { readKinetoTrace(path); });
        QCOMPARE(QString::fromStdString(e.field()), QString("traceEvents[1]"));
        QVERIFY2(e.reason().find("longer than") != std::string::npos, e.what());
    }

    // --- 6. Messages that say what is wrong ---------------------------------------------
    void devicesPipesAndLoopsAreNamedForWhatTheyAre_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("says");
        QTest::newRow("/dev/zero") << "/dev/zero" << "is a device";
        QTest::newRow("/dev/null") << "/dev/null" << "is a device";
        QTest::newRow("fifo") << "FIFO" << "is a pipe";
        QTest::newRow("link loop") << "LOOP" << "loops";
    }
    void devicesPipesAndLoopsAreNamedForWhatTheyAre()
    {
        QFETCH(QString, path);
        QFETCH(QString, says);
        QTemporaryDir dir;
        std::string target = path.toStdString();
        if (path == "FIFO") {
            target = (dir.path() + "/pipe").toStdString();
            QCOMPARE(::mkfifo(target.c_str(), 0644), 0);
        } else if (path == "LOOP") {
            target = (dir.path() + "/a").toStdString();
            QVERIFY(QFile::link(dir.path() + "/b", QString::fromStdString(target)));
            QVERIFY(QFile::link(QString::fromStdString(target), dir.path() + "/b"));
        }
        for (auto read : { +[](const std::string& p) { readKinetoTrace(p); }, +[](const std::string& p) { readTextFile(p, "nccl-tests log"); } }) {
            const InputError e = refusal([&] { read(target); });
            QVERIFY2(e.reason().find(says.toStdString()) != std::string::npos, e.what());
            QVERIFY2(e.reason().find("not found or not readable") == std::string::npos, e.what());
        }
    }

    void encodingsAreNamed()
    {
        QTemporaryDir dir;
        const std::string json = "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": 2}]}";
        // A UTF-8 byte-order mark is harmless: read past.
        const KinetoTrace t = readKinetoTrace(writeText(dir, "bom.json", "\xEF\xBB\xBF" + json));
        QCOMPARE(int(t.gpu.size()), 1);
        // UTF-16 (with its mark, as Windows tools write it) is named, not "unexpected '\xef'".
        std::string utf16 = "\xFF\xFE";
        for (char c : json)
            utf16 += std::string { c, '\0' };
        const InputError e = refusal([&] { readKinetoTrace(writeText(dir, "utf16.json", utf16)); });
        QVERIFY2(e.reason().find("UTF-16") != std::string::npos, e.what());
        // A byte that is not text is shown by its value.
        const InputError binary = refusal([&] { readKinetoTrace(writeText(dir, "bin.json", "{\"traceEvents\": [\x80]}")); });
        QVERIFY2(binary.reason().find("byte 0x80") != std::string::npos, binary.what());
    }

    void nonFiniteValuesAreRefusedWhereTheyAreWritten()
    {
        QTemporaryDir dir;
        // Not "the simulation gave ... report the scenario": the file, line and field.
        const InputError trace = refusal([&] {
            readKinetoTrace(writeText(dir, "inf.json", "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": 1e999, \"dur\": 1}]}"));
        });
        QVERIFY2(trace.line() == 1 && trace.what() == std::string(trace.where() + ":1: " + trace.field() + ": " + trace.reason()), trace.what());
        QVERIFY2(std::string(trace.what()).find("simulation") == std::string::npos, trace.what());
        const InputError log = refusal([&] { parseNcclTestsLog("x_all_reduce_perf.log", std::string(kHeader) + ncclRow(8, "inf", "1.00") + ncclRow(16, "10.00", "1.00")); });
        QCOMPARE(QString::fromStdString(log.field()), QString("time"));
        QCOMPARE(log.line(), 2);
    }

    void aNulByteIsNamedWithItsLine()
    {
        QTemporaryDir dir;
        const std::string path = writeText(dir, "s.yaml", std::string("version: 1\nname: \"a\0b\"\n", 24));
        const InputError e = refusal([&] { readTextFile(path, "scenario file"); });
        QCOMPARE(e.line(), 2);
        QVERIFY2(e.reason().find("NUL byte") != std::string::npos, e.what());
    }
};

QTEST_GUILESS_MAIN(TestMeasureEdges)
#include "tst_measure_edges.moc"
