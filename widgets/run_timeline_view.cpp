#include "run_timeline_view.h"

#include "time_axis_input.h"

#include <QEvent>

#include "palette_colors.h"

#include "simcore/units.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace dtsim::gui {

namespace {


const char* kLaneNames[] = { "Training", "Checkpoints", "Failures and recovery", "Slow steps" };
constexpr double kMarkerGrab = 4; // pixels either side of a chaos marker that grab it
constexpr int kLanes = 4;
constexpr int kLabelRows = 4; // rows of event labels above the lanes
const QColor kExpectedEndColour(213, 94, 0);

QColor phaseColor(RunPhase::Kind k)
{
    switch (k) {
    case RunPhase::Kind::Training: return QColor(0, 158, 115);
    case RunPhase::Kind::Lost: return QColor(213, 94, 0);
    case RunPhase::Kind::Checkpoint: return QColor(0, 114, 178);
    case RunPhase::Kind::Recovery: return QColor(230, 159, 0);
    case RunPhase::Kind::Slow: return QColor(204, 121, 167);
    }
    return Qt::gray;
}

QString phaseName(RunPhase::Kind k)
{
    switch (k) {
    case RunPhase::Kind::Training: return QObject::tr("training");
    case RunPhase::Kind::Lost: return QObject::tr("work lost (redone)");
    case RunPhase::Kind::Checkpoint: return QObject::tr("checkpoint");
    case RunPhase::Kind::Recovery: return QObject::tr("recovery");
    case RunPhase::Kind::Slow: return QObject::tr("slow steps");
    }
    return {};
}

} // namespace

RunTimelineView::RunTimelineView(QWidget* parent) : QWidget(parent)
{
    setMinimumHeight(170);
    setMouseTracking(true);
    auto* input = new TimeAxisInput(this, &m_axis, [this] {
        const Geometry g = geometry(size());
        return TimeAxisInput::PixelSpan { double(g.left), double(g.right - g.left) };
    }, [this] { fit(); });
    input->onMoved([this] { m_userZoomed = true; });
    input->claimPress([this](const QPointF& p) { return markerAt(p) >= 0; });
}

void RunTimelineView::setRun(std::vector<RunPhase> phases, std::vector<ChaosEvent> chaos, double failureFree, double expected)
{
    m_phases = std::move(phases);
    m_chaos = std::move(chaos);
    m_failureFree = failureFree;
    m_expected = expected;
    m_end = 1;
    for (const RunPhase& p : m_phases)
        m_end = std::max(m_end, p.end);
    m_end = std::max({ m_end, failureFree, std::isfinite(expected) ? expected : 0.0 });
    if (!m_userZoomed)
        fit();
    setMinimumHeight(minimumSizeHint().height()); // the event labels' rows set its height
    update();
}

void RunTimelineView::clear(const QString& why)
{
    m_emptyText = why;
    m_phases.clear();
    m_chaos.clear();
    update();
}

void RunTimelineView::fit()
{
    m_axis.setLimits(60.0, m_end * 1.5, false);
    m_axis.fit(m_end, 1.02);
    m_userZoomed = false;
    update();
}

void RunTimelineView::changeEvent(QEvent* e)
{
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange) // presentation mode's type needs taller lanes
        setMinimumHeight(minimumSizeHint().height());
}

QSize RunTimelineView::minimumSizeHint() const
{
    // The legend, the event labels, four lanes a line and a half high, and the axis with
    // its title: in presentation mode's larger type a fixed 220 px cut the axis off.
    const int text = fontMetrics().height();
    const int top = (2 + std::min<int>(kLabelRows, int(m_chaos.size()))) * text + 10;
    return { 320, top + kLanes * (text * 3 / 2) + (kLanes - 1) * 6 + 2 * text + 16 };
}

RunTimelineView::Geometry RunTimelineView::geometry(const QSize& size) const
{
    const int text = fontMetrics().height();
    Geometry g;
    g.left = fontMetrics().horizontalAdvance(kLaneNames[2]) + 16;
    g.right = size.width() - 12;
    g.top = (2 + std::min<int>(kLabelRows, int(m_chaos.size()))) * text + 10;
    g.gap = 6;
    g.laneHeight = std::max(14, (size.height() - g.top - 2 * text - 12 - (kLanes - 1) * g.gap) / kLanes);
    return g;
}

