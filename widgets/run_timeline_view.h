#pragma once
// One simulated run over days: training, work lost to failures, checkpoints, recovery
// and straggler periods, each on its own lane, with the clean and failure-free ends
// marked. Mouse wheel zooms around the cursor, drag pans, F or double-click fits; a
// chaos event's marker drags to another time (the Reliability tab's chaos editor makes
// the move one undo step).
#include "time_axis.h"
#include "simcore/reliability/reliability.h"

#include <QWidget>

#include <vector>

namespace dtsim::gui {

class RunTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit RunTimelineView(QWidget* parent = nullptr);
    // `failureFree` and `expected` are drawn as reference lines (seconds).
    void setRun(std::vector<RunPhase> phases, std::vector<ChaosEvent> chaos, double failureFree, double expected);
    // Shows `why` where the run would be drawn.
    void clear(const QString& why = {});
    void fit();
    const RunPhase* phaseAt(const QPoint& p) const;
    void renderTo(QPainter& painter, const QSize& size);
    QSize minimumSizeHint() const override;
    // For tests: where a lane's middle row is, and the x of a time, at the widget's size.
    int laneCentreForTest(RunPhase::Kind k) const;
    int xForTest(double seconds) const;
    double visibleSpanForTest() const { return m_axis.span(); }
    // The chaos event (index in the list setRun got) whose marker is under `p`; -1 if none.
    int markerAt(const QPointF& p) const;

signals:
    // A marker dragged to `seconds`: `first` on the drag's first move (a new undo step),
    // then the same event's later moves (merged into it).
    void chaosEventMoved(int index, double seconds, bool first);

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    struct Geometry {
        int left, right, top, laneHeight, gap;
        int laneY(int lane) const { return top + lane * (laneHeight + gap); }
    };
    Geometry geometry(const QSize& size) const;
    void paintPeriodic(QPainter& p, const RunPhase& ph, const Geometry& g) const;
    int laneOf(RunPhase::Kind k) const;
    double xAt(double t, const Geometry& g) const;
    double timeAt(double x, const Geometry& g) const;
    void paint(QPainter& p, const QSize& size);

    std::vector<RunPhase> m_phases;
    QString m_emptyText;
    std::vector<ChaosEvent> m_chaos;
    double m_failureFree = 0, m_expected = 0, m_end = 1;
    TimeAxis m_axis;
    bool m_userZoomed = false; // keep the user's zoom when a new run arrives
    int m_dragged = -1;        // the chaos event being dragged
    bool m_movedYet = false;   // ... and whether it has moved in this drag
};

} // namespace dtsim::gui
