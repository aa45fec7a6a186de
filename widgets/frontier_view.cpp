#include "frontier_view.h"

#include "palette_colors.h"
#include "plot_style.h"

#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

namespace dtsim::gui {

namespace {

void useLogTicks(QCPAxis* a)
{
    a->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setLogBase(10);
    a->setTicker(ticker);
    a->setNumberFormat("eb");
    a->setNumberPrecision(0);
}

} // namespace

FrontierView::FrontierView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_status = new QLabel(this);
    layout->addWidget(m_status);
    m_plot = new QCustomPlot(this);
    layout->addWidget(m_plot, 1);

    QCPAxisRect* top = m_plot->axisRect();
    useLogTicks(top->axis(QCPAxis::atBottom));
    top->axis(QCPAxis::atLeft)->setLabel(tr("MFU (%)"));
    top->axis(QCPAxis::atLeft)->setRange(0, 70);
    top->axis(QCPAxis::atBottom)->setRange(1e20, 1e32);

    m_degrees = new QCPAxisRect(m_plot);
    m_plot->plotLayout()->addElement(1, 0, m_degrees);
    m_plot->plotLayout()->setRowStretchFactor(0, 2);
    m_plot->plotLayout()->setRowStretchFactor(1, 1);
    useLogTicks(m_degrees->axis(QCPAxis::atBottom));
    useLogTicks(m_degrees->axis(QCPAxis::atLeft));
    m_degrees->axis(QCPAxis::atBottom)->setLabel(tr("training compute (FLOP)"));
    m_degrees->axis(QCPAxis::atLeft)->setLabel(tr("degree"));
    m_degrees->axis(QCPAxis::atBottom)->setRange(1e20, 1e32);
    m_degrees->axis(QCPAxis::atLeft)->setRange(1, 1e6);
    auto* group = new QCPMarginGroup(m_plot);
    top->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    m_degrees->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(QFont(font().family(), 8));
    // Bottom-left of the MFU plot: the emptiest corner (utilization is high at small C).
    top->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignLeft);
    restyle();
}

void FrontierView::restyle()
{
    m_plot->setBackground(background());
    for (QCPAxisRect* r : m_plot->axisRects())
        for (QCPAxis* a : r->axes())
            styleAxis(a);
    m_plot->legend->setBrush(background());
    m_plot->legend->setTextColor(foreground());
    m_plot->legend->setBorderPen(QPen(gridColor()));
}

void FrontierView::showFrontier(const Frontier& realistic, const Frontier& idealized, const QString& title)
{
    m_status->setText(title);
    m_plot->clearGraphs();
    m_plot->clearItems();
    QCPAxisRect* top = m_plot->axisRect(0);
    QCPAxis* x = top->axis(QCPAxis::atBottom);
    QCPAxis* y = top->axis(QCPAxis::atLeft);

    auto addCurve = [&](const Frontier& f, const QString& name, QColor color, Qt::PenStyle style) {
        QCPGraph* g = m_plot->addGraph(x, y);
        g->setName(name);
        g->setPen(QPen(color, 2, style));
        QVector<double> xs, ys;
        for (const FrontierPoint& p : f.points)
            if (p.feasible) {
                xs << p.flop;
                ys << 100 * p.mfu;
            }
        g->setData(xs, ys, true);
        return g;
    };
    addCurve(realistic, tr("realistic"), seriesColor(0), Qt::SolidLine);
    addCurve(idealized, tr("idealized (Epoch's assumptions)"), seriesColor(1), Qt::DashLine);

    // 80% of the best realistic utilization, and where runs stop being feasible.
    auto* eighty = new QCPItemStraightLine(m_plot);
    eighty->setClipAxisRect(top);
    eighty->point1->setAxes(x, y);
    eighty->point2->setAxes(x, y);
    eighty->point1->setCoords(1e20, 80 * realistic.bestMfu);
    eighty->point2->setCoords(1e32, 80 * realistic.bestMfu);
    eighty->setPen(QPen(gridColor().darker(150), 1, Qt::DashDotLine));
    auto* eightyLabel = new QCPItemText(m_plot);
    eightyLabel->setClipAxisRect(top);
    eightyLabel->position->setAxes(x, y);
    eightyLabel->position->setCoords(2e20, 80 * realistic.bestMfu + 2);
    eightyLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    eightyLabel->setText(tr("80% of best"));
    eightyLabel->setColor(foreground());
    if (realistic.maxFlopAny > 0) {
        auto* wall = new QCPItemStraightLine(m_plot);
        wall->setClipAxisRect(top);
        wall->point1->setAxes(x, y);
        wall->point2->setAxes(x, y);
        wall->point1->setCoords(realistic.maxFlopAny, 0);
        wall->point2->setCoords(realistic.maxFlopAny, 100);
        wall->setPen(QPen(QColor(192, 57, 43), 1.5, Qt::DashLine));
        auto* label = new QCPItemText(m_plot);
        label->setClipAxisRect(top);
        label->position->setAxes(x, y);
        label->position->setCoords(realistic.maxFlopAny, 66);
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        label->setText(tr("latency wall "));
        label->setColor(QColor(192, 57, 43));
    }

    // Degrees below.
    QCPAxis* dx = m_degrees->axis(QCPAxis::atBottom);
    QCPAxis* dy = m_degrees->axis(QCPAxis::atLeft);
    const char* names[] = { "TP", "PP", "DP", "GPUs" };
    double maxDegree = 8;
    for (int k = 0; k < 4; ++k) {
        QCPGraph* g = m_plot->addGraph(dx, dy);
        g->setName(names[k]);
        g->setPen(QPen(seriesColor(k + 2), k == 3 ? 1 : 2, k == 3 ? Qt::DotLine : Qt::SolidLine));
        QVector<double> xs, ys;
        for (const FrontierPoint& p : realistic.points) {
            if (!p.feasible)
                continue;
            const double v = k == 0 ? p.tp : k == 1 ? p.pp : k == 2 ? p.dp : double(p.gpus);
            xs << p.flop;
            ys << v;
            maxDegree = std::max(maxDegree, v);
        }
        g->setData(xs, ys, true);
    }
    dy->setRange(1, maxDegree * 2);
    restyle();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void FrontierView::markScenario(double trainingFlop, double mfu, bool valid)
{
    // A dedicated graph holds the single "you are here" point.
    QCPGraph* mark = nullptr;
    for (int i = 0; i < m_plot->graphCount(); ++i)
        if (m_plot->graph(i)->name() == tr("this scenario"))
            mark = m_plot->graph(i);
    if (!mark) {
        mark = m_plot->addGraph(m_plot->axisRect(0)->axis(QCPAxis::atBottom), m_plot->axisRect(0)->axis(QCPAxis::atLeft));
        mark->setName(tr("this scenario"));
        mark->setLineStyle(QCPGraph::lsNone);
        mark->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QColor(192, 57, 43), QColor(192, 57, 43), 11));
    }
    mark->data()->clear();
    if (valid && trainingFlop > 0)
        mark->addData(trainingFlop, 100 * mfu);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void FrontierView::setBusy(bool busy)
{
    const QString suffix = tr(" (updating...)");
    QString text = m_status->text();
    if (text.endsWith(suffix))
        text.chop(suffix.size());
    m_status->setText(busy ? text + suffix : text);
}

QString FrontierView::status() const { return m_status->text(); }

int FrontierView::pointCount() const
{
    return m_plot->graphCount() > 0 ? m_plot->graph(0)->dataCount() : 0;
}

} // namespace dtsim::gui
