#include "framework_import.h"

#include "import_context.h"

#include "../input_error.h"
#include "../loader/read_file.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace dtsim {

const char* formatName(ConfigFormat f)
{
    switch (f) {
    case ConfigFormat::HuggingFace: return "Hugging Face config.json";
    case ConfigFormat::Megatron: return "Megatron-LM arguments";
    case ConfigFormat::Torchtitan: return "torchtitan TOML";
    case ConfigFormat::DeepSpeed: return "DeepSpeed JSON";
    case ConfigFormat::NeMo: return "NeMo recipe";
    }
    return "?";
}

const ConfigValue* ConfigDocument::find(const std::string& key) const
{
    for (const ConfigValue& v : values)
        if (v.key == key)
            return &v;
    return nullptr;
}

std::string ImportOrigin::text() const
{
    std::string s = file;
    if (line > 0)
        s += ":" + std::to_string(line);
    return s + " " + key;
}

std::string lowerText(std::string s)
{
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

void ImportContext::refuse(const ConfigValue& v, const std::string& why) const
{
    throw InputError(doc.file, v.line, v.key, why);
}

void ImportContext::unknown(const ConfigValue& v, const std::string& what) const
{
    throw InputError(doc.file, v.line, v.key, "not a key of " + what + " (misspelt, or from another framework); nothing was imported");
}

std::string ImportContext::text(const ConfigValue& v) const
{
    if (v.text.find("${") != std::string::npos)
        refuse(v, "the value \"" + v.text + "\" is not known before the script runs (a positional argument or a command's output); "
                  "set it with --var NAME=VALUE");
    return v.text;
}

double ImportContext::number(const ConfigValue& v) const
{
    const std::string t = text(v);
    double d = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), d);
    if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size() || !std::isfinite(d))
        refuse(v, "expected a number, found \"" + t + "\"");
    return d;
}

long long ImportContext::integer(const ConfigValue& v, long long min) const
{
    const double d = number(v);
    if (d != std::floor(d) || d < double(min) || d > 1e15)
        refuse(v, "expected a whole number of at least " + std::to_string(min) + ", found \"" + v.text + "\"");
    return static_cast<long long>(d);
}

bool ImportContext::flag(const ConfigValue& v) const
{
    if (v.kind == ConfigValue::Kind::Empty)
        return true;
    const std::string t = lowerText(text(v));
    if (t == "true" || t == "1")
        return true;
    if (t == "false" || t == "0")
        return false;
    refuse(v, "expected true or false, found \"" + v.text + "\"");
}

