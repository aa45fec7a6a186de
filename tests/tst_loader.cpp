// Every class of malformed scenario is refused with "file:line: field: reason".
#include "simcore/input_error.h"
#include "simcore/loader/calibration_loader.h"
#include "simcore/loader/read_file.h"
#include "simcore/loader/scenario_patch.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/model.h"
#include "simcore/units.h"
#include "test_data.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace dtsim;

namespace {

const char* kBase = R"(version: 1
name: base
model:
  layers: 32
  hidden: 4096
  heads: 32
  kv_heads: 8
  ffn_hidden: 14336
  gated_mlp: true
  vocab: 32000
  moe:
    experts: 8
    top_k: 2
training:
  global_batch: 512
  micro_batch: 1
  seq_len: 4096
  tokens: 1T
hardware:
  gpu: h100-sxm
cluster:
  gpus: 64
  scale_out_bandwidth: 400 Gbps
parallel:
  tp: 2
  pp: 2
  dp: 16
  ep: 8
)";

// Replaces the first line starting with `from` (after indentation) by `to`.
std::string edit(const std::string& from, const std::string& to)
{
    std::string text = kBase;
    const auto pos = text.find(from);
    if (pos == std::string::npos)
        return text;
    const auto end = text.find('\n', pos);
    return text.substr(0, pos) + to + text.substr(end);
}

int lineOf(const std::string& text, const std::string& needle)
{
    const auto pos = text.find(needle);
    return pos == std::string::npos ? 0 : 1 + int(std::count(text.begin(), text.begin() + long(pos), '\n'));
}

} // namespace

class TestLoader : public QObject {
    Q_OBJECT
private slots:
    void baseLoads()
    {
        const Scenario s = loadScenarioText(kBase, "test.yaml", test::catalog());
        QCOMPARE(s.plan.ep, 8);
        QCOMPARE(s.model.headDim, 128);
        QCOMPARE(s.cluster.scaleOutBandwidth, 50e9);
        QCOMPARE(s.training.tokens, 1e12);
    }

