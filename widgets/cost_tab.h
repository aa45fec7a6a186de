#pragma once
// The Cost tab: what the run costs and emits, by component; cost and energy against
// GPU count; cost against time to train (what a deadline buys); and the same run on
// every GPU type ("procurement view"). Qt Charts; the study runs on the worker thread.
#include "evaluator.h"
#include "tab_page.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QChartView;
class QLabel;
QT_END_NAMESPACE

namespace dtsim::gui {

class CostTab : public QWidget, public TabPage {
    Q_OBJECT
public:
    CostTab(Evaluator* evaluator, std::vector<HardwareSpec> catalog, FailureRates rates, CostRates cost, QWidget* parent = nullptr);
    // The study when edits pause; an invalid plan clears the tab at once.
    void follow(const TabInput& in, TabMoment when) override
    {
        if (when == TabMoment::Pause || !in.valid)
            showScenario(in.valid);
    }
    void showScenario(const Scenario* s); // null when the plan is invalid
    bool hasResult() const { return m_hasResult; }
    const CostAnalysis& study() const { return m_study; }
    QString error() const { return m_error; }

private:
    void showStudy(const CostAnalysis& c);
    void plotBreakdown(const CostAnalysis& c);
    void plotByGpuCount(const CostAnalysis& c);
    void plotByDeadline(const CostAnalysis& c);
    void plotProcurement(const CostAnalysis& c);
    QString checkInputs(const Scenario& s) const;

    Evaluator* m_evaluator;
    std::vector<HardwareSpec> m_catalog;
    FailureRates m_rates;
    CostRates m_cost;
    Scenario m_scenario;
    CostAnalysis m_study;
    bool m_hasResult = false;
    QString m_error;
    QLabel* m_summary = nullptr;
    int chartMinimumHeight() const; // below it, Qt Charts elides the axis labels
    QChartView* m_breakdown = nullptr;
    QChartView* m_byGpus = nullptr;
    QChartView* m_byDeadline = nullptr;
    QChartView* m_procurement = nullptr;
};

} // namespace dtsim::gui
