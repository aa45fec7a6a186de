#include "lecture_bar.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace dtsim::gui {

LectureBar::LectureBar(QWidget* parent) : QFrame(parent)
{
    setObjectName("lecture-bar");
    setFrameShape(QFrame::StyledPanel);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(6, 4, 6, 4);
    m_previous = new QPushButton(tr("Previous"), this);
    m_previous->setToolTip(tr("The previous step (Page Up)"));
    m_next = new QPushButton(tr("Next"), this);
    m_next->setToolTip(tr("The next step (Page Down)"));
    // Clicks only: the keys are the window's, so they work whatever has the focus.
    for (QPushButton* b : { m_previous, m_next })
        b->setFocusPolicy(Qt::NoFocus);
    auto* text = new QVBoxLayout;
    m_where = new QLabel(this);
    m_where->setStyleSheet("color: palette(mid);");
    m_caption = new QLabel(this);
    m_caption->setObjectName("lecture-caption");
    m_caption->setWordWrap(true);
    scaleCaption();
    text->addWidget(m_where);
    text->addWidget(m_caption);
    auto* close = new QToolButton(this);
    close->setText(QString::fromUtf8("\u2715"));
    close->setToolTip(tr("Close the lecture"));
    close->setFocusPolicy(Qt::NoFocus);
    row->addWidget(m_previous);
    row->addLayout(text, 1);
    row->addWidget(m_next);
    row->addWidget(close, 0, Qt::AlignTop);
    connect(m_previous, &QPushButton::clicked, this, &LectureBar::previousRequested);
    connect(m_next, &QPushButton::clicked, this, &LectureBar::nextRequested);
    connect(close, &QToolButton::clicked, this, &LectureBar::closeRequested);
}

void LectureBar::showStep(const QString& title, int index, int count, const QString& caption)
{
    m_where->setText(tr("%1 \u00b7 step %2 of %3").arg(title).arg(index + 1).arg(count));
    m_caption->setText(caption);
    m_previous->setEnabled(index > 0);
    m_next->setEnabled(index + 1 < count);
}

void LectureBar::scaleCaption()
{
    // A little larger than the window's type, which presentation mode makes large.
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.15);
    m_caption->setFont(big);
}

void LectureBar::changeEvent(QEvent* e)
{
    QFrame::changeEvent(e);
    if (e->type() == QEvent::FontChange && m_caption)
        scaleCaption();
}

QString LectureBar::caption() const { return m_caption->text(); }

} // namespace dtsim::gui
