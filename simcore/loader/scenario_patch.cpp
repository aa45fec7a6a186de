#include "scenario_patch.h"

#include "../fields/scenario_fields.h"
#include "../input_error.h"
#include "../units.h"
#include "../exact_number.h"
#include "scenario_loader.h"
#include "scenario_writer.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>

namespace dtsim {

namespace {

struct TextEdit {
    std::size_t from, to; // replaced range; an insertion when equal
    std::string text;
};

// Where a scalar written at `pos` ends: its closing quote, or before a comment, the end
// of the line or, in a flow collection, the next separator.
std::size_t scalarEnd(const std::string& text, std::size_t pos, bool flow)
{
    const std::size_t n = text.size();
    if (pos < n && (text[pos] == '"' || text[pos] == '\'')) {
        const char quote = text[pos];
        std::size_t i = pos + 1;
        for (; i < n && text[i] != quote; ++i)
            if (quote == '"' && text[i] == '\\')
                ++i;
        return std::min(n, i + 1);
    }
    std::size_t i = pos;
    for (; i < n && text[i] != '\n' && text[i] != '\r'; ++i) {
        if (text[i] == '#' && i > pos && std::isspace(static_cast<unsigned char>(text[i - 1])))
            break;
        if (flow && (text[i] == ',' || text[i] == '}' || text[i] == ']'))
            break;
    }
    while (i > pos && std::isspace(static_cast<unsigned char>(text[i - 1])))
        --i;
    return i;
}

// A quantity in the unit its old text used ("120 days" -> "90 days"), when that unit
// reads the new value back exactly; otherwise the field's own unit.
std::string quantityText(const FieldDef& f, double v, const std::string& old)
{
    const char* start = old.c_str();
    char* end = nullptr;
    std::strtod(start, &end);
    std::string unit(end ? end : "");
    const bool space = !unit.empty() && std::isspace(static_cast<unsigned char>(unit.front()));
    unit.erase(0, unit.find_first_not_of(" \t"));
    if (!unit.empty() && end != start) {
        const QuantityParse one = parseQuantity("1 " + unit, f.dimension);
        if (one.value && *one.value > 0) {
            const std::string text = exactNumber(v / *one.value) + (space ? " " : "") + unit;
            const QuantityParse back = parseQuantity(text, f.dimension);
            if (back.value && *back.value == v)
                return text;
        }
    }
    return naturalQuantityText(f, v); // new to the file
}

std::string scalarText(const std::string& s)
{
    YAML::Emitter e;
    e << s; // quoted only when it must be
    return e.c_str();
}

std::string valueText(const FieldDef& f, const Scenario& s, const std::string& old)
{
    switch (f.type) {
    case FieldType::Integer:
        return std::to_string(std::llround(f.get(s, 0)));
    case FieldType::Quantity:
        return quantityText(f, f.get(s, 0), old);
    case FieldType::Flag:
        return f.get(s, 0) > 0.5 ? "true" : "false";
    case FieldType::Choice:
        return choiceName(f, static_cast<int>(std::lround(f.get(s, 0))));
    case FieldType::Text:
    case FieldType::Gpu:
    case FieldType::Topology:
    case FieldType::Region:
        return scalarText(f.getText(s, 0));
    }
    return {};
}

bool textual(const FieldDef& f)
{
    return f.type == FieldType::Text || f.type == FieldType::Gpu || f.type == FieldType::Topology || f.type == FieldType::Region;
}

bool sameValue(const FieldDef& f, const Scenario& a, const Scenario& b, int entry)
{
    if (textual(f))
        return f.getText(a, entry) == f.getText(b, entry);
    return f.get(a, entry) == f.get(b, entry);
}

// Lists are kept only when no entry changed: a changed list is rewritten whole.
bool sameList(const SectionDef& list, const Scenario& a, const Scenario& b)
{
    if (list.entries(a) != list.entries(b))
        return false;
    for (int i = 0; i < list.entries(a); ++i) {
        for (const FieldDef* f : fieldsIn(list.path))
            if (!sameValue(*f, a, b, i))
                return false;
        for (const SectionDef* sub : sectionsIn(list.path))
            if (!sameList(*sub, a, b))
                return false;
    }
    return true;
}

class Patcher {
public:
    // `forced`: fields written even though `edited` holds the value `loaded` had: absent
    // from the file, their default derives from fields the edit changed, so reading the
    // file back would give another value.
    Patcher(const std::string& text, const Scenario& loaded, const Scenario& edited, const std::set<const FieldDef*>& forced)
        : text(text)
        , loaded(loaded)
        , edited(edited)
        , forced(forced)
    {
    }

