#pragma once
// Framework configuration files -> scenario settings. Each importer maps its format's
// keys to scenario fields (`parallel.tp` = 8, from run.sh:31 --tensor-model-parallel-size),
// lists what dtsim cannot express with the reason, and refuses keys the framework does
// not have. Several files combine; two that disagree on a field are both named.
#include "config_document.h"
#include "../loader/scenario_override.h"

#include <optional>
#include <string>
#include <vector>

namespace dtsim {

struct ImportOrigin {
    std::string file;
    int line = 0;
    std::string key;
    std::string text() const; // "run.sh:31 --tensor-model-parallel-size"
};

// A scenario field's value, or one of the batch and length facts that become fields
// once the data-parallel degree is known: "@per_replica_batch" (samples a replica takes
// a step), "@accumulation" (micro-batches a replica runs a step), "@steps" (the run's
// optimizer steps), "@model" (a catalogue model, by id).
struct ImportSetting {
    std::string field;
    std::string value;
    ImportOrigin origin;
    bool soft = false; // a framework's default or a hint: yields to any stated value
};

struct ImportNote {
    ImportOrigin origin;
    std::string reason;
};

struct FrameworkImport {
    std::vector<std::string> files;
    std::vector<ImportSetting> settings;
    std::vector<ImportNote> notes; // values dtsim cannot express, or did not need
};

struct ImportOptions {
    std::optional<ConfigFormat> format;       // all files in this format
    std::vector<std::string> shellVariables;  // NAME=VALUE for launch scripts
};

// Reads every file, maps it and combines the settings. InputError (file, line, key)
// for a file that does not parse, an unknown key, a value the key cannot take, or two
// values for one field.
FrameworkImport importFrameworkFiles(const std::vector<std::string>& paths, const ImportOptions& options);
// The same, on documents already read (tests, the window).
FrameworkImport importDocuments(const std::vector<ConfigDocument>& docs);

// Settings as --set overrides, in a stable order (model first); the @-facts are
// resolved against `dataParallel` (the plan's DP once the rest is applied).
std::vector<Override> importOverrides(const FrameworkImport& import);
std::vector<Override> importBatchOverrides(const FrameworkImport& import, long long dataParallel, long long globalBatch, int seqLen);
bool needsDataParallel(const FrameworkImport& import);

// A located error for a setting that the scenario loader refused.
const ImportSetting* settingFor(const FrameworkImport& import, const std::string& field);

} // namespace dtsim
