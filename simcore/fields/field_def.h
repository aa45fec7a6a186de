#pragma once
// One scenario field, declared once: its path in the YAML file, its type and unit, the
// values it accepts, its default, its help text, where the parameter panel shows it,
// and how it reads and writes a Scenario. The loader, the writer, --set, the GUI panel
// and docs/scenario.md are all derived from these declarations (scenario_fields.h).
#include "../scenario.h"
#include "../units.h"

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace dtsim {

enum class FieldType {
    Integer,  // whole number in [min, max]
    Quantity, // number with an optional unit of `dimension`
    Flag,     // true / false
    Choice,   // one of `choices` (stored as its value)
    Text,     // free text
    Gpu,      // a hardware catalogue id (the loader and the GUI hold the catalogue)
    Topology, // a shipped topology id, or absent
    Region,   // a grid region of the cost data (the panel holds the list)
};

// How a slider maps its travel to values: evenly, or in equal ratios. `Powers2`: equal
// ratios, integer values snapped to powers of two (where only those make sense: the
// parallel degrees, the batch and sequence sizes).
enum class SliderScale { Linear, Log, Powers2 };

struct ChoiceName {
    std::string name; // as written in YAML; the first name of a value is the one saved
    int value;        // the enum's value
    bool alias = false; // read, never written, not offered by the panel ("adamw" for adam)
};

// A field's value when the file leaves it out and it depends on other fields. An error
// (with the field it blames) when no value can be derived.
struct DerivedDefault {
    double value = 0;
    std::string errorField;
    std::string error;
    static DerivedDefault of(double v) { return { v, {}, {} }; }
    static DerivedDefault fail(std::string field, std::string why) { return { 0, std::move(field), std::move(why) }; }
};

// How an editor shows a field (label, unit, range), and where the parameter panel puts
// it. An empty group keeps it out of the panel; with a label it still has an editor
// elsewhere (the Topology tab's form: the tiers, NVLink SHARP).
struct PanelPlace {
    std::string group; // "Model", "Batch", "Parallelism", "Hardware", "Network", "Run", ...
    std::string label;
    std::string unit;          // shown as a suffix; values are stored in SI
    double displayScale = 1.0; // shown = stored / displayScale
    double min = 0, max = 1;   // slider range, in shown units; Text: the longest text, in bytes
    SliderScale slider = SliderScale::Linear;
    double step = 1; // integer fields (not Powers2): the slider's values are multiples of it
    std::vector<std::string> choiceLabels; // Choice: one per distinct value; empty: the YAML names
    std::string tooltip;                   // empty: the field's help
    std::string zeroText; // what the editor shows at 0 when 0 stands for a default ("auto")
};

// Which models a field means something for: a layer table (model.table) has no heads or
// sequence length, a transformer no sample count.
enum class ModelKind { Any, Transformer, LayerTable };

struct FieldDef {
    std::string path; // "parallel.tp"; entries of a list: "cluster.tiers[].latency"
    FieldType type = FieldType::Integer;
    Dimension dimension = Dimension::Count; // Quantity: which units the file may use
    std::string unit;                       // Quantity: the unit the writer writes ("B/s")
    Bound bound = Bound::Positive;          // Quantity
    long long min = 1;                      // Integer
    long long max = std::numeric_limits<int>::max();
    bool required = false; // when its section is present
    // Required only when this holds of the fields read before it (absent: always).
    std::function<bool(const Scenario&)> requiredWhen;
    bool isRequired(const Scenario& s) const { return required && (!requiredWhen || requiredWhen(s)); }
    std::vector<ChoiceName> choices;
    std::string choiceHint; // Choice: what to say instead of listing every name
    std::string typeText;   // docs: the type column, when the generic one says too little
    std::string defaultText; // docs: "`1`", "`heads`", "catalogue"
    std::string help;

    // Reading and writing a Scenario; `entry` indexes list entries (0 otherwise).
    std::function<double(const Scenario&, int entry)> get;
    std::function<void(Scenario&, double, int entry)> set;
    std::function<std::string(const Scenario&, int entry)> getText; // Text, Gpu, Topology
    std::function<void(Scenario&, const std::string&, int entry)> setText;
    // Absent from the file: a value from fields read before it (none: keep the value the
    // scenario already holds, i.e. the struct's default or the catalogue's).
    std::function<DerivedDefault(const Scenario&, int entry)> derivedDefault;
    // Present in the file: a reason to refuse `value`, given the fields read before it
    // ("" = accepted).
    std::function<std::string(const Scenario&, double value, int entry)> check;
    // Text: the same for a text value (a project named twice, a job's unknown project),
    // and its value when absent ("j3" for the fourth job's id).
    std::function<std::string(const Scenario&, const std::string& value, int entry)> checkText;
    std::function<std::string(const Scenario&, int entry)> derivedText;
    // The writer leaves the field out when this says so (its default then reads back).
    std::function<bool(const Scenario&, int entry)> written;

    // The panel: where, and the edit it makes, which keeps dependent fields consistent
    // (scenario_rules.h); absent: `set`.
    PanelPlace panel;
    std::function<void(Scenario&, double)> edit;
    // A model-parallel degree (TP, PP, CP): with the panel's "keep the GPU count" on,
    // an edit also rebalances DP (keepGpuCount).
    bool shapesModelParallel = false;

    // A view of other fields (the panel's FLOP budget sets the tokens): never in a file.
    bool derivedOnly = false;

    ModelKind model = ModelKind::Any;
    bool appliesTo(const Scenario& s) const
    {
        return model == ModelKind::Any || (model == ModelKind::LayerTable) == s.model.isLayerTable();
    }

    bool inPanel() const { return !panel.group.empty(); }
    bool hasEditor() const { return !panel.label.empty(); } // in the panel or in a tab's form
    bool inFile() const { return !derivedOnly; }
};

// A section of the file: a map of fields, an optional group whose presence switches a
// feature on (model.moe), a list of maps (cluster.tiers), or a list of plain values
// (workload.generate.project_weights), whose one field is each entry (its key, as in
// "project_weights[].weight", only names it in messages and docs).
enum class SectionKind { Map, Group, List, Values };

struct SectionDef {
    std::string path; // "" for the top level, "model", "model.moe", "cluster.tiers"
    SectionKind kind = SectionKind::Map;
    bool required = false;
    int minEntries = 0; // List, Values
    int maxEntries = 0;
    std::string defaultText;
    std::string help;
    std::string docIntro; // docs: a paragraph above the section's table
    // Group and List: whether the writer writes the section (a dense model has no moe).
    std::function<bool(const Scenario&)> written;
    // List: how many entries the scenario holds, and setting that number (entries
    // start from their struct's defaults).
    std::function<int(const Scenario&)> entries;
    std::function<void(Scenario&, int)> resize;
    // Once the section is read: a reason to refuse it as a whole ("" = accepted), for
    // rules across its entries (quotas adding up to more than the cluster).
    std::function<std::string(const Scenario&)> check;
};

} // namespace dtsim
