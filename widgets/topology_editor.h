#pragma once
// The Topology tab: the drawn topology, a form for the selected level, and buttons to
// add, remove and reorder tiers, add a datacenter, or start from a shipped topology.
// Every edit goes through the document's undo stack.
#include "simcore/loader/topology_loader.h"
#include "simcore/report.h"
#include "tab_page.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QFormLayout;
class QWidget;

namespace dtsim::gui {

class ScenarioDocument;
class TopologyView;

// Draws the shared step report's traffic on every edit.
class TopologyEditor : public QWidget, public TabPage {
    Q_OBJECT
public:
    TopologyEditor(ScenarioDocument* doc, std::vector<Topology> shipped, QWidget* parent = nullptr);
    void follow(const TabInput& in, TabMoment when) override
    {
        if (when == TabMoment::Edit)
            showReport(in.report ? &in.report->step : nullptr);
    }
    void showReport(const StepReport* report); // null when the plan is invalid
    TopologyView* view() const { return m_view; }
    void setOverlay(int group); // CommGroup index or -1
    QWidget* fieldEditor(const QString& key) const; // for tests: "oversubscription", ...
    void selectLevel(int level);

private:
    void rebuildForm();
    void refreshForm();
    void editTier(const QString& what, const std::function<void(NetworkTier&)>& change);

    ScenarioDocument* m_doc;
    std::vector<Topology> m_shipped;
    TopologyView* m_view = nullptr;
    QComboBox* m_overlay = nullptr;
    QComboBox* m_shippedBox = nullptr;
    QLabel* m_warning = nullptr; // a scale-up domain wider than the GPU's own
    QWidget* m_formHost = nullptr;
    QFormLayout* m_form = nullptr;
    QHash<QString, QWidget*> m_fields;
    int m_formLevel = -1;
    bool m_updating = false;
    StepReport m_report;
    bool m_haveReport = false;
};

} // namespace dtsim::gui
