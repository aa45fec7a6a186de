#pragma once
// The teaching panel: the selected headline figure's formula, the same formula with
// the scenario's values substituted, and the result (simcore/explain). Click a number
// on the dashboard, or pick one here.
#include "simcore/report.h"
#include "simcore/scenario.h"

#include <QStringList>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
QT_END_NAMESPACE

namespace dtsim::gui {

class TeachingPanel : public QWidget {
    Q_OBJECT
public:
    explicit TeachingPanel(QWidget* parent = nullptr);
    void showReport(const Scenario& s, const Report& r);
    void showInvalid(const QString& reason);
    void selectFigure(const QString& key);
    bool hasFigure(const QString& key) const;
    QStringList figureKeys() const; // in the panel's order, for messages
    QString figure() const;
    QString text() const; // what the panel shows, as plain text (tests)

private:
    void render();

    QComboBox* m_figure = nullptr;
    QLabel* m_body = nullptr;
    Scenario m_scenario;
    Report m_report;
    bool m_valid = false;
    QString m_invalid;
};

} // namespace dtsim::gui
