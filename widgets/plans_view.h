#pragma once
// The planner's best plans as a sortable table; double-click or "Apply" applies one.
#include "tab_page.h"

#include "simcore/planner/search.h"

#include <QWidget>

class QTableWidget;
class QLabel;

namespace dtsim::gui {

class Evaluator;

// The search runs on the evaluator's worker when edits pause.
class PlansView : public QWidget, public TabPage {
    Q_OBJECT
public:
    explicit PlansView(Evaluator* evaluator, QWidget* parent = nullptr);
    void follow(const TabInput& in, TabMoment when) override;
    void showResult(const SearchResult& r);
    int rowCount() const;
    void applyRow(int row);

signals:
    void applyPlan(const dtsim::ParallelPlan& plan, int microBatch);

private:
    Evaluator* m_evaluator;
    QTableWidget* m_table = nullptr;
    QLabel* m_summary = nullptr;
    SearchResult m_result;
};

} // namespace dtsim::gui
