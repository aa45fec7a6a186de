#include "yaml_reader.h"

#include "../exact_number.h"

#include <yaml-cpp/depthguard.h>

#include <charconv>
#include <cmath>

namespace dtsim {

YAML::Node YamlReader::parse(const std::string& text)
{
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::DeepRecursion& e) {
        // yaml-cpp's own text for this is "bad file".
        throw InputError(file(), e.mark.line >= 0 ? e.mark.line + 1 : 0, "",
            "the YAML is nested deeper than " + std::to_string(e.depth()) + " levels (a scenario needs a handful)");
    } catch (const YAML::ParserException& e) {
        throw InputError(file(), e.mark.line >= 0 ? e.mark.line + 1 : 0, "", "YAML syntax error: " + e.msg);
    }
    m_structure = scanYamlStructure(text, file());
    return root;
}

int YamlReader::lineOf(const std::string& field) const { return m_where.lineOf(field); }

void YamlReader::failField(const std::string& field, const std::string& reason) const { m_where.fail(field, reason); }

void YamlReader::fail(const YAML::Node& at, const std::string& field, const std::string& reason) const
{
    // A field's recorded key line beats the value's mark (a section's value starts on
    // the line after its key).
    const YAML::Mark mark = at.Mark();
    const int line = m_where.hasLine(field) ? m_where.lineOf(field) : mark.line >= 0 ? mark.line + 1 : 0;
    throw m_where.error(field, reason, line);
}

void YamlReader::expectMap(const YAML::Node& n, const std::string& field) const
{
    if (!n.IsMap())
        fail(n, field.empty() ? "(top level)" : field, "expected a mapping of keys to values");
}

void YamlReader::checkKeys(const YAML::Node& map, const std::string& field,
    std::initializer_list<std::string_view> allowed) const
{
    checkKeys(map, field, std::vector<std::string_view>(allowed));
}

void YamlReader::checkKeys(const YAML::Node& map, const std::string& field, const std::vector<std::string_view>& allowed) const
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
                    m_where.recordLine(join(parent, key), kv.first.Mark().line + 1);
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
        const std::string field = join(parent, key);
        const std::string reason = "is required" + unclosedQuoteHint(map, key);
        if (m_where.hasLine(parent))
            throw m_where.error(field, reason, m_where.lineOf(parent));
        fail(map, field, reason);
    }
    return n;
}

std::string YamlReader::unclosedQuoteHint(const YAML::Node& map, const char* key) const
{
    // An unclosed quote swallows the lines after it into one string, and with them the
    // keys they held: say so rather than only that the key is missing.
    if (!map.IsMap())
        return {};
    const std::string swallowed = std::string(key) + ":";
    for (const auto& kv : map) {
        if (!kv.first.IsScalar() || !kv.second.IsScalar() || kv.second.Scalar().find(swallowed) == std::string::npos)
            continue;
        const int line = kv.second.Mark().line >= 0 ? kv.second.Mark().line + 1 : 0;
        return "; the value of " + kv.first.Scalar() + (line > 0 ? " on line " + std::to_string(line) : "")
            + " holds \"" + swallowed + "\": an unclosed quote?";
    }
    return {};
}

std::string YamlReader::scalarText(const YAML::Node& n, const std::string& field, const char* expected) const
{
    if (!n.IsScalar())
        fail(n, field, std::string("expected ") + expected);
    return n.Scalar();
}

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
