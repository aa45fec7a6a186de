#include "cluster_gantt_view.h"

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
#include <cmath>

namespace dtsim::gui {

namespace {

constexpr double kLeft = 58, kRight = 10, kTop = 6, kBottom = 26;

} // namespace

ClusterGanttView::ClusterGanttView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    new TimeAxisInput(this, &m_axis, [this] { const QRectF a = plotArea(); return TimeAxisInput::PixelSpan { a.left(), a.width() }; },
        [this] { fit(); });
    setMinimumSize(280, 160);
    setAccessibleName(tr("Cluster Gantt chart"));
}

void ClusterGanttView::setResult(const ClusterResult* r, double end)
{
    if (end <= 0)
        end = r && r->makespan > 0 ? r->makespan : 1;
    const bool sameSpan = end == m_end;
    m_result = r;
    m_end = end;
    if (!sameSpan)
        fit();
    update();
}

void ClusterGanttView::fit()
{
    // The schedule's own span: no zooming out past it, or in below a minute.
    m_axis.setLimits(60.0, m_end, true);
    m_axis.fit(m_end);
    update();
}

QRectF ClusterGanttView::plotArea() const
{
    return QRectF(kLeft, kTop, std::max(10.0, width() - kLeft - kRight), std::max(10.0, height() - kTop - kBottom));
}

double ClusterGanttView::xAt(double t, const QRectF& a) const { return m_axis.x(t, a.left(), a.width()); }
double ClusterGanttView::timeAt(double x, const QRectF& a) const { return m_axis.time(x, a.left(), a.width()); }

QColor ClusterGanttView::jobColor(int job) const
{
    // The project's colour, a shade per job so neighbours stay apart.
    const QColor base = seriesColor(m_result->jobs[job].spec.project);
    static const int shades[] = { 100, 125, 85, 112, 92 };
    const int shade = shades[(job * 7) % 5];
    return shade >= 100 ? base.lighter(shade) : base.darker(200 - shade);
}

void ClusterGanttView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), background());
    const QRectF a = plotArea();
    if (!m_result || m_result->nodes <= 0) {
        p.setPen(foreground());
        p.drawText(rect(), Qt::AlignCenter, tr("No cluster simulation"));
        return;
    }
    const double rowHeight = a.height() / m_result->nodes;
    p.save();
    p.setClipRect(a);
    for (const Allocation& al : m_result->allocations) {
        if (al.end < m_axis.start() || al.start > m_axis.end() || al.nodes.empty())
            continue;
        const double x0 = std::max(a.left(), xAt(al.start, a)), x1 = std::min(a.right(), xAt(al.end, a));
        const double w = std::max(1.0, x1 - x0); // a sub-pixel span still shows as one pixel
        const QColor c = jobColor(al.job);
        const bool outline = w > 4 && rowHeight * al.nodes.size() > 3;
        // Consecutive nodes form one block.
        std::size_t i = 0;
        while (i < al.nodes.size()) {
            std::size_t j = i + 1;
            while (j < al.nodes.size() && al.nodes[j] == al.nodes[j - 1] + 1)
                ++j;
            const QRectF block(x0, a.top() + al.nodes[i] * rowHeight, w, std::max(1.0, (j - i) * rowHeight));
            p.fillRect(block, c);
            if (outline) {
                p.setPen(QPen(c.darker(150), 0));
                p.drawRect(block);
            }
            i = j;
        }
    }
    p.restore();
    paintAxes(p, a);
}

void ClusterGanttView::paintAxes(QPainter& p, const QRectF& a) const
{
    const QColor fg = foreground();
    p.setPen(QPen(fg, 0));
    p.drawRect(a);
    // Pods: a rule between them and a label on the left.
    const int pods = (m_result->nodes + m_result->nodesPerPod - 1) / std::max(1, m_result->nodesPerPod);
    const double rowHeight = a.height() / m_result->nodes;
    const QFontMetrics fm(font());
    const int labelEvery = std::max(1, int(std::ceil(fm.height() / (m_result->nodesPerPod * rowHeight))));
    for (int pod = 0; pod < pods; ++pod) {
        const double y0 = a.top() + pod * m_result->nodesPerPod * rowHeight;
        const double y1 = std::min(a.bottom(), y0 + m_result->nodesPerPod * rowHeight);
        if (pod > 0) {
            p.setPen(QPen(fg, 1.2, Qt::DashLine));
            p.drawLine(QPointF(a.left(), y0), QPointF(a.right(), y0));
        }
        if (pod % labelEvery == 0) {
            p.setPen(fg);
            p.drawText(QRectF(0, y0, kLeft - 6, std::max<double>(fm.height(), y1 - y0)), Qt::AlignRight | Qt::AlignVCenter,
                pods > 1 ? tr("pod %1").arg(pod + 1) : tr("%1 nodes").arg(m_result->nodes));
        }
    }
    // Time ticks.
    p.setPen(fg);
    for (const TimeAxis::Tick& tick : m_axis.labelledTicks(std::max(2, int(a.width() / 90)))) {
        const double x = xAt(tick.t, a);
        p.drawLine(QPointF(x, a.bottom()), QPointF(x, a.bottom() + 4));
        p.drawText(QRectF(x - 45, a.bottom() + 5, 90, kBottom - 5), Qt::AlignHCenter | Qt::AlignTop, QString::fromStdString(tick.label));
    }
}

const Allocation* ClusterGanttView::allocationAt(const QPoint& pos) const
{
    if (!m_result || m_result->nodes <= 0)
        return nullptr;
    const QRectF a = plotArea();
    if (!a.contains(pos))
        return nullptr;
    const double t = timeAt(pos.x(), a);
    const int node = int((pos.y() - a.top()) / (a.height() / m_result->nodes));
    const double slack = m_axis.span() / a.width(); // one pixel
    for (const Allocation& al : m_result->allocations)
        if (t >= al.start - slack && t <= al.end + slack && std::binary_search(al.nodes.begin(), al.nodes.end(), node))
            return &al;
    return nullptr;
}

bool ClusterGanttView::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(e);
        if (const Allocation* al = allocationAt(help->pos())) {
            const SchedJob& j = m_result->jobs[al->job];
            QString text = tr("<b>%1</b> (%2)<br>%3 GPUs on %4 nodes, %5 to %6<br>requested %7 GPUs, arrived %8")
                               .arg(QString::fromStdString(j.spec.id), QString::fromStdString(m_result->projects[j.spec.project].name))
                               .arg(al->nodes.size() * (m_result->totalGpus / std::max(1, m_result->nodes))).arg(al->nodes.size())
                               .arg(QString::fromStdString(formatDuration(al->start)), QString::fromStdString(formatDuration(al->end)))
                               .arg(j.spec.gpus).arg(QString::fromStdString(formatDuration(j.spec.arrival)));
            if (j.preemptions > 0 || j.failures > 0)
                text += tr("<br>%1 preemptions, %2 failures").arg(j.preemptions).arg(j.failures);
            QToolTip::showText(help->globalPos(), text, this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(e);
}


} // namespace dtsim::gui
