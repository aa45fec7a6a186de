#pragma once
// A two-parameter sweep: one headline number over a grid of two fields' values (TP x PP,
// GPU count x global batch ...), each cell simulated as the panel would set it (the
// field's own edit, DP following the model-parallel degrees when neither axis is DP),
// and a cell the loader would refuse, or that does not fit in memory, says why.
#include "headline.h"

#include "../calibration.h"
#include "../fields/field_def.h"
#include "../scenario.h"

#include <atomic>
#include <string>
#include <vector>

namespace dtsim {

struct SweepAxis {
    const FieldDef* field = nullptr;
    std::vector<double> values;      // in the field's base unit
    std::vector<std::string> labels; // as written ("8", "400 Gbps")
};

struct SweepCell {
    double value = 0;
    std::string issue;    // why the cell has no value; empty when it has one
    std::string adjusted; // what the cell changed beyond the two fields to be valid ("even pipeline stages")
    bool ok() const { return issue.empty(); }
};

struct SweepResult {
    SweepAxis x, y;
    Headline metric = Headline::StepTime;
    std::vector<SweepCell> cells; // row by row: cells[iy * x.values.size() + ix]
    int currentX = -1, currentY = -1; // the base scenario's own cell, where it is on the grid
    bool cancelled = false;
    const SweepCell& at(std::size_t ix, std::size_t iy) const { return cells[iy * x.values.size() + ix]; }
};

// Sets one field as the panel does (its edit keeps dependent fields consistent).
void applyFieldValue(Scenario& s, const FieldDef& f, double value);

// The scenario of cell (ix, iy): the two fields set, DP following them. When that breaks
// a plan rule, the cell relaxes what a user would (even pipeline stages, then no
// interleaving) and says so in `adjusted`.
Scenario sweepScenario(const Scenario& base, const SweepAxis& x, const SweepAxis& y, std::size_t ix, std::size_t iy,
    std::string* adjusted = nullptr);

SweepResult sweep(const Scenario& base, const Calibration& c, const SweepAxis& x, const SweepAxis& y, Headline metric,
    const std::atomic<bool>* cancel = nullptr, int threads = 0);

} // namespace dtsim
