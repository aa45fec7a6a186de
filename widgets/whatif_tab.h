#pragma once
// The What-if tab: the run's regime and the changes that make it faster, each simulated
// and applied in one click (one undo step); and a heat map of one headline number over
// two fields, a click applying a cell, CSV export. The engine work (simcore/study) runs
// on the evaluator's worker when edits pause.
#include "tab_page.h"

#include "simcore/study/advice.h"
#include "simcore/study/sweep.h"

#include <QWidget>

class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTableWidget;

namespace dtsim::gui {

class Evaluator;

class WhatIfTab : public QWidget, public TabPage {
    Q_OBJECT
public:
    WhatIfTab(Evaluator* evaluator, std::vector<HardwareSpec> catalog, QWidget* parent = nullptr);
    void follow(const TabInput& in, TabMoment when) override;

    void showAdvice(const Advice& a);
    void showSweep(const SweepResult& r);
    const Advice& advice() const { return m_advice; }
    const SweepResult& sweepResult() const { return m_sweep; }
    QTableWidget* suggestionTable() const { return m_table; }
    QCustomPlot* heatMap() const { return m_map; }
    // Picks the sweep's axes and number by field path and headline key (tests, scripts).
    bool setSweep(const std::string& xPath, const std::string& yPath, Headline metric);
    void applySuggestion(int row);
    void applyCell(int ix, int iy);
    QString sweepCsv() const;

    // The values a sweep tries for a field around the scenario's own (powers of two for
    // parallel degrees and counts, x1/8 to x8 for quantities, every choice).
    static SweepAxis axisAround(const FieldDef& f, const Scenario& s);

signals:
    void applyScenario(const dtsim::Scenario& s, const QString& label);

private:
    static std::string readableLabel(const Scenario& s, const FieldDef& f);
    void requestSweep();
    void exportCsv();

    Evaluator* m_evaluator;
    std::vector<HardwareSpec> m_catalog;
    class SteadyLabel* m_regime = nullptr;
    QTableWidget* m_table = nullptr;
    QComboBox *m_x = nullptr, *m_y = nullptr, *m_metric = nullptr;
    QPushButton* m_export = nullptr;
    QCustomPlot* m_map = nullptr;
    QLabel* m_sweepNote = nullptr;
    Advice m_advice;
    SweepResult m_sweep;
    Scenario m_scenario;
    bool m_hasScenario = false;
};

} // namespace dtsim::gui