int RunTimelineView::laneOf(RunPhase::Kind k) const
{
    switch (k) {
    case RunPhase::Kind::Training:
    case RunPhase::Kind::Lost: return 0;
    case RunPhase::Kind::Checkpoint: return 1;
    case RunPhase::Kind::Recovery: return 2;
    case RunPhase::Kind::Slow: return 3;
    }
    return 0;
}

double RunTimelineView::xAt(double t, const Geometry& g) const
{
    return m_axis.x(t, g.left, g.right - g.left);
}

double RunTimelineView::timeAt(double x, const Geometry& g) const
{
    return m_axis.time(x, g.left, g.right - g.left);
}

void RunTimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paint(p, size());
}

void RunTimelineView::renderTo(QPainter& painter, const QSize& size) { paint(painter, size); }

void RunTimelineView::paint(QPainter& p, const QSize& size)
{
    p.fillRect(QRect(QPoint(0, 0), size), background());
    const Geometry g = geometry(size);
    const QColor fg = foreground();
    const int text = fontMetrics().height();
    if (m_phases.empty()) {
        p.setPen(fg);
        p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter, m_emptyText.isEmpty() ? tr("No run to show: the plan is not valid.") : m_emptyText);
        return;
    }

    // Legend, from the left edge (the lanes' names are below it): beside the chaos
    // editor the view is narrower.
    int lx = 4;
    for (RunPhase::Kind k : { RunPhase::Kind::Training, RunPhase::Kind::Lost, RunPhase::Kind::Checkpoint,
             RunPhase::Kind::Recovery, RunPhase::Kind::Slow }) {
        p.fillRect(QRect(lx, 6, 12, 12), phaseColor(k));
        p.setPen(fg);
        const QString name = phaseName(k);
        p.drawText(QPoint(lx + 16, 6 + text - 4), name);
        lx += 16 + fontMetrics().horizontalAdvance(name) + 18;
    }
    for (const auto& [name, colour] : { std::pair { tr("failure-free end"), fg }, std::pair { tr("expected end"), kExpectedEndColour } }) {
        p.setPen(QPen(colour, 2));
        p.drawLine(lx + 6, 5, lx + 6, 19);
        p.setPen(fg);
        p.drawText(QPoint(lx + 16, 6 + text - 4), name);
        lx += 16 + fontMetrics().horizontalAdvance(name) + 18;
    }

    // Lanes: label, background, phases (at least a pixel wide, so short recoveries
    // and checkpoints stay visible; dense ones merge into a band).
    for (int lane = 0; lane < kLanes; ++lane) {
        const int y = g.laneY(lane);
        p.setPen(fg);
        p.drawText(QRect(4, y, g.left - 10, g.laneHeight), Qt::AlignRight | Qt::AlignVCenter, tr(kLaneNames[lane]));
        QColor band = fg;
        band.setAlpha(18);
        p.fillRect(QRect(g.left, y, g.right - g.left, g.laneHeight), band);
    }
    p.setClipRect(QRect(g.left, 0, g.right - g.left, size.height()));
    std::array<double, kLanes> lastX;
    lastX.fill(-1e9);
    for (const RunPhase& ph : m_phases) {
        if (ph.end < m_axis.start() || ph.start > m_axis.end())
            continue;
        const int lane = laneOf(ph.kind);
        if (ph.period > 0) {
            paintPeriodic(p, ph, g);
            lastX[lane] = std::max(lastX[lane], xAt(ph.end, g));
            continue;
        }
        const double x0 = xAt(ph.start, g), x1 = std::max(xAt(ph.end, g), x0 + 1.0);
        if (x1 <= lastX[lane] && ph.kind != RunPhase::Kind::Lost)
            continue; // folded into the pixel already drawn
        lastX[lane] = x1;
        const int y = g.laneY(lane);
        // Lost work sits in the lower half of the training lane, so the eye sees both.
        const QRectF r = ph.kind == RunPhase::Kind::Lost
            ? QRectF(x0, y + g.laneHeight * 0.45, x1 - x0, g.laneHeight * 0.55)
            : QRectF(x0, y + 1, x1 - x0, g.laneHeight - 2);
        p.fillRect(r, phaseColor(ph.kind));
    }
    // Injected events as labelled markers, their labels stacked in rows above the
    // lanes so that close events stay readable.
    // In time order, each label takes the first row free at its x, else the row that
    // frees first.
    std::vector<ChaosEvent> events = m_chaos;
    std::stable_sort(events.begin(), events.end(), [](const ChaosEvent& a, const ChaosEvent& b) { return a.atSeconds < b.atSeconds; });
    const int rows = std::min<int>(kLabelRows, int(events.size()));
    std::array<double, kLabelRows> rowEnd;
    rowEnd.fill(-1e9);
    for (const ChaosEvent& e : events) {
        const double x = xAt(e.atSeconds, g);
        if (x < g.left || x > g.right)
            continue;
        const QString label = QString("%1%2").arg(QString::fromLatin1(chaosKindName(e.kind)).replace('_', ' '))
                                  .arg(e.target.empty() ? QString() : ": " + QString::fromStdString(e.target));
        int row = 0;
        while (row < rows && rowEnd[std::size_t(row)] > x)
            ++row;
        // No row free: the marker alone (its tooltip names it), not text over text.
        const bool labelled = row < rows;
        if (!labelled)
            row = 0;
        else
            rowEnd[std::size_t(row)] = x + fontMetrics().horizontalAdvance(label) + 8;
        const double labelY = g.top - 4 - (rows - 1 - row) * text;
        p.setPen(QPen(fg, 1, Qt::DashLine));
        p.drawLine(QPointF(x, labelY - text + 4), QPointF(x, g.laneY(kLanes - 1) + g.laneHeight));
        if (!labelled)
            continue;
        p.drawText(QPointF(x + 3, labelY), label);
        // An incident that lasts: its span under the label.
        if (e.duration > 0) {
            p.setPen(QPen(fg, 2));
            p.drawLine(QPointF(x, labelY + 2), QPointF(std::min<double>(g.right, xAt(e.atSeconds + e.duration, g)), labelY + 2));
        }
    }
    // Reference ends, named in the legend (written beside the lines they covered the
    // failures and stragglers lanes).
    auto marker = [&](double t, const QColor& c) {
        if (!std::isfinite(t) || t < m_axis.start() || t > m_axis.end())
            return;
        const double x = xAt(t, g);
        p.setPen(QPen(c, 2));
        p.drawLine(QPointF(x, g.top), QPointF(x, g.laneY(kLanes - 1) + g.laneHeight));
    };
    marker(m_failureFree, fg);
    marker(m_expected, kExpectedEndColour);
    p.setClipping(false);

    // Time axis in days (or hours when zoomed in).
    const int axisY = g.laneY(kLanes - 1) + g.laneHeight + 4;
    p.setPen(fg);
    p.drawLine(g.left, axisY, g.right, axisY);
    for (const TimeAxis::Tick& tick : m_axis.labelledTicks(std::max(2, (g.right - g.left) / 90))) {
        const double x = xAt(tick.t, g);
        p.drawLine(QPointF(x, axisY), QPointF(x, axisY + 4));
        p.drawText(QRectF(x - 40, axisY + 5, 80, text), Qt::AlignHCenter, QString::fromStdString(tick.label));
    }
    p.drawText(QRect(g.left, axisY + text + 4, g.right - g.left, text), Qt::AlignRight, tr("wall-clock time since the start"));
}

