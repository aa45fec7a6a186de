#include "frontier_view.h"

#include "palette_colors.h"
#include "plot_style.h"

#include "simcore/units.h"

#include <QLabel>
#include <QMouseEvent>
#include <QToolTip>
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
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_plot = new QCustomPlot(this);
    layout->addWidget(m_plot, 1);

    QCPAxisRect* top = m_plot->axisRect();
    useLogTicks(top->axis(QCPAxis::atBottom));
    top->axis(QCPAxis::atLeft)->setLabel(tr("MFU (%)"));
    top->axis(QCPAxis::atLeft)->setRange(0, 70);
    top->axis(QCPAxis::atBottom)->setRange(1e20, 1e32);

    m_degrees = new QCPAxisRect(m_plot);
    m_plot->plotLayout()->addElement(1, 0, m_degrees); // row 0 once the legend's row is inserted above
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
    m_plot->legend->setFont(QFont(font().family(), 8));
    putLegendAbovePlots(m_plot);
    restyle();
    // Every point says what it is: the plan, the cluster, the days and the bill.
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const QString text = pointTip(e->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(e->globalPosition().toPoint(), text, m_plot);
    });
}

QString FrontierView::pointTip(const QPoint& at) const
{
    const FrontierPoint* best = nullptr;
    QString which;
    double bestDistance = 12; // pixels
    const QCPAxisRect* top = m_plot->axisRect(0);
    const QCPAxis* x = top->axis(QCPAxis::atBottom);
    const QCPAxis* y = top->axis(QCPAxis::atLeft);
    for (const auto& [curve, name] : { std::pair { &m_realistic, tr("realistic") }, std::pair { &m_idealized, tr("idealized") } })
        for (const FrontierPoint& p : curve->points) {
            if (!p.feasible)
                continue;
            const double d = std::hypot(x->coordToPixel(p.flop) - at.x(), y->coordToPixel(100 * p.mfu) - at.y());
            if (d < bestDistance) {
                bestDistance = d;
                best = &p;
                which = name;
            }
        }
    for (const FrontierAnchor& a : m_anchors) {
        const double d = std::hypot(x->coordToPixel(a.flop) - at.x(), y->coordToPixel(anchorMfu(a)) - at.y());
        if (d < bestDistance) {
            QString text = tr("<b>Epoch AI</b>, %1 months: %2, %3 FLOP").arg(a.months).arg(QString::fromUtf8(anchorReadingText(a.reading)))
                               .arg(a.flop, 0, 'e', 0);
            if (a.gpus > 0)
                text += tr("<br>%1 GPUs").arg(QString::fromStdString(formatCount(a.gpus)));
            if (a.costUsd > 0)
                text += tr(", about $%1").arg(QString::fromStdString(formatCount(a.costUsd)));
            if (!a.plan.empty())
                text += tr("<br>%1").arg(QString::fromStdString(a.plan));
            return text + tr("<br><i>%1</i>").arg(QString::fromStdString(a.source).toHtmlEscaped());
        }
    }
    if (!best)
        return {};
    return tr("<b>%1</b>: %2 FLOP at %3% MFU<br>%4 parameters (%5 layers, hidden %6)<br>"
              "%7 GPUs: TP %8 x PP %9 x DP %10<br>%11, GPUs bought at launch price %12")
        .arg(which).arg(best->flop, 0, 'e', 2).arg(100 * best->mfu, 0, 'f', 1)
        .arg(QString::fromStdString(formatCount(best->parameters))).arg(best->layers).arg(best->hidden)
        .arg(QString::fromStdString(formatCount(double(best->gpus)))).arg(best->tp).arg(best->pp).arg(best->dp)
        .arg(QString::fromStdString(formatDuration(best->days * units::day)))
        .arg(best->costUsd > 0 ? "$" + QString::fromStdString(formatCount(best->costUsd)) : tr("unknown"));
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

double FrontierView::anchorMfu(const FrontierAnchor& a) const
{
    // An 80% reading sits on the idealized curve's 80% line (Epoch's assumptions); a
    // wall has no utilization to speak of, so it stands just above the axis.
    return a.reading == FrontierAnchor::Reading::At80 ? 80 * m_idealized.bestMfu : 4.0;
}

void FrontierView::showFrontier(const Frontier& realistic, const Frontier& idealized, const QString& title,
    const std::vector<FrontierAnchor>& anchors)
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

    // Each curve's own readings, in its colour: 80% of its best utilization (and the
    // largest run above it), and its latency wall (where runs stop being feasible).
    auto line = [&](double x1, double y1, double x2, double y2, QPen pen) {
        auto* l = new QCPItemStraightLine(m_plot);
        l->setClipAxisRect(top);
        l->point1->setAxes(x, y);
        l->point2->setAxes(x, y);
        l->point1->setCoords(x1, y1);
        l->point2->setCoords(x2, y2);
        l->setPen(pen);
    };
    auto label = [&](double at, double mfu, Qt::Alignment align, const QString& text, QColor color) {
        auto* t = addPlotText(m_plot);
        t->setClipAxisRect(top);
        t->position->setAxes(x, y);
        t->position->setCoords(at, mfu);
        t->setPositionAlignment(align);
        t->setPadding(QMargins(3, 1, 3, 1));
        t->setText(text);
        t->setColor(color);
    };
    int k = 0;
    for (const auto& [f, name] : { std::pair { &realistic, tr("realistic") }, std::pair { &idealized, tr("idealized") } }) {
        const QColor color = seriesColor(k);
        const double eighty = 80 * f->bestMfu;
        line(1e20, eighty, 1e32, eighty, QPen(color, 1, Qt::DashDotLine));
        label(2e20, eighty, Qt::AlignLeft | (k == 0 ? Qt::AlignTop : Qt::AlignBottom), tr("80% of best, %1").arg(name), color);
        if (f->maxFlopAt80 > 0) { // a tick where the curve last stands above the line
            auto* tick = new QCPItemLine(m_plot);
            tick->setClipAxisRect(top);
            tick->start->setAxes(x, y);
            tick->end->setAxes(x, y);
            tick->start->setCoords(f->maxFlopAt80, eighty - 4);
            tick->end->setCoords(f->maxFlopAt80, eighty + 4);
            tick->setPen(QPen(color, 2.5));
        }
        if (f->maxFlopAny > 0) {
            line(f->maxFlopAny, 0, f->maxFlopAny, 100, QPen(color, 1.5, Qt::DashLine));
            label(f->maxFlopAny, k == 0 ? 66 : 60, Qt::AlignRight | Qt::AlignTop, tr("latency wall, %1").arg(name), color);
        }
        ++k;
    }
    m_realistic = realistic;
    m_idealized = idealized;
    m_anchors = anchors;

    // Epoch AI's published readings for this GPU and duration: stars, labelled.
    if (!anchors.empty()) {
        const QColor epoch = foreground(); // neutral: not one of dtsim's own series
        QCPGraph* stars = m_plot->addGraph(x, y);
        stars->setName(tr("Epoch AI's readings"));
        stars->setLineStyle(QCPGraph::lsNone);
        stars->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(epoch, 2), epoch, 14));
        for (const FrontierAnchor& a : anchors) {
            stars->addData(a.flop, anchorMfu(a));
            label(a.flop, anchorMfu(a), Qt::AlignLeft | Qt::AlignBottom,
                tr("Epoch: %1").arg(a.flop, 0, 'e', 0), epoch);
        }
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

void FrontierView::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    // The legend's row wraps before its entries run into each other (narrow windows,
    // presentation type): about 150 px an entry at the window's font.
    const int perEntry = fontMetrics().horizontalAdvance("idealized (Epoch's assumptions)") / 2 + 40;
    const int columns = std::max(2, width() / std::max(1, perEntry));
    m_plot->legend->setWrap(columns >= 7 ? 0 : columns);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

int FrontierView::pointCount() const
{
    return m_plot->graphCount() > 0 ? m_plot->graph(0)->dataCount() : 0;
}

} // namespace dtsim::gui
