#pragma once
// Where a step's time goes (stacked by component) and where a GPU's memory goes
// (stacked against its capacity). Qt Charts.
#include "tab_page.h"

#include "simcore/report.h"

#include <QWidget>

#include <optional>

QT_BEGIN_NAMESPACE
class QChartView;
QT_END_NAMESPACE

namespace dtsim::gui {

// Draws the shared step report on every edit.
class BreakdownTab : public QWidget, public TabPage {
    Q_OBJECT
public:
    explicit BreakdownTab(QWidget* parent = nullptr);
    void follow(const TabInput& in, TabMoment when) override
    {
        if (when == TabMoment::Edit && in.report) {
            setPinned(in.pinnedReport ? std::optional(in.pinnedReport->step) : std::nullopt,
                in.pinned ? QString::fromStdString(in.pinned->name.empty() ? std::string("pinned scenario") : in.pinned->name) : QString());
            showReport(in.report->step);
            showLayerTypes(*in.report);
        }
    }
    void showReport(const StepReport& r);
    // The third chart: a layer table's compute by layer type, or where one MoE layer's
    // time goes (router, permutation, dispatch, experts, combine); hidden otherwise.
    void showLayerTypes(const Report& r);
    int stepSeriesCount() const { return m_stepSeries; }
    int stepBarsForTest() const; // bars on the step chart: 2 with a pinned A
    bool layerChartShownForTest() const;

protected:
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    // A pinned scenario's step, drawn in grey under the current one (nullopt: none).
    void setPinned(std::optional<StepReport> a, const QString& name);
    void arrange(bool force = false); // one column, or two when the charts would be squeezed
    int chartHeight() const; // what a chart needs to show every label
    class QGridLayout* m_grid = nullptr;
    bool m_twoColumns = false;
    QChartView* m_step = nullptr;
    QChartView* m_memory = nullptr;
    QChartView* m_layers = nullptr; // layer tables by layer type, or one MoE layer's parts
    int m_stepSeries = 0;
    std::optional<StepReport> m_pinned;
    QString m_pinnedName;
};

} // namespace dtsim::gui
