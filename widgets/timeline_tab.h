#pragma once
// The Timeline tab: the Gantt chart of the current scenario's steps, its options
// (steps, one row per TP rank, zero-bubble schedule, critical path) and exports (PNG,
// SVG, Chrome trace JSON).
#include "simcore/calibration.h"
#include "simcore/reliability/reliability.h"
#include "simcore/timeline/timeline.h"
#include "simcore/scenario.h"

#include <QWidget>

class QSpinBox;
class QCheckBox;
class QLabel;

namespace dtsim::gui {

class GanttView;

class TimelineTab : public QWidget {
    Q_OBJECT
public:
    TimelineTab(const Calibration& calibration, FailureRates rates, QWidget* parent = nullptr);
    void showScenario(const Scenario* s); // null when the plan is invalid
    GanttView* gantt() const { return m_gantt; }
    bool exportPng(const QString& path);
    bool exportSvg(const QString& path);
    bool exportTrace(const QString& path);

private:
    void rebuild();
    TimelineOptions options(); // from the controls and the reliability model's interval
    const Calibration& m_calibration;
    FailureRates m_rates;
    long long m_intervalSteps = 0;
    Scenario m_scenario;
    bool m_valid = false;
    GanttView* m_gantt = nullptr;
    QSpinBox* m_steps = nullptr;
    QCheckBox* m_ranks = nullptr;
    QCheckBox* m_zeroBubble = nullptr;
    QCheckBox* m_critical = nullptr;
    QCheckBox* m_checkpoint = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace dtsim::gui
