#pragma once
// A framework's configuration file read into flat, located values: every leaf of a
// JSON, TOML or YAML document under its dotted key ("zero_optimization.stage"), every
// flag of a launch script ("--tensor-model-parallel-size"). The importers map these
// keys to scenario fields; the lines let every message point into the user's file.
#include "shell_state.h"

#include <string>
#include <vector>

namespace dtsim {

enum class ConfigFormat { HuggingFace, Megatron, Torchtitan, DeepSpeed, NeMo };

const char* formatName(ConfigFormat f); // "Hugging Face config.json", ...

struct ConfigValue {
    std::string key;  // dotted path, list entries as key[i]; a flag with its dashes
    std::string text; // the value as written (strings unquoted); "true" for a bare switch
    enum class Kind { Text, Number, Bool, Null, Empty } kind = Kind::Text;
    int line = 0;     // 1-based
    std::string file; // when it differs from the document's (launch scripts read as one command line)
    bool isNull() const { return kind == Kind::Null; }
};

struct ConfigDocument {
    std::string file;
    ConfigFormat format = ConfigFormat::HuggingFace;
    std::vector<ConfigValue> values;
    const ConfigValue* find(const std::string& key) const;
};

// Reads `path` (text already loaded) as `format`. InputError with the file and line for
// a document that does not parse.
ConfigDocument readJsonDocument(const std::string& path, const std::string& text, ConfigFormat format);
ConfigDocument readTomlDocument(const std::string& path, const std::string& text);
ConfigDocument readYamlDocument(const std::string& path, const std::string& text);
// NeMo recipe overrides as the command line gives them: key=value tokens, a line or more
// (`recipe.trainer.strategy.tensor_model_parallel_size=8 data.global_batch_size=512`).
ConfigDocument readOverrideDocument(const std::string& path, const std::string& text);
ConfigDocument readShellDocument(const std::string& path, const std::string& text, ShellState& state);

// Values in a JSON file as nlohmann-json's SAX reader streams them from disk, for
// `dtsim-cli bench` to compare with the profiler-trace reader (simcore/measure).
std::size_t countJsonValuesStreamed(const std::string& path);

// The format a file is in: from its name and its first keys. Empty message: found;
// else why not (the caller names the file and asks for --format).
ConfigFormat detectFormat(const std::string& path, const std::string& text, std::string& problem);

} // namespace dtsim
