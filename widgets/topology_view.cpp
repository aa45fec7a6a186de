#include "topology_view.h"

#include "palette_colors.h"

#include "simcore/units.h"

#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QMouseEvent>

#include <cmath>

namespace dtsim::gui {

QColor heatColor(double u)
{
    const double t = std::clamp(u, 0.0, 1.0);
    // 0 -> green (120 deg), 0.5 -> yellow (60), 1 -> red (0).
    return QColor::fromHsvF((1.0 - t) * 120.0 / 360.0, 0.75, 0.9);
}

namespace {

QString count(long long n) { return QLocale().toString(n); }

struct LevelBox {
    QString title;  // "node", "leaf (rail)" ...
    QString detail; // properties
    long long units = 1; // how many of it in the cluster
    QString link;   // the link above it
    int level = 0;  // report level whose uplink this box shows (-1: none)
};

} // namespace

TopologyView::TopologyView(QWidget* parent) : QGraphicsView(parent)
{
    setScene(new QGraphicsScene(this));
    setRenderHint(QPainter::Antialiasing);
    setAlignment(Qt::AlignHCenter | Qt::AlignTop);
}

void TopologyView::showTopology(const Scenario& s, const StepReport* report, int overlay)
{
    m_scenario = s;
    m_haveReport = report != nullptr;
    if (report)
        m_report = *report;
    m_overlay = overlay;
    redraw();
}

void TopologyView::selectLevel(int level)
{
    m_selected = level;
    redraw();
}

void TopologyView::redraw()
{
    QGraphicsScene* sc = scene();
    sc->clear();
    const ClusterSpec& c = m_scenario.cluster;
    const long long gpus = std::max(1LL, c.gpus);

    // Bottom-up list of boxes; each box's "link" is the connection above it.
    std::vector<LevelBox> boxes;
    boxes.push_back({ tr("GPU"), QString::fromStdString(m_scenario.hardware.name), gpus,
        tr("scale-up %1 per GPU, %2%3").arg(QString::fromStdString(formatRate(c.scaleUpBandwidth)),
            QString::fromStdString(formatSeconds(c.scaleUpLatency)), c.scaleUpInNetworkReduction ? tr(", in-switch reduction") : QString()),
        0 });
    const long long domains = (gpus + c.scaleUpDomain - 1) / c.scaleUpDomain;
    boxes.push_back({ tr("scale-up domain"), tr("%1 GPUs, %2 per node").arg(c.scaleUpDomain).arg(c.gpusPerNode), domains,
        // In bits, as NICs are sold and as the editor asks for them (it read "50 GB/s"
        // here and "400 Gb/s" beside it).
        tr("NIC %1 Gb/s per GPU, %2").arg(c.scaleOutBandwidth * 8 / 1e9, 0, 'g', 4).arg(QString::fromStdString(formatSeconds(c.scaleOutLatency))),
        1 });
    for (int i = 0; i < c.tierCount; ++i) {
        const NetworkTier& t = c.tiers[i];
        const long long units = (gpus + t.spanGpus - 1) / t.spanGpus;
        QString name = t.label().empty() ? tr("tier %1").arg(i) : QString::fromUtf8(t.label().data(), int(t.label().size()));
        QString detail = tr("%1 GPUs each").arg(count(t.spanGpus));
        if (t.railOptimized)
            detail += tr(", rail-optimized");
        QString link = t.uplinkBandwidth > 0 ? tr("uplink %1 total").arg(QString::fromStdString(formatRate(t.uplinkBandwidth)))
                                             : tr("uplinks %1:1 oversubscribed").arg(t.oversubscription, 0, 'g', 3);
        if (t.latency > 0) // "+0 s" said nothing
            link += tr(", +%1 latency").arg(QString::fromStdString(formatSeconds(t.latency)));
        if (t.inNetworkReduction)
            link += tr(", SHARP");
        boxes.push_back({ name, detail, units, link, 2 + i });
    }

    // Which levels the overlay group's traffic reaches.
    int reach = -1;
    if (m_haveReport && m_overlay >= 0 && m_overlay < kCommGroupCount && m_report.comm[m_overlay].bytesPerGpu > 0) {
        const GroupSpan& g = m_report.comm[m_overlay].span;
        reach = g.domains > 1 ? 1 + (g.outermostTier + 1) : 0;
    }

    const double width = 460, height = 54, gap = 46;
    const int n = int(boxes.size());
    const QColor fg = foreground();
    QFont bold = font();
    bold.setBold(true);
    for (int k = 0; k < n; ++k) {
        const LevelBox& b = boxes[k];
        const double y = (n - 1 - k) * (height + gap);
        // The box; stacked shadows suggest the repetition.
        if (b.units > 1)
            for (int sh = 2; sh >= 1; --sh)
                sc->addRect(QRectF(sh * 5, y - sh * 5, width, height), QPen(gridColor()), QBrush(background().darker(102 + 3 * sh)));
        auto* rect = sc->addRect(QRectF(0, y, width, height), QPen(k == m_selected ? QColor(36, 113, 163) : fg, k == m_selected ? 2.5 : 1),
            QBrush(background()));
        rect->setData(0, k);
        auto* title = sc->addSimpleText(QString("%1 x %2").arg(count(b.units), b.title), bold);
        title->setBrush(fg);
        title->setPos(10, y + 6);
        title->setData(0, k);
        auto* detail = sc->addSimpleText(b.detail);
        detail->setBrush(fg);
        detail->setPos(10, y + 28);
        detail->setData(0, k);

        // The link above: heat-coloured by its utilization, outlined when the overlay reaches it.
        if (k < n) {
            const double ly = y - gap;
            double util = 0;
            if (m_haveReport && b.level < m_report.levelCount)
                util = m_report.levels[b.level].utilization;
            const bool top = k == n - 1;
            if (top && c.tierCount == 0 && k == 1) {
                // No tiers: the NICs meet one non-blocking fabric.
            }
            const QColor heat = m_haveReport ? heatColor(util) : gridColor();
            auto* link = sc->addRect(QRectF(width / 2 - 14, ly + (top ? gap * 0.35 : 0), 28, top ? gap * 0.65 : gap),
                QPen(Qt::NoPen), QBrush(heat));
            link->setData(0, k);
            if (reach >= b.level && reach >= 0) {
                auto* mark = sc->addRect(link->rect().adjusted(-5, -2, 5, 2), QPen(QColor(36, 113, 163), 3));
                mark->setData(0, k);
            }
            auto* label = sc->addSimpleText(b.link + (m_haveReport ? tr("   %1% busy").arg(100 * util, 0, 'f', 1) : QString()));
            label->setBrush(fg);
            label->setPos(width / 2 + 24, ly + gap / 2 - 8);
            label->setData(0, k);
        }
    }
    // Two lines: on one, "Click a level to edit it" lay beyond a laptop's view.
    auto* legend = sc->addSimpleText(tr("Link colour: utilization over a step (green idle, red saturated).\n"
                                         "Blue outline: where the chosen group's traffic flows.   Click a level to edit it."));
    legend->setBrush(fg);
    legend->setPos(0, n * (height + gap) - gap + 14);
    if (c.tierCount == 0) {
        auto* note = sc->addSimpleText(tr("One non-blocking network above the NICs (no tiers)."));
        note->setBrush(fg);
        note->setPos(0, -(height + gap) - 20);
    }
    // A margin around the drawing, no more: 260 px of empty space on the right put the
    // drawing under a horizontal scroll bar on a laptop.
    sc->setSceneRect(sc->itemsBoundingRect().adjusted(-20, -20, 20, 20));
}

void TopologyView::mousePressEvent(QMouseEvent* e)
{
    if (QGraphicsItem* item = itemAt(e->pos()); item && item->data(0).isValid()) {
        m_selected = item->data(0).toInt();
        redraw();
        emit levelClicked(m_selected);
    }
    QGraphicsView::mousePressEvent(e);
}

void TopologyView::resizeEvent(QResizeEvent* e)
{
    QGraphicsView::resizeEvent(e);
}

} // namespace dtsim::gui
