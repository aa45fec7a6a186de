#pragma once
// The Topology tab: the drawn topology, a form for the selected level (topology_form.h,
// built from the field registry), and buttons to add, remove and reorder tiers, add a
// datacenter, or start from a shipped topology. Every edit goes through the document's
// undo stack.
#include "simcore/loader/topology_loader.h"
#include "simcore/report.h"
#include "tab_page.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;

namespace dtsim::gui {

class ScenarioDocument;
class TopologyForm;
class TopologyView;

// Draws the shared step report's traffic on every edit.
class TopologyTab : public QWidget, public TabPage {
    Q_OBJECT
public:
    TopologyTab(ScenarioDocument* doc, std::vector<Topology> shipped, QWidget* parent = nullptr);
    void follow(const TabInput& in, TabMoment when) override
    {
        if (when == TabMoment::Edit)
            showReport(in.report ? &in.report->step : nullptr);
    }
    void showReport(const StepReport* report); // null when the plan is invalid
    TopologyView* view() const { return m_view; }
    void setOverlay(int group); // CommGroup index or -1
    // The selected level's form, and its editor of a field ("cluster.tiers[].latency").
    TopologyForm* form() const { return m_form; }
    QWidget* fieldEditor(const QString& fieldId) const;
    void selectLevel(int level);

private:

    ScenarioDocument* m_doc;
    std::vector<Topology> m_shipped;
    TopologyView* m_view = nullptr;
    QComboBox* m_overlay = nullptr;
    QComboBox* m_shippedBox = nullptr;
    QLabel* m_warning = nullptr; // a scale-up domain wider than the GPU's own
    TopologyForm* m_form = nullptr;
    StepReport m_report;
    bool m_haveReport = false;
};

} // namespace dtsim::gui
