#pragma once
// The mouse and keys of every Gantt view (pipeline timeline, run timeline, cluster
// schedule), in one event filter installed on each: the wheel zooms about the pointer,
// a left-button drag pans, a double click or F fits, W/S zoom and A/D pan (Perfetto's
// and Tracy's keys). The view keeps its TimeAxis and says where the axis lies in
// pixels; what the gestures do to the axis is TimeAxis's (time_axis.h).
#include "time_axis.h"

#include <QObject>
#include <QPointF>

#include <functional>

class QWidget;

namespace dtsim::gui {

class TimeAxisInput : public QObject {
public:
    struct PixelSpan {
        double left = 0, width = 1;
    };
    // `span` gives the axis's pixels in the view now; `fit` shows the whole content.
    TimeAxisInput(QWidget* view, TimeAxis* axis, std::function<PixelSpan()> span, std::function<void()> fit);
    // Called after every gesture that moved the axis (the run timeline stops following
    // the run's end once the user zoomed).
    void onMoved(std::function<void()> moved) { m_moved = std::move(moved); }
    // A left-button press the view claims for itself (the run timeline's chaos markers,
    // which a drag moves) starts no pan.
    void claimPress(std::function<bool(const QPointF&)> claims) { m_claims = std::move(claims); }

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void moved();
    QWidget* m_view;
    TimeAxis* m_axis;
    std::function<PixelSpan()> m_span;
    std::function<void()> m_fit;
    std::function<void()> m_moved;
    std::function<bool(const QPointF&)> m_claims;
    bool m_dragging = false;
    double m_dragFromX = 0, m_dragStart = 0;
};

} // namespace dtsim::gui
