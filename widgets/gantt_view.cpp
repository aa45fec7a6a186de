#include "gantt_view.h"

#include "time_axis_input.h"

#include "palette_colors.h"

#include "simcore/units.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>

namespace dtsim::gui {

namespace {
constexpr int kLabelWidth = 170;
constexpr int kAxisHeight = 26;
constexpr int kLegendHeight = 24;
}

namespace {
// A barrier wait is hatched: the replica holds its place but does no work.
QBrush barBrush(TaskKind k, const QColor& color) { return k == TaskKind::BarrierWait ? QBrush(color, Qt::BDiagPattern) : QBrush(color); }
}

QColor taskColor(TaskKind k)
{
    switch (k) {
    case TaskKind::Forward: return QColor(0, 114, 178);
    case TaskKind::Backward: return QColor(230, 159, 0);
    case TaskKind::Recompute: return QColor(204, 121, 167);
    case TaskKind::WeightGrad: return QColor(240, 200, 60);
    case TaskKind::PipelineSend: return QColor(0, 158, 115);
    case TaskKind::LayerCollective: return QColor(192, 57, 43);
    case TaskKind::DataParallel: return QColor(86, 180, 233);
    case TaskKind::Optimizer: return QColor(213, 94, 0);
    case TaskKind::Overhead: return QColor(140, 140, 140);
    case TaskKind::Checkpoint: return QColor(120, 60, 160);
    case TaskKind::Compute: return QColor(0, 114, 178);
    case TaskKind::BarrierWait: return QColor(150, 150, 150); // drawn hatched: idle, but held
    }
    return Qt::gray;
}

GanttView::GanttView(QWidget* parent) : QWidget(parent)
{
    new TimeAxisInput(this, &m_axis, [this] { return TimeAxisInput::PixelSpan { double(kLabelWidth), double(width() - kLabelWidth) }; },
        [this] { fit(); });
    setMouseTracking(true);
    setMinimumHeight(200);
}

void GanttView::setTrace(std::shared_ptr<const Trace> t)
{
    const bool first = !m_trace;
    // A view that showed the whole trace shows the whole new one (a longer step ran off it).
    const bool whole = m_trace && m_axis.start() <= 0 && m_axis.end() >= m_trace->totalTime;
    m_trace = std::move(t);
    layoutLanes();
    // The path comes with the trace (criticalPath, computed on the worker).
    m_critical = m_trace && m_trace->critical.size() == m_trace->events.size() ? m_trace->critical : std::vector<char>(m_trace ? m_trace->events.size() : 0, 0);
    if (m_trace && (first || whole || m_axis.end() > m_trace->totalTime * 1.5 || m_axis.start() >= m_trace->totalTime))
        fit();
    update();
}

void GanttView::layoutLanes()
{
    m_lanes.clear();
    m_kinds.fill(0);
    if (!m_trace)
        return;
    const int rows = int(m_trace->rowNames.size());
    // Lanes that carry anything: compute tall, communication thin.
    std::vector<std::array<std::vector<int>, kStreamCount>> byLane(rows);
    for (int i = 0; i < int(m_trace->events.size()); ++i) {
        const TraceEvent& e = m_trace->events[i];
        if (e.row >= 0 && e.row < rows)
            byLane[e.row][int(e.stream)].push_back(i);
    }
    int y = kAxisHeight;
    for (int r = 0; r < rows; ++r) {
        for (int st = 0; st < kStreamCount; ++st) {
            if (byLane[r][st].empty())
                continue;
            const int h = st == int(Stream::Compute) ? 16 : 7;
            Lane lane { r, Stream(st), y, h, std::move(byLane[r][st]), {}, {}, {} };
            lane.starts.reserve(lane.events.size());
            lane.ends.reserve(lane.events.size());
            lane.kinds.reserve(lane.events.size());
            for (int i : lane.events) {
                const TraceEvent& e = m_trace->events[std::size_t(i)];
                m_kinds[std::size_t(e.kind)] = 1;
                lane.starts.push_back(e.start);
                lane.ends.push_back(e.start + e.duration);
                lane.kinds.push_back(e.kind);
            }
            m_lanes.push_back(std::move(lane));
            y += h + 1;
        }
        y += 4;
    }
    m_contentHeight = y;
    setMinimumHeight(std::min(900, y + kLegendHeight + 10));
}

void GanttView::fit()
{
    m_axis.fit(m_trace && m_trace->totalTime > 0 ? m_trace->totalTime : 1, 1.02);
    update();
}

void GanttView::fitTo(double seconds)
{
    m_axis.fit(seconds > 0 ? seconds : 1, 1.02);
    update();
}

double GanttView::traceLength() const { return m_trace ? m_trace->totalTime : 0.0; }

void GanttView::setShowCriticalPath(bool on)
{
    m_showCritical = on;
    update();
}

void GanttView::zoom(double factor, double around)
{
    if (m_axis.zoom(factor, around))
        update();
}

void GanttView::pan(double seconds)
{
    m_axis.pan(seconds);
    update();
}

double GanttView::timeAt(double x, int width) const
{
    return m_axis.time(x, kLabelWidth, width - kLabelWidth);
}

double GanttView::xAt(double t, int width) const
{
    return m_axis.x(t, kLabelWidth, width - kLabelWidth);
}

void GanttView::paintEvent(QPaintEvent* e)
{
    QPainter p(this);
    paint(p, size(), e->rect());
}

void GanttView::renderTo(QPainter& painter, const QSize& size) { paint(painter, size); }

void GanttView::paint(QPainter& p, const QSize& size, const QRect& exposed)
{
    const int w = size.width();
    p.fillRect(QRect(QPoint(0, 0), size), background());
    m_drawnBars = 0;
    if (!m_trace) {
        p.setPen(foreground());
        p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter, tr("No timeline: the plan is not valid."));
        return;
    }
    // Time axis with "nice" ticks.
    const std::vector<TimeAxis::Tick> ticks = m_axis.labelledTicks(std::max(1, (w - kLabelWidth) / 110));
    p.setPen(gridColor());
    for (const TimeAxis::Tick& tick : ticks) {
        const double x = xAt(tick.t, w);
        p.drawLine(QPointF(x, kAxisHeight - 4), QPointF(x, m_contentHeight));
    }
    p.setPen(foreground());
    for (const TimeAxis::Tick& tick : ticks)
        p.drawText(QPointF(xAt(tick.t, w) + 3, 16), QString::fromStdString(tick.label));

