#include "scaling_tab.h"

#include "plot_style.h"

#include "evaluator.h"
#include "palette_colors.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

namespace dtsim::gui {

ScalingTab::ScalingTab(Evaluator* evaluator, QWidget* parent)
    : QWidget(parent)
    , m_evaluator(evaluator)
{
    connect(m_evaluator, &Evaluator::scalingReady, this, [this](const ScalingCurves& c) { showCurves(c, m_currentGpus); });
    connect(m_evaluator, &Evaluator::pinnedScalingReady, this, [this](const ScalingCurves& c) {
        m_pinned = c;
        showCurves(m_shown, m_currentGpus);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    layout->addWidget(m_plot);
    QSharedPointer<QCPAxisTickerLog> logTicker(new QCPAxisTickerLog);
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->xAxis->setTicker(logTicker);
    m_plot->xAxis->setLabel(tr("GPUs"));
    m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    m_plot->yAxis->setLabel(tr("time to train (days)"));
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setLabel(tr("efficiency (%)"));
    m_plot->yAxis2->setRange(0, 110);
    m_plot->legend->setFont(QFont(font().family(), 8));
    putLegendAbovePlots(m_plot);
}

void ScalingTab::follow(const TabInput& in, TabMoment when)
{
    followPinned(in.pinned);
    if (when != TabMoment::Pause || !in.valid)
        return;
    m_currentGpus = in.valid->cluster.gpus;
    m_evaluator->requestScaling(*in.valid);
}

void ScalingTab::followPinned(const Scenario* a)
{
    if (a ? m_pinnedScenario == *a : !m_pinnedScenario)
        return;
    m_pinnedScenario = a ? std::optional(*a) : std::nullopt;
    m_pinned.reset();
    if (a)
        m_evaluator->requestPinnedScaling(*a);
    else
        showCurves(m_shown, m_currentGpus);
}

void ScalingTab::showCurves(const ScalingCurves& c, long long currentGpus)
{
    m_shown = c;
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_plot->setBackground(background());
    for (QCPAxis* a : m_plot->axisRect()->axes()) {
        a->setBasePen(QPen(foreground()));
        a->setTickLabelColor(foreground());
        a->setLabelColor(foreground());
        a->setTickPen(QPen(foreground()));
        a->grid()->setPen(QPen(gridColor(), 1, Qt::DotLine));
    }
    m_plot->legend->setBrush(background());
    m_plot->legend->setTextColor(foreground());

    double xmin = 1e30, xmax = 1, ymin = 1e30, ymax = 0;
    auto add = [&](const std::vector<ScalingPoint>& pts, const QString& name, int color, bool efficiency) {
        QCPGraph* g = m_plot->addGraph(m_plot->xAxis, efficiency ? m_plot->yAxis2 : m_plot->yAxis);
        g->setName(name);
        const QColor grey = color == -1 ? QColor(150, 150, 150) : QColor(190, 190, 190);
        g->setPen(color < 0 ? QPen(grey, 2, color == -1 ? Qt::SolidLine : Qt::DotLine)
                            : QPen(seriesColor(color), efficiency ? 1 : 2, efficiency ? Qt::DashLine : Qt::SolidLine));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
        for (const ScalingPoint& p : pts) {
            const double y = efficiency ? 100 * p.efficiency : p.timeToTrain / 86400.0;
            g->addData(double(p.gpus), y);
            xmin = std::min(xmin, double(p.gpus));
            xmax = std::max(xmax, double(p.gpus));
            if (!efficiency) {
                ymin = std::min(ymin, y);
                ymax = std::max(ymax, y);
            }
        }
    };
    if (m_pinned) { // A under B, in grey
        add(m_pinned->fixedBatch, tr("A: time, fixed batch"), -1, false);
        add(m_pinned->growingBatch, tr("A: time, growing batch"), -2, false);
    }
    add(c.fixedBatch, tr("time, fixed batch"), 0, false);
    add(c.growingBatch, tr("time, growing batch"), 1, false);
    add(c.fixedBatch, tr("efficiency, fixed batch"), 0, true);
    add(c.growingBatch, tr("efficiency, growing batch"), 1, true);
    if (xmax >= xmin)
        m_plot->xAxis->setRange(xmin / 1.5, xmax * 1.5);
    if (ymax > 0)
        m_plot->yAxis->setRange(ymin / 2, ymax * 2);

    // Each label sits on the outer side of its line (the left line's to the left), so two
    // lines a doubling apart keep their labels apart; a label the plot's edge would cut
    // goes inside, a row lower, and a label that would still touch the other drops a row.
    struct Mark {
        double x;
        QString text;
        QColor color;
    };
    std::vector<Mark> marks;
    if (c.syncWallGpus > 0)
        marks.push_back({ double(c.syncWallGpus), tr("sync wall"), QColor(192, 57, 43) });
    if (currentGpus > 0)
        marks.push_back({ double(currentGpus), tr("this scenario"), foreground() });
    std::stable_sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) { return a.x < b.x; });
    const QRect area = m_plot->axisRect()->rect();
    std::vector<std::pair<double, double>> taken; // pixel spans [left, right] per row
    std::vector<int> rowOf;
    for (std::size_t i = 0; i < marks.size(); ++i) {
        const Mark& m = marks[i];
        auto* line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(m.x, 1e-9);
        line->point2->setCoords(m.x, 1e9);
        line->setPen(QPen(m.color, 1.5, Qt::DashLine));
        auto* label = addPlotText(m_plot);
        label->setPadding(QMargins(4, 0, 4, 0));
        label->setText(m.text);
        label->setColor(m.color);
        const QFontMetrics fm(label->font());
        const double width = fm.horizontalAdvance(m.text) + 8, px = m_plot->xAxis->coordToPixel(m.x);
        bool leftward = marks.size() > 1 && i == 0;
        int row = 0;
        if (leftward && px - width < area.left()) {
            leftward = false;
            row = 1;
        } else if (!leftward && px + width > area.right()) {
            leftward = true;
            row = 1;
        }
        const double from = leftward ? px - width : px, to = leftward ? px : px + width;
        if (i > 0 && rowOf.back() == row && from < taken.back().second && to > taken.back().first)
            ++row;
        taken.push_back({ from, to });
        rowOf.push_back(row);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(m.x, area.height() > 0 ? (2.0 + row * (fm.height() + 2)) / area.height() : 0);
        label->setPositionAlignment((leftward ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace dtsim::gui
