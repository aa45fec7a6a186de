#include "scenario_writer.h"

#include "../fields/scenario_fields.h"
#include "../exact_number.h"
#include "cost_loader.h"
#include "reliability_loader.h"

#include <yaml-cpp/yaml.h>

#include "../units.h"

#include <cmath>
#include <string>

namespace dtsim {

std::string naturalQuantityText(const FieldDef& f, double v)
{
    // The largest natural unit that reads back exactly and briefly ("5 us", not
    // "4.9999999999999996e-06 s"; "120 days", not "1.0368e+07 s").
    std::vector<const char*> units;
    switch (f.dimension) {
    case Dimension::Seconds: units = { "days", "h", "min", "s", "ms", "us", "ns" }; break;
    case Dimension::BytesPerSecond: units = { "TB/s", "GB/s", "MB/s" }; break;
    case Dimension::Bytes: units = { "TB", "GB", "MB", "kB" }; break;
    default: break;
    }
    for (const char* u : units) {
        const QuantityParse one = parseQuantity(std::string("1 ") + u, f.dimension);
        if (!one.value || v / *one.value < 1)
            continue;
        const std::string text = exactNumber(v / *one.value) + " " + u;
        const QuantityParse back = parseQuantity(text, f.dimension);
        if (back.value && *back.value == v && text.size() <= 12)
            return text;
    }
    return f.unit.empty() ? exactNumber(v) : exactWithUnit(v, f.unit.c_str());
}

namespace {

// Writes the fields and subsections of one section as the field registry declares
// them, skipping those whose `written` says the default reads back the same.
void writeFields(YAML::Emitter& y, const Scenario& s, const SectionDef& section, int entry);

void writeValue(YAML::Emitter& y, const Scenario& s, const FieldDef& f, int entry)
{
    switch (f.type) {
    case FieldType::Integer:
        y << static_cast<long long>(std::llround(f.get(s, entry)));
        break;
    case FieldType::Quantity:
        y << naturalQuantityText(f, f.get(s, entry));
        break;
    case FieldType::Flag:
        y << (f.get(s, entry) > 0.5);
        break;
    case FieldType::Choice:
        y << choiceName(f, static_cast<int>(std::lround(f.get(s, entry))));
        break;
    case FieldType::Text:
    case FieldType::Gpu:
    case FieldType::Topology:
    case FieldType::Region:
        y << f.getText(s, entry);
        break;
    }
}

void writeField(YAML::Emitter& y, const Scenario& s, const FieldDef& f, int entry)
{
    if (!f.appliesTo(s) || (f.written && !f.written(s, entry)))
        return;
    y << YAML::Key << std::string(keyOf(f.path)) << YAML::Value;
    writeValue(y, s, f, entry);
}

void writeSubsection(YAML::Emitter& y, const Scenario& s, const SectionDef& sub)
{
    switch (sub.kind) {
    case SectionKind::Map:
    case SectionKind::Group:
        if (sub.written && !sub.written(s))
            return;
        y << YAML::Key << std::string(keyOf(sub.path)) << YAML::Value << YAML::BeginMap;
        writeFields(y, s, sub, 0);
        y << YAML::EndMap;
        return;
    case SectionKind::List:
        if (sub.written && !sub.written(s))
            return;
        y << YAML::Key << std::string(keyOf(sub.path)) << YAML::Value << YAML::BeginSeq;
        for (int i = 0; i < sub.entries(s); ++i) {
            y << YAML::BeginMap;
            writeFields(y, s, sub, i);
            y << YAML::EndMap;
        }
        y << YAML::EndSeq;
        return;
    case SectionKind::Values:
        if (sub.written && !sub.written(s))
            return;
        y << YAML::Key << std::string(keyOf(sub.path)) << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (int i = 0; i < sub.entries(s); ++i)
            writeValue(y, s, *fieldsIn(sub.path).front(), i);
        y << YAML::EndSeq;
        return;
    }
}

void writeFields(YAML::Emitter& y, const Scenario& s, const SectionDef& section, int entry)
{
    for (const FieldDef* f : fieldsIn(section.path))
        writeField(y, s, *f, entry);
    for (const SectionDef* sub : sectionsIn(section.path))
        writeSubsection(y, s, *sub);
}

void writeList(YAML::Emitter& y, const Scenario& s, const SectionDef& sub, bool flow, const ListFieldFilter& keep)
{
    if (flow)
        y << YAML::Flow;
    y << YAML::BeginSeq;
    for (int i = 0; i < sub.entries(s); ++i) {
        if (sub.kind == SectionKind::Values) {
            writeValue(y, s, *fieldsIn(sub.path).front(), i);
            continue;
        }
        y << YAML::BeginMap;
        for (const FieldDef* f : fieldsIn(sub.path))
            if (!keep || keep(*f, i))
                writeField(y, s, *f, i);
        for (const SectionDef* inner : sectionsIn(sub.path))
            writeSubsection(y, s, *inner);
        y << YAML::EndMap;
    }
    y << YAML::EndSeq;
}

} // namespace

std::string listYaml(const Scenario& s, const SectionDef& list, bool flow, const ListFieldFilter& keep)
{
    YAML::Emitter y;
    writeList(y, s, list, flow, keep);
    return y.c_str();
}

std::string fieldValueText(const Scenario& s, const FieldDef& f, int entry)
{
    YAML::Emitter y;
    writeValue(y, s, f, entry);
    return y.c_str();
}

std::string scenarioToYaml(const Scenario& s)
{
    YAML::Emitter y;
    y << YAML::BeginMap;
    writeFields(y, s, *findSection(""), 0);
    y << YAML::EndMap;
    return std::string(y.c_str()) + "\n";
}

} // namespace dtsim
