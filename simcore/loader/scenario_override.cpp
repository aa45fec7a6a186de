#include "scenario_override.h"

#include "../fields/scenario_fields.h"
#include "yaml_reader.h"

#include <algorithm>
#include <utility>

namespace dtsim {

namespace {

struct PathStep {
    std::string key;
    long index = -1; // "key[1]": entry 1 of the list under that key
};

std::vector<PathStep> splitPath(const Override& o, const std::string& where)
{
    std::vector<PathStep> steps;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = o.path.find('.', start);
        const std::string k = o.path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (k.empty())
            throw InputError(where, 0, o.path, "empty component in the field path (write e.g. parallel.tp)");
        PathStep step { k };
        if (const auto open = k.find('['); open != std::string::npos) {
            const std::string digits = k.substr(open + 1, k.size() - open - 2);
            if (k.back() != ']' || open == 0 || digits.empty() || digits.size() > 6
                || digits.find_first_not_of("0123456789") != std::string::npos)
                throw InputError(where, 0, o.path, "\"" + k + "\": a list entry is written name[index], e.g. tiers[0]");
            step.key = k.substr(0, open);
            step.index = std::stol(digits);
        }
        steps.push_back(step);
        if (dot == std::string::npos)
            return steps;
        start = dot + 1;
    }
}

// A copy of `parent` (a mapping, or nothing yet) whose `key` holds `child`. The other
// children are shared, not copied; the original is not touched, so a field that was
// one node with another through an alias changes alone. The key keeps its own node,
// which carries its line for later messages.
YAML::Node withChild(const YAML::Node& parent, const std::string& key, const YAML::Node& child)
{
    YAML::Node copy(YAML::NodeType::Map);
    bool replaced = false;
    if (parent && parent.IsMap())
        for (const auto& kv : parent) {
            const bool match = kv.first.IsScalar() && kv.first.Scalar() == key;
            copy.force_insert(kv.first, match ? child : kv.second);
            replaced = replaced || match;
        }
    if (!replaced)
        copy.force_insert(key, child);
    return copy;
}

YAML::Node withEntry(const YAML::Node& list, std::size_t index, const YAML::Node& entry)
{
    YAML::Node copy(YAML::NodeType::Sequence);
    for (std::size_t k = 0; k < list.size(); ++k)
        copy.push_back(k == index ? entry : list[k]);
    return copy;
}

void explainSharing(const YamlReader& r, const std::string& prefix, const std::string& rest, const Override& o,
    std::vector<std::string>& notes)
{
    const auto it = r.structure().shared.find(prefix);
    if (it == r.structure().shared.end())
        return;
    for (const std::string& other : it->second)
        notes.push_back("--set " + o.path + "=" + o.value + ": " + other + rest + " was the same YAML node as " + prefix + rest
            + " (an anchor and its alias) and keeps its value");
}

// A value the field would take, for the message that asks for one.
std::string exampleValue(const std::string& path)
{
    const FieldDef* f = findField(path);
    if (!f)
        return "VALUE";
    switch (f->type) {
    case FieldType::Integer: return std::to_string(std::max(f->min, 1LL) == 1 ? 4 : f->min);
    case FieldType::Quantity: return f->unit.empty() ? "1.5" : "\"1 " + f->unit + "\"";
    case FieldType::Flag: return "true";
    case FieldType::Choice: return f->choices.empty() ? "VALUE" : f->choices.front().name;
    case FieldType::Gpu: return "h100-sxm";
    case FieldType::Topology: return "dgx-h100-superpod";
    case FieldType::Region: return "us-average";
    case FieldType::Text: break;
    }
    return path == "model.table" ? "resnet-50" : path == "calibration" ? "overlay.yaml" : "NAME";
}

} // namespace

Override parseOverride(const std::string& arg)
{
    const auto eq = arg.find('=');
    if (eq == std::string::npos || eq == 0)
        throw InputError("--set " + arg, 0, "", "expected path=value, e.g. parallel.tp=4");
    if (eq + 1 == arg.size())
        throw InputError("--set " + arg, 0, arg.substr(0, eq), "no value after '='; write e.g. " + arg + exampleValue(arg.substr(0, eq)));
    return { arg.substr(0, eq), arg.substr(eq + 1) };
}

YAML::Node applyOverride(YamlReader& r, YAML::Node root, const Override& o, std::vector<std::string>& notes)
{
    const std::string where = "--set " + o.path + "=" + o.value;
    if (!root.IsMap())
        return root; // the top-level check reports it
    YAML::Node value;
    try {
        value = YAML::Load(o.value);
    } catch (const YAML::Exception& e) {
        throw InputError(where, 0, o.path, "value is not valid YAML: " + e.msg);
    }
    const std::vector<PathStep> steps = splitPath(o, where);
    auto entryOf = [&](const YAML::Node& list, const PathStep& step) {
        if (!list || !list.IsSequence())
            throw InputError(where, 0, o.path, "\"" + step.key + "\" is not a list in this scenario");
        if (step.index >= long(list.size()))
            throw InputError(where, 0, o.path, "\"" + step.key + "\" has " + std::to_string(list.size()) + " entries (index from 0)");
        return list[std::size_t(step.index)];
    };

    // Down the path, read only: the node each step reads from, checked as we go.
    struct Level {
        YAML::Node map;   // the mapping holding step.key (null when the override makes it)
        YAML::Node list;  // for name[i]: the list under step.key
    };
    std::vector<Level> levels;
    YAML::Node at = root;
    std::string path;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const PathStep& step = steps[i];
        const bool last = i + 1 == steps.size();
        const std::string keyPath = path.empty() ? step.key : path + "." + step.key;
        explainSharing(r, keyPath, o.path.substr(keyPath.size()), o, notes);
        Level level { at, {} };
        const YAML::Node existing = at && at.IsMap() ? std::as_const(at)[step.key] : YAML::Node();
        if (step.index >= 0) {
            const YAML::Node entry = entryOf(existing, step);
            level.list = existing;
            path = keyPath + "[" + std::to_string(step.index) + "]";
            explainSharing(r, path, o.path.substr(path.size()), o, notes);
            if (!last && !entry.IsMap())
                throw InputError(where, 0, o.path, "\"" + step.key + "\" entries are values, not sections");
            at.reset(entry);
        } else {
            if (!last && existing && !existing.IsMap() && !existing.IsNull())
                throw InputError(where, 0, o.path, "\"" + step.key + "\" is a value, not a section");
            if (!last && (!existing || existing.IsNull()))
                r.markOverride(keyPath, where); // a section this override makes up
            path = keyPath;
            at.reset(existing && existing.IsMap() ? existing : YAML::Node());
        }
        levels.push_back(level);
    }

    // Up the path: each level a new node around the new child. Every node is complete
    // before it goes into its parent (yaml-cpp frees nodes made through a handle whose
    // memory was merged away, so nothing is added to a node after it is inserted).
    YAML::Node replacement = value;
    for (std::size_t i = steps.size(); i-- > 0;) {
        const PathStep& step = steps[i];
        const YAML::Node child = step.index >= 0 ? withEntry(levels[i].list, std::size_t(step.index), replacement) : replacement;
        replacement.reset(withChild(levels[i].map, step.key, child));
    }
    r.markOverride(o.path, where);
    return replacement;
}

} // namespace dtsim
