#pragma once
// The headline numbers of the current scenario, across the top of the window.
#include "simcore/report.h"
#include "simcore/scenario.h"

#include <QHash>
#include <QWidget>

class QLabel;

namespace dtsim::gui {

class Dashboard : public QWidget {
    Q_OBJECT
public:
    explicit Dashboard(QWidget* parent = nullptr);
    void showReport(const Scenario& s, const Report& r);
    void showInvalid(const QString& reason);
    QString value(const QString& key) const; // for tests: "step", "mfu", ...

signals:
    void figureClicked(const QString& key); // a number was clicked: explain it

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* e) override;

private:
    void set(const QString& key, const QString& text, const QString& tip = {}, bool alarm = false);
    void scaleFonts();
    QHash<QString, QLabel*> m_values;
    QList<QLabel*> m_titles;
};

} // namespace dtsim::gui
