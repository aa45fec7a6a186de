#pragma once
// Time to train and efficiency against GPU count, at a fixed and at a growing global
// batch, with the sync wall marked.
#include "simcore/planner/scaling.h"

#include <QWidget>

class QCustomPlot;

namespace dtsim::gui {

class ScalingView : public QWidget {
    Q_OBJECT
public:
    explicit ScalingView(QWidget* parent = nullptr);
    void showCurves(const ScalingCurves& c, long long currentGpus);
    QCustomPlot* plot() const { return m_plot; }

private:
    QCustomPlot* m_plot = nullptr;
};

} // namespace dtsim::gui
