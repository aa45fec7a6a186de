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

// Legends, tick labels and text on a plot: a step below the plot's own font, which
// presentation mode enlarges.
inline QFont plotSmallFont(const QCustomPlot* plot)
{
    QFont f = plot->font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    return f;
}

// Moves a plot's text labels off each other, once laid out: a label that would cover
// one above it goes just below it (or above, where below leaves the plot). Labels placed
// in data coordinates collided when the plot was short: "latency wall, realistic" over
// "latency wall, idealized" on a 1366x768 projector.
void separatePlotLabels(QCustomPlot* plot);

// A text item in the plot's small font. The views make their labels anew on every
// update, so a label made after presentation mode began must size itself (those made
// with QCPItemText's fixed default stayed small on a projector). The plot keeps its
// labels apart (separatePlotLabels) at every layout.
inline QCPItemText* addPlotText(QCustomPlot* plot)
{
    auto* t = new QCPItemText(plot);
    t->setFont(plotSmallFont(plot));
    if (!plot->property("dtsim-separates-labels").toBool()) {
        plot->setProperty("dtsim-separates-labels", true);
        QObject::connect(plot, &QCustomPlot::afterLayout, plot, [plot] { separatePlotLabels(plot); });
    }
    return t;
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
