// Framework configurations in and out (dtsim-cli import / export): the real files in
// tests/frameworks/ (each with its origin and licence beside it) import; Hugging Face
// configs give the published parameter counts; export then import gives back every field
// both sides express; exported Megatron flags are Megatron's own; unknown and
// contradictory keys are refused at their line; the Megatron-LM SC21 rows of the
// validation file are rebuilt from the SC21 scripts with the same prediction.
#include "test_data.h"

#include "simcore/frameworks/framework_export.h"
#include "simcore/frameworks/import_scenario.h"
#include "simcore/frameworks/megatron_arguments.h"
#include "simcore/input_error.h"
#include "simcore/loader/model_catalogue_loader.h"
#include "simcore/loader/published_runs_loader.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/model.h"
#include "simcore/step.h"
#include "simcore/validation/run_to_scenario.h"

#include <QtTest>

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

using namespace dtsim;

namespace {

std::string frameworks(const std::string& relative) { return test::dataPath("tests/frameworks/" + relative); }

const std::vector<CatalogueModel>& models()
{
    static const std::vector<CatalogueModel> m = loadModelCatalogue(test::dataPath("resources/models/catalogue.yaml"));
    return m;
}

ImportInputs inputs(const std::string& base = defaultImportBase(), std::vector<Override> extra = {})
{
    ImportInputs in;
    in.baseText = base;
    in.baseOrigin = "base";
    in.hardware = &test::catalog();
    in.topologies = &test::topologies();
    in.models = &models();
    in.extra = std::move(extra);
    return in;
}

Scenario importFiles(const std::vector<std::string>& files, std::vector<Override> extra = {}, std::vector<std::string> vars = {},
    const std::string& base = defaultImportBase())
{
    ImportOptions o;
    o.shellVariables = std::move(vars);
    return importedScenario(importFrameworkFiles(files, o), inputs(base, std::move(extra)));
}

std::string writeTemp(const std::string& name, const std::string& text)
{
    const std::string path = (std::filesystem::temp_directory_path() / ("dtsim_fw_" + std::to_string(::getpid()) + "_" + name)).string();
    std::ofstream(path) << text;
    return path;
}

// The error a bad file gives: where (file:line) and the key.
InputError importError(const std::vector<std::string>& files)
{
    try {
        importFiles(files);
    } catch (const InputError& e) {
        return e;
    }
    return InputError("", 0, "", "");
}

} // namespace

