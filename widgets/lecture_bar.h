#pragma once
// The strip a lecture shows over the views: where the speaker is ("2 of 6"), what the
// audience should look at, and Previous / Next (Page Up / Page Down, as a presenter's
// clicker sends them).
#include <QFrame>

class QLabel;
class QPushButton;

namespace dtsim::gui {

class LectureBar : public QFrame {
    Q_OBJECT
public:
    explicit LectureBar(QWidget* parent = nullptr);
    void showStep(const QString& title, int index, int count, const QString& caption);
    QString caption() const;
    QLabel* captionLabel() const { return m_caption; }

signals:
    void previousRequested();
    void nextRequested();
    void closeRequested();

protected:
    void changeEvent(QEvent* e) override;

private:
    void scaleCaption();
    QLabel* m_where = nullptr;
    QLabel* m_caption = nullptr;
    QPushButton* m_previous = nullptr;
    QPushButton* m_next = nullptr;
};

} // namespace dtsim::gui