namespace {

bool nameEndsWith(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

void combineSetting(FrameworkImport& into, const ImportSetting& s)
{
    // A setting that loses to another still leaves its trace, when it has a line.
    auto yields = [&](const ImportSetting& loser, const ImportSetting& winner) {
        if (loser.origin.line > 0)
            into.notes.push_back({ loser.origin, (loser.value == winner.value ? "the same " + loser.field + " as "
                                                                               : "a default that " + winner.origin.text() + " overrides: ")
                    + (loser.value == winner.value ? winner.origin.text() : loser.field + " = " + winner.value) });
    };
    for (ImportSetting& old : into.settings) {
        if (old.field != s.field)
            continue;
        if (old.soft && !s.soft) {
            yields(old, s);
            old = s;
            return;
        }
        if (old.value == s.value || s.soft) {
            yields(s, old);
            return;
        }
        throw InputError(s.origin.file, s.origin.line, s.origin.key,
            "gives " + s.field + " = " + s.value + ", but " + old.origin.text() + " gives " + old.value + "; remove one of them");
    }
    into.settings.push_back(s);
}

// NeMo overrides: key=value tokens and no "key:" mapping (a .txt, .args or .overrides file).
bool looksLikeOverrides(const std::string& path, const std::string& text)
{
    const std::string lower = lowerText(path);
    if (nameEndsWith(lower, ".yaml") || nameEndsWith(lower, ".yml"))
        return false;
    // The first line that is not blank or a comment.
    std::size_t at = 0;
    while (at < text.size()) {
        const auto first = text.find_first_not_of(" \t\r\n", at);
        if (first == std::string::npos)
            return false;
        const auto lineEnd = text.find('\n', first);
        const std::string line = text.substr(first, lineEnd == std::string::npos ? std::string::npos : lineEnd - first);
        if (line[0] != '#') {
            const auto eq = line.find('='), colon = line.find(": ");
            return eq != std::string::npos && (colon == std::string::npos || eq < colon);
        }
        if (lineEnd == std::string::npos)
            return false;
        at = lineEnd + 1;
    }
    return false;
}

} // namespace

FrameworkImport importDocuments(const std::vector<ConfigDocument>& given)
{
    // Launch scripts that source one another make one command line: read them as one.
    std::vector<ConfigDocument> docs;
    for (const ConfigDocument& d : given) {
        if (d.format == ConfigFormat::Megatron && !docs.empty() && docs.back().format == ConfigFormat::Megatron) {
            for (ConfigValue v : d.values) {
                if (v.file.empty())
                    v.file = d.file;
                docs.back().values.push_back(v);
            }
            continue;
        }
        docs.push_back(d);
        if (d.format == ConfigFormat::Megatron)
            for (ConfigValue& v : docs.back().values)
                if (v.file.empty())
                    v.file = d.file;
    }
    FrameworkImport all;
    for (const ConfigDocument& doc : docs) {
        FrameworkImport one;
        ImportContext c(doc, one);
        switch (doc.format) {
        case ConfigFormat::HuggingFace: importHuggingFace(c); break;
        case ConfigFormat::Megatron: importMegatron(c); break;
        case ConfigFormat::Torchtitan: importTorchtitan(c); break;
        case ConfigFormat::DeepSpeed: importDeepSpeed(c); break;
        case ConfigFormat::NeMo: importNeMo(c); break;
        }
        for (const ConfigDocument& d : given)
            if (std::find(all.files.begin(), all.files.end(), d.file) == all.files.end() && (d.file == doc.file || d.format == doc.format))
                all.files.push_back(d.file);
        for (const ImportSetting& s : one.settings)
            combineSetting(all, s);
        all.notes.insert(all.notes.end(), one.notes.begin(), one.notes.end());
    }
    return all;
}

ConfigFormat detectFormat(const std::string& path, const std::string& text, std::string& problem)
{
    const std::string lower = lowerText(path);
    if (nameEndsWith(lower, ".toml"))
        return ConfigFormat::Torchtitan;
    if (nameEndsWith(lower, ".sh") || nameEndsWith(lower, ".bash") || nameEndsWith(lower, ".slurm") || nameEndsWith(lower, ".sbatch"))
        return ConfigFormat::Megatron;
    if (nameEndsWith(lower, ".yaml") || nameEndsWith(lower, ".yml"))
        return ConfigFormat::NeMo;
    if (nameEndsWith(lower, ".json")) {
        // Hugging Face configs name their architecture; DeepSpeed's have batch and ZeRO keys.
        for (const char* k : { "\"model_type\"", "\"architectures\"", "\"num_hidden_layers\"", "\"n_layer\"" })
            if (text.find(k) != std::string::npos)
                return ConfigFormat::HuggingFace;
        for (const char* k : { "\"zero_optimization\"", "\"train_batch_size\"", "\"train_micro_batch_size_per_gpu\"",
                 "\"gradient_accumulation_steps\"", "\"fp16\"", "\"bf16\"", "\"optimizer\"" })
            if (text.find(k) != std::string::npos)
                return ConfigFormat::DeepSpeed;
        problem = "a JSON file that is neither a Hugging Face config (no model_type) nor a DeepSpeed config";
        return ConfigFormat::HuggingFace;
    }
    if (nameEndsWith(lower, ".txt") || nameEndsWith(lower, ".args") || nameEndsWith(lower, ".overrides")) {
        if (looksLikeOverrides(path, text))
            return ConfigFormat::NeMo;
    }
    if (text.find("--") != std::string::npos)
        return ConfigFormat::Megatron;
    problem = "cannot tell the format from the name (.json, .toml, .yaml, .sh)";
    return ConfigFormat::HuggingFace;
}

FrameworkImport importFrameworkFiles(const std::vector<std::string>& paths, const ImportOptions& options)
{
    ShellState shell;
    for (const std::string& nv : options.shellVariables) {
        const auto eq = nv.find('=');
        if (eq == std::string::npos || eq == 0)
            throw InputError("--var " + nv, 0, "", "expected NAME=VALUE, e.g. MODEL_SIZE=18B");
        shell.variables[nv.substr(0, eq)] = nv.substr(eq + 1);
        shell.fixed.insert(nv.substr(0, eq));
    }
    std::vector<ConfigDocument> docs;
    for (const std::string& path : paths) {
        const std::string text = readTextFile(path, "framework configuration");
        std::string problem;
        const ConfigFormat format = options.format ? *options.format : detectFormat(path, text, problem);
        if (!problem.empty())
            throw InputError(path, 0, "", problem + "; name it with --format hf|megatron|torchtitan|deepspeed|nemo");
        switch (format) {
        case ConfigFormat::HuggingFace:
        case ConfigFormat::DeepSpeed: docs.push_back(readJsonDocument(path, text, format)); break;
        case ConfigFormat::Torchtitan: docs.push_back(readTomlDocument(path, text)); break;
        case ConfigFormat::NeMo: docs.push_back(looksLikeOverrides(path, text) ? readOverrideDocument(path, text) : readYamlDocument(path, text)); break;
        case ConfigFormat::Megatron: docs.push_back(readShellDocument(path, text, shell)); break;
        }
    }
    return importDocuments(docs);
}

const ImportSetting* settingFor(const FrameworkImport& import, const std::string& field)
{
    for (const ImportSetting& s : import.settings)
        if (s.field == field)
            return &s;
    return nullptr;
}

std::vector<Override> importOverrides(const FrameworkImport& import)
{
    std::vector<Override> out;
    // A file that describes a whole model or plan replaces the scenario's, so nothing of
    // the old one (an MoE section, a ZeRO stage) survives unseen.
    for (const char* section : { "model", "parallel" })
        if (settingFor(import, std::string("@replace_") + section))
            out.push_back({ section, "{}" });
    if (const ImportSetting* m = settingFor(import, "@model"))
        out.push_back({ "model", m->value });
    for (const char* prefix : { "model.", "training.", "hardware.", "cluster.", "parallel." })
        for (const ImportSetting& s : import.settings)
            if (s.field.rfind(prefix, 0) == 0)
                out.push_back({ s.field, s.value });
    return out;
}

bool needsDataParallel(const FrameworkImport& import)
{
    return settingFor(import, "@per_replica_batch") || settingFor(import, "@accumulation") || settingFor(import, "@steps");
}

std::vector<Override> importBatchOverrides(const FrameworkImport& import, long long dataParallel, long long globalBatch, int seqLen)
{
    std::vector<Override> out;
    long long global = 0;
    const ImportSetting* from = nullptr;
    if (const ImportSetting* r = settingFor(import, "@per_replica_batch")) {
        global = std::stoll(r->value) * dataParallel;
        from = r;
    } else if (const ImportSetting* a = settingFor(import, "@accumulation")) {
        const ImportSetting* micro = settingFor(import, "training.micro_batch");
        global = std::stoll(a->value) * (micro ? std::stoll(micro->value) : 1) * dataParallel;
        from = a;
    }
    if (from) {
        if (const ImportSetting* stated = settingFor(import, "training.global_batch"); stated && !stated->soft
            && std::stoll(stated->value) != global)
            throw InputError(from->origin.file, from->origin.line, from->origin.key,
                "gives a global batch of " + std::to_string(global) + " on " + std::to_string(dataParallel)
                    + " data-parallel replicas, but " + stated->origin.text() + " gives " + stated->value);
        out.push_back({ "training.global_batch", std::to_string(global) });
        globalBatch = global;
    }
    if (const ImportSetting* steps = settingFor(import, "@steps"))
        out.push_back({ "training.tokens", std::to_string(std::stoll(steps->value) * globalBatch * seqLen) });
    return out;
}

} // namespace dtsim
