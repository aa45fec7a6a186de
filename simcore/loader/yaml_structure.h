#pragma once
// What yaml-cpp's node tree hides: a key written twice in one mapping (yaml-cpp keeps
// the first silently), and which fields share one node through an anchor and its
// aliases (so that a --set on one of them would change the others too). Read from the
// parser's events, which see each alias once, so an alias bomb costs nothing.
#include <map>
#include <string>
#include <vector>

namespace dtsim {

struct YamlStructure {
    // Field path -> the other paths that are the same node ("model.hidden" ->
    // {"model.head_dim"} after `hidden: &h 4096` and `head_dim: *h`).
    std::map<std::string, std::vector<std::string>> shared;
};

// Throws InputError naming the file, the line and the field of a repeated key. The
// text must already parse (syntax errors are the parser's to report).
YamlStructure scanYamlStructure(const std::string& text, const std::string& file);

} // namespace dtsim
