#pragma once
// A Qt Charts view styled from the application palette, shared by the chart tabs.
#include "palette_colors.h"

#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QPainter>

namespace dtsim::gui {

// Qt Charts' default margins (20 px around the plot, 9 around the chart) left a
// third of a 1366x768 window's chart to its axes: they elided every label to "...".
inline void compactChart(QChart* chart)
{
    chart->setMargins(QMargins(4, 2, 4, 2));
    chart->layout()->setContentsMargins(2, 2, 2, 2);
    chart->setBackgroundRoundness(0);
}

inline QChartView* makeChartView(const QString& title, QWidget* parent)
{
    auto* chart = new QChart;
    compactChart(chart);
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setBackgroundBrush(background());
    chart->setTitleBrush(foreground());
    chart->legend()->setLabelColor(foreground());
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    // An explicit minimum: the charts' own (every bar label at full height) held the
    // Cost tab, and the window, at 946 px on a 768 px screen.
    view->setMinimumSize(240, 160);
    return view;
}

// A fresh, empty chart in place of the view's current one, with the same title. A chart
// is replaced, not emptied: Qt Charts (6.4) leaves ~50 scene items behind for every
// series and axis removed from a chart, so a view emptied and refilled on every edit
// grew slower each time (600 ms per edit after 200 edits). Returns the new chart.
inline QChart* resetChart(QChartView* view)
{
    QChart* old = view->chart();
    QChart* fresh = new QChart;
    compactChart(fresh);
    fresh->setTitle(old->title());
    fresh->legend()->setAlignment(old->legend()->alignment());
    fresh->legend()->setVisible(old->legend()->isVisible());
    fresh->setBackgroundBrush(background());
    fresh->setTitleBrush(foreground());
    fresh->legend()->setLabelColor(foreground());
    view->setChart(fresh); // the view gives the old chart back: delete it with its items
    delete old;
    return fresh;
}

} // namespace dtsim::gui
