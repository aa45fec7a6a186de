#pragma once
// The planner's best plans as a sortable table; double-click or "Apply" applies one.
#include "tab_page.h"

#include "simcore/frameworks/framework_export.h"
#include "simcore/loader/model_catalogue_loader.h"
#include "simcore/planner/search.h"

#include <QWidget>

class QTableWidget;
class QLabel;

namespace dtsim::gui {

class Evaluator;

// The search runs on the evaluator's worker when edits pause.
class PlansTab : public QWidget, public TabPage {
    Q_OBJECT
public:
    explicit PlansTab(Evaluator* evaluator, QWidget* parent = nullptr);
    void follow(const TabInput& in, TabMoment when) override;
    void showResult(const SearchResult& r);
    int rowCount() const;
    void applyRow(int row);
    // A row as a framework's launch configuration (the right-click menu copies it).
    QString rowAs(int row, ExportTarget target) const;
    void setModelCatalogue(const std::vector<CatalogueModel>& models, const std::vector<HardwareSpec>& hardware);

signals:
    void applyPlan(const dtsim::ParallelPlan& plan, int microBatch);

private:
    Evaluator* m_evaluator;
    QTableWidget* m_table = nullptr;
    QLabel* m_summary = nullptr;
    SearchResult m_result;
    Scenario m_scenario;          // the scenario the rows were searched for
    std::string m_catalogueId;    // its model as a catalogue id (torchtitan names flavors), or empty
    std::vector<std::pair<std::string, ModelSpec>> m_catalogue; // ids and models, read once

    static QString copyLabel(ExportTarget t);
    void copyRowAs(int row, ExportTarget target);
};

} // namespace dtsim::gui
