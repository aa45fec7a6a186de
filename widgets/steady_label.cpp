#include "steady_label.h"

#include <QEvent>
#include <QResizeEvent>
#include <QTextDocument>

#include <algorithm>
#include <cmath>

namespace dtsim::gui {

SteadyLabel::SteadyLabel(QWidget* parent) : QLabel(parent)
{
    setWordWrap(true);
}

void SteadyLabel::setReserve(const QString& longest)
{
    m_reserve = longest;
    fit(true);
}

void SteadyLabel::setSteadyText(const QString& text)
{
    setText(text);
    fit(false);
}

int SteadyLabel::heightOf(const QString& text) const
{
    // As the label lays it out: rich text in a document as wide as the label's contents.
    const int width = std::max(1, contentsRect().width() - 2 * margin());
    QTextDocument doc;
    doc.setDefaultFont(font());
    doc.setDocumentMargin(0);
    if (Qt::mightBeRichText(text))
        doc.setHtml(text);
    else
        doc.setPlainText(text);
    doc.setTextWidth(width);
    return int(std::ceil(doc.size().height())) + 2 * margin();
}

void SteadyLabel::fit(bool fresh)
{
    if (fresh)
        m_height = 0;
    if (!isVisible() || contentsRect().width() < 200) {
        // Not laid out yet: its width means nothing, and a template wrapped at it would
        // hold the window tall. One line until it is shown.
        setMinimumHeight(fontMetrics().height());
        return;
    }
    m_height = std::max({ m_height, heightOf(text()), m_reserve.isEmpty() ? 0 : heightOf(m_reserve) });
    if (minimumHeight() != m_height)
        setMinimumHeight(m_height);
}

void SteadyLabel::resizeEvent(QResizeEvent* e)
{
    QLabel::resizeEvent(e);
    if (e->size().width() != e->oldSize().width())
        fit(true);
}

void SteadyLabel::showEvent(QShowEvent* e)
{
    QLabel::showEvent(e);
    fit(true);
}

void SteadyLabel::changeEvent(QEvent* e)
{
    QLabel::changeEvent(e);
    if (e->type() == QEvent::FontChange)
        fit(true);
}

} // namespace dtsim::gui
