#pragma once
#include "../layers/layer_table.h"

#include <string>

namespace dtsim {

// Reads a layer-table workload (resources/workloads/*.yaml; docs/layers.md): the input
// shape and the layers in order, each checked on the shape it receives. Errors name the
// file, line and field ("layers[4].groups").
LayerTable loadLayerTable(const std::string& path);
LayerTable loadLayerTableText(const std::string& text, const std::string& origin);

} // namespace dtsim
