#include "list_file.h"

#include "read_file.h"

namespace dtsim {

YAML::Node versionedList(YamlReader& r, const std::string& path, const char* what, const char* key)
{
    const YAML::Node root = r.parse(readTextFile(path, what));
    r.expectMap(root, "");
    r.checkKeys(root, "", { "version", key });
    if (r.integer(r.required(root, "", "version"), "version", 1, 1) != 1)
        r.fail(root, "version", "unsupported version");
    const YAML::Node list = r.required(root, "", key);
    if (!list.IsSequence())
        r.fail(list, key, "must be a list");
    return list;
}

} // namespace dtsim
