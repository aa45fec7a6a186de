#pragma once
// The cluster Gantt: nodes (grouped by pod) down, time across, each job's allocation a
// block in its project's colour (shades tell jobs of one project apart). Mouse wheel
// zooms time around the cursor, drag pans, double-click or F fits (TimeAxisInput);
// hovering names the job.
#include "time_axis.h"
#include "simcore/sched/cluster_sim.h"

#include <QWidget>

namespace dtsim::gui {

class ClusterGanttView : public QWidget {
    Q_OBJECT
public:
    explicit ClusterGanttView(QWidget* parent = nullptr);
    // The result must outlive the view's use of it (the Cluster tab owns it); null clears.
    // `end`: the time the full view spans (the longer of two compared runs), 0: its own.
    void setResult(const ClusterResult* r, double end = 0);
    void fit();
    const Allocation* allocationAt(const QPoint& p) const;
    double visibleSpanForTest() const { return m_axis.span(); }

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;

private:
    QRectF plotArea() const;
    double xAt(double t, const QRectF& area) const;
    double timeAt(double x, const QRectF& area) const;
    QColor jobColor(int job) const;
    void paintAxes(QPainter& p, const QRectF& area) const;

    const ClusterResult* m_result = nullptr;
    double m_end = 1; // what fit() shows
    TimeAxis m_axis;
};

} // namespace dtsim::gui
