#include "import_scenario.h"

#include "../input_error.h"
#include "../loader/scenario_loader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace dtsim {

namespace {

// A loader error about an override: the import's own file, line and key.
[[noreturn]] void rethrowAtOrigin(const InputError& e, const FrameworkImport& import)
{
    // A field the imported files replaced the section of, and do not give.
    if (e.where().rfind("--set model={}", 0) == 0 || e.where().rfind("--set parallel={}", 0) == 0)
        throw InputError(import.files.empty() ? e.where() : import.files.front(), 0, e.field(),
            "the imported files describe this section but do not give this field (" + e.reason()
                + "); add --set " + e.field() + "=VALUE or a file that has it");
    if (e.where().rfind("--set ", 0) == 0) {
        const std::string field = e.field().empty() ? e.where().substr(6, e.where().find('=') - 6) : e.field();
        if (const ImportSetting* s = settingFor(import, field); s && s->origin.line > 0)
            throw InputError(s->origin.file, s->origin.line, s->origin.key, "gives " + field + " = " + s->value + ": " + e.reason());
        if (const ImportSetting* s = settingFor(import, field))
            throw InputError(s->origin.file, 0, field, s->origin.key + ": " + e.reason());
    }
    throw e;
}

// A model that becomes a layer table counts samples, not tokens of a sequence: the base's
// token fields go (the samples come from the files, a --set, or the base itself).
std::string baseFor(const ImportInputs& in, const FrameworkImport& import)
{
    if (!settingFor(import, "model.table"))
        return in.baseText;
    YAML::Node root = YAML::Load(in.baseText);
    if (root["training"] && root["training"].IsMap() && root["training"]["tokens"]) {
        // As many samples as the base had sequences.
        const Scenario base = loadScenarioText(in.baseText, in.baseOrigin, *in.hardware, {}, in.topologies ? *in.topologies : std::vector<Topology> {});
        root["training"].remove("seq_len");
        root["training"].remove("tokens");
        if (!root["training"]["samples"])
            root["training"]["samples"] = std::to_string(static_cast<long long>(base.training.tokens / std::max(1, base.training.seqLen)));
    }
    YAML::Emitter e;
    e << root;
    return e.c_str();
}

Scenario loadOnBase(const ImportInputs& in, const std::vector<Override>& overrides, const FrameworkImport& import)
{
    try {
        return loadScenarioText(baseFor(in, import), in.baseOrigin, *in.hardware, overrides, in.topologies ? *in.topologies : std::vector<Topology> {});
    } catch (const InputError& e) {
        rethrowAtOrigin(e, import);
    }
}

} // namespace

std::string defaultImportBase()
{
    // The model is Llama 3.1 8B's (resources/models/catalogue.yaml) until a file names one.
    return "version: 1\n"
           "name: Imported configuration\n"
           "model:\n  name: Llama 3.1 8B\n  layers: 32\n  hidden: 4096\n  heads: 32\n  kv_heads: 8\n  ffn_hidden: 14336\n"
           "  gated_mlp: true\n  vocab: 128256\n  norm: rmsnorm\n"
           "training:\n  global_batch: 1024\n  seq_len: 4096\n  tokens: 1T\n"
           "hardware:\n  gpu: h100-sxm\n"
           "cluster:\n  gpus: 8\n"
           "parallel: {}\n";
}

ModelSpec catalogueModelSpec(const CatalogueModel& m, const std::vector<HardwareSpec>& hardware)
{
    return loadScenarioText(defaultImportBase(), "model catalogue", hardware, { { "model", m.modelYaml } }).model;
}

std::vector<Override> importedOverrides(const FrameworkImport& import, const ImportInputs& in)
{
    std::vector<Override> overrides = importOverrides(import);
    if (in.models)
        expandCatalogueModels(overrides, *in.models);
    std::vector<Override> extra = in.extra;
    if (in.models)
        expandCatalogueModels(extra, *in.models);
    std::vector<Override> all = overrides;
    all.insert(all.end(), extra.begin(), extra.end());
    if (!needsDataParallel(import) && !settingFor(import, "@samples"))
        return all;
    // The batch facts need the plan's data-parallel degree: load once without them (and
    // without a stated global batch, which is checked against them below).
    if (settingFor(import, "@per_replica_batch") || settingFor(import, "@accumulation")) {
        all.erase(std::remove_if(all.begin(), all.end(), [](const Override& o) { return o.path == "training.global_batch"; }), all.end());
        // A stand-in batch every plan divides (GPUs x micro-batch) while DP is found.
        const Scenario base = loadOnBase(in, {}, import);
        const ImportSetting* gpus = settingFor(import, "cluster.gpus");
        const ImportSetting* micro = settingFor(import, "training.micro_batch");
        const long long standIn = (gpus ? std::stoll(gpus->value) : base.cluster.gpus) * (micro ? std::stoll(micro->value) : base.training.microBatch);
        all.insert(all.begin(), { "training.global_batch", std::to_string(standIn) });
    }
    const Scenario first = loadOnBase(in, all, import);
    std::vector<Override> batch = importBatchOverrides(import, first.plan.dp, first.training.globalBatch, first.training.seqLen);
    if (const ImportSetting* samples = settingFor(import, "@samples"))
        batch.push_back({ "training.tokens", std::to_string(std::stoll(samples->value) * static_cast<long long>(first.training.seqLen)) });
    overrides.insert(overrides.end(), batch.begin(), batch.end());
    overrides.insert(overrides.end(), extra.begin(), extra.end());
    return overrides;
}

Scenario importedScenario(const FrameworkImport& import, const ImportInputs& in)
{
    return loadOnBase(in, importedOverrides(import, in), import);
}

std::string importReport(const FrameworkImport& import)
{
    std::string out = "# Imported by dtsim from:";
    for (const std::string& f : import.files)
        out += " " + f;
    out += "\n";
    for (const ImportSetting& s : import.settings) {
        if (s.field.rfind("@replace_", 0) == 0)
            continue;
        out += "#   " + (s.field[0] == '@' ? s.field.substr(1) : s.field) + " = " + s.value + "   <- "
            + (s.origin.line > 0 ? s.origin.text() : s.origin.file + " " + s.origin.key) + "\n";
    }
    if (!import.notes.empty()) {
        out += "# Not expressed by dtsim (or not needed):\n";
        for (const ImportNote& n : import.notes)
            out += "#   " + n.origin.text() + ": " + n.reason + "\n";
    }
    return out;
}

} // namespace dtsim
