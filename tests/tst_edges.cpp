// The edges of issue 19, one test per reported failure (numbers follow the issue): each
// input that used to hang, overflow into a negative or non-finite figure, or give a
// silently wrong answer now either computes to finite, non-negative results or is
// refused naming the file, the line (or the --set) and the field.
#include "simcore/input_error.h"
#include "simcore/loader/published_runs_loader.h"
#include "simcore/model.h"
#include "simcore/plan_check.h"
#include "simcore/planner/scaling.h"
#include "simcore/reliability/reliability.h"
#include "simcore/report_check.h"
#include "simcore/scenario_limits.h"
#include "simcore/step.h"
#include "test_data.h"
#include "simcore/planner/sync_wall.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace dtsim;

namespace {

// The preset as YAML text, so a test can edit it as a user would.
std::string presetText(const std::string& name)
{
    std::ifstream in(test::dataPath("presets/" + name + ".yaml"));
    return std::string(std::istreambuf_iterator<char>(in), {});
}

Scenario load(const std::string& text, const std::vector<Override>& overrides = {}, ScenarioSource* source = nullptr)
{
    return loadScenarioText(text, "edge.yaml", test::catalog(), overrides, test::topologies(), source);
}

std::vector<Override> sets(std::initializer_list<const char*> args)
{
    std::vector<Override> out;
    for (const char* a : args)
        out.push_back(parseOverride(a));
    return out;
}

// The refusal `load` throws, or a failed test when it throws none.
InputError refusal(const std::string& text, const std::vector<Override>& overrides = {})
{
    try {
        load(text, overrides);
    } catch (const InputError& e) {
        return e;
    }
    return InputError("(accepted)", 0, "", "");
}

} // namespace

class TestEdges : public QObject {
    Q_OBJECT
private slots:
    // --- 2. Hangs on accepted input ----------------------------------------------------
    void syncWallWithTheLargestBatchOnOneGpu()
    {
        // global_batch 2^31 - 1 (a prime) on one GPU: the sync-wall loop's int dp
        // overflowed and never ended. Now the sweep visits the batch's divisors only.
        const Scenario s = test::preset("llama2-7b-8xa100",
            sets({ "training.global_batch=2147483647", "training.micro_batch=1", "training.tokens=1e20", "cluster.gpus=1",
                "parallel.dp=1", "parallel.zero=0" }));
        QElapsedTimer timer;
        timer.start();
        const Report r = predictRunWithSyncWall(s, test::calibration());
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(!badQuantity(r));
        QVERIFY(r.syncWallGpus == 1 || r.syncWallGpus == 2147483647);
        const std::vector<int> degrees = dataParallelDegrees(s);
        QCOMPARE(degrees, (std::vector<int> { 1, 2147483647 }));
    }

    void syncWallOverABillionSequences()
    {
        // global_batch 1e9 took 15 s an evaluation; its 100 divisors take milliseconds.
        const Scenario s = test::preset("llama2-7b-8xa100",
            sets({ "training.global_batch=1000000000", "training.micro_batch=1", "training.tokens=1e20" }));
        QCOMPARE(dataParallelDegrees(s).size(), std::size_t(100)); // 1e9 = 2^9 5^9
        QElapsedTimer timer;
        timer.start();
        const Report r = predictRunWithSyncWall(s, test::calibration());
        const ScalingCurves c = scalingCurves(s, test::calibration());
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(!badQuantity(r));
        QCOMPARE(r.syncWallGpus % 1, 0);
        QVERIFY(1000000000 % r.syncWallGpus == 0);
        // One rule for the sync wall: the scaling sweep names the same GPU count.
        QCOMPARE(c.syncWallGpus, r.syncWallGpus);
    }

