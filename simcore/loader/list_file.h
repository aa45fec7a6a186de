#pragma once
// The shape several data files share: `version: 1` and one list of entries under `key`.
#include "yaml_reader.h"

#include <string>

namespace dtsim {

// Parses the file and returns its list, refusing (with file, line and field) any other
// top-level key, another version, or a list that is not one.
YAML::Node versionedList(YamlReader& r, const std::string& path, const char* what, const char* key);

} // namespace dtsim
