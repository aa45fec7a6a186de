#pragma once
// A strip across the top of a tab that says its figures are not the document's: the
// plan is not valid, so the tab still shows the last valid scenario's results (the
// Breakdown kept an earlier chart while the dashboard showed "-", without a word).
#include <QLabel>

namespace dtsim::gui {

class StaleNote : public QLabel {
    Q_OBJECT
public:
    explicit StaleNote(QWidget* parent = nullptr);
    void showOn(QWidget* page, const QString& text); // follows the page's width
    void hideNote();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fit();
    QWidget* m_page = nullptr;
};

} // namespace dtsim::gui
