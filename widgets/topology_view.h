#pragma once
// Draws the cluster as a stack of levels (GPU, scale-up domain, NIC, each switch tier),
// repetition collapsed ("2,048 x node"), so 100,000 GPUs draw as fast as 8. Links are
// coloured by utilization (heat map) and the levels a chosen parallel group crosses are
// outlined (traffic overlay). Clicking a level selects it.
#include "simcore/report.h"
#include "simcore/scenario.h"

#include <QGraphicsView>

namespace dtsim::gui {

class TopologyView : public QGraphicsView {
    Q_OBJECT
public:
    explicit TopologyView(QWidget* parent = nullptr);
    // `overlay`: the comm group whose traffic to outline, or -1 for none.
    void showTopology(const Scenario& s, const StepReport* report, int overlay);
    int selectedLevel() const { return m_selected; } // 0 scale-up, 1 NIC, 2 + tier
    void selectLevel(int level);

signals:
    void levelClicked(int level);

protected:
    void mousePressEvent(QMouseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    int m_selected = 0;
    Scenario m_scenario;
    StepReport m_report;
    bool m_haveReport = false;
    int m_overlay = -1;
    void redraw();
};

// Heat colour for a utilization in [0, 1+]: green through yellow to red.
QColor heatColor(double utilization);

} // namespace dtsim::gui
