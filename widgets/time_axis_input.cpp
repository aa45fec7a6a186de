#include "time_axis_input.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <QWidget>

namespace dtsim::gui {

// TimeAxis::key takes the letter; Qt's letter keys are their uppercase ASCII codes.
static_assert(Qt::Key_W == 'W' && Qt::Key_S == 'S' && Qt::Key_A == 'A' && Qt::Key_D == 'D');

TimeAxisInput::TimeAxisInput(QWidget* view, TimeAxis* axis, std::function<PixelSpan()> span, std::function<void()> fit)
    : QObject(view)
    , m_view(view)
    , m_axis(axis)
    , m_span(std::move(span))
    , m_fit(std::move(fit))
{
    view->setFocusPolicy(Qt::StrongFocus); // the keys
    view->installEventFilter(this);
}

void TimeAxisInput::moved()
{
    if (m_moved)
        m_moved();
    m_view->update();
}

bool TimeAxisInput::eventFilter(QObject* watched, QEvent* e)
{
    if (watched != m_view)
        return false;
    switch (e->type()) {
    case QEvent::Wheel: {
        auto* w = static_cast<QWheelEvent*>(e);
        const PixelSpan px = m_span();
        m_axis->wheel(w->angleDelta().y() / 120.0, w->position().x(), px.left, px.width);
        moved();
        w->accept();
        return true;
    }
    case QEvent::MouseButtonPress: {
        auto* m = static_cast<QMouseEvent*>(e);
        if (m->button() != Qt::LeftButton || (m_claims && m_claims(m->position())))
            return false;
        m_dragging = true;
        m_dragFromX = m->position().x();
        m_dragStart = m_axis->start();
        return false; // the view may also want it (focus, a click)
    }
    case QEvent::MouseMove: {
        if (!m_dragging)
            return false;
        auto* m = static_cast<QMouseEvent*>(e);
        m_axis->drag(m_dragStart, m->position().x() - m_dragFromX, m_span().width);
        moved();
        return true;
    }
    case QEvent::MouseButtonRelease:
        if (static_cast<QMouseEvent*>(e)->button() == Qt::LeftButton)
            m_dragging = false;
        return false;
    case QEvent::MouseButtonDblClick:
        if (static_cast<QMouseEvent*>(e)->button() != Qt::LeftButton)
            return false;
        m_fit();
        return true;
    case QEvent::KeyPress: {
        auto* k = static_cast<QKeyEvent*>(e);
        if (k->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
            return false; // the window's shortcuts
        if (m_axis->key(k->key())) {
            moved();
            return true;
        }
        if (k->key() == Qt::Key_F) {
            m_fit();
            return true;
        }
        return false;
    }
    default:
        return false;
    }
}

} // namespace dtsim::gui