    // Lanes. Bars narrower than a pixel accumulate into one folded block per lane.
    for (const Lane& lane : m_lanes) {
        // In a scroll area only a window of the lanes is exposed: the rest cost nothing.
        if (exposed.isValid() && (lane.y + lane.height < exposed.top() || lane.y > exposed.bottom()))
            continue;
        if (lane.stream == Stream::Compute) {
            p.setPen(foreground());
            p.drawText(QRect(4, lane.y, kLabelWidth - 8, lane.height), Qt::AlignVCenter | Qt::AlignLeft,
                QString::fromStdString(m_trace->rowNames[lane.row]));
        }
        // A folded block takes the colour of the kind that fills most of it, so a fitted
        // view still reads as forward / backward / communication.
        double foldStart = -1, foldEnd = -1;
        std::array<double, 16> foldKinds {};
        auto flushFold = [&] {
            if (foldStart < 0)
                return;
            const auto top = std::max_element(foldKinds.begin(), foldKinds.end()) - foldKinds.begin();
            QColor color = taskColor(TaskKind(top));
            color.setAlpha(200);
            p.fillRect(QRectF(foldStart, lane.y, std::max(1.0, foldEnd - foldStart), lane.height), color);
            ++m_drawnBars;
            foldStart = foldEnd = -1;
            foldKinds.fill(0);
        };
        // First event that may be visible (events in a lane are ordered by start).
        const std::size_t n = lane.events.size();
        const std::size_t first = std::size_t(std::lower_bound(lane.ends.begin(), lane.ends.end(), m_axis.start()) - lane.ends.begin());
        for (std::size_t j = first; j < n; ++j) {
            const double start = lane.starts[j], end = lane.ends[j];
            if (start > m_axis.end())
                break;
            const double x0 = std::max<double>(kLabelWidth, xAt(start, w));
            const double x1 = std::min<double>(w, xAt(end, w));
            const TaskKind kind = lane.kinds[j];
            if (x1 - x0 < 1.0) {
                if (foldStart >= 0 && x0 - foldEnd > 1.0)
                    flushFold();
                if (foldStart < 0)
                    foldStart = x0;
                foldEnd = std::max(foldEnd, x1);
                foldKinds[std::size_t(kind) % foldKinds.size()] += end - start;
                continue;
            }
            flushFold();
            const int event = lane.events[j];
            QColor color = taskColor(kind);
            if (m_showCritical && !m_critical[event])
                color.setAlpha(70);
            p.fillRect(QRectF(x0, lane.y, x1 - x0, lane.height), barBrush(kind, color));
            if (m_showCritical && m_critical[event]) {
                p.setPen(QPen(QColor(192, 57, 43), 2));
                p.drawRect(QRectF(x0, lane.y, x1 - x0, lane.height));
            }
            ++m_drawnBars;
        }
        flushFold();
    }

