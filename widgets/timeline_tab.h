#pragma once
// The Timeline tab: the Gantt chart of the current scenario's steps, its options
// (steps, one row per TP rank, zero-bubble schedule, critical path) and exports (PNG,
// SVG, Chrome trace JSON).
#include "simcore/reliability/reliability.h"
#include "simcore/timeline/timeline.h"
#include "simcore/report.h"
#include "simcore/scenario.h"
#include "tab_page.h"

#include <QWidget>

#include <memory>
#include <optional>

class QSpinBox;
class QCheckBox;
class QLabel;

namespace dtsim::gui {

class GanttView;

class Evaluator;
struct TimelineResult;

// The event simulation runs on the evaluator's worker, only while the tab is shown
// (or when it is next shown), and only the latest request's result is drawn. During a
// drag each edit asks for a draft, whole pipeline passes as one bar each (a quarter of
// the bars, the same schedule); the layers follow when the edits pause.
class TimelineTab : public QWidget, public TabPage {
    Q_OBJECT
public:
    TimelineTab(Evaluator* evaluator, FailureRates rates, QWidget* parent = nullptr);
    // Each edit of a drag draws a draft; the whole timeline follows when edits pause.
    bool saysWhenInvalid() const override { return true; } // it clears and says so
    void follow(const TabInput& in, TabMoment when) override;
    void showScenario(const Scenario* s, bool draft = false); // null when the plan is invalid
    // The Replicas view: each data-parallel replica's compute, barrier wait and reduction
    // (simcore/timeline/replica_rows.h) instead of the pipeline's event simulation.
    void setShowReplicas(bool on);
    bool showsReplicas() const;
    GanttView* gantt() const { return m_gantt; }
    QString summary() const; // the line over the chart
    // False with `error` set (when given) if the file could not be written. The trace
    // exported is the one drawn.
    bool exportPng(const QString& path, QString* error = nullptr);
    bool exportSvg(const QString& path, QString* error = nullptr);
    bool exportTrace(const QString& path, QString* error = nullptr);
    // True while the drawn timeline is not the latest scenario's in full (asked for,
    // hidden, or a draft).
    bool isStale() const { return m_stale; }
    GanttView* pinnedGantt() const { return m_ganttA; }

protected:
    void showEvent(QShowEvent* e) override;

private:
    // A pinned scenario A (TabInput::pinned): its steps drawn above B's, with the same options.
    void setPinned(const std::optional<Scenario>& a);
    void rebuild(bool draft = false);
    void showResult(const TimelineResult& t);
    void alignPinned(); // A and B on one time scale
    void showReplicaRows(); // draws the rows of the scenario (and of A) from their step reports
    Evaluator* m_evaluator;
    FailureRates m_rates;
    Scenario m_scenario;
    bool m_valid = false;
    bool m_stale = true;
    std::shared_ptr<const Trace> m_trace; // what the chart shows
    GanttView* m_gantt = nullptr;
    QSpinBox* m_steps = nullptr;
    QCheckBox* m_ranks = nullptr;
    QCheckBox* m_zeroBubble = nullptr;
    QCheckBox* m_critical = nullptr;
    QCheckBox* m_checkpoint = nullptr;
    QCheckBox* m_replicas = nullptr;
    bool m_fitReplicas = false; // fit the rows at their next drawing
    std::optional<StepReport> m_step, m_pinnedStep; // the shared reports' steps, for the replica rows
    QLabel* m_summary = nullptr;
    std::optional<Scenario> m_pinned;
    QWidget* m_pinnedBox = nullptr;
    GanttView* m_ganttA = nullptr;
    QLabel* m_summaryA = nullptr;
};

} // namespace dtsim::gui
