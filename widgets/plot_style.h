#pragma once
// QCustomPlot axes styled from the application palette, shared by the plot views.
#include "palette_colors.h"

#include <qcustomplot.h>

namespace dtsim::gui {

inline void styleAxis(QCPAxis* a)
{
    const QColor fg = foreground();
    a->setBasePen(QPen(fg));
    a->setTickPen(QPen(fg));
    a->setSubTickPen(QPen(fg));
    a->setTickLabelColor(fg);
    a->setLabelColor(fg);
    a->grid()->setPen(QPen(gridColor(), 1, Qt::DotLine));
}

// The legend in a row of its own above the plots, its entries side by side. Inside the
// axis rect (QCustomPlot's default) it covered data somewhere on every plot: the
// frontier's scenario mark, the histogram's P50, the scaling efficiency curves.
inline void putLegendAbovePlots(QCustomPlot* plot)
{
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setMargins(QMargins(6, 2, 6, 2));
}

} // namespace dtsim::gui
