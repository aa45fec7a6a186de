#pragma once
// The Reliability tab: the expected run with failures, checkpoints and stragglers.
// A summary of the analysis, one simulated run over days, and the histogram of time
// to train over the Monte Carlo trials (against the clean run when chaos events are
// injected), and the chaos events' editor. The Monte Carlo runs on the evaluator's
// worker thread.
#include "evaluator.h"
#include "tab_page.h"

#include "simcore/reliability/reliability.h"
#include "simcore/scenario.h"

#include <QWidget>

class QCPItemStraightLine;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace dtsim::gui {

class ChaosEditor;
class RunTimelineView;
class ScenarioDocument;

class ReliabilityTab : public QWidget, public TabPage {
    Q_OBJECT
public:
    // With a document, the tab edits its chaos events (ChaosEditor, beside the run).
    ReliabilityTab(Evaluator* evaluator, FailureRates rates, ScenarioDocument* doc = nullptr, QWidget* parent = nullptr);
    // The Monte Carlo when edits pause; an invalid plan clears the tab at once.
    void follow(const TabInput& in, TabMoment when) override
    {
        if (when == TabMoment::Pause || !in.valid)
            showScenario(in.valid);
    }
    void showScenario(const Scenario* s); // null when the plan is invalid
    // "P50 104.9, P90 105.3, P99 105.6 days": decimals enough to tell them apart.
    static QString percentiles(double p50, double p90, double p99);
    void setPresenting(bool on) override { setChartsFirst(on); }
    void setChartsFirst(bool on); // presentation mode: the timeline above the summary
    RunTimelineView* timeline() const { return m_timeline; }
    ChaosEditor* chaosEditor() const { return m_chaosEditor; } // null without a document
    QCustomPlot* histogram() const { return m_histogram; }
    bool hasResult() const { return m_hasResult; }
    const RunOutlook& outlook() const { return m_outlook; } // the last one shown
    // The deadline control: days, and the share of trials that finish by it.
    QDoubleSpinBox* deadline() const { return m_deadline; }
    QString deadlineOdds() const; // "73.2% of the trials finish by 40 days"

private:
    void request();
    void showOutlook(const RunOutlook& o);
    void plotHistogram(const RunOutlook& o);
    void showDeadline(); // the odds and the histogram's deadline line, from the trials at hand

    Evaluator* m_evaluator;
    FailureRates m_rates;
    Scenario m_scenario;
    bool m_valid = false;
    bool m_hasResult = false;
    RunOutlook m_outlook;
    QSpinBox* m_trials = nullptr;
    QSpinBox* m_seed = nullptr;
    QDoubleSpinBox* m_deadline = nullptr;
    QSlider* m_deadlineSlider = nullptr;
    QLabel* m_odds = nullptr;
    QCPItemStraightLine* m_deadlineLine = nullptr;
    double m_scenarioDeadline = -1; // the scenario's, last applied to the control
    QLabel* m_summary = nullptr;
    class QVBoxLayout* m_column = nullptr;
    QWidget* m_charts = nullptr; // the timeline over the histogram
    RunTimelineView* m_timeline = nullptr;
    ChaosEditor* m_chaosEditor = nullptr;
    QCustomPlot* m_histogram = nullptr;
};

} // namespace dtsim::gui
