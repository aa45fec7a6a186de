#pragma once
// The timeline as a Gantt chart: one lane per row and stream, bars coloured by kind,
// a time axis in readable units, zoom and pan (wheel, drag, W/S/A/D, F to fit), a
// hover tooltip, the critical path on request, and bars narrower than a pixel folded
// into one block so 10^5 bars stay smooth.
#include "simcore/timeline/trace.h"
#include "time_axis.h"

#include <QWidget>

#include <array>
#include <memory>
#include <vector>

namespace dtsim::gui {

class GanttView : public QWidget {
    Q_OBJECT
public:
    explicit GanttView(QWidget* parent = nullptr);
    void setTrace(std::shared_ptr<const Trace> t);
    const Trace* trace() const { return m_trace.get(); } // null when none is shown
    void fit();
    void fitTo(double seconds); // show [0, seconds]: two charts on one scale
    double traceLength() const; // the trace's whole length, 0 without one
    void setShowCriticalPath(bool on);
    double visibleStart() const { return m_axis.start(); }
    double visibleEnd() const { return m_axis.end(); }
    void zoom(double factor, double aroundTime);
    void pan(double seconds);
    int drawnBars() const { return m_drawnBars; } // after the last paint, folded blocks counted once
    const TraceEvent* eventAt(const QPoint& p) const;
    void renderTo(QPainter& painter, const QSize& size); // for PNG/SVG export

protected:
    void paintEvent(QPaintEvent*) override;
    void keyPressEvent(QKeyEvent* e) override;
    bool event(QEvent* e) override;

private:
    struct Lane {
        int row;
        Stream stream;
        int y, height;
        std::vector<int> events; // indices into the trace, by start
        // The events' times and kinds side by side: painting a fitted view reads every
        // event of the lane, and these take a third of the memory the events do.
        std::vector<double> starts, ends;
        std::vector<TaskKind> kinds;
    };
    void layoutLanes();
    double timeAt(double x, int width) const;
    double xAt(double t, int width) const;
    // `exposed`: the part to draw (a paint event's rect); lanes outside it are skipped.
    void paint(QPainter& p, const QSize& size, const QRect& exposed = {});

    std::shared_ptr<const Trace> m_trace;
    std::vector<Lane> m_lanes;
    std::vector<char> m_critical;
    std::array<char, 16> m_kinds {}; // the kinds the trace has, for the legend
    TimeAxis m_axis;
    bool m_showCritical = false;
    int m_drawnBars = 0;
    int m_contentHeight = 0;
};

QColor taskColor(TaskKind k);

} // namespace dtsim::gui
