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

} // namespace dtsim::gui
