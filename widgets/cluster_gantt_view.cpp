#include "cluster_gantt_view.h"

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

// A tick step of 1, 2, 6 or 12 hours, or 1, 2, 5, 10 ... days, giving about `count` ticks.
double tickStep(double span, int count)
{
    static const double steps[] = { 600, 1800, 3600, 2 * 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400, 5 * 86400,
        10 * 86400, 20 * 86400, 50 * 86400, 100 * 86400 };
    for (double s : steps)
        if (span / s <= count)
            return s;
    return steps[std::size(steps) - 1];
}

QString tickLabel(double t, double step)
{
    if (step >= 86400)
        return QString("day %1").arg(t / 86400, 0, 'f', 0);
    if (step >= 3600)
        return QString("%1 h").arg(t / 3600, 0, 'f', 0);
    return QString("%1 min").arg(t / 60, 0, 'f', 0);
}

} // namespace

ClusterGanttView::ClusterGanttView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus); // W/S/A/D/F, as in the other timelines
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
    const double step = tickStep(m_axis.span(), std::max(2, int(a.width() / 90)));
    p.setPen(fg);
    for (double t : m_axis.ticks(step)) {
        const double x = xAt(t, a);
        p.drawLine(QPointF(x, a.bottom()), QPointF(x, a.bottom() + 4));
        p.drawText(QRectF(x - 45, a.bottom() + 5, 90, kBottom - 5), Qt::AlignHCenter | Qt::AlignTop, tickLabel(t, step));
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

void ClusterGanttView::wheelEvent(QWheelEvent* e)
{
    const QRectF a = plotArea();
    m_axis.wheel(e->angleDelta().y() / 120.0, e->position().x(), a.left(), a.width());
    update();
    e->accept();
}

void ClusterGanttView::mousePressEvent(QMouseEvent* e)
{
    if (e->button() == Qt::LeftButton) {
        m_dragging = true;
        m_dragFrom = e->pos();
        m_dragT0 = m_axis.start();
    }
}

void ClusterGanttView::mouseMoveEvent(QMouseEvent* e)
{
    if (!m_dragging)
        return;
    m_axis.drag(m_dragT0, e->pos().x() - m_dragFrom.x(), plotArea().width());
    update();
}

void ClusterGanttView::mouseReleaseEvent(QMouseEvent*) { m_dragging = false; }
void ClusterGanttView::mouseDoubleClickEvent(QMouseEvent*) { fit(); }

void ClusterGanttView::keyPressEvent(QKeyEvent* e)
{
    if (m_axis.key(e->key()))
        update();
    else if (e->key() == Qt::Key_F)
        fit();
    else
        QWidget::keyPressEvent(e);
}

} // namespace dtsim::gui