    // Multi-head latent attention: DeepSeek-V3's shapes give its published 671 B
    // parameters (37 B active), and the section survives a save and reload.
    void mlaSectionLoadsCountsAndRoundTrips()
    {
        const std::string text = R"(version: 1
model:
  layers: 61
  hidden: 7168
  heads: 128
  ffn_hidden: 18432
  gated_mlp: true
  vocab: 129280
  moe: {experts: 256, top_k: 8, shared_experts: 1, expert_ffn_hidden: 2048, first_dense_layers: 3}
  mla: {q_lora_rank: 1536, kv_lora_rank: 512, qk_nope_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128}
training: {global_batch: 8192, micro_batch: 1, seq_len: 4096, tokens: 14.8T}
hardware: {gpu: h100-sxm}
cluster: {gpus: 1024, gpus_per_node: 8}
parallel: {tp: 2, pp: 8, ep: 64}
)";
        const Scenario s = loadScenarioText(text, "dsv3.yaml", test::catalog());
        QVERIFY(s.model.isMla());
        QCOMPARE(s.model.qkHeadDim(), 192);
        const ParameterCounts c = countParameters(s.model, s.training.seqLen);
        QVERIFY2(std::abs(c.total / 671e9 - 1) < 0.01, qPrintable(QString::number(c.total)));
        QVERIFY2(std::abs(c.active / 37e9 - 1) < 0.03, qPrintable(QString::number(c.active)));
        const Scenario back = loadScenarioText(scenarioToYaml(s), "saved.yaml", test::catalog());
        QCOMPARE(back.model.mla.qLoraRank, 1536);
        QCOMPARE(back.model.mla.kvLoraRank, 512);
        QCOMPARE(back.model.mla.qkRopeDim, 64);
        QCOMPARE(scenarioToYaml(back), scenarioToYaml(s));
        std::string bad = text;
        bad.replace(bad.find("kv_lora_rank: 512"), 17, "kv_lora_rank: 0");
        QVERIFY_THROWS_EXCEPTION(InputError, loadScenarioText(bad, "dsv3.yaml", test::catalog()));
    }

    void malformed_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("lineKey");  // text on the line the error must name
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        auto row = [](const char* name, const std::string& yaml, const char* lineKey, const char* field, const char* reason) {
            QTest::newRow(name) << QString::fromStdString(yaml) << lineKey << field << reason;
        };
        row("unknown top-level key", std::string(kBase) + "colour: blue\n", "colour:", "colour", "unknown key");
        row("unknown nested key", edit("  gated_mlp: true", "  gated_mpl: true"), "gated_mpl", "model.gated_mpl", "unknown key");
        row("wrong type (text for integer)", edit("  layers: 32", "  layers: many"), "layers:", "model.layers", "whole number");
        row("wrong type (fraction for integer)", edit("  layers: 32", "  layers: 2.5"), "layers:", "model.layers", "whole number");
        {
            std::string listForMap = kBase;
            listForMap.replace(listForMap.find("hardware:\n  gpu: h100-sxm"), 25, "hardware: [h100-sxm]");
            row("wrong type (list for map)", listForMap, "hardware:", "hardware", "mapping");
        }
        row("wrong type (map for text)", edit("name: base", "name: {a: 1}"), "name:", "name", "expected a string");
        row("zero", edit("  layers: 32", "  layers: 0"), "layers:", "model.layers", "at least 1");
        row("negative", edit("  hidden: 4096", "  hidden: -4096"), "hidden:", "model.hidden", "at least 1");
        row("negative quantity", edit("  tokens: 1T", "  tokens: -5"), "tokens:", "training.tokens", "greater than zero");
        row("NaN", edit("  tokens: 1T", "  tokens: nan"), "tokens:", "training.tokens", "finite");
        row("YAML NaN", edit("  tokens: 1T", "  tokens: .nan"), "tokens:", "training.tokens", "is not");
        row("infinity", edit("  scale_out_bandwidth: 400 Gbps", "  scale_out_bandwidth: .inf"), "scale_out_bandwidth", "cluster.scale_out_bandwidth", "is not");
        row("bad unit", edit("  scale_out_bandwidth: 400 Gbps", "  scale_out_bandwidth: 400 GB"), "scale_out_bandwidth", "cluster.scale_out_bandwidth", "unknown unit");
        row("unknown GPU", edit("  gpu: h100-sxm", "  gpu: h1000"), "gpu:", "hardware.gpu", "unknown GPU");
        row("unknown choice", std::string(kBase) + "  schedule: zigzag\n", "schedule:", "parallel.schedule", "not one of");
        row("missing field", edit("  seq_len: 4096", ""), "training:", "training.seq_len", "is required");
        row("version", edit("version: 1", "version: 2"), "version:", "version", "unsupported version");
        row("TP not dividing heads", edit("  tp: 2", "  tp: 3"), "tp:", "parallel.tp", "does not divide the 32 attention heads");
        {
            std::string kv = kBase;
            kv.replace(kv.find("  heads: 32"), 11, "  heads: 48\n  head_dim: 128");
            kv.replace(kv.find("  kv_heads: 8"), 13, "  kv_heads: 16");
            kv.replace(kv.find("  tp: 2"), 7, "  tp: 3");
            row("TP vs KV heads", kv, "tp:", "parallel.tp", "neither divides nor is a multiple of the 16 key/value heads");
        }
        row("degrees not matching GPUs", edit("  dp: 16", "  dp: 8"), "parallel:", "parallel", "= 32 but cluster.gpus = 64");
        row("EP not dividing experts", edit("  ep: 8", "  ep: 3"), "ep:", "parallel.ep", "does not divide the 8 experts");
        row("batch not divisible", edit("  global_batch: 512", "  global_batch: 500"), "global_batch", "training.global_batch", "not a multiple");
        row("top_k above experts", edit("    top_k: 2", "    top_k: 9"), "top_k", "model.moe.top_k", "larger than");
        row("kv heads not dividing heads", edit("  kv_heads: 8", "  kv_heads: 5"), "kv_heads", "model.kv_heads", "must divide");
    }
    void malformed()
    {
        QFETCH(QString, yaml);
        QFETCH(QString, lineKey);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        const std::string text = yaml.toStdString();
        try {
            loadScenarioText(text, "test.yaml", test::catalog());
            QFAIL("accepted a malformed scenario");
        } catch (const InputError& e) {
            const QString msg = e.what();
            const int line = lineOf(text, lineKey.toStdString());
            QVERIFY(line > 0);
            const QString prefix = QString("test.yaml:%1: %2: ").arg(line).arg(field);
            QVERIFY2(msg.startsWith(prefix), qPrintable(msg + "  (expected prefix " + prefix + ")"));
            QVERIFY2(msg.contains(reason), qPrintable(msg));
        }
    }

    void syntaxErrorNamesLine()
    {
        const std::string text = edit("  heads: 32", "  heads: [32");
        try {
            loadScenarioText(text, "test.yaml", test::catalog());
            QFAIL("accepted broken YAML");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).startsWith("test.yaml:"), e.what());
            QVERIFY(e.line() > 0);
            QVERIFY(QString(e.what()).contains("syntax"));
        }
    }

    void overrideChangesField()
    {
        const Scenario s = loadScenarioText(kBase, "test.yaml", test::catalog(),
            { parseOverride("parallel.tp=4"), parseOverride("parallel.dp=8"), parseOverride("cluster.scale_out_bandwidth=200 Gbps") });
        QCOMPARE(s.plan.tp, 4);
        QCOMPARE(s.cluster.scaleOutBandwidth, 25e9);
    }

    void overrideErrorsNameTheOverride()
    {
        try {
            loadScenarioText(kBase, "test.yaml", test::catalog(), { parseOverride("parallel.tp=abc") });
            QFAIL("accepted a bad override");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).startsWith("--set parallel.tp=abc: parallel.tp: expected a whole number"), e.what());
        }
        try {
            loadScenarioText(kBase, "test.yaml", test::catalog(), { parseOverride("parallel.tpp=2") });
            QFAIL("accepted an unknown override key");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("parallel.tpp: unknown key"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(InputError, parseOverride("no-equals-sign"));
        QVERIFY_THROWS_EXCEPTION(InputError, loadScenarioText(kBase, "t", test::catalog(), { parseOverride("name.x=1") }));
    }

    void overridesReachListEntries()
    {
        const Scenario base = test::preset("shared-cluster");
        QCOMPARE(base.cluster.tiers[0].spanGpus, 256);
        const Scenario s = loadScenarioText(scenarioToYaml(base), "s.yaml", test::catalog(),
            { parseOverride("cluster.tiers[0].span_gpus=128"), parseOverride("workload.projects[2].priority=7") }, test::topologies());
        QCOMPARE(s.cluster.tiers[0].spanGpus, 128);
        QCOMPARE(s.cluster.tierCount, base.cluster.tierCount); // the list is edited, not replaced
        QCOMPARE(s.workload.projects[2].priority, 7);
        QCOMPARE(s.workload.projects.size(), base.workload.projects.size());
        for (const char* bad : { "cluster.tiers[5].span_gpus=8", "cluster.tiers[-1].span_gpus=8", "cluster.tiers[x]=1",
                 "parallel[0].tp=2", "cluster.tiers[0=1", "[0].a=1" }) {
            try {
                loadScenarioText(scenarioToYaml(base), "s.yaml", test::catalog(), { parseOverride(bad) }, test::topologies());
                QFAIL(bad);
            } catch (const InputError& e) {
                QVERIFY2(QString(e.what()).startsWith(QString("--set ") + bad), e.what());
            }
        }
    }

    void fileProblems()
    {
        QTemporaryDir dir;
        const std::string missing = (dir.path() + "/nope.yaml").toStdString();
        try {
            loadScenarioFile(missing, test::catalog());
            QFAIL("loaded a missing file");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(missing) + ": "), e.what());
        }
        try {
            loadScenarioFile(dir.path().toStdString(), test::catalog());
            QFAIL("loaded a directory");
        } catch (const InputError& e) {
            QVERIFY(QString(e.what()).contains("directory"));
        }
        const std::string empty = (dir.path() + "/empty.yaml").toStdString();
        std::ofstream(empty).close();
        QVERIFY_THROWS_EXCEPTION(InputError, loadScenarioFile(empty, test::catalog()));
        const std::string binary = (dir.path() + "/binary.yaml").toStdString();
        std::ofstream(binary) << "version: 1\nmodel: \xff\xfe\x00\x01\n";
        QVERIFY_THROWS_EXCEPTION(InputError, loadScenarioFile(binary, test::catalog()));
    }

    // The anchors file (Epoch AI's readings): a wrong reading or a missing source is
    // refused with the file, line and field.
    void anchorsFileErrorsNameLineAndField()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/anchors.yaml").toStdString();
        auto expectError = [&](const char* text, const char* needle) {
            std::ofstream(path) << text;
            try {
                loadFrontierAnchors(path);
                QFAIL(qPrintable(QString("accepted: %1").arg(text)));
            } catch (const InputError& e) {
                QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + ":") && QString(e.what()).contains(needle), e.what());
            }
        };
        expectError("version: 1\nanchors:\n  - gpu: gtx580\n    months: 3\n    reading: knee\n    flop: 1e26\n    source: x\n",
            ":5: anchors[0].reading");
        expectError("version: 1\nanchors:\n  - gpu: gtx580\n    months: 3\n    reading: at_80\n    flop: 1e26\n", "anchors[0].source");
        expectError("version: 1\nanchors:\n  - gpu: gtx580\n    months: -3\n    reading: at_80\n    flop: 1e26\n    source: x\n",
            ":4: anchors[0].months");
        std::ofstream(path) << "version: 1\nanchors:\n  - gpu: gtx580\n    months: 3\n    reading: feasible\n    flop: 2e26 FLOP\n    source: x\n";
        const std::vector<FrontierAnchor> ok = loadFrontierAnchors(path);
        QCOMPARE(int(ok.size()), 1);
        QCOMPARE(ok[0].flop, 2e26);
        QVERIFY(ok[0].reading == FrontierAnchor::Reading::Feasible);
    }

    // A recipe's narrow-GEMM limit is read with its source; a malformed one is refused
    // with the file, line and field.
    void recipeNarrowGemmsAreReadAndChecked()
    {
        const Calibration& c = test::calibration();
        const RecipeCalibration& rowwise = c.forRecipe(ScalingRecipe::Rowwise);
        QCOMPARE(rowwise.narrowN, 2048.0);
        QCOMPARE(rowwise.narrowK, 1024.0);
        QCOMPARE(rowwise.narrowBoxN, 4096.0);
        QCOMPARE(rowwise.narrowBoxK, 2048.0);
        QVERIFY(!c.forRecipe(ScalingRecipe::Tensorwise).hasNarrowLimit());

        const std::string text = readTextFile(test::dataPath("resources/calibration/default.yaml"), "calibration");
        const std::string good = "narrow_gemms: {n: 2048, k: 1024, n_and_k: [4096, 2048], source:";
        const std::size_t at = text.find(good);
        QVERIFY(at != std::string::npos);
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/calibration.yaml").toStdString();
        auto expectError = [&](const std::string& replacement, const char* needle) {
            std::ofstream(path) << text.substr(0, at) + replacement + text.substr(at + good.size());
            try {
                loadCalibration(path);
                QFAIL(qPrintable(QString::fromStdString("accepted: " + replacement)));
            } catch (const InputError& e) {
                QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + ":") && QString(e.what()).contains(needle), e.what());
            }
        };
        expectError("narrow_gemms: {n: 2048, k: 1024, n_and_k: [4096], source:", "scaling_recipes.rowwise.narrow_gemms.n_and_k");
        expectError("narrow_gemms: {n: -2048, k: 1024, n_and_k: [4096, 2048], source:", "scaling_recipes.rowwise.narrow_gemms.n");
        expectError("narrow_gemms: {n: 2048, k: 1024, n_and_k: [4096, 2048], note:", "scaling_recipes.rowwise.narrow_gemms");
    }

    void savedScenarioLoadsBackIdentical()
    {
        for (const std::string& name : test::presetNames()) {
            const Scenario a = test::preset(name);
            const std::string text = scenarioToYaml(a);
            const Scenario b = loadScenarioText(text, "saved.yaml", test::catalog(), {}, test::topologies());
            QCOMPARE(scenarioToYaml(b), text);
            // By value: comparing the writer's output with itself is blind to a field the
            // writer drops; the scenarios themselves are not.
            QVERIFY2(b == a, name.c_str());
        }
    }

    void aFieldTheWriterDropsIsCaught()
    {
        // Every plan field set away from its default survives a save, so a writer that
        // forgot one fails here rather than silently losing the user's setting.
        Scenario a = test::preset("mixtral-8x7b-h100");
        a.plan.firstStageLayers = 7;
        a.plan.lastStageLayers = 9;
        a.plan.epNodeDispatch = true;
        a.plan.epCommOverlap = true;
        a.plan.expertTp = 1;
        a.plan.schedule = Schedule::DualPipe;
        const Scenario b = loadScenarioText(scenarioToYaml(a), "saved.yaml", test::catalog(), {}, test::topologies());
        QVERIFY(b == a);
        Scenario c = b;
        c.plan.lastStageLayers = 8;
        QVERIFY(!(c == a)); // and the comparison sees one field
    }

    void savingKeepsTheUsersTextUnitsAndComments()
    {
        // Issue 22, item 12: a save rewrote the whole file in base units ("deadline:
        // 1.0368e+07 s" for 120 days, latencies as 4.9999999999999996e-06 s) and dropped
        // every comment. Only what changed is rewritten now, in the unit it was written in.
        const std::string path = test::dataPath("presets/llama3-405b-h100.yaml");
        const std::string text = readTextFile(path, "preset");
        const Scenario loaded = loadScenarioText(text, path, test::catalog(), {}, test::topologies());
        Scenario edited = loaded;
        edited.training.deadline = 90 * units::day;
        edited.training.globalBatch = 4096;
        const auto patched = patchScenarioText(text, loaded, edited, test::catalog(), test::topologies());
        QVERIFY(patched);
        QVERIFY(loadScenarioText(*patched, "p", test::catalog(), {}, test::topologies()) == edited);
        QVERIFY2(patched->find("deadline: 90 days") != std::string::npos, patched->c_str());
        QVERIFY(patched->find("global_batch: 4096") != std::string::npos);
        // Everything else is the user's text, comments included: the same lines.
        auto lines = [](const std::string& t) { return QString::fromStdString(t).split('\n'); };
        const QStringList before = lines(text), after = lines(*patched);
        QCOMPARE(after.size(), before.size());
        int changed = 0;
        for (int i = 0; i < before.size(); ++i)
            changed += before[i] != after[i];
        QCOMPARE(changed, 2);
        // A field the file left out is added to its section; a changed list is refused
        // (the caller writes the whole scenario).
        Scenario faster = loaded;
        faster.cluster.scaleUpLatency = 3e-6;
        const auto withNew = patchScenarioText(text, loaded, faster, test::catalog(), test::topologies());
        QVERIFY(withNew);
        QVERIFY2(withNew->find("\n  scale_up_latency: 3 us\n") != std::string::npos, withNew->c_str()); // natural units
        QCOMPARE(lines(*withNew).size(), before.size() + 1);
        Scenario chaos = loaded;
        chaos.reliability.chaos.push_back({});
        QVERIFY(!patchScenarioText(text, loaded, chaos, test::catalog(), test::topologies()));
    }

    void everyPresetLoads()
    {
        for (const std::string& name : test::presetNames()) {
            try {
                test::preset(name);
            } catch (const InputError& e) {
                QFAIL(e.what());
            }
        }
        QVERIFY(test::presetNames().size() >= 5);
    }
};

QTEST_GUILESS_MAIN(TestLoader)
#include "tst_loader.moc"
