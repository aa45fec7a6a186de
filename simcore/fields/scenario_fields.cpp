#include "scenario_fields.h"

#include "field_tables.h"

#include <algorithm>
#include <sstream>

namespace dtsim {

const std::vector<SectionDef>& scenarioSections()
{
    static const std::vector<SectionDef> sections = [] {
        std::vector<SectionDef> s;
        auto add = [&s](std::string path, SectionKind kind, bool required, std::string byDefault, std::string help) {
            SectionDef d;
            d.path = std::move(path);
            d.kind = kind;
            d.required = required;
            d.defaultText = std::move(byDefault);
            d.help = std::move(help);
            s.push_back(std::move(d));
            return &s.back();
        };
        add("", SectionKind::Map, true, "", "");
        add("model", SectionKind::Map, true, "required", "the network");
        add("model.moe", SectionKind::Group, false, "absent (dense)", "mixture of experts")->written
            = [](const Scenario& sc) { return sc.model.isMoe(); };
        SectionDef* mla = add("model.mla", SectionKind::Group, false, "absent (multi-head / grouped-query attention)",
            "multi-head latent attention (DeepSeek-V2/V3)");
        mla->written = [](const Scenario& sc) { return sc.model.isMla(); };
        mla->docIntro = "Queries and keys/values are projected down to low-rank latents and back up per head\n"
                        "(DeepSeek-V2, Sec. 2.1); the names are those of the DeepSeek configs. With it, `heads`\n"
                        "counts the attention heads and `kv_heads`/`head_dim` are not used for attention.";
        add("training", SectionKind::Map, true, "required", "batch, data, formats");
        add("hardware", SectionKind::Map, true, "required", "the accelerator");
        add("cluster", SectionKind::Map, true, "required", "GPUs and network");
        SectionDef* tiers = add("cluster.tiers", SectionKind::List, false, "none (non-blocking)", "switch tiers, innermost first");
        tiers->maxEntries = kMaxTiers;
        tiers->written = [](const Scenario& sc) { return sc.cluster.tierCount > 0; };
        tiers->entries = [](const Scenario& sc) { return sc.cluster.tierCount; };
        tiers->resize = [](Scenario& sc, int n) {
            sc.cluster.tierCount = n;
            for (int i = 0; i < n; ++i)
                sc.cluster.tiers[std::size_t(i)] = NetworkTier {};
        };
        add("parallel", SectionKind::Map, false, "pure data parallel", "how the work is split");
        add("reliability", SectionKind::External, false, "defaults below", "failures, checkpoints, chaos events");
        add("cost", SectionKind::External, false, "rent on demand, us-average", "prices, energy, carbon");
        add("workload", SectionKind::External, false, "none", "a shared cluster's projects and job stream (docs/cluster.md)");
        return s;
    }();
    return sections;
}

const std::vector<FieldDef>& scenarioFields()
{
    static const std::vector<FieldDef> fields = [] {
        std::vector<FieldDef> f;
        fields::addTopLevelFields(f);
        fields::addModelFields(f);
        fields::addTrainingFields(f);
        fields::addHardwareFields(f);
        fields::addClusterFields(f);
        fields::addParallelFields(f);
        fields::addRunFields(f);
        return f;
    }();
    return fields;
}

const FieldDef* findField(std::string_view path)
{
    for (const FieldDef& f : scenarioFields())
        if (f.path == path)
            return &f;
    return nullptr;
}

const SectionDef* findSection(std::string_view path)
{
    for (const SectionDef& s : scenarioSections())
        if (s.path == path)
            return &s;
    return nullptr;
}

std::string_view sectionOf(std::string_view path)
{
    const auto dot = path.rfind('.');
    if (dot == std::string_view::npos)
        return {};
    std::string_view parent = path.substr(0, dot);
    if (parent.size() > 2 && parent.substr(parent.size() - 2) == "[]")
        parent.remove_suffix(2);
    return parent;
}

std::string_view keyOf(std::string_view path)
{
    const auto dot = path.rfind('.');
    return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

std::vector<const FieldDef*> fieldsIn(std::string_view section)
{
    std::vector<const FieldDef*> out;
    for (const FieldDef& f : scenarioFields())
        if (f.inFile() && sectionOf(f.path) == section)
            out.push_back(&f);
    return out;
}

std::vector<const SectionDef*> sectionsIn(std::string_view section)
{
    std::vector<const SectionDef*> out;
    for (const SectionDef& s : scenarioSections())
        if (!s.path.empty() && sectionOf(s.path) == section)
            out.push_back(&s);
    return out;
}

std::string choiceName(const FieldDef& f, int value)
{
    for (const ChoiceName& c : f.choices)
        if (c.value == value && !c.alias)
            return c.name;
    return {};
}

namespace {

std::string typeColumn(const FieldDef& f)
{
    if (!f.typeText.empty())
        return f.typeText;
    switch (f.type) {
    case FieldType::Integer:
        return "integer >= " + std::to_string(f.min);
    case FieldType::Quantity:
        return f.bound == Bound::Positive ? "number > 0" : "number >= 0";
    case FieldType::Flag:
        return "bool";
    case FieldType::Choice: {
        std::string t;
        for (const ChoiceName& c : f.choices)
            t += (t.empty() ? "`" : " `") + c.name + "`";
        return t;
    }
    case FieldType::Text:
        return "string";
    case FieldType::Gpu:
    case FieldType::Topology:
    case FieldType::Region:
        return "id";
    }
    return "";
}

std::string sectionTitle(const SectionDef& s)
{
    return s.kind == SectionKind::List ? s.path + "[]" : s.path;
}

void writeTable(std::ostringstream& out, const SectionDef& section)
{
    out << "| key | type | default | meaning |\n|---|---|---|---|\n";
    // Fields and subsections in declaration order (subsections after the section's fields).
    for (const FieldDef* f : fieldsIn(section.path))
        out << "| `" << keyOf(f->path) << "` | " << typeColumn(*f) << " | " << f->defaultText << " | " << f->help << " |\n";
    for (const SectionDef* sub : sectionsIn(section.path)) {
        const char* type = sub->kind == SectionKind::List ? "list" : "section";
        out << "| `" << keyOf(sub->path) << "` | " << type << " | " << sub->defaultText << " | " << sub->help << " |\n";
    }
}

} // namespace

std::string fieldReferenceMarkdown()
{
    std::ostringstream out;
    for (const SectionDef& s : scenarioSections()) {
        if (s.kind == SectionKind::External)
            continue;
        const int depth = s.path.empty() ? 0 : int(std::count(s.path.begin(), s.path.end(), '.'));
        out << (depth == 0 ? "## " : "### ") << (s.path.empty() ? "Top level" : "`" + sectionTitle(s) + "`") << "\n";
        if (!s.docIntro.empty())
            out << s.docIntro << "\n\n";
        writeTable(out, s);
        out << "\n";
    }
    return out.str();
}

} // namespace dtsim
