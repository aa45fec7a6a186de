#pragma once
// The parameter panel's rows, derived from simcore's field registry
// (simcore/fields/scenario_fields.h): label, unit, range, tooltip, and the edit each
// makes. The panel adds only what needs the loaded data: the GPU and region choices.
#include "simcore/hardware.h"
#include "simcore/scenario.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dtsim {
struct FieldDef;
}

namespace dtsim::gui {

enum class FieldKind { Integer, Real, Choice, Flag, Text };

struct FieldSpec {
    QString id;      // scenario path, e.g. "parallel.tp", "cluster.tiers[].latency"
    int entry = 0;   // which entry of a list (a tier of the cluster's) the row edits
    QString group;   // "Model", "Batch", "Parallelism", "Hardware", "Network", "Run", ...
    QString label;
    QString unit;    // shown as a suffix; values are stored in SI and shown scaled
    double displayScale = 1.0; // shown = stored / displayScale
    FieldKind kind = FieldKind::Integer;
    double min = 1, max = 1;   // in displayed units
    bool logScale = false;     // slider moves in log steps
    bool powersOfTwo = false;  // integer slider values are powers of two
    double step = 1;           // else integer slider values are multiples of this (in shown units)
    QStringList choices;       // for Choice (value = index)
    QString tooltip;
    QString zeroText;          // shown at 0 when 0 stands for a default; empty: "0"
    std::function<double(const Scenario&)> get;
    std::function<void(Scenario&, double)> set;
    std::function<std::string(const Scenario&)> getText; // Text
    std::function<void(Scenario&, const std::string&)> setText;
    bool rebalancesDp = false; // TP, PP, CP: with "keep the GPU count" on, DP follows
    // Whether the field means anything for this scenario (a layer table has no heads);
    // the panel hides the rows that do not.
    std::function<bool(const Scenario&)> applies = [](const Scenario&) { return true; };
};

// The row of one declared field (any with an editor, in the panel or not), bound to
// entry `entry` of its list; null for the fields whose choices the app holds (GPU,
// region, topology), which only scenarioFields makes.
std::optional<FieldSpec> fieldSpec(const FieldDef& f, int entry = 0);

// The parameter panel's rows. `catalog` provides the GPU choices, `regions` the grid
// regions (resources/cost).
std::vector<FieldSpec> scenarioFields(const std::vector<HardwareSpec>& catalog, const std::vector<std::string>& regions = {});

} // namespace dtsim::gui
