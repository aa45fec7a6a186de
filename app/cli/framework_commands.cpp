// dtsim-cli import / export / models: the frameworks' own files in and out, and the
// catalogue of public models a what-if can start from.
#include "cli_common.h"
#include "commands.h"

#include "simcore/frameworks/framework_export.h"
#include "simcore/frameworks/import_scenario.h"
#include "simcore/io/atomic_file.h"
#include "simcore/loader/read_file.h"
#include "simcore/loader/scenario_loader.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/model.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTextStream>

#include <cstdio>

namespace dtsim::cli {

namespace {

void writeOutput(const QCommandLineParser& p, const std::string& text)
{
    if (!p.isSet("output")) {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return;
    }
    std::string error;
    if (!writeFileAtomically(p.value("output").toStdString(), text, &error))
        throw InputError(p.value("output").toStdString(), 0, "-o", error);
}

std::optional<ConfigFormat> formatOption(const QCommandLineParser& p)
{
    if (!p.isSet("format"))
        return std::nullopt;
    const QString f = p.value("format");
    if (f == "hf" || f == "huggingface") return ConfigFormat::HuggingFace;
    if (f == "megatron") return ConfigFormat::Megatron;
    if (f == "torchtitan") return ConfigFormat::Torchtitan;
    if (f == "deepspeed") return ConfigFormat::DeepSpeed;
    if (f == "nemo") return ConfigFormat::NeMo;
    throw InputError("--format", 0, "", "\"" + f.toStdString() + "\": one of hf, megatron, torchtitan, deepspeed, nemo");
}

// The catalogue model a scenario's model is, by its dimensions (torchtitan names flavors).
std::string catalogueIdOf(const ModelSpec& m, const EngineData& d)
{
    for (const CatalogueModel& c : d.models) {
        try {
            const Scenario probe = loadScenarioText(defaultImportBase(), "catalogue", d.catalog, { { "model", c.modelYaml } });
            ModelSpec a = probe.model, b = m;
            a.name = b.name = "";
            if (a == b)
                return c.id;
        } catch (const InputError&) {
        }
    }
    return {};
}

} // namespace

int runImport(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "Framework configuration files: a Hugging Face config.json, a Megatron-LM launch script, "
                                    "a torchtitan TOML, a DeepSpeed JSON, a NeMo recipe (YAML). Several combine.");
    p.addOption({ { "o", "output" }, "Write the scenario here (atomically) instead of to standard output.", "FILE" });
    p.addOption({ "base", "The scenario the import changes (a file or a preset; default: 8 H100s, 1T tokens).", "SCENARIO" });
    p.addOption({ "format", "Read every FILE as this format: hf, megatron, torchtitan, deepspeed, nemo (default: by name and content).", "F" });
    p.addOption({ "var", "A launch script's shell variable, NAME=VALUE (replaces the script's own assignment).", "NAME=VALUE" });
    p.addOption({ "set", "Override a scenario field after the import, path=value (repeatable).", "path=value" });
    p.addOption({ "json", "Print the settings and what was not expressed as JSON (no scenario)." });
    if (!parseCommand(p, "import", args, -1))
        return kExitBadInput;
    if (p.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "dtsim-cli import: name at least one FILE\n");
        return kExitBadInput;
    }
    try {
        const EngineData d = loadEngineData(p);
        ImportOptions options;
        options.format = formatOption(p);
        for (const QString& v : p.values("var"))
            options.shellVariables.push_back(v.toStdString());
        std::vector<std::string> files;
        for (const QString& f : p.positionalArguments())
            files.push_back(f.toStdString());
        const FrameworkImport imp = importFrameworkFiles(files, options);
        ImportInputs in;
        if (p.isSet("base")) {
            in.baseOrigin = resolveScenarioPath(p.value("base"), d.paths);
            in.baseText = readTextFile(in.baseOrigin, "scenario file");
        } else {
            in.baseOrigin = "(import base)";
            in.baseText = defaultImportBase();
        }
        in.hardware = &d.catalog;
        in.topologies = &d.topologies;
        in.models = &d.models;
        for (const QString& s : p.values("set"))
            in.extra.push_back(parseOverride(s.toStdString()));
        expandCatalogueModels(in.extra, d.models);
        const Scenario s = importedScenario(imp, in);
        if (p.isSet("json")) {
            QJsonArray settings, notes;
            for (const ImportSetting& x : imp.settings)
                settings.append(QJsonObject { { "field", q(x.field) }, { "value", q(x.value) }, { "file", q(x.origin.file) },
                    { "line", x.origin.line }, { "key", q(x.origin.key) }, { "framework_default", x.soft } });
            for (const ImportNote& n : imp.notes)
                notes.append(QJsonObject { { "file", q(n.origin.file) }, { "line", n.origin.line }, { "key", q(n.origin.key) }, { "reason", q(n.reason) } });
            printJson(QJsonDocument(QJsonObject { { "settings", settings }, { "not_expressed", notes },
                { "scenario", q(scenarioToYaml(s)) } }));
            return kExitOk;
        }
        writeOutput(p, importReport(imp) + scenarioToYaml(s));
        std::fprintf(stderr, "imported %zu settings from %zu files; %zu values not expressed (listed at the top of the scenario)\n",
            imp.settings.size(), imp.files.size(), imp.notes.size());
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

int runExport(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "A scenario file or a preset name.");
    p.addOption({ "to", "The framework: megatron, torchtitan, deepspeed, nemo.", "FRAMEWORK" });
    p.addOption({ { "o", "output" }, "Write here (atomically) instead of to standard output.", "FILE" });
    p.addOption({ "set", "Override a field, path=value (repeatable).", "path=value" });
    if (!parseCommand(p, "export", args, 1))
        return kExitBadInput;
    try {
        const auto target = exportTargetNamed(p.value("to").toStdString());
        if (!target)
            throw InputError("--to", 0, "", "\"" + p.value("to").toStdString() + "\": one of megatron, torchtitan, deepspeed, nemo");
        const EngineData d = loadEngineData(p);
        const Scenario s = loadScenarioArgument(p, d);
        const FrameworkExport out = exportScenario(s, *target, catalogueIdOf(s.model, d));
        writeOutput(p, out.text);
        for (const std::string& g : out.unexpressed)
            std::fprintf(stderr, "not expressed: %s\n", g.c_str());
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

int runModels(const QStringList& args)
{
    QCommandLineParser p;
    p.addOption({ "json", "Print JSON." });
    if (!parseCommand(p, "models", args, 0))
        return kExitBadInput;
    try {
        const EngineData d = loadEngineData(p);
        QJsonArray list;
        QTextStream out(stdout);
        for (const CatalogueModel& m : d.models) {
            const Scenario s = loadScenarioText(defaultImportBase(), d.paths.modelCatalogueFile(), d.catalog, { { "model", m.modelYaml } });
            const double computed = countParameters(s.model, m.seqLen > 0 ? m.seqLen : s.training.seqLen).total;
            if (p.isSet("json"))
                list.append(QJsonObject { { "id", q(m.id) }, { "name", q(m.name) }, { "year", m.year }, { "parameters", m.parameters },
                    { "active_parameters", m.activeParameters }, { "dtsim_parameters", computed }, { "source", q(m.source) } });
            else
                out << QString("%1 %2 %3 %4B published, %5B as dtsim counts\n").arg(q(m.id), -18).arg(m.year).arg(q(m.name), -28)
                           .arg(m.parameters / 1e9, 7, 'f', 2).arg(computed / 1e9, 7, 'f', 2);
        }
        if (p.isSet("json"))
            printJson(QJsonDocument(list));
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
