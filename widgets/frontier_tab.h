#pragma once
// The Frontier tab: the training run's duration and the frontier for the scenario's GPU
// and network over it, with the scenario marked. The frontier is computed on the
// evaluator's worker when its inputs (GPU, links, duration) change, not on every edit.
#include "tab_page.h"

#include "simcore/planner/frontier_anchors.h"

#include <QString>
#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;

namespace dtsim::gui {

class Evaluator;
class FrontierView;

class FrontierTab : public QWidget, public TabPage {
    Q_OBJECT
public:
    // `anchors`: every published frontier reading (Epoch AI's); those of the GPU and
    // duration shown are drawn next to the curves.
    FrontierTab(Evaluator* evaluator, std::vector<FrontierAnchor> anchors, QWidget* parent = nullptr);
    bool saysWhenInvalid() const override { return true; } // the curves are the GPU's, not the plan's
    void follow(const TabInput& in, TabMoment when) override;
    FrontierView* view() const { return m_view; }
    QDoubleSpinBox* duration() const { return m_months; }
    // 0: the GPU's own network (its standard server's, as `dtsim-cli frontier --gpu`
    // uses), 1: the scenario's (its links).
    QComboBox* network() const { return m_networkChoice; }
    bool hasFrontier() const { return m_have; }
    void restyle() override { m_key.clear(); } // the next pause recomputes, in the new palette

private:
    void request();
    QString anchorsText(const std::vector<FrontierAnchor>& shown) const;
    Evaluator* m_evaluator;
    std::vector<FrontierAnchor> m_anchors;
    FrontierView* m_view = nullptr;
    QDoubleSpinBox* m_months = nullptr;
    QComboBox* m_networkChoice = nullptr;
    QCheckBox* m_criticalBatch = nullptr; // FrontierOptions::chargeCriticalBatch
    HardwareSpec m_gpu, m_network; // of the last valid scenario
    bool m_haveScenario = false;
    double m_deadline = -1; // the scenario deadline last applied to the duration
    QString m_key; // the inputs of the frontier last requested
    QString m_requestedNetwork; // its network, in words
    bool m_have = false;
    double m_flop = 0, m_mfu = 0;
    bool m_valid = false;
    bool m_layerTable = false; // the scenario is a CNN/DLRM table: the frontier's models are transformers
};

} // namespace dtsim::gui
