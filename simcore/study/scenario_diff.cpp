#include "scenario_diff.h"

#include "../fields/scenario_fields.h"
#include "../loader/scenario_writer.h"
#include "../units.h"

#include <cmath>

namespace dtsim {

namespace {

bool isList(const SectionDef* s) { return s && (s->kind == SectionKind::List || s->kind == SectionKind::Values); }

// The list section a field sits in, if any (its own section or an enclosing one).
const SectionDef* listOf(const FieldDef& f)
{
    const SectionDef* s = findSection(sectionOf(f.path));
    return isList(s) ? s : nullptr;
}

std::string entryPath(const std::string& path, int entry)
{
    const auto brackets = path.find("[]");
    return brackets == std::string::npos ? path : path.substr(0, brackets) + "[" + std::to_string(entry) + "]" + path.substr(brackets + 2);
}

} // namespace

std::string readableFieldValue(const Scenario& s, const FieldDef& f, int entry)
{
    const std::string exact = fieldValueText(s, f, entry);
    if (f.type != FieldType::Quantity)
        return exact;
    const double v = f.get(s, entry);
    std::string human;
    switch (f.dimension) {
    case Dimension::Bytes: human = formatBytes(v); break;
    case Dimension::BytesPerSecond: human = formatRate(v); break;
    case Dimension::Seconds: human = formatSeconds(v); break;
    default: return exact;
    }
    // Only where it reads back as the same value: a --set of it must reproduce the run.
    const QuantityParse back = parseQuantity(human, f.dimension);
    return back.value && std::abs(*back.value - v) <= 1e-12 * std::max(1.0, std::abs(v)) ? human : exact;
}

std::vector<FieldDifference> diffScenarios(const Scenario& a, const Scenario& b)
{
    std::vector<FieldDifference> out;
    // Lists of another length first, once each.
    for (const SectionDef& s : scenarioSections()) {
        if (!isList(&s) || !s.entries)
            continue;
        const int na = s.entries(a), nb = s.entries(b);
        if (na != nb)
            out.push_back({ s.path, std::to_string(na) + (na == 1 ? " entry" : " entries"),
                std::to_string(nb) + (nb == 1 ? " entry" : " entries") });
    }
    for (const FieldDef& f : scenarioFields()) {
        if (!f.inFile())
            continue;
        const SectionDef* list = listOf(f);
        const int entries = list ? std::min(list->entries(a), list->entries(b)) : 1;
        for (int i = 0; i < entries; ++i) {
            const std::string va = readableFieldValue(a, f, i), vb = readableFieldValue(b, f, i);
            if (va != vb)
                out.push_back({ list ? entryPath(f.path, i) : f.path, va, vb });
        }
    }
    return out;
}

} // namespace dtsim