    // False when a change cannot be made in place.
    bool section(const SectionDef& sec, const YAML::Node& node)
    {
        for (const FieldDef* f : fieldsIn(sec.path))
            if (changed(*f) && !field(*f, node))
                return false;
        for (const SectionDef* sub : sectionsIn(sec.path)) {
            const YAML::Node child = node && node.IsMap() ? node[std::string(keyOf(sub->path))] : YAML::Node(YAML::NodeType::Undefined);
            switch (sub->kind) {
            case SectionKind::List:
            case SectionKind::Values:
                if (!sameList(*sub, loaded, edited) && !list(*sub, child))
                    return false;
                break;
            case SectionKind::Group:
            case SectionKind::Map: {
                const bool was = sub->written ? sub->written(loaded) : true;
                const bool is = sub->written ? sub->written(edited) : true;
                if (sub->kind == SectionKind::Group && was != is)
                    return false; // a feature switched on or off: the section comes or goes
                if (sub->kind == SectionKind::Group && !is)
                    break;
                if (!child && !unchangedWithin(*sub) && !(sec.path.empty() && newSection(*sub)))
                    return false; // a section new to the file, below the top
                if (child && !section(*sub, child))
                    return false;
                break;
            }
            }
        }
        return true;
    }

    std::vector<TextEdit> edits;

private:
    bool changed(const FieldDef& f) const { return !sameValue(f, loaded, edited, 0) || forced.count(&f) > 0; }

    bool unchangedWithin(const SectionDef& sec)
    {
        for (const FieldDef* f : fieldsIn(sec.path))
            if (changed(*f))
                return false;
        for (const SectionDef* sub : sectionsIn(sec.path))
            if ((sub->kind == SectionKind::List || sub->kind == SectionKind::Values) ? !sameList(*sub, loaded, edited) : !unchangedWithin(*sub))
                return false;
        return true;
    }

    bool field(const FieldDef& f, const YAML::Node& map)
    {
        if (f.type == FieldType::Topology || !map || !map.IsMap())
            return false; // a named topology supplies other fields' defaults: rewrite all
        const std::string key(keyOf(f.path));
        const bool flow = map.Style() == YAML::EmitterStyle::Flow;
        if (const YAML::Node v = map[key]) {
            if (!v.IsScalar() || v.Mark().pos < 0 || std::size_t(v.Mark().pos) >= text.size())
                return false; // an empty value (no text to replace), or one yaml-cpp cannot place
            const std::size_t from = std::size_t(v.Mark().pos);
            const std::size_t to = scalarEnd(text, from, flow);
            edits.push_back({ from, to, valueText(f, edited, text.substr(from, to - from)) });
            return true;
        }
        if (flow || map.size() == 0)
            return false;
        // New to the file: a line of its own at the top of its section, indented as the
        // section's first key.
        const YAML::Mark first = map.begin()->first.Mark();
        if (first.pos < 0 || std::size_t(first.pos) > text.size())
            return false;
        const std::size_t lineStart = text.rfind('\n', first.pos == 0 ? 0 : first.pos - 1);
        const std::size_t at = lineStart == std::string::npos ? 0 : lineStart + 1;
        edits.push_back({ at, at, std::string(std::size_t(first.column), ' ') + key + ": " + valueText(f, edited, {}) + "\n" });
        return true;
    }

