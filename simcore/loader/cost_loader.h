#pragma once
#include "../cost/cost.h"
#include "yaml_reader.h"

#include <string>

namespace dtsim {

// Reads resources/cost/cost.yaml: rent prices by GPU, ownership, power and carbon
// figures, each with its source and date.
CostRates loadCostRates(const std::string& path);

// A scenario's optional `cost:` section, and its YAML for the writer (nothing when
// everything is default).
void readCostSection(YamlReader& r, const YAML::Node& n, CostSpec& spec);
void writeCostSection(YAML::Emitter& y, const CostSpec& spec);

} // namespace dtsim
