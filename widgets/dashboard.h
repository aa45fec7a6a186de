#pragma once
// The headline numbers of the current scenario, across the top of the window.
#include "simcore/report.h"
#include "simcore/scenario.h"
#include "simcore/study/error_band.h"

#include <QHash>
#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

class QLabel;
class QGridLayout;

namespace dtsim::gui {

class Dashboard : public QWidget {
    Q_OBJECT
public:
    explicit Dashboard(QWidget* parent = nullptr);
    void showReport(const Scenario& s, const Report& r);
    void showInvalid(const QString& reason);
    QString value(const QString& key) const; // for tests: "step", "mfu", ...
    QString calibrationNote() const;          // "calibrated from FILE ..." or "" (not calibrated)
    QString convergenceNote() const;          // "Loss 2.400 +- ..." or "" (no loss law applies)
    // dtsim's errors on the published runs, for the headline numbers' error bands.
    void setResiduals(std::vector<Residual> r) { m_residuals = std::move(r); }
    QString bandNote() const;
    // A pinned scenario A: every headline number of A and B's change from it, under the tiles.
    // `countsSamples`: A is a layer table (samples/s), which no tokens/s figure compares with.
    void setPinned(const QString& name, std::optional<Report> a, bool countsSamples = false);
    QString compareNote() const;
    // On stage the line that says how to pin A gives its room to the views (it is shown
    // only with A pinned); at a desk it stays, so pinning moves nothing.
    void setPresenting(bool on); // "80% of 9 similar published runs measured: MFU 35.8-41.0% ..." or why none
    // As narrow as its widest tile: narrower windows take more rows of tiles.
    QSize minimumSizeHint() const override;

signals:
    void figureClicked(const QString& key); // a number was clicked: explain it

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void showEvent(QShowEvent* e) override;

private:
    void set(const QString& key, const QString& text, const QString& tip = {}, bool alarm = false);
    void scaleFonts();
    void reflow();          // as many tiles a row as the width takes
    void showLines();       // which lines under the tiles show, at a desk and on stage
    int tileWidth(int i) const; // tile i's width at its widest figure
    QHash<QString, QLabel*> m_values;
    QList<QLabel*> m_titles;
    std::vector<QLabel*> m_order; // the values, in tile order
    QGridLayout* m_grid = nullptr;
    QLabel* m_calibration = nullptr; // under the tiles, when the scenario names an overlay
    class SteadyLabel* m_convergence = nullptr; // under the tiles: the final loss and the tokens
    QString bandText(int similar, const QString& similarity, const QStringList& ranges) const;
    QString comparisonText(const QString& name, bool withChanges, const Report* a = nullptr, const Report* b = nullptr) const;
    QString unpinnedText() const;
    class SteadyLabel* m_band = nullptr; // under the tiles: how far to trust them
    std::vector<Residual> m_residuals;
    class SteadyLabel* m_compare = nullptr; // under the tiles: A's numbers, or how to pin A
    std::optional<Report> m_pinned;
    QString m_pinnedName;
    bool m_pinnedSamples = false;
    bool m_presenting = false;
    bool m_convergenceKnown = false, m_lossTarget = false; // the last report's
    std::pair<QString, QString> m_convergenceText; // the line, and its brief form for the stage
    int m_columns = 0;
};

} // namespace dtsim::gui
