#include "parameter_fields.h"

#include "simcore/fields/scenario_fields.h"
#include "simcore/scenario_rules.h"

#include <algorithm>
#include <cmath>

namespace dtsim::gui {

namespace {

// The panel's sections, top to bottom.
const QStringList kGroupOrder { "Model", "Batch", "Parallelism", "Hardware", "Network", "Run", "Reliability", "Cost", "Shared cluster" };

int clampedIndex(double v, std::size_t count) { return std::clamp(static_cast<int>(std::lround(v)), 0, int(count) - 1); }

// The field's own edit rule when it has one (scenario_rules), else its plain setter.
void applyEdit(const FieldDef& f, Scenario& s, double v, int entry)
{
    if (f.edit)
        f.edit(s, v);
    else
        f.set(s, v, entry);
}

// A combo box over `names` (the row's value is an index into them).
void listChoice(FieldSpec& spec, QStringList names)
{
    spec.kind = FieldKind::Choice;
    spec.choices = std::move(names);
    spec.min = 0;
    spec.max = spec.choices.size() - 1;
}

// A choice among names, stored as an index into `values` of the field.
void asChoice(FieldSpec& spec, const FieldDef& f, std::vector<int> values, QStringList names)
{
    listChoice(spec, std::move(names));
    const int entry = spec.entry;
    spec.get = [&f, values, entry](const Scenario& s) {
        const int v = static_cast<int>(std::lround(f.get(s, entry)));
        const auto it = std::find(values.begin(), values.end(), v);
        return it == values.end() ? 0.0 : double(it - values.begin());
    };
    spec.set = [&f, values, entry](Scenario& s, double index) {
        applyEdit(f, s, values[std::size_t(clampedIndex(index, values.size()))], entry);
    };
}

QStringList labelsOr(const FieldDef& f, QStringList names)
{
    if (f.panel.choiceLabels.empty())
        return names;
    QStringList labels;
    for (const std::string& l : f.panel.choiceLabels)
        labels << QString::fromStdString(l);
    return labels;
}

// The GPU choice: the catalogue's ids, an edit switches the whole machine.
FieldSpec gpuChoice(FieldSpec spec, const std::vector<HardwareSpec>& catalog)
{
    QStringList ids;
    for (const HardwareSpec& h : catalog)
        ids << QString::fromStdString(h.id);
    listChoice(spec, ids);
    spec.get = [catalog](const Scenario& s) {
        for (std::size_t i = 0; i < catalog.size(); ++i)
            if (catalog[i].id == s.hardware.id)
                return double(i);
        return 0.0;
    };
    spec.set = [catalog](Scenario& s, double v) { switchGpu(s, catalog[std::size_t(clampedIndex(v, catalog.size()))]); };
    return spec;
}

// A grid region among those of the cost data.
FieldSpec regionChoice(FieldSpec spec, const FieldDef& f, const std::vector<std::string>& regions)
{
    QStringList names;
    for (const std::string& r : regions)
        names << QString::fromStdString(r);
    listChoice(spec, names);
    spec.get = [&f, regions](const Scenario& s) {
        const auto it = std::find(regions.begin(), regions.end(), f.getText(s, 0));
        return it == regions.end() ? 0.0 : double(it - regions.begin());
    };
    spec.set = [&f, regions](Scenario& s, double v) { f.setText(s, regions[std::size_t(clampedIndex(v, regions.size()))], 0); };
    return spec;
}

// Label, unit, range and help, as the declaration gives them.
FieldSpec described(const FieldDef& f, int entry)
{
    FieldSpec spec;
    spec.id = QString::fromStdString(f.path);
    spec.entry = entry;
    spec.group = QString::fromStdString(f.panel.group);
    spec.label = QString::fromStdString(f.panel.label);
    spec.unit = QString::fromStdString(f.panel.unit);
    spec.displayScale = f.panel.displayScale;
    spec.min = f.panel.min;
    spec.max = f.panel.max;
    spec.logScale = f.panel.slider == SliderScale::Log || f.panel.slider == SliderScale::Powers2;
    spec.powersOfTwo = f.panel.slider == SliderScale::Powers2;
    spec.step = f.panel.step;
    spec.tooltip = QString::fromStdString(f.panel.tooltip.empty() ? f.help : f.panel.tooltip);
    spec.zeroText = QString::fromStdString(f.panel.zeroText);
    spec.rebalancesDp = f.shapesModelParallel;
    spec.applies = [&f](const Scenario& s) { return f.appliesTo(s); };
    return spec;
}

} // namespace

std::optional<FieldSpec> fieldSpec(const FieldDef& f, int entry)
{
    FieldSpec spec = described(f, entry);
    if (f.get)
        spec.get = [&f, entry](const Scenario& s) { return f.get(s, entry); };
    if (f.set)
        spec.set = [&f, entry](Scenario& s, double v) { applyEdit(f, s, v, entry); };
    switch (f.type) {
    case FieldType::Integer:
        spec.kind = FieldKind::Integer;
        if (!f.panel.choiceLabels.empty()) { // a small range shown by name (the ZeRO stage)
            std::vector<int> values;
            for (int v = int(f.panel.min); v <= int(f.panel.max); ++v)
                values.push_back(v);
            asChoice(spec, f, std::move(values), labelsOr(f, {}));
        }
        return spec;
    case FieldType::Quantity:
        spec.kind = FieldKind::Real;
        return spec;
    case FieldType::Flag:
        spec.kind = FieldKind::Flag;
        return spec;
    case FieldType::Choice: {
        std::vector<int> values;
        QStringList names;
        for (const ChoiceName& c : f.choices)
            if (!c.alias) {
                values.push_back(c.value);
                names << QString::fromStdString(c.name);
            }
        asChoice(spec, f, std::move(values), labelsOr(f, names));
        return spec;
    }
    case FieldType::Text:
        if (!f.setText)
            return std::nullopt; // read-only (derived from other fields)
        spec.kind = FieldKind::Text;
        spec.getText = [&f, entry](const Scenario& s) { return f.getText(s, entry); };
        spec.setText = [&f, entry](Scenario& s, const std::string& v) { f.setText(s, v, entry); };
        return spec;
    case FieldType::Gpu:
    case FieldType::Region:
    case FieldType::Topology:
        break;
    }
    return std::nullopt;
}

std::vector<FieldSpec> scenarioFields(const std::vector<HardwareSpec>& catalog, const std::vector<std::string>& regions)
{
    std::vector<FieldSpec> out;
    for (const FieldDef& f : dtsim::scenarioFields()) {
        if (!f.inPanel())
            continue;
        if (f.type == FieldType::Gpu)
            out.push_back(gpuChoice(described(f, 0), catalog));
        else if (f.type == FieldType::Region && !regions.empty())
            out.push_back(regionChoice(described(f, 0), f, regions));
        else if (f.type == FieldType::Text)
            continue; // not a slider
        else if (std::optional<FieldSpec> spec = fieldSpec(f))
            out.push_back(std::move(*spec));
    }
    std::stable_sort(out.begin(), out.end(), [](const FieldSpec& a, const FieldSpec& b) {
        return kGroupOrder.indexOf(a.group) < kGroupOrder.indexOf(b.group);
    });
    return out;
}

} // namespace dtsim::gui