int RunTimelineView::laneCentreForTest(RunPhase::Kind k) const
{
    const Geometry g = geometry(size());
    return g.laneY(laneOf(k)) + g.laneHeight / 2;
}

int RunTimelineView::xForTest(double seconds) const { return int(xAt(seconds, geometry(size()))); }

void RunTimelineView::paintPeriodic(QPainter& p, const RunPhase& ph, const Geometry& g) const
{
    // Closer than two pixels apart they are one band; otherwise each is drawn, a pixel
    // wide at least, only where the axis shows them.
    const int y = g.laneY(laneOf(ph.kind));
    const double pixelsApart = xAt(ph.start + ph.period, g) - xAt(ph.start, g);
    if (pixelsApart < 2) {
        const double x0 = xAt(ph.start, g), x1 = std::max(xAt(ph.end, g), x0 + 1.0);
        p.fillRect(QRectF(x0, y + 1, x1 - x0, g.laneHeight - 2), phaseColor(ph.kind));
        return;
    }
    const double from = std::max(ph.start, m_axis.start()), to = std::min(ph.end, m_axis.end());
    for (double k = std::max(0.0, std::floor((from - ph.start) / ph.period)); ph.start + k * ph.period <= to; ++k) {
        const double s = ph.start + k * ph.period;
        const double x0 = xAt(s, g), x1 = std::max(xAt(s + ph.duration, g), x0 + 1.0);
        p.fillRect(QRectF(x0, y + 1, x1 - x0, g.laneHeight - 2), phaseColor(ph.kind));
    }
}