    void runsThatCannotFinishAreRefusedNamingTheField_data()
    {
        QTest::addColumn<QString>("set");
        QTest::addColumn<QString>("field");
        // Refused when loaded since issue 38: a GPU 1e20 times slower is a fault, not a straggler.
        QTest::newRow("straggler 1e20") << "reliability.straggler_slowdown=1e20" << "reliability.straggler_slowdown";
        QTest::newRow("memory 1 kB/s") << "hardware.memory_bandwidth=1 kB/s" << "training.tokens";
        QTest::newRow("link at 1e-9") << "reliability.degraded_link.bandwidth_fraction=1e-9"
                                      << "reliability.degraded_link.bandwidth_fraction";
        QTest::newRow("one-year interval") << "reliability.checkpoint_interval=1 year" << "reliability.checkpoint_interval";
        QTest::newRow("1e12 s interval") << "reliability.checkpoint_interval=1e12 s" << "reliability.checkpoint_interval";
        QTest::newRow("storage at 1 kB/s") << "reliability.storage_write_bandwidth=1 kB/s" << "reliability.storage_write_bandwidth";
    }
    void runsThatCannotFinishAreRefusedNamingTheField()
    {
        QFETCH(QString, set);
        QFETCH(QString, field);
        Scenario s;
        try {
            s = test::preset("llama3-405b-h100", { parseOverride(set.toStdString()) });
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.field()), field);
            return;
        }
        QElapsedTimer timer;
        timer.start();
        const ReliabilityReport r = analyzeReliability(s, test::calibration(), test::failureRates());
        const auto issue = runIssue(s, r);
        QVERIFY2(issue, "accepted a run that cannot finish");
        QCOMPARE(QString::fromStdString(issue->field), field);
        QVERIFY(timer.elapsed() < 2000);
    }

    void anEditTheLoaderWouldRejectIsFlagged()
    {
        // The GUI edits a scenario in memory; KV heads 64 on 32 heads would save a file
        // the loader refuses (issue 21), so the engine's own check names the field.
        Scenario s = test::preset("llama2-7b-8xa100");
        s.model.kvHeads = 64;
        const auto issue = checkScenario(s);
        QVERIFY(issue);
        QCOMPARE(QString::fromStdString(issue->field), QString("model.kv_heads"));
        s.model.kvHeads = 8;
        QVERIFY(!checkScenario(s));
    }

    void theShippedRunsFinish()
    {
        for (const std::string& name : test::presetNames()) {
            const Scenario s = test::preset(name);
            const ReliabilityReport r = analyzeReliability(s, test::calibration(), test::failureRates());
            QVERIFY2(!runIssue(s, r), name.c_str());
            QVERIFY(r.expectedFailures > 0 && std::isfinite(r.expectedFailures));
        }
    }

    void monteCarloIsBoundedByFailuresAndSaysWhenItStops()
    {
        // An interval close to the MTBF: each interval is retried ~e^2 times. The
        // trials follow at most 50x the expected failures (+1,000), and count any
        // trial they stop, rather than capping its time silently.
        ReliabilityReport r;
        r.clusterMtbf = 3600;
        r.failuresPerDayByCause = { 24, 0, 0, 0, 0, 0 };
        r.checkpointWrite = 60;
        r.recovery = 300;
        r.interval = 7200;
        r.failureFreeTime = 30 * 86400.0;
        r.gpus = 1000;
        r.overheadFraction = runOverhead(r.clusterMtbf, r.checkpointWrite, r.recovery, r.interval).exact;
        r.expectedTime = r.failureFreeTime * (1 + r.overheadFraction);
        r.expectedFailures = r.expectedTime / (r.clusterMtbf + r.recovery);
        r.plan = storagePlan(r);
        const MonteCarloResult m = sampleRuns(r, {}, 200, 3);
        QCOMPARE(int(m.times.size()), 200);
        QCOMPARE(m.cappedTrials, 0); // the tail of a real run is far inside the cap
        QVERIFY(std::abs(m.mean / r.expectedTime - 1) < 0.05);
        // The budget: a run expecting 1e5 failures affords 100 of 1,000 trials, and half
        // of that when chaos events run every trial twice.
        r.expectedFailures = 1e5;
        QCOMPARE(affordableTrials(r, 1000), 100);
        QCOMPARE(affordableTrials(r, 1000, 2), 50);
        QCOMPARE(affordableTrials(r, 10), 10);
    }

    void theFirstTrialsPhasesStayBounded()
    {
        // A one-year interval on the 405B preset grew the Reliability tab by 200 MB/s:
        // every interval between two failures was recorded. Now long stretches are one
        // span and the recording stops at 200,000 phases.
        ReliabilityReport r;
        r.clusterMtbf = INFINITY;
        r.checkpointWrite = 1;
        r.recovery = 100;
        r.interval = 10;
        r.failureFreeTime = 1e9; // 1e8 intervals and no failure
        r.gpus = 8;
        r.expectedTime = r.failureFreeTime * (1 + runOverhead(r.clusterMtbf, 1, 100, 10).exact);
        r.plan = storagePlan(r);
        const MonteCarloResult m = sampleRuns(r, {}, 1, 1, true);
        QVERIFY2(m.firstTrial.size() <= 4002, qPrintable(QString::number(m.firstTrial.size())));
        QVERIFY(!m.firstTrial.empty());
        QCOMPARE(m.firstTrial.back().end, m.times.front());
    }

    // --- 3. Overflow gave negative results with exit 0 --------------------------------
    void aModelNoClusterCouldHoldIsRefused()
    {
        // hidden 600,000,000 with one head: parameters -6.3e19 and MFU -105% before.
        const InputError e = refusal(presetText("llama2-7b-8xa100"),
            sets({ "model.hidden=600000000", "model.heads=1", "model.kv_heads=1" }));
        QCOMPARE(QString::fromStdString(e.field()), QString("model.hidden"));
        QVERIFY2(QString(e.what()).startsWith("--set model.hidden=600000000:"), e.what());
        QVERIFY2(QString(e.what()).contains("more than any cluster could hold"), e.what());
        // Counted in doubles, the count is right even there: 32 layers of 2 x 12 h^2.
        ModelSpec m = test::preset("llama2-7b-8xa100").model;
        m.hidden = 600000000, m.heads = 1, m.kvHeads = 1, m.headDim = 600000000, m.ffnHidden = 11008;
        const ParameterCounts c = countParameters(m, 4096);
        QVERIFY(c.total > 4e19 && std::isfinite(c.total));
        QCOMPARE(m.queryDim(), 6e8);
    }

    void theLongestSequenceHasPositiveFlops()
    {
        // seq_len 2^31 - 1 made (seq + 1) overflow: negative FLOPs.
        const Scenario s = test::preset("llama2-7b-8xa100",
            sets({ "training.seq_len=2147483647", "training.global_batch=8", "training.micro_batch=1", "training.tokens=1e20" }));
        const ForwardFlops f = forwardFlopsPerToken(s.model, s.training.seqLen);
        QVERIFY(f.attention > 0);
        // 32 layers x 2 x (32 x 128 x 2) x 2^30 positions.
        QVERIFY(std::abs(f.attention / (32 * 2.0 * 8192 * 1073741824.0) - 1) < 1e-9);
        const Report r = predictRun(s, test::calibration());
        QVERIFY2(!badQuantity(r), badQuantity(r).value_or("").c_str());
        QVERIFY(r.step.mfu > 0 && r.step.mfu < 1);
    }

    void moeLayerCountIsAClosedForm()
    {
        ModelSpec m;
        m.layers = 2147483647;
        m.moe.experts = 8;
        m.moe.firstDenseLayers = 3;
        m.moe.layerInterval = 2;
        QCOMPARE(m.moeLayerCount(), 1073741822); // layers 3, 5, ..., 2^31 - 2
        m.layers = 61;
        m.moe.layerInterval = 1;
        QCOMPARE(m.moeLayerCount(), 58); // DeepSeek-V3: three dense layers, then MoE
    }

    // --- 4. Non-finite values leaked out ----------------------------------------------
    void validationRowsWithNonNumbersAreRefusedWithTheirLine()
    {
        QTemporaryDir dir;
        const std::string row = "- id: mine-1\n  quality: good\n  architecture: {layers: 32, hidden_size: 4096, "
                                "attention_heads: 32, seq_len: SEQ}\n  result: {tflops_per_gpu: TFLOPS}\n";
        auto write = [&](const std::string& seq, const std::string& tflops) {
            std::string text = row;
            text.replace(text.find("SEQ"), 3, seq);
            text.replace(text.find("TFLOPS"), 6, tflops);
            const std::string path = (dir.path() + "/runs.yaml").toStdString();
            std::ofstream(path) << text;
            return path;
        };
        for (const auto& [seq, tflops, field] : { std::tuple { "0", "150", "[0].architecture.seq_len" },
                 std::tuple { "2048", ".inf", "[0].result.tflops_per_gpu" }, std::tuple { "2048", "inf", "[0].result.tflops_per_gpu" },
                 std::tuple { "2048", ".nan", "[0].result.tflops_per_gpu" }, std::tuple { "2048", "-3", "[0].result.tflops_per_gpu" } }) {
            try {
                loadPublishedRuns(write(seq, tflops));
                QFAIL(qPrintable(QString("accepted seq_len %1, tflops %2").arg(seq, tflops)));
            } catch (const InputError& e) {
                QCOMPARE(QString::fromStdString(e.field()), QString(field));
                QVERIFY2(e.line() >= 3, e.what());
            }
        }
        QCOMPARE(loadPublishedRuns(write("2048", "null")).size(), std::size_t(1)); // unknown is fine
    }

    void hiddenTrafficIsNeverNegative()
    {
        // Rounding left -3e-17 s of "contention" on a run whose collectives are all
        // exposed; the report's edge check would refuse it.
        for (const std::string& name : test::presetNames()) {
            const Report r = predictRun(test::preset(name), test::calibration());
            QVERIFY2(!badQuantity(r), (name + ": " + badQuantity(r).value_or("")).c_str());
        }
    }

    // --- 5. Silent wrong answers --------------------------------------------------------
    void duplicateKeysAreRefusedWithBothLines()
    {
        const std::string text = presetText("llama2-7b-8xa100") + "parallel:\n  dp: 4\n";
        const InputError e = refusal(text);
        QCOMPARE(QString::fromStdString(e.field()), QString("parallel"));
        QVERIFY2(QString::fromStdString(e.reason()).contains("already set on line"), e.what());
        QVERIFY(e.line() > 30);
        // Inside a section too, and in flow style.
        const InputError f = refusal("version: 1\nmodel: {layers: 2, layers: 3}\n");
        QCOMPARE(QString::fromStdString(f.field()), QString("model.layers"));
        QCOMPARE(f.line(), 2);
    }

    void setSplitsAnAliasAndSaysSo()
    {
        // --set model.hidden=8192 also changed a head_dim that aliased it.
        std::string text = presetText("llama2-7b-8xa100");
        text.replace(text.find("hidden: 4096"), 12, "hidden: &h 4096\n  head_dim: *h");
        ScenarioSource source;
        const Scenario s = load(text, sets({ "model.hidden=8192", "model.heads=64", "model.kv_heads=64" }), &source);
        QCOMPARE(s.model.hidden, 8192);
        QCOMPARE(s.model.headDim, 4096); // the alias kept its value
        QCOMPARE(int(source.notes.size()), 1);
        QVERIFY2(QString::fromStdString(source.notes[0]).contains("model.head_dim"), source.notes[0].c_str());
        // The other way round: setting the alias leaves the anchor alone.
        const Scenario t = load(text, sets({ "model.head_dim=128" }));
        QCOMPARE(t.model.hidden, 4096);
        QCOMPARE(t.model.headDim, 128);
        // And a whole aliased section: only the named copy changes.
        const std::string tiers = "version: 1\nmodel: {layers: 2, hidden: 256, heads: 4, ffn_hidden: 1024, vocab: 1000}\n"
                                  "training: {global_batch: 64, seq_len: 128, tokens: 1M}\nhardware: {gpu: h100-sxm}\n"
                                  "cluster:\n  gpus: 64\n  tiers:\n    - &t {span_gpus: 16, oversubscription: 2}\n"
                                  "    - {span_gpus: 64, oversubscription: 2}\n";
        const Scenario u = load(tiers, sets({ "cluster.tiers[0].oversubscription=4" }));
        QCOMPARE(u.cluster.tiers[0].oversubscription, 4.0);
        QCOMPARE(u.cluster.tiers[1].oversubscription, 2.0);
    }

    void aFractionOfATokenIsNotARun()
    {
        const InputError e = refusal(presetText("llama2-7b-8xa100"), sets({ "training.tokens=0.5" }));
        QCOMPARE(QString::fromStdString(e.field()), QString("training.tokens"));
        QVERIFY2(QString::fromStdString(e.reason()).contains("less than one step"), e.what());
        // From the file, the error has the line of the key.
        std::string text = presetText("llama2-7b-8xa100");
        text.replace(text.find("tokens: 20B"), 11, "tokens: 1000");
        const InputError f = refusal(text);
        QCOMPARE(f.line(), 20); // "  tokens: 1000" in presets/llama2-7b-8xa100.yaml
        QCOMPARE(checkLimits(test::preset("llama2-7b-8xa100")), std::nullopt);
    }

    void aScenarioWithoutAParallelSectionIsDataParallel()
    {
        // The comment said dp defaulted to the GPU count; the code left it at 1.
        std::string text = presetText("llama2-7b-8xa100");
        text = text.substr(0, text.find("parallel:"));
        const Scenario s = load(text);
        QCOMPARE(s.plan.dp, 8);
    }

    // --- 7. Unclear messages --------------------------------------------------------------
    void messagesNameTheRightOrigin_data()
    {
        QTest::addColumn<QString>("set");
        QTest::addColumn<QString>("starts");
        QTest::addColumn<QString>("says");
        QTest::newRow("unknown section") << "foo.bar=1" << "--set foo.bar=1: foo:" << "unknown key";
        QTest::newRow("empty component") << "model.=4" << "--set model.=4: model.:" << "empty component";
        QTest::newRow("empty value") << "model.layers=" << "--set model.layers=: model.layers:" << "no value";
        QTest::newRow("unknown key") << "model.hidden_size=3" << "--set model.hidden_size=3: model.hidden_size:" << "unknown key";
        QTest::newRow("section error") << "parallel.dp=3" << "edge.yaml:" << "(with --set parallel.dp=3)";
    }
    void messagesNameTheRightOrigin()
    {
        QFETCH(QString, set);
        QFETCH(QString, starts);
        QFETCH(QString, says);
        QString what;
        try {
            const std::vector<Override> o { parseOverride(set.toStdString()) };
            what = refusal(presetText("llama2-7b-8xa100"), o).what();
        } catch (const InputError& e) {
            what = e.what();
        }
        QVERIFY2(what.startsWith(starts), qPrintable(what));
        QVERIFY2(what.contains(says), qPrintable(what));
    }

    void deepNestingAndUnclosedQuotesAreExplained()
    {
        const InputError deep = refusal("version: 1\nmodel: " + std::string(3000, '['));
        QVERIFY2(QString::fromStdString(deep.reason()).contains("nested deeper than"), deep.what());
        QVERIFY(!QString::fromStdString(deep.reason()).contains("bad file"));
        std::string text = presetText("llama2-7b-8xa100");
        text.replace(text.find("name: Llama 2 7B\n"), 17, "name: \"Llama 2 7B\n");
        const InputError quote = refusal(text);
        QVERIFY2(QString::fromStdString(quote.reason()).contains("an unclosed quote?"), quote.what());
    }
};

QTEST_GUILESS_MAIN(TestEdges)
#include "tst_edges.moc"
