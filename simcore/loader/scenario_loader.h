#pragma once
// Scenario YAML (version 1) -> Scenario. Field reference: docs/scenario.md.
#include "../hardware.h"
#include "../scenario.h"
#include "field_locator.h"
#include "scenario_override.h"
#include "topology_loader.h"

#include <string>
#include <vector>

namespace dtsim {

// What loading learnt besides the scenario: where each field came from (for checks
// made later, such as the cost region or the run's feasibility), and notes worth
// telling the user (a --set that split a YAML alias).
struct ScenarioSource {
    FieldLocator locator;
    std::vector<std::string> notes;
};

// `topologies` resolves `cluster.topology` names (resources/topologies); `overrides`
// are the command line's --set, in order.
Scenario loadScenarioFile(const std::string& path, const std::vector<HardwareSpec>& catalog,
    const std::vector<Override>& overrides = {}, const std::vector<Topology>& topologies = {},
    ScenarioSource* source = nullptr);
Scenario loadScenarioText(const std::string& text, const std::string& origin,
    const std::vector<HardwareSpec>& catalog, const std::vector<Override>& overrides = {},
    const std::vector<Topology>& topologies = {}, ScenarioSource* source = nullptr);

} // namespace dtsim
