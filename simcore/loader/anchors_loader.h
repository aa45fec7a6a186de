#pragma once
#include "../planner/frontier_anchors.h"

#include <string>
#include <vector>

namespace dtsim {

// Reads resources/anchors/epoch.yaml: published frontier readings, each with its
// source. Errors name the file, line and field.
std::vector<FrontierAnchor> loadFrontierAnchors(const std::string& path);

} // namespace dtsim
