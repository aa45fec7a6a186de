#include "scaling_tab.h"

#include "plot_style.h"

#include "evaluator.h"
#include "palette_colors.h"

#include <QVBoxLayout>
#include <algorithm>
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
    // The marks' labels are placed in pixels, which are known only once laid out.
    connect(m_plot, &QCustomPlot::afterLayout, this, &ScalingTab::placeMarkLabels);
}

void ScalingTab::follow(const TabInput& in, TabMoment when)
{
    followPinned(in.pinned);
    if (when != TabMoment::Pause || !in.valid)
        return;
    m_currentGpus = in.valid->cluster.gpus;
    m_targetLoss = in.valid->training.target == TrainingTarget::Loss ? in.valid->training.targetLoss : 0.0;
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
    m_markLabels.clear();
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
    // A loss target's time is the time to reach that loss: its tokens change with the batch.
    const QString time = m_targetLoss > 0 ? tr("time to loss %1").arg(m_targetLoss, 0, 'g', 3) : tr("time");
    m_plot->yAxis->setLabel(m_targetLoss > 0 ? tr("time to loss %1 (days)").arg(m_targetLoss, 0, 'g', 3) : tr("time to train (days)"));
    add(c.fixedBatch, tr("%1, fixed batch").arg(time), 0, false);
    add(c.growingBatch, tr("%1, growing batch").arg(time), 1, false);
    add(c.fixedBatch, tr("efficiency, fixed batch"), 0, true);
    add(c.growingBatch, tr("efficiency, growing batch"), 1, true);
    if (xmax >= xmin)
        m_plot->xAxis->setRange(xmin / 1.5, xmax * 1.5);
    if (ymax > 0)
        m_plot->yAxis->setRange(ymin / 2, ymax * 2);

    std::vector<Mark> marks;
    if (c.syncWallGpus > 0)
        marks.push_back({ double(c.syncWallGpus), tr("sync wall"), errorColor() });
    if (c.turnaroundGpus > 0)
        marks.push_back({ double(c.turnaroundGpus), tr("turnaround: more GPUs take longer"), seriesColor(3) });
    if (currentGpus > 0)
        marks.push_back({ double(currentGpus), tr("this scenario"), foreground() });
    drawMarks(std::move(marks));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ScalingTab::drawMarks(std::vector<Mark> marks)
{
    std::stable_sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) { return a.x < b.x; });
    m_markLabels.clear();
    for (const Mark& m : marks) {
        auto* line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(m.x, 1e-9);
        line->point2->setCoords(m.x, 1e9);
        line->setPen(QPen(m.color, 1.5, Qt::DashLine));
        auto* label = addPlotText(m_plot);
        label->setPadding(QMargins(4, 0, 4, 0));
        label->setText(m.text);
        label->setColor(m.color);
        label->setBrush(background());
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        m_markLabels.push_back({ m.x, label });
    }
    placeMarkLabels();
}

void ScalingTab::placeMarkLabels()
{
    // At every layout, with the plot's pixels as they now are. Each label sits on the
    // outer side of its line (the leftmost line's to the left), in the highest row where it
    // stays inside the plot and off the labels placed so far, and where it can, off the
    // other lines too. Its background covers a line it crosses.
    const QRect area = m_plot->axisRect()->rect();
    struct Span {
        int row;
        double from, to;
    };
    std::vector<Span> taken;
    const std::size_t n = m_markLabels.size();
    auto pixel = [this](std::size_t i) { return m_plot->xAxis->coordToPixel(m_markLabels[i].first); };
    auto place = [&](std::size_t i, double width, bool avoidLines) -> std::optional<Span> {
        const bool preferLeft = n > 1 && i == 0;
        for (int row = 0; row <= int(n); ++row)
            for (bool left : { preferLeft, !preferLeft }) {
                const Span s { row, left ? pixel(i) - width : pixel(i), left ? pixel(i) : pixel(i) + width };
                if (s.from < area.left() || s.to > area.right())
                    continue;
                if (std::any_of(taken.begin(), taken.end(), [&](const Span& t) { return t.row == row && s.from < t.to && s.to > t.from; }))
                    continue;
                bool crosses = false;
                for (std::size_t j = 0; j < n; ++j)
                    crosses = crosses || (j != i && pixel(j) > s.from + 1 && pixel(j) < s.to - 1);
                if (!avoidLines || !crosses)
                    return s;
            }
        return std::nullopt;
    };
    for (std::size_t i = 0; i < n; ++i) {
        QCPItemText* label = m_markLabels[i].second;
        const QFontMetrics fm(label->font());
        const double width = fm.horizontalAdvance(label->text()) + 8;
        std::optional<Span> s = place(i, width, true);
        if (!s)
            s = place(i, width, false);
        if (!s) // wider than the plot: from the line, where the plot's edge cuts it
            s = Span { int(taken.size()), pixel(i), pixel(i) + width };
        taken.push_back(*s);
        const bool leftward = s->to <= pixel(i) + 0.5;
        label->position->setCoords(m_markLabels[i].first, area.height() > 0 ? (2.0 + s->row * (fm.height() + 2)) / area.height() : 0);
        label->setPositionAlignment((leftward ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    }
}

} // namespace dtsim::gui
