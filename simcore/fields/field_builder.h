#pragma once
// Chainable declarations for scenario_fields' tables (private to simcore/fields/).
#include "field_def.h"

#include <cmath>
#include <type_traits>
#include <utility>

namespace dtsim::fields {

template <typename T>
T fromDouble(double v)
{
    if constexpr (std::is_same_v<T, bool>)
        return v > 0.5;
    else if constexpr (std::is_enum_v<T>)
        return static_cast<T>(std::lround(v));
    else if constexpr (std::is_integral_v<T>)
        return static_cast<T>(std::llround(v));
    else
        return static_cast<T>(v);
}

class Field {
public:
    Field(std::string path, FieldType type) { d.path = std::move(path); d.type = type; }

    // A member of a member of Scenario, e.g. bind(&Scenario::plan, &ParallelPlan::tp).
    template <typename Section, typename T>
    Field& bind(Section Scenario::*section, T Section::*member)
    {
        d.get = [section, member](const Scenario& s, int) { return static_cast<double>(s.*section.*member); };
        d.set = [section, member](Scenario& s, double v, int) { s.*section.*member = fromDouble<T>(v); };
        return *this;
    }
    // One level deeper: bind(&Scenario::model, &ModelSpec::moe, &MoeSpec::experts).
    template <typename Section, typename Sub, typename T>
    Field& bind(Section Scenario::*section, Sub Section::*sub, T Sub::*member)
    {
        d.get = [=](const Scenario& s, int) { return static_cast<double>(s.*section.*sub.*member); };
        d.set = [=](Scenario& s, double v, int) { s.*section.*sub.*member = fromDouble<T>(v); };
        return *this;
    }
    Field& access(std::function<double(const Scenario&, int)> get, std::function<void(Scenario&, double, int)> set)
    {
        d.get = std::move(get);
        d.set = std::move(set);
        return *this;
    }
    Field& text(std::function<std::string(const Scenario&, int)> get, std::function<void(Scenario&, const std::string&, int)> set)
    {
        d.getText = std::move(get);
        d.setText = std::move(set);
        return *this;
    }
    Field& min(long long v) { d.min = v; return *this; }
    Field& max(long long v) { d.max = v; return *this; }
    Field& quantity(Dimension dim, std::string unit, Bound b) { d.dimension = dim; d.unit = std::move(unit); d.bound = b; return *this; }
    Field& required() { d.required = true; return *this; }
    Field& requiredWhen(std::function<bool(const Scenario&)> f) { d.required = true; d.requiredWhen = std::move(f); return *this; }
    Field& choices(std::vector<ChoiceName> c, std::string hint = {}) { d.choices = std::move(c); d.choiceHint = std::move(hint); return *this; }
    Field& typeText(std::string t) { d.typeText = std::move(t); return *this; }
    Field& byDefault(std::string t) { d.defaultText = std::move(t); return *this; }
    Field& help(std::string t) { d.help = std::move(t); return *this; }
    Field& derived(std::function<DerivedDefault(const Scenario&, int)> f) { d.derivedDefault = std::move(f); return *this; }
    Field& check(std::function<std::string(const Scenario&, double, int)> f) { d.check = std::move(f); return *this; }
    Field& checkText(std::function<std::string(const Scenario&, const std::string&, int)> f) { d.checkText = std::move(f); return *this; }
    Field& derivedText(std::function<std::string(const Scenario&, int)> f) { d.derivedText = std::move(f); return *this; }
    Field& writtenWhen(std::function<bool(const Scenario&, int)> f) { d.written = std::move(f); return *this; }
    Field& panel(std::string group, std::string label, double min, double max, SliderScale s = SliderScale::Linear, std::string tooltip = {})
    {
        d.panel.group = std::move(group);
        d.panel.label = std::move(label);
        d.panel.min = min;
        d.panel.max = max;
        d.panel.slider = s;
        d.panel.tooltip = std::move(tooltip);
        return *this;
    }
    // An editor outside the parameter panel (the Topology tab's form): no group.
    Field& form(std::string label, double min, double max, SliderScale s = SliderScale::Linear, std::string tooltip = {})
    {
        return panel({}, std::move(label), min, max, s, std::move(tooltip));
    }
    Field& shown(std::string unit, double scale) { d.panel.unit = std::move(unit); d.panel.displayScale = scale; return *this; }
    Field& zeroMeans(std::string text) { d.panel.zeroText = std::move(text); return *this; }
    Field& sliderStep(double step) { d.panel.step = step; return *this; }
    Field& labels(std::vector<std::string> l) { d.panel.choiceLabels = std::move(l); return *this; }
    Field& edit(std::function<void(Scenario&, double)> f) { d.edit = std::move(f); return *this; }
    Field& derivedOnly() { d.derivedOnly = true; return *this; }
    Field& forModel(ModelKind k) { d.model = k; return *this; }
    Field& shapesModelParallel() { d.shapesModelParallel = true; return *this; }

    operator FieldDef() const { return d; }

private:
    FieldDef d;
};

inline Field integer(std::string path) { return Field(std::move(path), FieldType::Integer); }
inline Field quantity(std::string path, Dimension dim, std::string unit, Bound b = Bound::Positive)
{
    return std::move(Field(std::move(path), FieldType::Quantity).quantity(dim, std::move(unit), b));
}
inline Field flag(std::string path) { return Field(std::move(path), FieldType::Flag); }
inline Field choice(std::string path, std::vector<ChoiceName> names) { return std::move(Field(std::move(path), FieldType::Choice).choices(std::move(names))); }
inline Field text(std::string path) { return Field(std::move(path), FieldType::Text); }

inline auto keep() { return [](const Scenario&, int) { return true; }; }

} // namespace dtsim::fields