class TestFrameworks : public QObject {
    Q_OBJECT

private slots:
    void huggingFaceParameterCounts_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("published");
        QTest::addColumn<double>("tolerance");
        const YAML::Node sources = YAML::LoadFile(frameworks("hf/SOURCES.yaml"));
        for (const YAML::Node& s : sources) {
            const std::string file = s["file"].as<std::string>();
            // T5 is an encoder-decoder: its decoder's cross-attention (28M of 223M) is not
            // a dtsim layer. BERT's published 110M counts its pre-training heads (pooler,
            // next-sentence and masked-LM transforms: 1.2M) that dtsim does not model.
            // Both import (everyRealFileImports); their counts are not dtsim's to match.
            if (file == "t5-base.json" || file == "bert-base-uncased.json" || !s["published_parameters"])
                continue;
            const double published = s["published_parameters"].as<double>();
            // A count published only rounded ("12B") is known to half its last digit.
            double tolerance = 0.01;
            if (s["published_parameters_rounded"] && s["published_parameters_rounded"].as<bool>()) {
                const double unit = std::pow(10.0, std::floor(std::log10(published)) - 1);
                tolerance = std::max(tolerance, 0.5 * unit / published);
            }
            QTest::newRow(file.c_str()) << QString::fromStdString(file) << published << tolerance;
        }
        QVERIFY(QTest::currentDataTag() == nullptr);
    }
    void huggingFaceParameterCounts()
    {
        QFETCH(QString, file);
        QFETCH(double, published);
        QFETCH(double, tolerance);
        const Scenario s = importFiles({ frameworks("hf/" + file.toStdString()) });
        const double counted = countParameters(s.model, s.training.seqLen).total;
        QVERIFY2(std::abs(counted / published - 1) < tolerance,
            qPrintable(QString("%1: %2 counted, %3 published").arg(file).arg(counted, 0, 'g', 6).arg(published, 0, 'g', 6)));
    }

    void everyRealFileImports_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QStringList>("sets");
        for (const char* dir : { "hf", "torchtitan", "deepspeed", "nemo" })
            for (const auto& e : std::filesystem::directory_iterator(frameworks(dir))) {
                const std::string name = e.path().filename().string();
                if (!e.is_regular_file() || name == "SOURCES.yaml" || e.path().extension() == ".md")
                    continue;
                QStringList files { QString::fromStdString(e.path().string()) }, sets;
                // Llama 3.1 recipes take the vocabulary from the tokenizer: the 8B's with its config.json, the others by hand.
                if (name == "launcher_llama3_1_8b.yaml")
                    files << QString::fromStdString(frameworks("hf/llama-3.1-8b.json"));
                else if (name.rfind("launcher_llama3_1", 0) == 0)
                    sets << "model.vocab=128256";
                // torchtitan's DeepSeek-V3 16B flavor is not in the catalogue: an MoE model stands in for the plan's EP.
                if (name == "deepseek_v3_16b.toml")
                    sets << "model=deepseek-v3";
                // A Megatron-Bridge override written for a bigger cluster than the default 8 GPUs' data parallelism.
                if (name == "bridge_qwen3_vl_pretrain_override_example.yaml")
                    sets << "cluster.gpus=2";
                QTest::newRow((std::string(dir) + "/" + name).c_str()) << files << sets;
            }
        QTest::newRow("megatron/gpt3-175b") << QStringList { QString::fromStdString(frameworks("megatron/train_gpt3_175b_distributed.sh")) }
                                            << QStringList { "cluster.gpus=1536" };
        QTest::newRow("megatron/llama3-8b-fp8") << QStringList { QString::fromStdString(frameworks("megatron/train_llama3_8b_h100_fp8.sh")) }
                                                << QStringList();
        QTest::newRow("megatron/mixtral-8x7b") << QStringList { QString::fromStdString(frameworks("megatron/train_mixtral_8x7b_distributed.sh")) }
                                               << QStringList { "model.vocab=32000", "cluster.gpus=64" }; // the tokenizer's; 8 nodes
        QTest::newRow("megatron/sc21") << QStringList { QString::fromStdString(frameworks("megatron/sc21-run_table_1.sh")),
            QString::fromStdString(frameworks("megatron/sc21-CONFIG.sh")), QString::fromStdString(frameworks("megatron/sc21-SBATCH.sh")),
            QString::fromStdString(frameworks("megatron/sc21-SRUN.sh")) } << QStringList();
    }
    void everyRealFileImports()
    {
        QFETCH(QStringList, files);
        QFETCH(QStringList, sets);
        std::vector<std::string> paths;
        for (const QString& f : files)
            paths.push_back(f.toStdString());
        std::vector<Override> extra;
        for (const QString& s : sets)
            extra.push_back(parseOverride(s.toStdString()));
        try {
            const FrameworkImport imp = importFrameworkFiles(paths, {});
            QVERIFY(!imp.settings.empty());
            const Scenario s = importedScenario(imp, inputs(defaultImportBase(), extra));
            QVERIFY(s.model.layers > 0 && s.training.globalBatch > 0);
        } catch (const InputError& e) {
            QFAIL(e.what());
        }
    }

    // Every mapped value of a file appears in the import as a setting or a note.
    void nothingIsDroppedSilently()
    {
        const std::string file = frameworks("hf/deepseek-v3.json");
        const FrameworkImport imp = importFrameworkFiles({ file }, {});
        const YAML::Node json = YAML::LoadFile(file); // JSON is YAML: the file's own top-level keys
        std::set<std::string> seen;
        for (const ImportSetting& s : imp.settings)
            seen.insert(s.origin.key.substr(0, s.origin.key.find_first_of(".[")));
        for (const ImportNote& n : imp.notes)
            seen.insert(n.origin.key.substr(0, n.origin.key.find_first_of(".[")));
        for (const auto& kv : json) {
            const std::string key = kv.first.as<std::string>();
            if (kv.second.IsNull())
                continue;
            QVERIFY2(seen.count(key), key.c_str());
        }
        const Scenario s = importedScenario(imp, inputs());
        QCOMPARE(s.model.moe.experts, 256);
        QCOMPARE(s.model.moe.firstDenseLayers, 3);
        QCOMPARE(s.model.mla.kvLoraRank, 512);
    }

    // A ViT's config names dtsim's layer table of its size; another size is refused.
    void aVitIsItsLayerTable()
    {
        // The keys of google/vit-base-patch16-224's config.json (its labels left out).
        const std::string vit = "{\n  \"architectures\": [\"ViTForImageClassification\"],\n  \"attention_probs_dropout_prob\": 0.0,\n"
                                "  \"hidden_act\": \"gelu\",\n  \"hidden_dropout_prob\": 0.0,\n  \"hidden_size\": 768,\n  \"image_size\": 224,\n"
                                "  \"initializer_range\": 0.02,\n  \"intermediate_size\": 3072,\n  \"layer_norm_eps\": 1e-12,\n"
                                "  \"model_type\": \"vit\",\n  \"num_attention_heads\": 12,\n  \"num_channels\": 3,\n"
                                "  \"num_hidden_layers\": 12,\n  \"patch_size\": 16,\n  \"qkv_bias\": true\n}\n";
        const std::string path = writeTemp("vit.json", vit);
        const Scenario s = importFiles({ path });
        QCOMPARE(s.model.table.ref, std::string("vit-b-16"));
        std::string big = vit;
        big.replace(big.find("\"num_hidden_layers\": 12"), 23, "\"num_hidden_layers\": 32");
        const std::string bigPath = writeTemp("vit-h.json", big);
        const InputError e = importError({ bigPath });
        QVERIFY2(e.reason().find("vit-b-16 and vit-l-16") != std::string::npos, e.what());
        std::filesystem::remove(path);
        std::filesystem::remove(bigPath);
    }

    // In every real file, every value is accounted for: a setting or a note with its key.
    void noValueOfARealFileIsDroppedSilently()
    {
        // Each file alone, but the SC21 scripts together (one sets what the next passes).
        std::vector<std::vector<std::string>> groups { {} };
        for (const char* dir : { "hf", "torchtitan", "deepspeed", "nemo", "megatron" })
            for (const auto& e : std::filesystem::directory_iterator(frameworks(dir))) {
                const std::string path = e.path().string(), ext = e.path().extension().string(), name = e.path().filename().string();
                if (!e.is_regular_file() || name == "SOURCES.yaml" || ext == ".md" || ext == ".py")
                    continue;
                if (name.rfind("sc21-", 0) == 0)
                    continue;
                groups.push_back({ path });
            }
        for (const char* f : { "sc21-run_table_1.sh", "sc21-CONFIG.sh", "sc21-SBATCH.sh", "sc21-SRUN.sh" })
            groups.front().push_back(frameworks(std::string("megatron/") + f));
        int files = 0;
        for (const std::vector<std::string>& group : groups) {
            ShellState shell;
            shell.variables["MODEL_SIZE"] = "18B";
            shell.fixed.insert("MODEL_SIZE");
            std::vector<ConfigDocument> docs;
            for (const std::string& path : group) {
                std::ifstream in(path);
                const std::string text((std::istreambuf_iterator<char>(in)), {});
                std::string problem;
                const ConfigFormat format = detectFormat(path, text, problem);
                docs.push_back(format == ConfigFormat::Torchtitan ? readTomlDocument(path, text)
                        : format == ConfigFormat::NeMo           ? readYamlDocument(path, text)
                        : format == ConfigFormat::Megatron       ? readShellDocument(path, text, shell)
                                                                 : readJsonDocument(path, text, format));
            }
            FrameworkImport imp;
            try {
                imp = importDocuments(docs);
            } catch (const InputError& e) {
                QFAIL(e.what());
            }
            std::set<std::tuple<std::string, int, std::string>> seen;
            for (const ImportSetting& s : imp.settings)
                seen.insert({ s.origin.file, s.origin.line, s.origin.key });
            for (const ImportNote& n : imp.notes)
                seen.insert({ n.origin.file, n.origin.line, n.origin.key });
            for (const ConfigDocument& doc : docs) {
                for (const ConfigValue& v : doc.values) {
                    // A Megatron flag repeated with the same value counts once, at its first line.
                    bool found = seen.count({ doc.file, v.line, v.key }) > 0;
                    for (const auto& [file, line, key] : seen)
                        found = found || (doc.format == ConfigFormat::Megatron && key == v.key);
                    QVERIFY2(found, (doc.file + ":" + std::to_string(v.line) + " " + v.key + " = " + v.text + " left no trace").c_str());
                }
                ++files;
            }
        }
        QVERIFY(files >= 30);
    }

    // NeMo 2 recipe overrides as NeMo-Run's command line takes them (key=value), read
    // with the same mapping as NeMo 1's YAML.
    void nemo2OverridesImport()
    {
        const std::string path = writeTemp("overrides.txt",
            "# llm.llama3_8b.pretrain_recipe overrides\n"
            "recipe.trainer.num_nodes=4 recipe.trainer.devices=8\n"
            "recipe.trainer.strategy.tensor_model_parallel_size=2 recipe.trainer.strategy.pipeline_model_parallel_size=2 \\\n"
            "  recipe.trainer.strategy.sequence_parallel=true recipe.trainer.plugins=bf16_mixed\n"
            "recipe.data.global_batch_size=512 recipe.data.micro_batch_size=2 recipe.data.seq_length=8192\n"
            "recipe.log.log_dir=/results recipe.trainer.max_steps=1000\n");
        std::string problem;
        QCOMPARE(int(detectFormat(path, "recipe.trainer.num_nodes=4", problem)), int(ConfigFormat::NeMo));
        const Scenario s = importFiles({ path });
        QCOMPARE(s.cluster.gpus, 32LL);
        QCOMPARE(s.plan.tp, 2);
        QCOMPARE(s.plan.pp, 2);
        QCOMPARE(s.plan.dp, 8);
        QVERIFY(s.plan.sequenceParallel);
        QCOMPARE(s.training.globalBatch, 512);
        QCOMPARE(s.training.microBatch, 2);
        QCOMPARE(s.training.seqLen, 8192);
        QCOMPARE(int(s.training.precision), int(Precision::BF16));
        QCOMPARE(s.training.tokens, 1000.0 * 512 * 8192);
        const std::string bad = writeTemp("bad.txt", "recipe.trainer.strategy.tensor_model_paralel_size=2\n");
        const InputError e = importError({ bad });
        QCOMPARE(e.line(), 1);
        QCOMPARE(e.field(), std::string("recipe.trainer.strategy.tensor_model_paralel_size"));
        std::filesystem::remove(path);
        std::filesystem::remove(bad);
    }

    void unknownKeysAreRefusedAtTheirLine_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("key");
        QTest::newRow("hf") << "config.json" << "{\n  \"model_type\": \"llama\",\n  \"num_hiden_layers\": 32\n}\n" << 3 << "num_hiden_layers";
        QTest::newRow("megatron") << "run.sh" << "torchrun pretrain_gpt.py \\\n  --num-layers 4 \\\n  --tensor-model-paralel-size 2\n" << 3
                                  << "--tensor-model-paralel-size";
        QTest::newRow("torchtitan") << "job.toml" << "[training]\nseq_len = 2048\n[parallelism]\ntensor_paralel_degree = 2\n" << 4
                                    << "parallelism.tensor_paralel_degree";
        QTest::newRow("deepspeed") << "ds.json" << "{\n  \"train_batch_size\": 8,\n  \"zero_optimisation\": {\"stage\": 2}\n}\n" << 3
                                   << "zero_optimisation.stage";
        QTest::newRow("nemo") << "recipe.yaml" << "trainer:\n  num_nodes: 1\nmodel:\n  tensor_model_paralel_size: 2\n" << 4
                              << "model.tensor_model_paralel_size";
    }
    void unknownKeysAreRefusedAtTheirLine()
    {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, key);
        const std::string path = writeTemp(name.toStdString(), text.toStdString());
        const InputError e = importError({ path });
        QCOMPARE(QString::fromStdString(e.where()), QString::fromStdString(path));
        QCOMPARE(e.line(), line);
        QCOMPARE(QString::fromStdString(e.field()), key);
        std::filesystem::remove(path);
    }

    void contradictionsNameBothFiles()
    {
        const std::string a = writeTemp("a.sh", "torchrun pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --tensor-model-parallel-size 2\n");
        const std::string b = writeTemp("b.yaml", "model:\n  num_layers: 32\n  tensor_model_parallel_size: 4\n");
        const InputError e = importError({ a, b });
        QCOMPARE(e.where(), b);
        QCOMPARE(e.line(), 3);
        QVERIFY2(e.reason().find(a + ":1 --tensor-model-parallel-size") != std::string::npos, e.what());
        // The same flag twice with two values in one script.
        const std::string c = writeTemp("c.sh", "A=(--micro-batch-size 1)\nB=(--micro-batch-size 2)\ntorchrun pretrain_gpt.py ${A[@]} ${B[@]}\n");
        QCOMPARE(importError({ c }).line(), 2);
        // DeepSpeed's batch identity: 8 = micro 2 x accumulation 2 x DP 8 is false.
        const std::string d = writeTemp("d.json", "{\"train_micro_batch_size_per_gpu\": 2, \"gradient_accumulation_steps\": 2}\n");
        const std::string g = writeTemp("g.yaml", "model:\n  global_batch_size: 8\n");
        const InputError bad = importError({ d, g });
        QVERIFY2(bad.where() == d, bad.what());
        QVERIFY2(bad.reason().find("global batch of 32") != std::string::npos, bad.what());
        for (const std::string& p : { a, b, c, d, g })
            std::filesystem::remove(p);
    }

    // Export to each framework, import the text back: every field both express is the same.
    void exportThenImportIsTheIdentity_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("target");
        for (const char* preset : { "gpt3-175b-a100", "llama3-70b-torchtitan-fp8", "mixtral-8x7b-h100", "llama2-7b-8xa100" })
            for (const char* target : { "megatron", "torchtitan", "deepspeed", "nemo" })
                QTest::newRow((std::string(preset) + "/" + target).c_str()) << preset << target;
    }
    void exportThenImportIsTheIdentity()
    {
        QFETCH(QString, preset);
        QFETCH(QString, target);
        const std::string presetPath = test::dataPath("presets/" + preset.toStdString() + ".yaml");
        const Scenario s = loadScenarioFile(presetPath, test::catalog(), {}, test::topologies());
        std::string id;
        for (const CatalogueModel& m : models()) {
            Scenario probe = loadScenarioText(defaultImportBase(), "c", test::catalog(), { { "model", m.modelYaml } });
            probe.model.name = s.model.name;
            if (probe.model == s.model)
                id = m.id;
        }
        const ExportTarget t = *exportTargetNamed(target.toStdString());
        const FrameworkExport out = exportScenario(s, t, id);
        const std::string path = writeTemp(preset.toStdString() + exportFileSuffix(t), out.text);
        // The import lands on the preset itself, so what the file does not say stays.
        Scenario back;
        try {
            back = importFiles({ path }, {}, {}, scenarioToYaml(s));
        } catch (const InputError& e) {
            QFAIL((std::string(e.what()) + "\n" + out.text).c_str());
        }
        std::filesystem::remove(path);
        auto gap = [&](const char* field) {
            for (const std::string& g : out.unexpressed)
                if (g.rfind(field, 0) == 0)
                    return true;
            return false;
        };
        QCOMPARE(back.training.globalBatch, s.training.globalBatch);
        QCOMPARE(back.training.microBatch, s.training.microBatch);
        if (t != ExportTarget::DeepSpeed) {
            if (!gap("model")) {
                ModelSpec a = back.model, b = s.model;
                a.name = b.name;
                if (t == ExportTarget::NeMo)
                    a.moe = b.moe; // NeMo's shared experts and dense layers live in the model class
                QVERIFY2(a == b, qPrintable(QString::fromStdString(scenarioToYaml(back).substr(0, 900))));
            }
            QCOMPARE(back.plan.tp, s.plan.tp);
            QCOMPARE(back.plan.pp, s.plan.pp);
            QCOMPARE(back.plan.cp, s.plan.cp);
            QCOMPARE(back.plan.ep, s.plan.ep);
            QCOMPARE(back.plan.dp, s.plan.dp);
            QCOMPARE(back.training.seqLen, s.training.seqLen);
            if (!gap("parallel.recompute"))
                QCOMPARE(int(back.plan.recompute), int(s.plan.recompute));
            if (!gap("parallel.schedule") && s.plan.pp > 1)
                QCOMPARE(int(back.plan.schedule), int(s.plan.schedule));
            if (!gap("parallel.zero"))
                QCOMPARE(back.plan.zeroStage, s.plan.zeroStage);
            if (!gap("parallel.sequence_parallel"))
                QCOMPARE(back.plan.sequenceParallel, s.plan.sequenceParallel);
        } else if (!gap("parallel.zero"))
            QCOMPARE(back.plan.zeroStage, s.plan.zeroStage);
        if (!gap("training.precision") && !(t == ExportTarget::Torchtitan && s.training.precision == Precision::FP16))
            QCOMPARE(int(back.training.precision), int(s.training.precision));
        QVERIFY(std::abs(back.training.tokens / s.training.tokens - 1) < 1e-3 || t == ExportTarget::DeepSpeed);
    }

    // Megatron-LM's own argument parsers (tests/frameworks/megatron/arguments-*.py) know
    // every flag an export writes: the explicit add_argument calls of Megatron-Core r0.8.0
    // and of the 2026 release, or the flags the 2026 release builds from its config
    // dataclasses.
    void exportedMegatronFlagsAreMegatronsOwn()
    {
        auto read = [](const std::string& f) {
            std::ifstream in(frameworks("megatron/" + f));
            return std::string(std::istreambuf_iterator<char>(in), {});
        };
        const std::string r08 = read("arguments-core_r0.8.0.py");
        const std::string now = read("arguments-2026-08.py") + read("transformer_config-2026-08.py") + read("model_parallel_config-2026-08.py")
            + read("training_config-2026-08.py") + read("common_config-2026-08.py") + read("resilience_config-2026-08.py");
        for (const char* preset : { "gpt3-175b-a100", "mixtral-8x7b-h100", "llama3-405b-h100", "llama3-70b-torchtitan-fp8" }) {
            const Scenario s = loadScenarioFile(test::dataPath(std::string("presets/") + preset + ".yaml"), test::catalog(), {}, test::topologies());
            const std::string text = exportScenario(s, ExportTarget::Megatron).text;
            const std::string args = text.substr(text.find("pretrain_gpt.py"));
            const std::regex flag(R"((--[A-Za-z0-9-]+))");
            int count = 0;
            for (auto it = std::sregex_iterator(args.begin(), args.end(), flag); it != std::sregex_iterator(); ++it, ++count) {
                const std::string f = (*it)[1];
                // A plain GPT plan uses only flags Megatron-Core r0.8.0 (2024) already had; MoE
                // and uneven pipeline stages came later.
                if (std::string(preset) == "gpt3-175b-a100")
                    QVERIFY2(r08.find("'" + f + "'") != std::string::npos, (f + " is not in Megatron-Core r0.8.0's arguments.py").c_str());
                std::string field = f.substr(2);
                std::replace(field.begin(), field.end(), '-', '_');
                QVERIFY2(now.find("'" + f + "'") != std::string::npos || now.find("\"" + f + "\"") != std::string::npos
                        || now.find("    " + field + ":") != std::string::npos,
                    (f + " is not an argument of Megatron-LM 2026-08").c_str());
                QVERIFY(megatronArgument(f) != ArgumentKind::Unknown);
            }
            QVERIFY(count > 20);
        }
    }

    // The validation rows from Megatron-LM's SC21 scripts (examples/sc21/run_table_1.sh,
    // CONFIG.sh, SBATCH.sh, SRUN.sh), rebuilt by importing those scripts with the row's
    // model size onto its hardware: the same prediction.
    void sc21RowsAreRebuiltFromTheirScripts_data()
    {
        QTest::addColumn<QString>("row");
        QTest::addColumn<QString>("size");
        // The TP-8 rows: Megatron pads GPT-2's 50,257 tokens to a multiple of 128 x TP,
        // 51,200 at TP 8 as the rows say; the smaller models' rows keep 51,200 at TP 1 and 4.
        for (const char* size : { "18B", "39B", "145B", "530B", "1T" })
            QTest::newRow(size) << QString("ptdp-table1-%1").arg(size) << size;
    }
    void sc21RowsAreRebuiltFromTheirScripts()
    {
        QFETCH(QString, row);
        QFETCH(QString, size);
        static const std::vector<RunRecord> runs = loadPublishedRuns(test::dataPath("tests/validation/published-runs.yaml"));
        const auto it = std::find_if(runs.begin(), runs.end(), [&](const RunRecord& r) { return r.id == row.toStdString(); });
        QVERIFY(it != runs.end());
        const auto built = scenarioFromRun(*it, test::catalog(), test::calibration());
        QVERIFY(std::holds_alternative<Scenario>(built));
        const Scenario fromRow = std::get<Scenario>(built);
        std::vector<std::string> files;
        for (const char* f : { "sc21-run_table_1.sh", "sc21-CONFIG.sh", "sc21-SBATCH.sh", "sc21-SRUN.sh" })
            files.push_back(frameworks(std::string("megatron/") + f));
        const Scenario imported = importFiles(files, {}, { "MODEL_SIZE=" + size.toStdString() }, scenarioToYaml(fromRow));
        QCOMPARE(imported.cluster.gpus, fromRow.cluster.gpus);
        QCOMPARE(imported.plan, fromRow.plan);
        QCOMPARE(imported.training.globalBatch, fromRow.training.globalBatch);
        QCOMPARE(imported.training.microBatch, fromRow.training.microBatch);
        QCOMPARE(imported.training.seqLen, fromRow.training.seqLen);
        QCOMPARE(int(imported.training.precision), int(fromRow.training.precision));
        ModelSpec a = imported.model, b = fromRow.model;
        a.name = b.name;
        QVERIFY(a == b);
        QCOMPARE(imported.training.tokens / imported.training.tokensPerStep(), 500.0); // --train-iters
        const double rowStep = predictStep(fromRow, test::calibration()).stepTime;
        const double importStep = predictStep(imported, test::calibration()).stepTime;
        QVERIFY2(importStep == rowStep, qPrintable(QString("%1 s imported, %2 s from the row").arg(importStep).arg(rowStep)));
    }

    void catalogueModelsCountTheirPublishedParameters()
    {
        QVERIFY(models().size() >= 30);
        int close = 0;
        for (const CatalogueModel& m : models()) {
            const Scenario s = loadScenarioText(defaultImportBase(), "catalogue", test::catalog(), { { "model", m.modelYaml } });
            const double counted = countParameters(s.model, m.seqLen > 0 ? m.seqLen : 2048).total;
            QVERIFY2(std::abs(counted / m.parameters - 1) < 0.10, m.id.c_str()); // rounded published counts; Gopher's relative positions
            close += std::abs(counted / m.parameters - 1) < 0.02;
        }
        QVERIFY(close >= 30);
        // --set model=ID picks one.
        std::vector<Override> o { { "model", "mixtral-8x7b" } };
        expandCatalogueModels(o, models());
        const Scenario s = loadScenarioText(defaultImportBase(), "base", test::catalog(), o);
        QCOMPARE(s.model.moe.experts, 8);
        std::vector<Override> bad { { "model", "no-such-model" } };
        QVERIFY_THROWS_EXCEPTION(InputError, expandCatalogueModels(bad, models()));
    }
};

QTEST_GUILESS_MAIN(TestFrameworks)
#include "tst_frameworks.moc"
