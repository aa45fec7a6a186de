#include "stale_note.h"

#include "palette_colors.h"

#include <QEvent>

namespace dtsim::gui {

StaleNote::StaleNote(QWidget* parent) : QLabel(parent)
{
    setWordWrap(true);
    setMargin(6);
    hide();
}

void StaleNote::showOn(QWidget* page, const QString& text)
{
    if (m_page != page) {
        if (m_page)
            m_page->removeEventFilter(this);
        m_page = page;
        setParent(page);
        page->installEventFilter(this);
    }
    setStyleSheet(QString("background: %1; color: %2; border-bottom: 1px solid %2;")
                      .arg(errorBannerFill().name(), errorBannerInk().name()));
    setText(text);
    fit();
    raise();
    show();
}

void StaleNote::hideNote() { hide(); }

bool StaleNote::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_page && event->type() == QEvent::Resize)
        fit();
    return QLabel::eventFilter(watched, event);
}

void StaleNote::fit()
{
    if (!m_page)
        return;
    const int h = heightForWidth(m_page->width());
    setGeometry(0, 0, m_page->width(), h > 0 ? h : sizeHint().height());
}

} // namespace dtsim::gui
