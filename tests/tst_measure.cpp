// The measurement reader: real PyTorch profiler traces (tests/profiles, from Holistic
// Trace Analysis) read by dtsim's streaming JSON reader and summarized, compared with
// figures Python computed from the same raw events (tests/profiles/expected.json).
#include "simcore/input_error.h"
#include "simcore/loader/read_file.h"
#include "simcore/measure/json_reader.h"
#include "simcore/measure/nccl_tests.h"
#include "simcore/measure/profile_summary.h"
#include "test_data.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace dtsim;

namespace {

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)) + 1e-12; }

QJsonObject expected()
{
    QFile f(QString::fromStdString(test::dataPath("tests/profiles/expected.json")));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("tests/profiles/expected.json is missing");
    return QJsonDocument::fromJson(f.readAll()).object();
}

void compareTimes(const GpuTimes& g, const QJsonObject& e, const QString& where)
{
    const std::pair<double, const char*> pairs[] = { { g.span, "span_s" }, { g.busy, "busy_s" }, { g.compute, "compute_s" },
        { g.communication, "communication_s" }, { g.overlapped, "overlapped_s" } };
    for (const auto& [mine, key] : pairs)
        QVERIFY2(close(mine, e[key].toDouble()), qPrintable(QString("%1 %2: dtsim %3, expected %4").arg(where, key).arg(mine, 0, 'g', 12)
                                                               .arg(e[key].toDouble(), 0, 'g', 12)));
}

std::string writeText(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    const std::string path = (dir.path() + "/" + name).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

} // namespace

