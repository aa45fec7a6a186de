#pragma once
// Built-in layer tables for the common families, so a scenario can say
// `model.table: resnet-50` instead of shipping a file (docs/layers.md lists them with
// their sources). Each generator builds the same table a YAML file would describe.
#include "layer_table.h"

#include <optional>
#include <string>
#include <vector>

namespace dtsim {

// The built-in table called `name` ("alexnet-2012", "resnet-50", "vgg-16", ...), if any.
std::optional<LayerTable> builtinLayerTable(const std::string& name);
std::vector<std::string> builtinLayerTableNames();

} // namespace dtsim
