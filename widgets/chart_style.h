#pragma once
// A Qt Charts view styled from the application palette, shared by the chart tabs.
#include "palette_colors.h"

#include <QChart>
#include <QChartView>
#include <QPainter>

namespace dtsim::gui {

inline QChartView* makeChartView(const QString& title, QWidget* parent)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setBackgroundBrush(background());
    chart->setTitleBrush(foreground());
    chart->legend()->setLabelColor(foreground());
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    return view;
}

inline void clearChart(QChart* chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes())
        chart->removeAxis(a);
}

} // namespace dtsim::gui
