#include "scenario_loader.h"

#include "../fields/scenario_fields.h"
#include "../scenario_limits.h"
#include "../scenario_rules.h"
#include "hardware_loader.h"
#include "layer_table_loader.h"
#include "read_file.h"
#include "cost_loader.h"
#include "reliability_loader.h"
#include "topology_loader.h"
#include "calibration_overlay_loader.h"

#include <filesystem>
#include "yaml_reader.h"

namespace dtsim {

namespace {

// A field or section the file does not have (a default-constructed YAML::Node is a
// defined null, not an absent key).
YAML::Node absent() { return YAML::Node(YAML::NodeType::Undefined); }

// Reads a scenario section by section as the field registry declares it; remembers
// each field's line so that plan errors found after loading (e.g. tp not dividing
// heads) still point into the file.
class ScenarioReader {
public:
    ScenarioReader(YamlReader& r, const std::string& origin, const std::vector<HardwareSpec>& catalog, const std::vector<Topology>& topologies)
        : r(r)
        , origin(origin)
        , catalog(catalog)
        , topologies(topologies)
    {
    }

    Scenario read(const YAML::Node& root)
    {
        Scenario s;
        readMap(*findSection(""), root, "", 0, s);
        if (s.model.isLayerTable() && !s.model.table.resolved)
            s.model.table.resolved = resolveLayerTable(tableFile(s.model.table.ref));
        if (auto issue = checkScenario(s))
            r.failField(issue->field, issue->reason);
        return s;
    }

private:
    // `node` null: the section is absent (its fields take their defaults).
    void readMap(const SectionDef& section, const YAML::Node& node, const std::string& name, int entry, Scenario& s)
    {
        const std::vector<const FieldDef*>& fields = fieldsIn(section.path);
        const std::vector<const SectionDef*>& subsections = sectionsIn(section.path);
        if (node) {
            r.expectMap(node, name);
            std::vector<std::string_view> keys;
            for (const FieldDef* f : fields)
                keys.push_back(keyOf(f->path));
            for (const SectionDef* sub : subsections)
                keys.push_back(keyOf(sub->path));
            r.checkKeys(node, name, keys);
        }
        for (const FieldDef* f : fields)
            readField(*f, node, name, entry, s);
        for (const SectionDef* sub : subsections)
            readSubsection(*sub, node, name, s);
    }

    void readSubsection(const SectionDef& sub, const YAML::Node& parent, const std::string& parentName, Scenario& s)
    {
        const std::string key(keyOf(sub.path));
        const std::string name = YamlReader::join(parentName, key);
        const YAML::Node n = !parent ? absent() : sub.required ? r.required(parent, parentName, key.c_str())
                                                                   : r.child(parent, parentName, key.c_str());
        switch (sub.kind) {
        case SectionKind::Map:
            readMap(sub, n, name, 0, s);
            return;
        case SectionKind::Group:
            if (n)
                readMap(sub, n, name, 0, s);
            return;
        case SectionKind::List:
        case SectionKind::Values:
            if (n)
                readList(sub, n, name, s);
            break;
        }
        // Rules across the section's entries, once all of them are read.
        if (n && sub.check)
            if (const std::string why = sub.check(s); !why.empty())
                r.fail(n, name, why);
    }

    void readList(const SectionDef& list, const YAML::Node& n, const std::string& name, Scenario& s)
    {
        if (!n.IsSequence())
            r.fail(n, name, "expected a list of " + list.help);
        if (n.size() < static_cast<std::size_t>(list.minEntries))
            r.fail(n, name, "expected a list of " + list.help + "; it is empty");
        if (n.size() > static_cast<std::size_t>(list.maxEntries))
            r.fail(n, name, "at most " + std::to_string(list.maxEntries) + " entries");
        list.resize(s, int(n.size()));
        for (std::size_t i = 0; i < n.size(); ++i) {
            const std::string entry = name + "[" + std::to_string(i) + "]";
            if (list.kind == SectionKind::Values)
                readValue(*fieldsIn(list.path).front(), n[i], entry, int(i), s); // the entry is the value
            else
                readMap(list, n[i], entry, int(i), s);
        }
    }

    void readField(const FieldDef& f, const YAML::Node& map, const std::string& section, int entry, Scenario& s)
    {
        const std::string key(keyOf(f.path));
        const std::string name = YamlReader::join(section, key);
        if (!f.appliesTo(s)) {
            if (map && map[key].IsDefined())
                r.fail(map[key], name, f.model == ModelKind::LayerTable
                        ? "applies to layer-table models only (model.table)"
                        : "does not apply to a layer-table model (model.table); leave it out");
            return;
        }
        if (f.type == FieldType::Topology) {
            applyTopology(map ? r.child(map, section, key.c_str()) : absent(), name, s);
            return;
        }
        const YAML::Node n = !map ? absent() : f.isRequired(s) ? r.required(map, section, key.c_str()) : r.child(map, section, key.c_str());
        if (!n) {
            if (f.derivedDefault) {
                const DerivedDefault d = f.derivedDefault(s, entry);
                if (!d.error.empty())
                    r.failField(d.errorField, d.error);
                f.set(s, d.value, entry);
            }
            if (f.derivedText)
                f.setText(s, f.derivedText(s, entry), entry);
            return;
        }
        readValue(f, n, name, entry, s);
    }

