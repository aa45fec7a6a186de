#include "yaml_reader.h"

#include "exact_number.h"

#include <charconv>
#include <cmath>

namespace dtsim {

YAML::Node YamlReader::parse(const std::string& text) const
{
    try {
        return YAML::Load(text);
    } catch (const YAML::ParserException& e) {
        throw InputError(m_file, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", "YAML syntax error: " + e.msg);
    }
}

int YamlReader::lineOf(const std::string& field) const
{
    // The field itself, or its nearest recorded parent.
    std::string f = field;
    while (true) {
        if (auto it = m_lines.find(f); it != m_lines.end())
            return it->second;
        auto dot = f.rfind('.');
        if (dot == std::string::npos)
            return 0;
        f.resize(dot);
    }
}

void YamlReader::failField(const std::string& field, const std::string& reason) const
{
    for (const auto& [path, text] : m_overrides)
        if (field == path || field.rfind(path + ".", 0) == 0)
            throw InputError("--set " + path + "=" + text, 0, field, reason);
    throw InputError(m_file, lineOf(field), field, reason);
}

void YamlReader::fail(const YAML::Node& at, const std::string& field, const std::string& reason) const
{
    for (const auto& [path, text] : m_overrides)
        if (field == path || field.rfind(path + ".", 0) == 0)
            throw InputError("--set " + path + "=" + text, 0, field, reason);
    // A field's recorded key line beats the value's mark (a section's value starts on
    // the line after its key).
    if (auto it = m_lines.find(field); it != m_lines.end())
        throw InputError(m_file, it->second, field, reason);
    const YAML::Mark mark = at.Mark();
    const int line = mark.line >= 0 ? mark.line + 1 : lineOf(field);
    throw InputError(m_file, line, field, reason);
}

void YamlReader::expectMap(const YAML::Node& n, const std::string& field) const
{
    if (!n.IsMap())
        fail(n, field.empty() ? "(top level)" : field, "expected a mapping of keys to values");
}

void YamlReader::checkKeys(const YAML::Node& map, const std::string& field,
    std::initializer_list<std::string_view> allowed) const
{
    for (const auto& kv : map) {
        const std::string key = kv.first.Scalar();
        bool known = false;
        for (std::string_view a : allowed)
            known = known || a == key;
        if (!known) {
            std::string list;
            for (std::string_view a : allowed)
                list += (list.empty() ? "" : ", ") + std::string(a);
            fail(kv.first, join(field, key), "unknown key; allowed here: " + list);
        }
    }
}

YAML::Node YamlReader::child(const YAML::Node& map, const std::string& parent, const char* key)
{
    // Record the key's own line: for a nested section the value starts a line later.
    if (map.IsMap()) {
        for (const auto& kv : map) {
            if (kv.first.IsScalar() && kv.first.Scalar() == key) {
                if (kv.first.Mark().line >= 0)
                    m_lines[join(parent, key)] = kv.first.Mark().line + 1;
                return kv.second;
            }
        }
    }
    return YAML::Node(YAML::NodeType::Undefined);
}

YAML::Node YamlReader::required(const YAML::Node& map, const std::string& parent, const char* key)
{
    YAML::Node n = child(map, parent, key);
    if (!n.IsDefined() || n.IsNull()) {
        // Point at the section that lacks the key (its own line, when known).
        const int line = m_lines.count(parent) ? m_lines.at(parent) : 0;
        if (line > 0)
            throw InputError(m_file, line, join(parent, key), "is required");
        fail(map, join(parent, key), "is required");
    }
    return n;
}

std::string YamlReader::scalarText(const YAML::Node& n, const std::string& field, const char* expected) const
{
    if (!n.IsScalar())
        fail(n, field, std::string("expected ") + expected);
    return n.Scalar();
}

namespace {

struct PhysicalRange {
    double lowest, highest; // magnitudes, in base units
    const char* unit;
};

PhysicalRange physicalRange(Dimension d)
{
    switch (d) {
    case Dimension::Count: return { 1e-9, 1e20, "" };
    case Dimension::Bytes: return { 1, 1e21, "bytes" };
    case Dimension::BytesPerSecond: return { 1e3, 1e18, "bytes/s" };
    case Dimension::Seconds: return { 1e-12, 1e12, "s" };
    case Dimension::Flop: return { 1, 1e35, "FLOP" };
    case Dimension::FlopPerSecond: return { 1e6, 1e21, "FLOP/s" };
    case Dimension::Watts: return { 1e-3, 1e12, "W" };
    }
    return { 0, INFINITY, "" };
}

} // namespace

double YamlReader::quantity(const YAML::Node& n, const std::string& field, Dimension dim, Bound bound) const
{
    const std::string text = scalarText(n, field, dimensionName(dim));
    QuantityParse q = parseQuantity(text, dim);
    if (!q.value)
        fail(n, field, q.error);
    const double v = *q.value;
    // Beyond these, a figure is a typo, not a machine: 1e-300 B/s or a latency of 1e308 s
    // would only turn every result into infinity or NaN.
    const auto [lowest, highest, unit] = physicalRange(dim);
    if (v != 0 && (std::abs(v) < lowest || std::abs(v) > highest))
        fail(n, field, "\"" + text + "\" is outside the range dtsim models (" + exactNumber(lowest) + " to " + exactNumber(highest)
                + (unit[0] ? std::string(" ") + unit : std::string()) + ")");
    if (bound == Bound::Positive && !(v > 0))
        fail(n, field, "must be greater than zero (got " + text + ")");
    if (bound == Bound::NonNegative && v < 0)
        fail(n, field, "must not be negative (got " + text + ")");
    return v;
}

long long YamlReader::integer(const YAML::Node& n, const std::string& field, long long min, long long max) const
{
    const std::string text = scalarText(n, field, "a whole number");
    long long v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc::result_out_of_range)
        fail(n, field, "\"" + text + "\" is too large");
    if (ec != std::errc() || ptr != text.data() + text.size())
        fail(n, field, "expected a whole number, got \"" + text + "\"");
    if (v < min)
        fail(n, field, "must be at least " + std::to_string(min) + " (got " + text + ")");
    if (v > max)
        fail(n, field, "must be at most " + std::to_string(max) + " (got " + text + ")");
    return v;
}

bool YamlReader::boolean(const YAML::Node& n, const std::string& field) const
{
    const std::string text = scalarText(n, field, "true or false");
    if (text == "true" || text == "yes" || text == "on")
        return true;
    if (text == "false" || text == "no" || text == "off")
        return false;
    fail(n, field, "expected true or false, got \"" + text + "\"");
}

std::string YamlReader::string(const YAML::Node& n, const std::string& field) const
{
    return scalarText(n, field, "a string");
}

} // namespace dtsim
