#include "sweep.h"

#include "../fields/scenario_fields.h"
#include "../parallel_for.h"
#include "../report_check.h"
#include "../scenario_limits.h"
#include "../scenario_rules.h"
#include "../step.h"
#include "../units.h"

#include <cmath>

namespace dtsim {

namespace {

bool movesDp(const FieldDef& f) { return f.shapesModelParallel || f.path == "cluster.gpus"; }

int indexOf(const SweepAxis& a, double v)
{
    for (std::size_t i = 0; i < a.values.size(); ++i)
        if (std::abs(a.values[i] - v) <= 1e-9 * std::max(1.0, std::abs(v)))
            return int(i);
    return -1;
}

} // namespace

void applyFieldValue(Scenario& s, const FieldDef& f, double value)
{
    if (f.edit)
        f.edit(s, value);
    else
        f.set(s, value, 0);
}

Scenario sweepScenario(const Scenario& base, const SweepAxis& x, const SweepAxis& y, std::size_t ix, std::size_t iy,
    std::string* adjusted)
{
    Scenario s = base;
    applyFieldValue(s, *x.field, x.values[ix]);
    applyFieldValue(s, *y.field, y.values[iy]);
    // TP x PP at a fixed GPU count: DP takes what they leave, unless DP is an axis.
    const bool dpIsAxis = x.field->path == "parallel.dp" || y.field->path == "parallel.dp";
    if (!dpIsAxis && (movesDp(*x.field) || movesDp(*y.field)))
        keepGpuCount(s);
    if (!checkScenario(s))
        return s;
    // Relaxations a user would make, in order, each kept only if the axes leave it free.
    auto swept = [&](std::string_view prefix) {
        return x.field->path.starts_with(prefix) || y.field->path.starts_with(prefix);
    };
    std::string notes;
    if ((s.plan.firstStageLayers > 0 || s.plan.lastStageLayers > 0) && !swept("parallel.first_stage_layers") && !swept("parallel.last_stage_layers")) {
        s.plan.firstStageLayers = s.plan.lastStageLayers = 0;
        notes = "even pipeline stages";
        if (!checkScenario(s)) {
            if (adjusted)
                *adjusted = notes;
            return s;
        }
    }
    if (s.plan.schedule == Schedule::Interleaved1F1B && !swept("parallel.schedule") && !swept("parallel.virtual_stages")) {
        s.plan.schedule = Schedule::OneFOneB;
        s.plan.virtualStages = 1;
        notes += std::string(notes.empty() ? "" : ", ") + "1F1B without interleaving";
    }
    if (adjusted)
        *adjusted = notes;
    return s;
}

SweepResult sweep(const Scenario& base, const Calibration& c, const SweepAxis& x, const SweepAxis& y, Headline metric,
    const std::atomic<bool>* cancel, int threads)
{
    SweepResult out;
    out.x = x;
    out.y = y;
    out.metric = metric;
    const std::size_t nx = x.values.size(), ny = y.values.size();
    out.cells.assign(nx * ny, SweepCell { 0, "not evaluated (cancelled)", {} });
    out.currentX = indexOf(x, x.field->get(base, 0));
    out.currentY = indexOf(y, y.field->get(base, 0));
    // A field of the other kind of model changes nothing: no cell may look like a result.
    for (const SweepAxis* a : { &x, &y })
        if (!a->field->appliesTo(base)) {
            out.cells.assign(nx * ny, SweepCell { 0, a->field->path + " does not apply to this model: every cell would be the same run", {} });
            return out;
        }
    parallelFor(nx * ny, workerCount(nx * ny, threads), cancel, [&](std::size_t i, int) {
        SweepCell& cell = out.cells[i];
        cell.issue.clear();
        const Scenario s = sweepScenario(base, x, y, i % nx, i / nx, &cell.adjusted);
        if (const FieldValueIssue bad = fieldValueIssue(s); !bad.field.empty()) {
            cell.issue = bad.field + ": " + bad.reason;
            return;
        }
        if (const auto issue = checkScenario(s)) {
            cell.issue = issue->field + ": " + issue->reason;
            return;
        }
        const Report r = predictRun(s, c);
        if (const auto bad = badQuantity(r)) {
            cell.issue = *bad;
            return;
        }
        if (!r.step.memory.fits) {
            cell.issue = "out of memory: " + formatMemory(r.step.memory.total) + " of " + formatMemory(r.step.memory.capacity);
            return;
        }
        cell.value = headlineValue(r, metric);
    });
    out.cancelled = cancel && cancel->load();
    return out;
}

} // namespace dtsim
