#pragma once
// Scenario -> YAML (version 1), every field explicit, so that loading the text gives
// back the same Scenario (tested on every preset).
#include "../scenario.h"

#include <string>

namespace dtsim {

std::string scenarioToYaml(const Scenario& s);

} // namespace dtsim
