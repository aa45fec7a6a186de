#include "dashboard.h"

#include "palette_colors.h"

#include "simcore/units.h"

#include <QGridLayout>
#include <QEvent>
#include <QLabel>

namespace dtsim::gui {

namespace {
struct Tile {
    const char* key;
    const char* title;
};
constexpr Tile kTiles[] = { { "step", "Step time" }, { "mfu", "MFU" }, { "tflops", "TFLOP/s per GPU" },
    { "tokens", "Tokens/s" }, { "memory", "Memory per GPU" }, { "ttt", "Time to train" },
    { "min", "At 100% of peak" }, { "gpuh", "GPU-hours" }, { "wall", "Sync wall" } };
}

Dashboard::Dashboard(QWidget* parent) : QWidget(parent)
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(8, 4, 8, 4);
    grid->setHorizontalSpacing(18);
    int col = 0;
    for (const Tile& t : kTiles) {
        auto* title = new QLabel(tr(t.title), this);
        title->setStyleSheet("color: palette(mid);");
        auto* value = new QLabel("-", this);
        m_titles.push_back(title);
        value->setObjectName(QString("dashboard-%1").arg(t.key));
        value->setCursor(Qt::PointingHandCursor);
        value->installEventFilter(this);
        grid->addWidget(title, 0, col);
        grid->addWidget(value, 1, col);
        m_values.insert(t.key, value);
        ++col;
    }
    scaleFonts();
}

void Dashboard::scaleFonts()
{
    // Relative to the dashboard's font, so presentation mode's larger type reaches it.
    QFont title = font(), value = font();
    title.setPointSizeF(font().pointSizeF() * 0.85);
    value.setPointSizeF(font().pointSizeF() * 1.5);
    value.setBold(true);
    for (QLabel* l : m_titles)
        l->setFont(title);
    for (QLabel* l : m_values)
        l->setFont(value);
}

void Dashboard::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::FontChange)
        scaleFonts();
    QWidget::changeEvent(e);
}

void Dashboard::set(const QString& key, const QString& text, const QString& tip, bool alarm)
{
    QLabel* l = m_values.value(key);
    l->setText(text);
    l->setToolTip(tip);
    l->setStyleSheet(alarm ? QString("color: %1;").arg(errorColor().name()) : QString());
}

void Dashboard::showReport(const Scenario& s, const Report& r)
{
    const StepReport& st = r.step;
    auto q = [](const std::string& x) { return QString::fromStdString(x); };
    set("step", q(formatSeconds(st.stepTime)), tr("%1 micro-batches; bubble %2%").arg(st.microbatches).arg(100 * st.bubbleFraction, 0, 'f', 1));
    set("mfu", QString("%1%").arg(100 * st.mfu, 0, 'f', 1), tr("HFU %1%").arg(100 * st.hfu, 0, 'f', 1));
    set("tflops", QString::number(st.tflopsPerGpu, 'f', 1), tr("of %1 peak").arg(q(formatFlops(st.peakFlopsPerGpu))));
    set("tokens", q(formatCount(st.tokensPerSecond)));
    const bool fits = st.memory.fits;
    set("memory", QString("%1 / %2").arg(q(formatBytes(st.memory.total)), q(formatBytes(st.memory.capacity))),
        fits ? tr("fits") : tr("does not fit in memory"), !fits);
    const double deadline = s.training.deadline;
    set("ttt", q(formatDuration(r.timeToTrain)),
        deadline > 0 ? tr("%1 steps; deadline %2").arg(q(formatCount(r.steps)), q(formatDuration(deadline)))
                     : tr("%1 steps").arg(q(formatCount(r.steps))),
        deadline > 0 && r.timeToTrain > deadline);
    set("min", q(formatDuration(r.theoreticalMinTime)), tr("all GPUs at 100% of peak, no communication"));
    set("gpuh", q(formatCount(r.gpuHours)));
    set("wall", tr("%1 GPUs").arg(r.syncWallGpus), tr("fastest run at this global batch: %1").arg(q(formatDuration(r.syncWallTimeToTrain))));
}

void Dashboard::showInvalid(const QString& reason)
{
    for (auto it = m_values.begin(); it != m_values.end(); ++it)
        set(it.key(), "-", reason);
}

bool Dashboard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::MouseButtonRelease)
        for (auto it = m_values.begin(); it != m_values.end(); ++it)
            if (it.value() == watched) {
                emit figureClicked(it.key());
                return true;
            }
    return QWidget::eventFilter(watched, event);
}

QString Dashboard::value(const QString& key) const
{
    QLabel* l = m_values.value(key);
    return l ? l->text() : QString();
}

} // namespace dtsim::gui
