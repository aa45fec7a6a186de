#include "teaching_panel.h"

#include "simcore/explain.h"

#include <QComboBox>
#include <QLabel>
#include <QTextDocument>
#include <QVBoxLayout>

namespace dtsim::gui {

TeachingPanel::TeachingPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* column = new QVBoxLayout(this);
    m_figure = new QComboBox(this);
    m_figure->setAccessibleName(tr("Figure to explain"));
    const Scenario none;
    const Report empty;
    for (const std::string& key : explainedFigures())
        m_figure->addItem(QString::fromStdString(explainFigure(key, none, empty).title), QString::fromStdString(key));
    column->addWidget(m_figure);
    m_body = new QLabel(this);
    m_body->setWordWrap(true);
    m_body->setTextFormat(Qt::RichText);
    m_body->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_body->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    column->addWidget(m_body, 1);
    connect(m_figure, &QComboBox::currentIndexChanged, this, &TeachingPanel::render);
}

void TeachingPanel::showReport(const Scenario& s, const Report& r)
{
    m_scenario = s;
    m_report = r;
    m_valid = true;
    render();
}

void TeachingPanel::showInvalid(const QString& reason)
{
    m_valid = false;
    m_invalid = reason;
    render();
}

void TeachingPanel::selectFigure(const QString& key)
{
    const int i = m_figure->findData(key);
    if (i >= 0)
        m_figure->setCurrentIndex(i);
}

bool TeachingPanel::hasFigure(const QString& key) const { return m_figure->findData(key) >= 0; }

QStringList TeachingPanel::figureKeys() const
{
    QStringList keys;
    for (int i = 0; i < m_figure->count(); ++i)
        keys << m_figure->itemData(i).toString();
    return keys;
}

QString TeachingPanel::figure() const { return m_figure->currentData().toString(); }

QString TeachingPanel::text() const
{
    QTextDocument doc;
    doc.setHtml(m_body->text());
    return doc.toPlainText();
}

void TeachingPanel::render()
{
    if (!m_valid) {
        m_body->setText(tr("<i>No figures: %1</i>").arg(m_invalid.toHtmlEscaped()));
        return;
    }
    const Explanation e = explainFigure(figure().toStdString(), m_scenario, m_report);
    auto h = [](const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); };
    QString html = QString("<p><b>%1</b></p><p>%2</p><p style='font-family: monospace'>%3</p><p><b>%4</b></p>")
                       .arg(h(e.title), h(e.formula), h(e.substituted), h(e.result));
    if (!e.note.empty())
        html += QString("<p style='color: palette(mid)'>%1</p>").arg(h(e.note));
    m_body->setText(html);
}

} // namespace dtsim::gui
