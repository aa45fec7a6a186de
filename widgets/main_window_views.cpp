// MainWindow's view updates: one report per edit, handed to the dashboard and the
// visible tab; a hidden tab computes nothing until it is shown.
#include "main_window.h"

#include "dashboard.h"
#include "evaluator.h"
#include "parameter_panel.h"
#include "plan_fixes.h"
#include "scenario_document.h"
#include "stale_note.h"
#include "tab_page.h"
#include "teaching_panel.h"

#include "simcore/convergence.h"
#include "simcore/report_check.h"
#include "simcore/scenario_limits.h"

#include <QTabWidget>

namespace dtsim::gui {

std::optional<PlanIssue> MainWindow::scenarioIssue(const Scenario& s) const
{
    if (auto issue = checkScenario(s))
        return issue;
    if (auto why = convergenceIssue(s, m_data.calibration))
        return PlanIssue { "training.target_loss", *why };
    return std::nullopt;
}

void MainWindow::refresh()
{
    const Scenario& s = m_doc->scenario();
    m_panel->setScenario(s);
    m_panel->clearErrors();
    updateTitle();
    m_tabStale.assign(std::size_t(m_tabs->count()), true);
    m_currentValid = false;
    if (auto issue = scenarioIssue(s)) {
        const auto fix = suggestFix(s);
        m_panel->setFieldError(rowForIssueField(QString::fromStdString(issue->field)), QString::fromStdString(issue->reason),
            fix ? fix->label : QString());
        m_dashboard->showInvalid(QString::fromStdString(issue->reason));
        m_teaching->showInvalid(QString::fromStdString(issue->reason));
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
        }
    }
    showTab(m_tabs->currentIndex(), false);
    m_debounce.start();
}

void MainWindow::showTab(int index, bool background)
{
    auto* tab = dynamic_cast<TabPage*>(m_tabs->widget(index));
    if (!tab)
        return;
    const Scenario& doc = m_doc->scenario();
    tab->follow({ doc, m_currentValid ? &doc : nullptr, m_currentValid ? &m_report : nullptr,
                    m_pinnedA ? &*m_pinnedA : nullptr, m_pinnedA ? &m_pinnedReport : nullptr },
        background ? TabMoment::Pause : TabMoment::Edit);
    if (index == m_tabs->currentIndex())
        updateStaleNote();
    if (background && index >= 0 && index < int(m_tabStale.size()))
        m_tabStale[std::size_t(index)] = false;
}

void MainWindow::updateStaleNote()
{
    auto* tab = dynamic_cast<TabPage*>(m_tabs->currentWidget());
    if (m_currentValid || !tab || tab->saysWhenInvalid())
        m_staleNote->hideNote();
    else
        m_staleNote->showOn(m_tabs->currentWidget(),
            tr("The plan is not valid (the panel says why): what this tab shows is from the last valid scenario."));
}

void MainWindow::catchUpTab(int index)
{
    updateStaleNote();
    if (index < 0 || index >= int(m_tabStale.size()) || !m_tabStale[std::size_t(index)])
        return;
    showTab(index, false);
    showTab(index, true);
}

void MainWindow::requestBackground() { showTab(m_tabs->currentIndex(), true); }

void MainWindow::flushPending()
{
    if (m_debounce.isActive()) {
        m_debounce.stop();
        requestBackground();
    }
}

} // namespace dtsim::gui
