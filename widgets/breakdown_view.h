#pragma once
// Where a step's time goes (stacked by component) and where a GPU's memory goes
// (stacked against its capacity). Qt Charts.
#include "tab_page.h"

#include "simcore/report.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QChartView;
QT_END_NAMESPACE

namespace dtsim::gui {

// Draws the shared step report on every edit.
class BreakdownView : public QWidget, public TabPage {
    Q_OBJECT
public:
    explicit BreakdownView(QWidget* parent = nullptr);
    void follow(const TabInput& in, TabMoment when) override
    {
        if (when == TabMoment::Edit && in.report)
            showReport(in.report->step);
    }
    void showReport(const StepReport& r);
    int stepSeriesCount() const { return m_stepSeries; }

private:
    QChartView* m_step = nullptr;
    QChartView* m_memory = nullptr;
    int m_stepSeries = 0;
};

} // namespace dtsim::gui
