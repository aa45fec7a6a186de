#pragma once
// Time to train and efficiency against GPU count, at a fixed and at a growing global
// batch, with the sync wall marked.
#include "tab_page.h"

#include "simcore/planner/scaling.h"
#include "simcore/scenario.h"

#include <QWidget>

#include <optional>

class QCustomPlot;

namespace dtsim::gui {

class Evaluator;

// The curves come from the evaluator's worker when edits pause.
class ScalingTab : public QWidget, public TabPage {
    Q_OBJECT
public:
    explicit ScalingTab(Evaluator* evaluator, QWidget* parent = nullptr);
    void follow(const TabInput& in, TabMoment when) override;
    void showCurves(const ScalingCurves& c, long long currentGpus);
    QCustomPlot* plot() const { return m_plot; }

private:
    // A pinned scenario A (TabInput::pinned): its curves are asked for and drawn in grey.
    void followPinned(const Scenario* a);
    Evaluator* m_evaluator;
    long long m_currentGpus = 0; // of the scenario whose curves were asked for
    QCustomPlot* m_plot = nullptr;
    std::optional<Scenario> m_pinnedScenario;
    std::optional<ScalingCurves> m_pinned;
    ScalingCurves m_shown; // the current scenario's, to redraw when A's arrive
};

} // namespace dtsim::gui
