#pragma once
// Where a step's time goes (stacked by component) and where a GPU's memory goes
// (stacked against its capacity). Qt Charts.
#include "simcore/report.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QChartView;
QT_END_NAMESPACE

namespace dtsim::gui {

class BreakdownView : public QWidget {
    Q_OBJECT
public:
    explicit BreakdownView(QWidget* parent = nullptr);
    void showReport(const StepReport& r);
    int stepSeriesCount() const { return m_stepSeries; }

private:
    QChartView* m_step = nullptr;
    QChartView* m_memory = nullptr;
    int m_stepSeries = 0;
};

} // namespace dtsim::gui