const RunPhase* RunTimelineView::phaseAt(const QPoint& pos) const
{
    const Geometry g = geometry(size());
    int lane = -1;
    for (int i = 0; i < kLanes; ++i)
        if (pos.y() >= g.laneY(i) && pos.y() < g.laneY(i) + g.laneHeight)
            lane = i;
    if (lane < 0 || pos.x() < g.left)
        return nullptr;
    // Within a pixel either side: short phases are drawn a pixel wide.
    const double t = timeAt(pos.x(), g), slack = m_axis.span() / std::max(1, g.right - g.left);
    const RunPhase* best = nullptr;
    for (const RunPhase& ph : m_phases)
        if (laneOf(ph.kind) == lane && ph.start - slack <= t && t <= ph.end + slack)
            if (!best || ph.kind == RunPhase::Kind::Lost)
                best = &ph;
    return best;
}

int RunTimelineView::markerAt(const QPointF& pos) const
{
    const Geometry g = geometry(size());
    if (pos.y() < 0 || pos.y() > g.laneY(kLanes - 1) + g.laneHeight)
        return -1;
    int best = -1;
    double nearest = kMarkerGrab + 1;
    for (std::size_t i = 0; i < m_chaos.size(); ++i) {
        const double d = std::abs(xAt(m_chaos[i].atSeconds, g) - pos.x());
        if (d <= kMarkerGrab && d < nearest) {
            nearest = d;
            best = int(i);
        }
    }
    return best;
}

void RunTimelineView::mousePressEvent(QMouseEvent* e)
{
    m_dragged = e->button() == Qt::LeftButton ? markerAt(e->position()) : -1;
    m_movedYet = false;
    QWidget::mousePressEvent(e);
}

void RunTimelineView::mouseMoveEvent(QMouseEvent* e)
{
    if (m_dragged < 0 || std::size_t(m_dragged) >= m_chaos.size()) {
        setCursor(markerAt(e->position()) >= 0 ? Qt::SizeHorCursor : Qt::ArrowCursor);
        return;
    }
    const double t = std::max(0.0, timeAt(e->position().x(), geometry(size())));
    m_chaos[std::size_t(m_dragged)].atSeconds = t; // drawn there until the new run arrives
    emit chaosEventMoved(m_dragged, t, !m_movedYet);
    m_movedYet = true;
    update();
}

void RunTimelineView::mouseReleaseEvent(QMouseEvent* e)
{
    m_dragged = -1;
    QWidget::mouseReleaseEvent(e);
}

bool RunTimelineView::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        if (const int marker = markerAt(help->pos()); marker >= 0) {
            const ChaosEvent& c = m_chaos[std::size_t(marker)];
            QToolTip::showText(help->globalPos(), tr("<b>%1</b> at day %2%3<br>drag to move it")
                    .arg(QString::fromLatin1(chaosKindName(c.kind)).replace('_', ' '))
                    .arg(c.atSeconds / units::day, 0, 'f', 3)
                    .arg(c.target.empty() ? QString() : ": " + QString::fromStdString(c.target).toHtmlEscaped()), this);
        } else if (const RunPhase* ph = phaseAt(help->pos())) {
            QString tip = ph->period > 0
                ? tr("<b>%1s</b><br>every %2, %3 each<br>from day %4 to day %5")
                      .arg(phaseName(ph->kind), QString::fromStdString(formatDuration(ph->period)),
                          QString::fromStdString(formatDuration(ph->duration)))
                      .arg(ph->start / units::day, 0, 'f', 3)
                      .arg(ph->end / units::day, 0, 'f', 3)
                : QString("<b>%1</b><br>from day %2 to day %3<br>%4")
                      .arg(phaseName(ph->kind))
                      .arg(ph->start / units::day, 0, 'f', 3)
                      .arg(ph->end / units::day, 0, 'f', 3)
                      .arg(QString::fromStdString(formatDuration(ph->end - ph->start)));
            if (ph->cause >= 0)
                tip += QString("<br>cause: %1").arg(QString::fromLatin1(failureCauseName(FailureCause(ph->cause))).replace('_', ' '));
            QToolTip::showText(help->globalPos(), tip, this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(e);
}


} // namespace dtsim::gui