class TestMeasure : public QObject {
    Q_OBJECT
private slots:
    void everyRealTraceMatchesTheIndependentFigures_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString& f : expected().keys())
            QTest::newRow(qPrintable(f)) << f;
    }

    void everyRealTraceMatchesTheIndependentFigures()
    {
        QFETCH(QString, file);
        const QJsonObject e = expected()[file].toObject();
        const KinetoTrace t = readKinetoTrace(test::dataPath("tests/profiles/" + file.toStdString()));
        const ProfileSummary s = summarizeProfile(t);
        QCOMPARE(double(t.events), e["events"].toDouble());
        QCOMPARE(s.device, e["device"].toInt());
        QCOMPARE(double(s.activities), e["activities"].toDouble());
        const QJsonObject cats = e["categories"].toObject();
        for (int c = 0; c < kKernelCategoryCount; ++c) {
            const QJsonObject x = cats[kernelCategoryName(KernelCategory(c))].toObject();
            QCOMPARE(double(s.categories[c].count), x["count"].toDouble());
            QVERIFY2(close(s.categories[c].seconds, x["gpu_s"].toDouble()), kernelCategoryName(KernelCategory(c)));
        }
        const QJsonObject colls = e["collectives"].toObject();
        QCOMPARE(int(s.collectives.size()), colls.size());
        for (const CollectiveStats& k : s.collectives) {
            const QJsonObject x = colls[QString::fromStdString(k.type)].toObject();
            QCOMPARE(double(k.count), x["count"].toDouble());
            QVERIFY(close(k.seconds, x["gpu_s"].toDouble()));
            QVERIFY(close(k.bytes, x["bytes"].toDouble()));
        }
        compareTimes(s.whole, e["whole"].toObject(), "whole");
        const QJsonArray steps = e["steps"].toArray();
        QCOMPARE(int(s.steps.size()), int(steps.size()));
        for (int i = 0; i < int(steps.size()); ++i) {
            const QJsonObject x = steps[i].toObject();
            QCOMPARE(QString::fromStdString(s.steps[std::size_t(i)].name), x["name"].toString());
            QCOMPARE(double(s.steps[std::size_t(i)].activities), x["activities"].toDouble());
            compareTimes(s.steps[std::size_t(i)].gpu, x, x["name"].toString());
        }
    }

    // The figures the issue names for the two-GPU ResNet trace, as plain facts.
    void resnetAllReduceTrace()
    {
        const KinetoTrace t = readKinetoTrace(test::dataPath("tests/profiles/a100x2-resnet-allreduce.json.gz"));
        QCOMPARE(t.deviceName, std::string("NVIDIA A100-PG509-200"));
        QCOMPARE(t.worldSize, 2);
        QCOMPARE(t.computeMajor, 8);
        const ProfileSummary s = summarizeProfile(t);
        QCOMPARE(int(s.steps.size()), 3);
        const auto allReduce = std::find_if(s.collectives.begin(), s.collectives.end(), [](auto& k) { return k.type == "allreduce"; });
        QVERIFY(allReduce != s.collectives.end());
        QCOMPARE(allReduce->count, 15LL);
        QCOMPARE(allReduce->sized, 15LL);
        QVERIFY(allReduce->bytes > 1e8); // fp32 gradients of ResNet, several steps
        QVERIFY(s.whole.overlapped > 0 && s.whole.overlapped < s.whole.communication);
    }

    // A hand-written trace (tests/profiles/handmade: not measured, it pins the
    // arithmetic): compute 0-10 us, an all-reduce 5-15 us on another stream, a copy
    // 20-22 us, one step around them.
    void overlapAndIdleArithmetic()
    {
        const std::string path = test::dataPath("tests/profiles/handmade/overlap.json");
        const KinetoTrace t = readKinetoTrace(path);
        QCOMPARE(t.rank, 3);
        QCOMPARE(t.worldSize, 8);
        const ProfileSummary s = summarizeProfile(t);
        QCOMPARE(s.categories[int(KernelCategory::Gemm)].count, 1LL);
        QCOMPARE(s.collectives.front().bytes, 2000.0);
        QVERIFY(close(s.whole.span, 22e-6));
        QVERIFY(close(s.whole.busy, 17e-6));
        QVERIFY(close(s.whole.idle(), 5e-6));
        QVERIFY(close(s.whole.overlapped, 5e-6));
        QVERIFY(close(s.whole.hiddenCommunication(), 0.5));
        QCOMPARE(s.steps.front().activities, 3LL);
    }

    // Today's traces (PyTorch 2.11, CUDA 13, one H200; tests/measurements/h200-pytorch):
    // cuBLAS's nvjet GEMMs and cuDNN's attention helpers by the op that launched them, one
    // step per ProfilerStep (not twice, with the GPU's copy of the range), and each step's
    // GEMM and attention time against the figures Python computed from the raw events.
    void todaysTracesByLaunchingOp_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("gpt2") << "gpt2-124m-v50304-b16-s1024.trace.json.gz";
        QTest::newRow("llama") << "llama-0.5b-b8-s2048.trace.json.gz";
    }
    void todaysTracesByLaunchingOp()
    {
        QFETCH(QString, file);
        const std::string folder = test::dataPath("tests/measurements/h200-pytorch/");
        QFile f(QString::fromStdString(folder + "expected-steps.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray expectedSteps = QJsonDocument::fromJson(f.readAll()).object()[file].toArray();
        const ProfileSummary s = summarizeProfile(readKinetoTrace(folder + file.toStdString()));
        QCOMPARE(int(s.steps.size()), 3);
        QCOMPARE(expectedSteps.size(), 3);
        for (int i = 0; i < 3; ++i) {
            const QJsonObject e = expectedSteps[i].toObject();
            const StepFigures& st = s.steps[std::size_t(i)];
            QCOMPARE(QString::fromStdString(st.name), e["name"].toString());
            const double gemm = st.categories[int(KernelCategory::Gemm)].seconds, attention = st.categories[int(KernelCategory::Attention)].seconds;
            QVERIFY2(std::abs(gemm / e["gemm_s"].toDouble() - 1) < 0.05, qPrintable(QString("%1: GEMM %2 s, raw events %3 s").arg(st.name.c_str()).arg(gemm).arg(e["gemm_s"].toDouble())));
            QVERIFY2(std::abs(attention / e["attention_s"].toDouble() - 1) < 0.05, qPrintable(QString("%1: attention %2 s").arg(st.name.c_str()).arg(attention)));
        }
        // Every GEMM op with shapes has its FLOPs: the rate is a real one, under the peak.
        const CategoryTime& g = s.categories[int(KernelCategory::Gemm)];
        QVERIFY(g.ops > 100);
        QVERIFY2(g.rate() > 500e12 && g.rate() < 989e12, qPrintable(QString::number(g.rate())));
        QCOMPARE(s.categories[int(KernelCategory::Convolution)].count, 0LL); // cuDNN's attention helpers are attention
    }

    void badInputNamesFileLineAndField_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << "hello" << ":1: not JSON: unexpected 'h'";
        QTest::newRow("truncated") << "{\"traceEvents\": [\n{\"ph\": \"X\"" << ":2: traceEvents[0]: not JSON: expected ',' or '}'";
        QTest::newRow("missing comma") << "{\"traceEvents\": [{\"ph\": \"X\" \"cat\": 1}]}" << "expected ',' or '}'";
        QTest::newRow("no events") << "{\"schemaVersion\": 1}" << "traceEvents: is missing";
        QTest::newRow("events not a list") << "{\"traceEvents\": 3}" << "traceEvents: must be a list";
        QTest::newRow("ts as text") << "{\"traceEvents\": [{}, \n{\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": \"soon\"}]}"
                                    << ":2: traceEvents[1].ts: must be a number";
        QTest::newRow("kernel without dur") << "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 5}]}"
                                            << "traceEvents[0].dur: is missing";
        QTest::newRow("trailing text") << "{\"traceEvents\": []} x" << "text after the end";
        // Found by the fuzzer: a device index of 4e10 was cast to int (undefined).
        QTest::newRow("device out of range") << "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": 1, \"dur\": 1, \"args\": {\"device\": 4.2e10}}]}"
                                             << "traceEvents[0].args.device: must be a whole number";
        QTest::newRow("bad escape") << "{\"traceEvents\": [{\"name\": \"a\\q\"}]}" << "unknown escape";
    }

    void badInputNamesFileLineAndField()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const std::string path = writeText(dir, "bad.json", text.toStdString());
        try {
            readKinetoTrace(path);
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path)) && QString(e.what()).contains(message), e.what());
        }
    }

    // The Trace Event Format's other layout, a plain list of events, is what PyTorch's
    // profiler writes without Kineto (Debian's python3-torch): read the same way.
    void aListOfEventsIsATrace()
    {
        QTemporaryDir dir;
        const std::string events = R"([{"name": "ProfilerStep#1", "ph": "X", "ts": 100, "dur": 50, "tid": 1, "pid": "CPU functions"},
            {"name": "aten::mm", "ph": "X", "ts": 110, "dur": 20, "tid": 1, "pid": "CPU functions"}])";
        const KinetoTrace t = readKinetoTrace(writeText(dir, "list.json", events));
        QCOMPARE(t.events, 2LL);
        QCOMPARE(int(summarizeProfile(t).steps.size()), 1);
        QVERIFY_THROWS_EXCEPTION(InputError, readKinetoTrace(writeText(dir, "list2.json", "[1, 2]")));
        QVERIFY_THROWS_EXCEPTION(InputError, readKinetoTrace(writeText(dir, "list3.json", "[] []")));
    }

    void truncatedGzipIsRefused()
    {
        QFile real(QString::fromStdString(test::dataPath("tests/profiles/a100-alexnet-forward.json.gz")));
        QVERIFY(real.open(QIODevice::ReadOnly));
        const QByteArray bytes = real.readAll();
        QTemporaryDir dir;
        const std::string path = writeText(dir, "cut.json.gz", bytes.left(bytes.size() / 2).toStdString());
        QVERIFY_THROWS_EXCEPTION(InputError, readKinetoTrace(path));
        QVERIFY_THROWS_EXCEPTION(InputError, readKinetoTrace((dir.path() + "/missing.json").toStdString()));
    }

    void unicodeEscapesBecomeUtf8()
    {
        QTemporaryDir dir;
        const std::string path = writeText(dir, "u.json", "[\"\\u00e9\\ud83d\\ude00\"]");
        CompressedFile f(path);
        JsonReader r(f);
        QVERIFY(r.next() == JsonReader::Token::BeginArray);
        QVERIFY(r.next() == JsonReader::Token::String);
        QCOMPARE(r.text(), std::string("\xc3\xa9\xf0\x9f\x98\x80"));
        QVERIFY(r.next() == JsonReader::Token::EndArray);
        QVERIFY(r.next() == JsonReader::Token::End);
    }

    void cancelStopsTheReading()
    {
        // The progress callback is asked every 65,536 events; the 16-rank trace has 108,936.
        int calls = 0;
        QVERIFY_THROWS_EXCEPTION(InputError, readKinetoTrace(test::dataPath("tests/profiles/a100-80gb-16rank-rank0.json.gz"), [&](double) {
            ++calls;
            return false;
        }));
        QCOMPARE(calls, 1);
    }

    // nccl-tests: the sample logs (tests/nccl, synthetic: written by make_sample_logs.py
    // from stated protocol regimes) are fitted within 5% at every size, and the fit
    // recovers the regimes' latency and bandwidth.
    void ncclTestsFitRecoversTheRegimes_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("collective");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<QList<double>>("latencyUs");
        QTest::addColumn<QList<double>>("busGBs");
        QTest::newRow("all-reduce, 8 GPUs") << "all_reduce_perf-8xh100.log" << "allreduce" << 8 << QList<double> { 9, 16, 35 }
                                             << QList<double> { 40, 160, 360 };
        QTest::newRow("all-gather, 16 GPUs") << "all_gather_perf-16gpu-2nodes.log" << "allgather" << 16 << QList<double> { 20, 60 }
                                              << QList<double> { 8, 42 };
    }

    void ncclTestsFitRecoversTheRegimes()
    {
        QFETCH(QString, file);
        QFETCH(QString, collective);
        QFETCH(int, ranks);
        QFETCH(QList<double>, latencyUs);
        QFETCH(QList<double>, busGBs);
        const std::string path = test::dataPath("tests/nccl/" + file.toStdString());
        const NcclTestsLog log = parseNcclTestsLog(path, readTextFile(path, "log"));
        QCOMPARE(QString::fromStdString(log.collective), collective);
        QCOMPARE(log.ranks, ranks);
        QVERIFY(std::abs(log.factor / busFactor(log.collective, ranks) - 1) < 0.01);
        QCOMPARE(int(log.rows.size()), 31); // 8 B to 8 GiB by doubling
        const NcclFit fit = fitNcclTests(log);
        for (const NcclTestsRow& r : log.rows)
            QVERIFY2(std::abs(fit.busBandwidthAt(r.bytes, log.factor) / r.busBandwidth - 1) <= 0.05, qPrintable(QString::number(r.bytes)));
        QCOMPARE(int(fit.segments.size()), int(latencyUs.size()));
        for (int i = 0; i < int(fit.segments.size()); ++i) {
            const BandwidthSegment& g = fit.segments[std::size_t(i)];
            QVERIFY2(std::abs(g.latency / (latencyUs[i] * 1e-6) - 1) < 0.1, qPrintable(QString::number(g.latency)));
            QVERIFY2(std::abs(g.busBandwidth / (busGBs[i] * 1e9) - 1) < 0.1, qPrintable(QString::number(g.busBandwidth)));
        }
    }

    void ncclTestsLogsWithLauncherPrefixesAndBadRows()
    {
        const std::string header = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";
        // mpirun's "[1,0]<stdout>:" before each line, NCCL INFO lines between rows.
        const std::string prefixed = "[1,0]<stdout>:" + header
            + "[1,0]<stdout>:        1024           256     float     sum      -1    20.00    0.05    0.09      0    20.00    0.05    0.09      0\n"
              "[1,0]<stdout>:node:1:1 [0] NCCL INFO Launch mode Parallel\n"
              "[1,0]<stdout>:  1073741824     268435456     float     sum      -1   6000.0  178.96  335.54      0   6000.0  178.96  335.54      0\n";
        const NcclTestsLog log = parseNcclTestsLog("all_reduce_perf.log", prefixed);
        QCOMPARE(int(log.rows.size()), 2);
        QVERIFY(std::abs(log.factor - 1.875) < 0.001); // 16 ranks: 2 x 15 / 16
        auto refused = [](const std::string& text, const char* needle, const std::string& collective = "") {
            try {
                parseNcclTestsLog("x.log", text, collective);
            } catch (const InputError& e) {
                return QString(e.what()).contains(needle);
            }
            return false;
        };
        QVERIFY(refused("no table here\n", "collective")); // neither the text nor the name says which
        QVERIFY(refused("no table here\n", "no nccl-tests table", "allreduce"));
        QVERIFY(refused(header + "  1024  256  float  sum  -1  soon  0.05  0.09  0\n", "x.log:2: time", "allreduce"));
        QVERIFY(refused(header + "  1024  256  float\n", "x.log:2: row", "allreduce"));
        QVERIFY(refused("  1024  256  float  sum  -1  20  0.05  0.09  0\n", "before the column header", "allreduce"));
        QVERIFY(refused(header + "  1024  256  float  sum  -1  20  0.05  0.09  0\n", "fewer than two", "allreduce"));
    }
};

QTEST_GUILESS_MAIN(TestMeasure)
#include "tst_measure.moc"
