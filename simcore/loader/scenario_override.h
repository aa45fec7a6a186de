#pragma once
// Command-line overrides, "--set path.to.field=value": parsed, then written into the
// scenario's YAML tree before it is read, so that an override is checked exactly like
// the file's own value.
#include <string>
#include <vector>

// Declared only: yaml-cpp stays private to the loader (simcore/README.md), so this
// header, which the app and frameworks/ include for `Override`, does not include it.
namespace YAML {
class Node;
}

namespace dtsim {

class YamlReader;

struct Override {
    std::string path;
    std::string value;
};

// "a.b=c" -> {a.b, c}; throws InputError("--set ...") for a missing '=', path or value.
Override parseOverride(const std::string& arg);

// Returns the new root. Nodes along the path are copied, never written in place: a
// field shared with others through a YAML alias changes alone, and each such split is
// explained in `notes`. Sections the override creates are marked as the override's, so
// that an error in them points at the --set.
YAML::Node applyOverride(YamlReader& r, YAML::Node root, const Override& o, std::vector<std::string>& notes);

} // namespace dtsim
