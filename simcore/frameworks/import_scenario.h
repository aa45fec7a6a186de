#pragma once
// An import applied to a base scenario: the settings become overrides on the base's
// YAML, so each value is checked exactly like a --set; a value the scenario refuses is
// reported at the file, line and key it came from.
#include "framework_import.h"

#include "../hardware.h"
#include "../loader/model_catalogue_loader.h"
#include "../loader/topology_loader.h"
#include "../scenario.h"

#include <string>
#include <vector>

namespace dtsim {

struct ImportInputs {
    std::string baseText;   // a scenario's YAML
    std::string baseOrigin; // its file (for messages)
    const std::vector<HardwareSpec>* hardware = nullptr;
    const std::vector<Topology>* topologies = nullptr;
    const std::vector<CatalogueModel>* models = nullptr;
    std::vector<Override> extra; // the user's own --set, applied last
};

// The overrides that turn the base into the imported scenario (batch facts resolved).
std::vector<Override> importedOverrides(const FrameworkImport& import, const ImportInputs& in);
Scenario importedScenario(const FrameworkImport& import, const ImportInputs& in);

// "# field = value    from file:line key" lines and the values not expressed, as YAML
// comments for the head of the written scenario.
std::string importReport(const FrameworkImport& import);

// A catalogue model as the scenario's model section reads it (checked like a --set).
ModelSpec catalogueModelSpec(const CatalogueModel& m, const std::vector<HardwareSpec>& hardware);

// A scenario for an import that starts from nothing: 8 H100s in one node, a trillion
// tokens; every other field the import gives or its default.
std::string defaultImportBase();

} // namespace dtsim
