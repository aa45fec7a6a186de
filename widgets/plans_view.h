#pragma once
// The planner's best plans as a sortable table; double-click or "Apply" applies one.
#include "simcore/planner/search.h"

#include <QWidget>

class QTableWidget;
class QLabel;

namespace dtsim::gui {

class PlansView : public QWidget {
    Q_OBJECT
public:
    explicit PlansView(QWidget* parent = nullptr);
    void showResult(const SearchResult& r);
    int rowCount() const;
    void applyRow(int row);

signals:
    void applyPlan(const dtsim::ParallelPlan& plan, int microBatch);

private:
    QTableWidget* m_table = nullptr;
    QLabel* m_summary = nullptr;
    SearchResult m_result;
};

} // namespace dtsim::gui