    void readValue(const FieldDef& f, const YAML::Node& n, const std::string& name, int entry, Scenario& s)
    {
        double v = 0;
        switch (f.type) {
        case FieldType::Integer:
            v = double(r.integer(n, name, f.min, f.max));
            break;
        case FieldType::Quantity:
            v = r.quantity(n, name, f.dimension, f.bound);
            break;
        case FieldType::Flag:
            v = r.boolean(n, name) ? 1 : 0;
            break;
        case FieldType::Choice:
            v = choiceValue(f, n, name);
            break;
        case FieldType::Text:
        case FieldType::Region: {
            const std::string text = r.string(n, name);
            if (f.checkText)
                if (const std::string why = f.checkText(s, text, entry); !why.empty())
                    r.fail(n, name, why);
            f.setText(s, text, entry);
            return;
        }
        case FieldType::Gpu:
            s.hardware = gpu(n, name);
            return;
        case FieldType::Topology:
            return; // applied above, present or not
        }
        if (f.check)
            if (const std::string why = f.check(s, v, entry); !why.empty())
                r.fail(n, name, why);
        f.set(s, v, entry);
    }

    double choiceValue(const FieldDef& f, const YAML::Node& n, const std::string& name)
    {
        const std::string text = r.string(n, name);
        for (const ChoiceName& c : f.choices)
            if (c.name == text)
                return c.value;
        if (!f.choiceHint.empty())
            r.fail(n, name, "\"" + text + "\" " + f.choiceHint);
        std::string allowed;
        for (const ChoiceName& c : f.choices)
            allowed += (allowed.empty() ? "" : ", ") + c.name;
        r.fail(n, name, "\"" + text + "\" is not one of: " + allowed);
    }

    const HardwareSpec& gpu(const YAML::Node& n, const std::string& name)
    {
        const std::string id = r.string(n, name);
        if (const HardwareSpec* found = findHardware(catalog, id))
            return *found;
        std::string ids;
        for (const HardwareSpec& c : catalog)
            ids += (ids.empty() ? "" : ", ") + c.id;
        r.fail(n, name, "unknown GPU \"" + id + "\"; the catalogue has: " + ids);
    }

    // The cluster's links before its own fields: a named topology's, else (and for what
    // the topology leaves out) the GPU's standard server's.
    void applyTopology(const YAML::Node& n, const std::string& name, Scenario& s)
    {
        const Topology* topo = nullptr;
        if (n) {
            const std::string id = r.string(n, name);
            topo = findTopology(topologies, id);
            if (!topo) {
                std::string ids;
                for (const Topology& x : topologies)
                    ids += (ids.empty() ? "" : ", ") + x.id;
                r.fail(n, name, "unknown topology \"" + id + "\"; shipped: " + ids);
            }
        }
        ClusterSpec fromGpu;
        setLinksFromGpu(fromGpu, s.hardware);
        ClusterSpec c = topo ? topo->cluster : ClusterSpec {};
        if (topo)
            c.topology = topo->id;
        if (!topo || !topo->hasScaleUpDomain)
            c.scaleUpDomain = fromGpu.scaleUpDomain;
        if (!topo || !topo->hasScaleUpBandwidth)
            c.scaleUpBandwidth = fromGpu.scaleUpBandwidth;
        if (!topo || !topo->hasScaleUpLatency)
            c.scaleUpLatency = fromGpu.scaleUpLatency;
        if (!topo || !topo->hasScaleOutBandwidth)
            c.scaleOutBandwidth = fromGpu.scaleOutBandwidth;
        if (!topo || !topo->hasScaleOutLatency)
            c.scaleOutLatency = fromGpu.scaleOutLatency;
        s.cluster = c;
    }

    // A layer table in a file next to the scenario. Its own errors name the table's file;
    // a missing one names the scenario's line.
    LayerTable tableFile(const std::string& file)
    {
        namespace fs = std::filesystem;
        const fs::path named(file);
        const fs::path path = named.is_absolute() ? named : fs::path(origin).parent_path() / named;
        std::error_code ec;
        if (!fs::is_regular_file(path, ec))
            r.failField("model.table", "\"" + path.string() + "\" is not a file (the path is relative to the scenario's folder)");
        return loadLayerTable(path.string());
    }

    YamlReader& r;
    const std::string& origin;
    const std::vector<HardwareSpec>& catalog;
    const std::vector<Topology>& topologies;
};

// The overlay a scenario names, found next to the scenario file. Its own errors name
// the overlay file; a missing one names the scenario's line.
CalibrationOverlay overlayFor(const YamlReader& r, const std::string& origin, const std::string& file)
{
    namespace fs = std::filesystem;
    const fs::path named(file);
    const fs::path path = named.is_absolute() ? named : fs::path(origin).parent_path() / named;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        r.failField("calibration", "\"" + path.string() + "\" is not a file (the path is relative to the scenario's folder)");
    CalibrationOverlay o = loadCalibrationOverlay(path.string());
    o.file = file;
    return o;
}

} // namespace

Scenario loadScenarioText(const std::string& text, const std::string& origin,
    const std::vector<HardwareSpec>& catalog, const std::vector<Override>& overrides,
    const std::vector<Topology>& topologies, ScenarioSource* source)
{
    YamlReader r(origin);
    YAML::Node root = r.parse(text);
    if (!root || root.IsNull())
        throw InputError(origin, 0, "", "the scenario is empty");
    std::vector<std::string> notes;
    for (const Override& o : overrides)
        root = applyOverride(r, root, o, notes);
    ScenarioReader reader(r, origin, catalog, topologies);
    Scenario s = reader.read(root);
    if (!s.calibration.file.empty())
        s.calibration = overlayFor(r, origin, s.calibration.file);
    if (source) {
        source->locator = r.locator();
        source->notes = std::move(notes);
    }
    return s;
}

Scenario loadScenarioFile(const std::string& path, const std::vector<HardwareSpec>& catalog,
    const std::vector<Override>& overrides, const std::vector<Topology>& topologies, ScenarioSource* source)
{
    return loadScenarioText(readTextFile(path, "scenario file"), path, catalog, overrides, topologies, source);
}

} // namespace dtsim
