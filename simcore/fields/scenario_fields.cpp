#include "scenario_fields.h"

#include "field_tables.h"

#include "../exact_number.h"

#include <algorithm>
#include <map>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace dtsim {

namespace {

// The shared cluster's sections, with the rules across their entries.
template <typename Add>
void addWorkloadSections(Add add)
{
    SectionDef* w = add("workload", SectionKind::Group, false, "none", "a shared cluster's projects and job stream");
    w->written = [](const Scenario& sc) { return !sc.workload.empty(); };
    w->docIntro = "Optional: makes the scenario a shared cluster (the Cluster tab, `dtsim-cli cluster`).\n"
                  "The scenario's `cluster` is the shared cluster (its first tier's `span_gpus` is a pod);\n"
                  "its `model`, `training` and `parallel` shape (TP, PP, CP, ZeRO, recompute) are the\n"
                  "class of every job, whose speed the engine gives at each allocation. docs/cluster.md\n"
                  "explains the model. The projects' quotas add up to at most 1.";
    SectionDef* projects = add("workload.projects", SectionKind::List, true, "required", "projects");
    projects->minEntries = 1;
    projects->maxEntries = 1 << 16;
    projects->entries = [](const Scenario& sc) { return int(sc.workload.projects.size()); };
    projects->resize = [](Scenario& sc, int n) { sc.workload.projects.assign(std::size_t(n), ProjectSpec {}); };
    projects->check = [](const Scenario& sc) {
        double quotas = 0;
        for (const ProjectSpec& p : sc.workload.projects)
            quotas += p.quota;
        return quotas > 1 + 1e-9 ? "the quotas add up to " + exactNumber(quotas) + ", more than the whole cluster" : std::string();
    };
    SectionDef* jobs = add("workload.jobs", SectionKind::List, false, "none", "jobs");
    jobs->maxEntries = 1 << 20;
    jobs->written = [](const Scenario& sc) { return !sc.workload.jobs.empty(); };
    jobs->entries = [](const Scenario& sc) { return int(sc.workload.jobs.size()); };
    jobs->resize = [](Scenario& sc, int n) { sc.workload.jobs.assign(std::size_t(n), JobSpec {}); };
    SectionDef* gen = add("workload.generate", SectionKind::Group, false, "none", "a generated job stream");
    gen->written = [](const Scenario& sc) { return sc.workload.generator.count > 0; };
    struct MixList {
        const char* path;
        std::vector<WeightedValue> JobGenerator::*member;
        const char* help;
    };
    for (const MixList& list : { MixList { "workload.generate.sizes", &JobGenerator::sizes, "job sizes, each {value, weight}" },
             MixList { "workload.generate.durations", &JobGenerator::durations, "job durations, each {value, weight}" } }) {
        const auto mix = list.member; // a plain variable: clang 14 cannot capture a structured binding
        SectionDef* m = add(list.path, SectionKind::List, true, "required", list.help);
        m->minEntries = 1;
        m->maxEntries = 1 << 16;
        m->entries = [mix](const Scenario& sc) { return int((sc.workload.generator.*mix).size()); };
        m->resize = [mix](Scenario& sc, int n) { (sc.workload.generator.*mix).assign(std::size_t(n), WeightedValue {}); };
    }
    SectionDef* weights = add("workload.generate.project_weights", SectionKind::Values, false, "equal", "weights, one per project");
    weights->maxEntries = 1 << 16;
    weights->written = [](const Scenario& sc) { return !sc.workload.generator.projectWeights.empty(); };
    weights->entries = [](const Scenario& sc) { return int(sc.workload.generator.projectWeights.size()); };
    weights->resize = [](Scenario& sc, int n) { sc.workload.generator.projectWeights.assign(std::size_t(n), 0.0); };
    weights->check = [](const Scenario& sc) {
        const auto& pw = sc.workload.generator.projectWeights;
        if (pw.size() != sc.workload.projects.size())
            return "expected one weight per project (" + std::to_string(sc.workload.projects.size()) + ")";
        // All zero sent every job to the first project: no project would get any.
        if (std::all_of(pw.begin(), pw.end(), [](double v) { return !(v > 0); }))
            return std::string("the weights are all zero, so no project would get a job; give at least one a weight");
        return std::string();
    };
}

} // namespace

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
        SectionDef* diloco = add("parallel.diloco", SectionKind::Group, false, "absent (every replica syncs every step)",
            "infrequent synchronization across workers (DiLoCo)");
        diloco->written = [](const Scenario& sc) { return sc.plan.diloco.on(); };
        diloco->docIntro = "The data-parallel replicas form `workers` groups that reduce gradients among themselves every step;\n"
                           "every `inner_steps` steps the groups all-reduce their outer gradient (Douillard et al. 2023;\n"
                           "streaming: Douillard et al. 2025). It costs tokens (docs/convergence.md).";
        SectionDef* offload = add("parallel.offload", SectionKind::Map, false, "absent (everything on the GPU)",
            "optimizer states, gradients, parameters or activations in host memory or on NVMe");
        offload->written = [](const Scenario& sc) { return sc.plan.offload.any(); };
        offload->docIntro = "Offloaded state frees GPU memory and costs host-link, CPU-memory and NVMe time, partly hidden\n"
                            "under compute (docs/model.md, \"Offload\"). The host's figures are `hardware.host_*` and `hardware.nvme_*`.";
        SectionDef* rel = add("reliability", SectionKind::Map, false, "defaults below", "failures, checkpoints, chaos events");
        rel->written = [](const Scenario& sc) { return !(sc.reliability == ReliabilitySpec {}); };
        rel->docIntro = "All optional; docs/reliability.md explains the model. Defaults come from\n"
                        "`resources/reliability/reliability.yaml`.";
        SectionDef* mtbf = add("reliability.mtbf", SectionKind::Map, false, "shipped", "the run's own failure rates");
        mtbf->written = [](const Scenario& sc) {
            const ReliabilitySpec& r = sc.reliability;
            return r.mtbfGpu > 0 || r.mtbfHost > 0 || r.mtbfNic > 0 || r.mtbfSwitchOrCable > 0 || r.mtbfSoftware > 0 || r.mtbfRack > 0
                || r.mtbfPod > 0 || r.mtbfPreemption > 0;
        };
        SectionDef* recovery = add("reliability.recovery", SectionKind::Map, false, "shipped", "the restart's phases");
        recovery->written = [](const Scenario& sc) {
            const ReliabilitySpec& r = sc.reliability;
            return r.detect > 0 || r.drain > 0 || r.provision > 0 || r.reinit > 0;
        };
        SectionDef* memory = add("reliability.in_memory", SectionKind::Map, false, "one copy, same rack", "Gemini's peer copies");
        memory->written = [](const Scenario& sc) {
            return sc.reliability.inMemoryCopies != 1 || sc.reliability.copyPlacement != CopyPlacement::SameRack;
        };
        SectionDef* link = add("reliability.degraded_link", SectionKind::Group, false, "healthy", "one link at a share of its bandwidth");
        link->written = [](const Scenario& sc) { return sc.reliability.degradedLinkFraction < 1; };
        SectionDef* chaos = add("reliability.chaos", SectionKind::List, false, "none", "injected events");
        chaos->maxEntries = 1 << 20;
        chaos->written = [](const Scenario& sc) { return !sc.reliability.chaos.empty(); };
        chaos->entries = [](const Scenario& sc) { return int(sc.reliability.chaos.size()); };
        chaos->resize = [](Scenario& sc, int n) { sc.reliability.chaos.assign(std::size_t(n), ChaosEvent {}); };
        SectionDef* cost = add("cost", SectionKind::Map, false, "rent on demand, us-average", "prices, energy, carbon");
        cost->written = [](const Scenario& sc) { return !(sc.cost == CostSpec {}); };
        cost->docIntro = "All optional; docs/cost.md explains the model. Defaults come from\n"
                         "`resources/cost/cost.yaml`; `training.deadline` is the cost planner's deadline.";
        addWorkloadSections(add);
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
        // Across sections the order is free (each section reads its own fields in
        // order); the hardware comes first so the panel lists the GPU first.
        fields::addHardwareFields(f);
        fields::addClusterFields(f);
        fields::addTrainingFields(f);
        fields::addParallelFields(f);
        fields::addReliabilityFields(f);
        fields::addRunFields(f);
        fields::addWorkloadFields(f);
        return f;
    }();
    return fields;
}

