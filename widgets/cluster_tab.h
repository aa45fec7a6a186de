#pragma once
// The Cluster tab: the scenario's job stream on its shared cluster under two scheduling
// policies side by side: a cluster Gantt for each, utilization and queue length over
// time for both, and a per-project table. The simulations run on the worker thread.
#include "evaluator.h"
#include "tab_page.h"

#include <QWidget>

#include <memory>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QTableWidget;
QT_END_NAMESPACE
class QCustomPlot;

namespace dtsim::gui {

class ClusterGanttView;

class ClusterTab : public QWidget, public TabPage {
    Q_OBJECT
public:
    ClusterTab(Evaluator* evaluator, FailureRates rates, CostRates cost, QWidget* parent = nullptr);
    // Simulated when edits pause. A shared cluster sizes each job's data parallelism
    // itself: the scenario's own DP (or GPU count) not matching does not stop it.
    bool saysWhenInvalid() const override { return true; } // jobs size their own plans
    void follow(const TabInput& in, TabMoment when) override
    {
        if (when == TabMoment::Pause)
            showScenario(in.document.workload.empty() && !in.valid ? nullptr : &in.document);
    }
    void showScenario(const Scenario* s); // null when the scenario cannot run
    bool hasResult() const { return m_comparison != nullptr; }
    const ClusterComparison* comparison() const { return m_comparison.get(); }
    QString message() const;
    void setPolicies(const QString& first, const QString& second);

private:
    void request();
    void showComparison(const ClusterComparison& c);
    void plotSeries(const ClusterComparison& c);
    void fillTable(const ClusterComparison& c);
    QString headline(const ClusterResult& r) const;

    Evaluator* m_evaluator;
    FailureRates m_rates;
    CostRates m_cost;
    Scenario m_scenario;
    bool m_hasScenario = false;
    std::unique_ptr<ClusterComparison> m_comparison;
    QLabel* m_status = nullptr;
    QLabel* m_legend = nullptr;
    QComboBox* m_firstPolicy = nullptr;
    QComboBox* m_secondPolicy = nullptr;
    QLabel* m_firstTitle = nullptr;
    QLabel* m_secondTitle = nullptr;
    ClusterGanttView* m_firstGantt = nullptr;
    ClusterGanttView* m_secondGantt = nullptr;
    QCustomPlot* m_utilization = nullptr;
    QCustomPlot* m_queue = nullptr;
    QTableWidget* m_table = nullptr;
};

} // namespace dtsim::gui
