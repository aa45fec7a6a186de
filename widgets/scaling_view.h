#pragma once
// Time to train and efficiency against GPU count, at a fixed and at a growing global
// batch, with the sync wall marked.
#include "tab_page.h"

#include "simcore/planner/scaling.h"

#include <QWidget>

class QCustomPlot;

namespace dtsim::gui {

class Evaluator;

// The curves come from the evaluator's worker when edits pause.
class ScalingView : public QWidget, public TabPage {
    Q_OBJECT
public:
    explicit ScalingView(Evaluator* evaluator, QWidget* parent = nullptr);
    void follow(const TabInput& in, TabMoment when) override;
    void showCurves(const ScalingCurves& c, long long currentGpus);
    QCustomPlot* plot() const { return m_plot; }

private:
    Evaluator* m_evaluator;
    long long m_currentGpus = 0; // of the scenario whose curves were asked for
    QCustomPlot* m_plot = nullptr;
};

} // namespace dtsim::gui