const SectionDef* findSection(std::string_view path)
{
    for (const SectionDef& s : scenarioSections())
        if (s.path == path)
            return &s;
    return nullptr;
}

const FieldDef* findField(std::string_view path)
{
    for (const FieldDef& f : scenarioFields())
        if (f.path == path)
            return &f;
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

// Both indexes are built once: the loader, the writer and checkScenario (every edit)
// walk them section by section.
const std::vector<const FieldDef*>& fieldsIn(std::string_view section)
{
    static const std::map<std::string, std::vector<const FieldDef*>, std::less<>> index = [] {
        std::map<std::string, std::vector<const FieldDef*>, std::less<>> m;
        for (const FieldDef& f : scenarioFields())
            if (f.inFile())
                m[std::string(sectionOf(f.path))].push_back(&f);
        return m;
    }();
    static const std::vector<const FieldDef*> none;
    const auto it = index.find(section);
    return it == index.end() ? none : it->second;
}

const std::vector<const SectionDef*>& sectionsIn(std::string_view section)
{
    static const std::map<std::string, std::vector<const SectionDef*>, std::less<>> index = [] {
        std::map<std::string, std::vector<const SectionDef*>, std::less<>> m;
        for (const SectionDef& s : scenarioSections())
            if (!s.path.empty())
                m[std::string(sectionOf(s.path))].push_back(&s);
        return m;
    }();
    static const std::vector<const SectionDef*> none;
    const auto it = index.find(section);
    return it == index.end() ? none : it->second;
}

std::string choiceName(const FieldDef& f, int value)
{
    for (const ChoiceName& c : f.choices)
        if (c.value == value && !c.alias)
            return c.name;
    return {};
}

namespace {

std::string numberText(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string valueIssue(const FieldDef& f, const Scenario& s, int entry)
{
    if (!f.appliesTo(s) || (f.written && !f.written(s, entry)))
        return {};
    const double v = f.type == FieldType::Integer || f.type == FieldType::Quantity || f.type == FieldType::Choice
            || f.type == FieldType::Flag
        ? f.get(s, entry)
        : 0;
    if (f.type == FieldType::Integer && (v < double(f.min) || v > double(f.max)))
        return "must be between " + std::to_string(f.min) + " and " + std::to_string(f.max) + " (got " + numberText(v) + ")";
    if (f.type == FieldType::Quantity) {
        const PhysicalRange r = physicalRange(f.dimension);
        if (!std::isfinite(v) || (v != 0 && (std::abs(v) < r.lowest || std::abs(v) > r.highest)))
            return numberText(v) + " is outside the range dtsim models (" + numberText(r.lowest) + " to " + numberText(r.highest) + ")";
        if ((f.bound == Bound::Positive && !(v > 0)) || (f.bound == Bound::NonNegative && v < 0))
            return f.bound == Bound::Positive ? "must be greater than zero" : "must not be negative";
    }
    if (f.check)
        return f.check(s, v, entry);
    if (f.checkText)
        return f.checkText(s, f.getText(s, entry), entry);
    return {};
}

FieldValueIssue sectionIssue(const SectionDef& section, const Scenario& s, int entry, const std::string& name)
{
    for (const FieldDef* f : fieldsIn(section.path))
        if (std::string why = valueIssue(*f, s, entry); !why.empty())
            return { name.empty() ? std::string(keyOf(f->path)) : name + "." + std::string(keyOf(f->path)), why };
    for (const SectionDef* sub : sectionsIn(section.path)) {
        if (sub->written && !sub->written(s))
            continue;
        const std::string subName = name.empty() ? sub->path : name + "." + std::string(keyOf(sub->path));
        if (sub->kind == SectionKind::Values) {
            const FieldDef& value = *fieldsIn(sub->path).front();
            for (int i = 0; i < sub->entries(s); ++i)
                if (std::string why = valueIssue(value, s, i); !why.empty())
                    return { subName + "[" + std::to_string(i) + "]", why };
        } else if (sub->kind == SectionKind::List) {
            for (int i = 0; i < sub->entries(s); ++i)
                if (FieldValueIssue issue = sectionIssue(*sub, s, i, subName + "[" + std::to_string(i) + "]"); !issue.field.empty())
                    return issue;
        } else if (FieldValueIssue issue = sectionIssue(*sub, s, 0, subName); !issue.field.empty()) {
            return issue;
        }
        if (sub->check)
            if (std::string why = sub->check(s); !why.empty())
                return { subName, why };
    }
    return {};
}

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

bool isList(const SectionDef& s) { return s.kind == SectionKind::List || s.kind == SectionKind::Values; }

std::string sectionTitle(const SectionDef& s)
{
    return isList(s) ? s.path + "[]" : s.path;
}

void writeTable(std::ostringstream& out, const SectionDef& section)
{
    out << "| key | type | default | meaning |\n|---|---|---|---|\n";
    // Fields and subsections in declaration order (subsections after the section's fields).
    for (const FieldDef* f : fieldsIn(section.path))
        out << "| `" << keyOf(f->path) << "` | " << typeColumn(*f) << " | " << f->defaultText << " | " << f->help << " |\n";
    for (const SectionDef* sub : sectionsIn(section.path)) {
        // A list of plain values is one row: its entries' type is the list's.
        const std::string type = sub->kind == SectionKind::Values ? "list of " + typeColumn(*fieldsIn(sub->path).front())
            : sub->kind == SectionKind::List                    ? "list"
                                                                : "section";
        out << "| `" << keyOf(sub->path) << "` | " << type << " | " << sub->defaultText << " | " << sub->help << " |\n";
    }
}

} // namespace

FieldValueIssue fieldValueIssue(const Scenario& s) { return sectionIssue(*findSection(""), s, 0, ""); }

std::string fieldReferenceMarkdown()
{
    std::ostringstream out;
    for (const SectionDef& s : scenarioSections()) {
        if (s.kind == SectionKind::Values)
            continue; // a row of its parent's table
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
