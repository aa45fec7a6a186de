#pragma once
// Scenario YAML (version 1) -> Scenario. Field reference: docs/scenario.md.
#include "../hardware.h"
#include "topology_loader.h"
#include "../scenario.h"

#include <string>
#include <vector>

namespace dtsim {

// A command-line override "path.to.field=value"; the value is read as YAML.
struct Override {
    std::string path;
    std::string value;
};
Override parseOverride(const std::string& arg); // throws InputError("--set", ...)

// `topologies` resolves `cluster.topology` names (resources/topologies).
Scenario loadScenarioFile(const std::string& path, const std::vector<HardwareSpec>& catalog,
    const std::vector<Override>& overrides = {}, const std::vector<Topology>& topologies = {});
Scenario loadScenarioText(const std::string& text, const std::string& origin,
    const std::vector<HardwareSpec>& catalog, const std::vector<Override>& overrides = {},
    const std::vector<Topology>& topologies = {});

} // namespace dtsim
