#include "theme.h"

#include "palette_colors.h"
#include "plot_style.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QStyle>
#include <QStyleFactory>

namespace dtsim::gui {

namespace {

QString g_theme = "system";
QPalette g_systemPalette;
QString g_systemStyle;
bool g_captured = false;

QPalette darkThemePalette()
{
    QPalette p;
    const QColor window(37, 40, 46), base(28, 30, 35), text(225, 228, 232), mid(140, 146, 154);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window.lighter(115));
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window.lighter(120));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(255, 120, 120));
    p.setColor(QPalette::Highlight, QColor(0, 114, 178));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(86, 180, 233));
    p.setColor(QPalette::Mid, mid);
    p.setColor(QPalette::PlaceholderText, mid);
    p.setColor(QPalette::Disabled, QPalette::Text, mid);
    p.setColor(QPalette::Disabled, QPalette::WindowText, mid);
    p.setColor(QPalette::Disabled, QPalette::ButtonText, mid);
    return p;
}

} // namespace

QStringList themeNames() { return { "system", "light", "dark" }; }
QString currentTheme() { return g_theme; }

bool applyTheme(const QString& name)
{
    if (!themeNames().contains(name))
        return false;
    if (!g_captured) {
        g_systemPalette = QApplication::palette();
        g_systemStyle = QApplication::style()->name();
        g_captured = true;
    }
    if (name == "system") {
        QApplication::setStyle(QStyleFactory::create(g_systemStyle));
        QApplication::setPalette(g_systemPalette);
    } else {
        QApplication::setStyle(QStyleFactory::create("Fusion"));
        QApplication::setPalette(name == "dark" ? darkThemePalette() : QApplication::style()->standardPalette());
    }
    g_theme = name;
    return true;
}

void restyleCharts(QWidget* root)
{
    for (QCustomPlot* plot : root->findChildren<QCustomPlot*>()) {
        plot->setBackground(background());
        for (QCPAxis* a : plot->axisRect() ? plot->axisRect()->axes() : QList<QCPAxis*>())
            styleAxis(a);
        if (plot->legend) {
            plot->legend->setBrush(background());
            plot->legend->setTextColor(foreground());
            plot->legend->setBorderPen(QPen(gridColor()));
        }
        plot->replot();
    }
    for (QChartView* view : root->findChildren<QChartView*>()) {
        QChart* chart = view->chart();
        chart->setBackgroundBrush(background());
        chart->setTitleBrush(foreground());
        chart->legend()->setLabelColor(foreground());
        for (QAbstractAxis* a : chart->axes()) {
            a->setLabelsColor(foreground());
            a->setTitleBrush(foreground());
            a->setGridLineColor(gridColor());
        }
    }
}

void resizeChartText(QWidget* root)
{
    for (QCustomPlot* plot : root->findChildren<QCustomPlot*>()) {
        const QFont text = plot->font();
        const QFont small = plotSmallFont(plot);
        for (QCPAxisRect* rect : plot->axisRects())
            for (QCPAxis* a : rect->axes()) {
                a->setLabelFont(text);
                a->setTickLabelFont(small);
            }
        if (plot->legend)
            plot->legend->setFont(small);
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)))
                t->setFont(small);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
    for (QChartView* view : root->findChildren<QChartView*>())
        styleChartText(view);
}

void styleChartText(QChartView* view)
{
    // Only what differs: a font set to the same value still lays the chart out again.
    QChart* chart = view->chart();
    const QFont text = view->font();
    QFont title = text;
    title.setBold(true);
    if (chart->titleFont() != title)
        chart->setTitleFont(title);
    if (chart->legend()->font() != text)
        chart->legend()->setFont(text);
    for (QAbstractAxis* a : chart->axes()) {
        if (a->labelsFont() != text)
            a->setLabelsFont(text);
        if (a->titleFont() != text)
            a->setTitleFont(text);
    }
}

} // namespace dtsim::gui
