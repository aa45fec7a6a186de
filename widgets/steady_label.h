#pragma once
// A word-wrapped label that keeps its height while its width and font stay the same:
// new text never moves what is laid out below it (a click's target stays under the
// pointer). It reserves the height of its tallest text so far, and of a template text
// that stands for the longest it will show.
#include <QLabel>

namespace dtsim::gui {

class SteadyLabel : public QLabel {
    Q_OBJECT
public:
    explicit SteadyLabel(QWidget* parent = nullptr);
    void setReserve(const QString& longest); // rich text, as setText takes
    void setSteadyText(const QString& text);

protected:
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;
    void showEvent(QShowEvent* e) override;

private:
    int heightOf(const QString& text) const;
    void fit(bool fresh);
    QString m_reserve;
    int m_height = 0;
};

} // namespace dtsim::gui
