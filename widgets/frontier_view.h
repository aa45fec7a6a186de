#pragma once
// Training FLOP (log) vs MFU for the scenario's GPU over its run's duration, realistic
// and idealized, with the current scenario marked, the 80% line and the latency wall;
// below it, the parallelism degrees the frontier chooses at each scale.
#include "simcore/planner/frontier.h"
#include "simcore/planner/frontier_anchors.h"

#include <QWidget>

class QCustomPlot;
class QCPAxisRect;
class QLabel;

namespace dtsim::gui {

class FrontierView : public QWidget {
    Q_OBJECT
public:
    explicit FrontierView(QWidget* parent = nullptr);
    // `anchors`: published readings of this GPU and duration (Epoch AI's), drawn as
    // stars: an 80% reading on the idealized curve's 80% line, a wall near the axis.
    void showFrontier(const Frontier& realistic, const Frontier& idealized, const QString& title,
        const std::vector<FrontierAnchor>& anchors = {});
    void markScenario(double trainingFlop, double mfu, bool valid);
    void setBusy(bool busy); // while a frontier for new inputs is computed
    QString status() const;  // the title line
    QCustomPlot* plot() const { return m_plot; }
    const Frontier& realistic() const { return m_realistic; } // as drawn
    const Frontier& idealized() const { return m_idealized; }
    const std::vector<FrontierAnchor>& anchors() const { return m_anchors; } // as drawn
    int pointCount() const;

    // The tooltip of the frontier point or anchor under `at` (plot pixels), or "" if none is near.
    QString pointTip(const QPoint& at) const;

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void restyle();
    double anchorMfu(const FrontierAnchor& a) const; // where its star stands (MFU %)
    Frontier m_realistic, m_idealized; // as drawn
    std::vector<FrontierAnchor> m_anchors;
    QCustomPlot* m_plot = nullptr;
    QCPAxisRect* m_degrees = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace dtsim::gui
