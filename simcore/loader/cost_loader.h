#pragma once
#include "../cost/cost.h"

#include <string>

namespace dtsim {

// Reads resources/cost/cost.yaml: rent prices by GPU, ownership, power and carbon
// figures, each with its source and date.
CostRates loadCostRates(const std::string& path);

} // namespace dtsim
