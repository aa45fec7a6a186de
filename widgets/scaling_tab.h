#pragma once
// Time to train and efficiency against GPU count, at a fixed and at a growing global
// batch, with the sync wall and the growing batch's turnaround marked.
#include "tab_page.h"

#include "simcore/planner/scaling.h"
#include "simcore/scenario.h"

#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

class QCustomPlot;
class QCPItemText;

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
    struct Mark {
        double x;
        QString text;
        QColor color;
    };
    void drawMarks(std::vector<Mark> marks); // the dashed lines and their labels
    void placeMarkLabels();                  // the labels clear of each other and of the plot's edges
    std::vector<std::pair<double, QCPItemText*>> m_markLabels; // each mark's GPU count and label
    // A pinned scenario A (TabInput::pinned): its curves are asked for and drawn in grey.
    void followPinned(const Scenario* a);
    Evaluator* m_evaluator;
    long long m_currentGpus = 0; // of the scenario whose curves were asked for
    double m_targetLoss = 0;     // its target loss; 0 for a token target
    QCustomPlot* m_plot = nullptr;
    std::optional<Scenario> m_pinnedScenario;
    std::optional<ScalingCurves> m_pinned;
    ScalingCurves m_shown; // the current scenario's, to redraw when A's arrive
};

} // namespace dtsim::gui
