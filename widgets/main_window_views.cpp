// MainWindow's view updates: one report per edit, handed to the dashboard and the
// visible tab; a hidden tab computes nothing until it is shown.
#include "main_window.h"

#include "breakdown_view.h"
#include "cluster_tab.h"
#include "cost_tab.h"
#include "dashboard.h"
#include "evaluator.h"
#include "frontier_view.h"
#include "parameter_panel.h"
#include "plan_fixes.h"
#include "reliability_tab.h"
#include "scenario_document.h"
#include "teaching_panel.h"
#include "timeline_tab.h"
#include "topology_editor.h"

#include "simcore/report_check.h"
#include "simcore/scenario_limits.h"
#include "simcore/units.h"

#include <QDoubleSpinBox>
#include <QSignalBlocker>
#include <QTabWidget>

namespace dtsim::gui {

namespace {
// The tabs in MainWindow's order (kTabNames).
enum TabIndex { FrontierTab, ScalingTab, BreakdownTab, PlansTab, TopologyTab, TimelineTabIndex, ReliabilityTabIndex, CostTabIndex, ClusterTabIndex };
} // namespace

void MainWindow::refresh()
{
    const Scenario& s = m_doc->scenario();
    m_panel->setScenario(s);
    m_panel->clearErrors();
    updateTitle();
    m_tabStale.fill(true);
    m_currentValid = false;
    if (auto issue = checkScenario(s)) {
        const auto fix = suggestFix(s);
        m_panel->setFieldError(rowForIssueField(QString::fromStdString(issue->field)), QString::fromStdString(issue->reason),
            fix ? fix->label : QString());
        m_dashboard->showInvalid(QString::fromStdString(issue->reason));
        m_teaching->showInvalid(QString::fromStdString(issue->reason));
        m_frontier->markScenario(0, 0, false);
    } else {
        m_report = m_evaluator->report(s);
        if (const auto bad = badQuantity(m_report)) {
            // The engine's edge: a number that is not finite is never drawn.
            const QString why = QString::fromStdString(badQuantityMessage(*bad));
            m_dashboard->showInvalid(why);
            m_teaching->showInvalid(why);
        } else {
            m_currentValid = true;
            m_dashboard->showReport(s, m_report);
            m_teaching->showReport(s, m_report);
            m_currentFlop = m_report.step.modelFlopsPerStep * m_report.steps;
            m_currentMfu = m_report.step.mfu;
            m_frontier->markScenario(m_currentFlop, m_currentMfu, true);
        }
    }
    showTab(m_tabs->currentIndex(), false);
    m_debounce.start();
}

void MainWindow::showTab(int index, bool background)
{
    const Scenario& doc = m_doc->scenario();
    const Scenario* s = m_currentValid ? &doc : nullptr;
    switch (index) {
    case BreakdownTab:
        if (!background && s)
            m_breakdown->showReport(m_report.step);
        break;
    case TopologyTab:
        if (!background)
            m_topology->showReport(s ? &m_report.step : nullptr);
        break;
    case TimelineTabIndex:
        // Each edit of a drag draws a draft; the whole timeline follows when edits pause.
        if (!background || s)
            m_timeline->showScenario(s, !background);
        break;
    case ScalingTab:
        if (background && s)
            m_evaluator->requestScaling(*s);
        break;
    case PlansTab:
        if (background && s) {
            SearchOptions so;
            so.topN = 25;
            m_evaluator->requestSearch(*s, so);
        }
        break;
    case ReliabilityTabIndex:
        if (background || !s) // an invalid scenario clears it at once
            m_reliability->showScenario(s);
        break;
    case CostTabIndex:
        if (background || !s)
            m_cost->showScenario(s);
        break;
    case ClusterTabIndex:
        // A shared cluster sizes each job's data parallelism itself: the scenario's own
        // DP (or GPU count) not matching does not stop it.
        if (background)
            m_cluster->showScenario(doc.workload.empty() && !s ? nullptr : &doc);
        break;
    case FrontierTab:
        break; // the frontier follows its own inputs (requestBackground)
    }
    if (background)
        m_tabStale[std::size_t(index)] = false;
}

void MainWindow::catchUpTab(int index)
{
    if (index < 0 || index >= int(m_tabStale.size()) || !m_tabStale[std::size_t(index)])
        return;
    showTab(index, false);
    showTab(index, true);
}

void MainWindow::requestBackground()
{
    showTab(m_tabs->currentIndex(), true);
    const Scenario& s = m_doc->scenario();
    if (!m_currentValid)
        return;
    // The frontier depends on the GPU, its network and the duration only.
    // A scenario deadline sets the frontier's duration.
    if (s.training.deadline > 0) {
        const QSignalBlocker block(m_months);
        m_months->setValue(s.training.deadline / units::month);
    }
    const QString key = QString("%1|%2|%3|%4|%5").arg(QString::fromStdString(s.hardware.id)).arg(m_months->value())
                            .arg(s.cluster.scaleOutBandwidth).arg(s.cluster.scaleUpBandwidth).arg(s.cluster.scaleOutLatency);
    if (key != m_frontierKey) {
        m_frontierKey = key;
        FrontierOptions fo;
        fo.hardware = s.hardware;
        HardwareSpec net = s.hardware;
        net.scaleUpBandwidth = s.cluster.scaleUpBandwidth;
        net.scaleUpLatency = s.cluster.scaleUpLatency;
        net.scaleOutBandwidth = s.cluster.scaleOutBandwidth;
        net.scaleOutLatency = s.cluster.scaleOutLatency;
        net.scaleUpDomain = s.cluster.scaleUpDomain;
        fo.network = net;
        fo.months = m_months->value();
        fo.points = 60;
        m_evaluator->requestFrontier(fo);
    }
}

void MainWindow::flushPending()
{
    if (m_debounce.isActive()) {
        m_debounce.stop();
        requestBackground();
    }
}

} // namespace dtsim::gui