    // A changed list, rewritten whole where the file has it (its own comments go; the
    // rest of the file stays as it was).
    bool list(const SectionDef& sec, const YAML::Node& node)
    {
        if (!node || !node.IsSequence() || sec.entries(edited) == 0 || node.Mark().pos < 0 || std::size_t(node.Mark().pos) >= text.size())
            return false;
        const std::size_t from = std::size_t(node.Mark().pos);
        if (node.Style() == YAML::EmitterStyle::Flow) {
            if (text[from] != '[')
                return false;
            int depth = 0;
            char quote = 0;
            for (std::size_t i = from; i < text.size(); ++i) {
                const char c = text[i];
                if (quote) {
                    if (c == quote)
                        quote = 0;
                } else if (c == '"' || c == '\'') {
                    quote = c;
                } else if (c == '[') {
                    ++depth;
                } else if (c == ']' && --depth == 0) {
                    edits.push_back({ from, i + 1, listYaml(edited, sec, true) });
                    return true;
                }
            }
            return false;
        }
        // Block style: from the first "- " to the last line indented under it.
        const std::size_t column = std::size_t(node.Mark().column);
        const std::size_t start = from - column;
        if (text.compare(start, column, std::string(column, ' ')) != 0)
            return false; // the list starts on its key's line: not ours to re-indent
        std::size_t end = text.find('\n', from);
        end = end == std::string::npos ? text.size() : end + 1;
        for (std::size_t line = end; line < text.size();) {
            std::size_t next = text.find('\n', line);
            next = next == std::string::npos ? text.size() : next + 1;
            const std::size_t first = text.find_first_not_of(" \t\r\n", line);
            const bool blank = first == std::string::npos || first >= next;
            if (!blank && text[first] != '#') {
                const std::size_t indent = first - line;
                if (indent < column || (indent == column && text[first] != '-'))
                    break;
                end = next; // a line of the list
            }
            line = next;
        }
        // An entry the file had keeps to the keys it wrote, and those the edit changed: the
        // rest would read back as their defaults anyway (the readback checks it).
        const int before = sec.entries(loaded);
        const ListFieldFilter keep = [&](const FieldDef& f, int i) {
            if (i >= before || i >= int(node.size()))
                return true;
            return bool(node[std::size_t(i)][std::string(keyOf(f.path))]) || !sameValue(f, loaded, edited, i);
        };
        std::string block;
        const std::string emitted = listYaml(edited, sec, false, keep);
        for (std::size_t at = 0; at < emitted.size();) {
            std::size_t eol = emitted.find('\n', at);
            eol = eol == std::string::npos ? emitted.size() : eol;
            block += std::string(column, ' ') + emitted.substr(at, eol - at) + "\n";
            at = eol + 1;
        }
        edits.push_back({ start, end, block });
        return true;
    }

    // A top-level section the file did not have: appended at its end, holding only its
    // changed fields (its subsections must be as they were).
    bool newSection(const SectionDef& sec)
    {
        for (const SectionDef* sub : sectionsIn(sec.path))
            if ((sub->kind == SectionKind::List || sub->kind == SectionKind::Values) ? !sameList(*sub, loaded, edited) : !unchangedWithin(*sub))
                return false;
        std::string block = std::string(keyOf(sec.path)) + ":\n";
        for (const FieldDef* f : fieldsIn(sec.path))
            if (changed(*f) && f->type != FieldType::Topology)
                block += "  " + std::string(keyOf(f->path)) + ": " + valueText(*f, edited, {}) + "\n";
            else if (changed(*f))
                return false;
        const bool endsLine = text.empty() || text.back() == '\n';
        edits.push_back({ text.size(), text.size(), (endsLine ? "" : "\n") + block });
        return true;
    }

    const std::string& text;
    const Scenario& loaded;
    const Scenario& edited;
    const std::set<const FieldDef*>& forced;
};

// The fields outside lists whose values differ between two scenarios.
std::set<const FieldDef*> differingFields(const Scenario& a, const Scenario& b)
{
    std::set<const FieldDef*> out;
    for (const FieldDef& f : scenarioFields())
        if (f.path.find("[]") == std::string::npos && f.appliesTo(a) && !sameValue(f, a, b, 0))
            out.insert(&f);
    return out;
}

} // namespace

std::optional<std::string> patchScenarioText(const std::string& original, const Scenario& loaded, const Scenario& edited,
    const std::vector<HardwareSpec>& catalog, const std::vector<Topology>& topologies)
{
    try {
        const YAML::Node root = YAML::Load(original);
        if (!root.IsMap() || root.Style() == YAML::EmitterStyle::Flow)
            return std::nullopt;
        // A field left to its default may derive from one the edit changed; such fields
        // are written too, until the text reads back to the edited scenario.
        std::set<const FieldDef*> forced;
        for (int attempt = 0; attempt < 4; ++attempt) {
            Patcher p(original, loaded, edited, forced);
            if (!p.section(*findSection(""), root))
                return std::nullopt;
            std::stable_sort(p.edits.begin(), p.edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.from > b.from; });
            std::string text = original;
            for (const TextEdit& e : p.edits)
                text.replace(e.from, e.to - e.from, e.text);
            // Only a text that reads back to the edited scenario is a patch.
            const Scenario back = loadScenarioText(text, "patched", catalog, {}, topologies);
            if (back == edited)
                return text;
            const std::size_t before = forced.size();
            for (const FieldDef* f : differingFields(back, edited))
                forced.insert(f);
            if (forced.size() == before)
                break;
        }
    } catch (const InputError&) {
    } catch (const YAML::Exception&) {
    }
    return std::nullopt;
}

} // namespace dtsim