    // Legend: the kinds this trace has (a replica trace has three).
    int x = 8;
    const int ly = size.height() - kLegendHeight + 6;
    for (TaskKind k : { TaskKind::Forward, TaskKind::Backward, TaskKind::Recompute, TaskKind::WeightGrad, TaskKind::LayerCollective, TaskKind::PipelineSend,
             TaskKind::Compute, TaskKind::BarrierWait, TaskKind::DataParallel, TaskKind::Optimizer, TaskKind::Overhead }) {
        if (!m_kinds[std::size_t(k)])
            continue;
        p.fillRect(QRect(x, ly, 12, 12), barBrush(k, taskColor(k)));
        p.setPen(foreground());
        const QString name = QString::fromUtf8(taskKindName(k));
        p.drawText(QPoint(x + 16, ly + 11), name);
        x += 26 + p.fontMetrics().horizontalAdvance(name);
    }
    // The hint in full where it fits, shorter where not (it ran off a 1366 px window).
    const bool pipeline = m_kinds[std::size_t(TaskKind::Forward)];
    for (const QString& hint : { pipeline ? tr("idle = gaps (pipeline bubble);  W/S zoom, A/D pan, F fit, drag to pan")
                                          : tr("W/S zoom, A/D pan, F fit, drag to pan"),
             pipeline ? tr("idle = bubble;  W/S/A/D, F") : tr("W/S/A/D, F"), QString() })
        if (x + 10 + p.fontMetrics().horizontalAdvance(hint) <= size.width() - 4) {
            p.drawText(QPoint(x + 10, ly + 11), hint);
            break;
        }
}

const TraceEvent* GanttView::eventAt(const QPoint& pt) const
{
    if (!m_trace)
        return nullptr;
    const double t = timeAt(pt.x(), width());
    for (const Lane& lane : m_lanes) {
        if (pt.y() < lane.y || pt.y() >= lane.y + lane.height)
            continue;
        const auto& evs = m_trace->events;
        auto it = std::lower_bound(lane.events.begin(), lane.events.end(), t,
            [&](int i, double v) { return evs[i].start + evs[i].duration < v; });
        if (it != lane.events.end() && evs[*it].start <= t)
            return &evs[*it];
        return nullptr;
    }
    return nullptr;
}

bool GanttView::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        if (const TraceEvent* ev = eventAt(help->pos())) {
            QString text = QString("<b>%1</b>").arg(QString::fromUtf8(taskKindName(ev->kind)));
            if (ev->microbatch >= 0)
                text += tr(", micro-batch %1, chunk %2").arg(ev->microbatch).arg(ev->chunk);
            text += tr("<br>%1<br>start %2, duration %3<br>step %4, %5")
                        .arg(QString::fromStdString(m_trace->rowNames[ev->row]))
                        .arg(QString::fromStdString(formatSeconds(ev->start)), QString::fromStdString(formatSeconds(ev->duration)))
                        .arg(ev->step)
                        .arg(QString::fromUtf8(streamName(ev->stream)));
            if (ev->bytes > 0)
                text += tr(", %1").arg(QString::fromStdString(formatBytes(ev->bytes)));
            QToolTip::showText(help->globalPos(), text, this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(e);
}

void GanttView::keyPressEvent(QKeyEvent* e)
{
    // Zoom, pan and fit are TimeAxisInput's; Esc clears the critical path.
    if (e->key() == Qt::Key_Escape)
        setShowCriticalPath(false);
    else
        QWidget::keyPressEvent(e);
}

} // namespace dtsim::gui
