#include "cost_tab.h"

#include "chart_style.h"
#include "theme.h"
#include "palette_colors.h"

#include "simcore/units.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QGridLayout>
#include <QScrollArea>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QLegend>
#include <QLegendMarker>
#include <QPieSeries>
#include <QPieSlice>
#include <QScatterSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace dtsim::gui {

namespace {


constexpr int kCostChartMinimumHeight = 260;

QString usd(double v) { return v > 0 && v < 0.01 ? QObject::tr("under $0.01") : "$" + QString::fromStdString(formatCount(v)); }

// Energy and carbon in a unit their total reads in (a small run's "0 MWh" said nothing);
// the parts in the total's unit. Values in MWh and tonnes.
struct Scaled {
    double factor;
    QString unit;
};
Scaled energyUnit(double mwh) { return mwh >= 1 ? Scaled { 1, "MWh" } : Scaled { 1e3, "kWh" }; }
Scaled massUnit(double tonnes) { return tonnes >= 1 ? Scaled { 1, "t" } : Scaled { 1e3, "kg" }; }
QString scaled(double v, const Scaled& u) { return QString::number(v * u.factor, 'f', v * u.factor < 10 ? 1 : 0); }

// Money axes in readable units: thousands, millions or billions of dollars.
struct MoneyScale {
    double divisor;
    QString unit;
};
MoneyScale moneyScale(double maxUsd)
{
    if (maxUsd >= 1e9)
        return { 1e9, QObject::tr("billion USD") };
    if (maxUsd >= 1e6)
        return { 1e6, QObject::tr("million USD") };
    if (maxUsd >= 1e3)
        return { 1e3, QObject::tr("thousand USD") };
    return { 1, QObject::tr("USD") };
}

QValueAxis* valueAxis(const QString& title)
{
    auto* a = new QValueAxis;
    a->setTitleText(title);
    a->setLabelsColor(foreground());
    a->setTitleBrush(foreground());
    a->setGridLineColor(gridColor());
    return a;
}

QLogValueAxis* logAxis(const QString& title)
{
    auto* a = new QLogValueAxis;
    a->setBase(2);
    a->setLabelFormat("%g");
    a->setTitleText(title);
    a->setLabelsColor(foreground());
    a->setTitleBrush(foreground());
    a->setGridLineColor(gridColor());
    return a;
}

} // namespace

CostTab::CostTab(Evaluator* evaluator, std::vector<HardwareSpec> catalog, FailureRates rates, CostRates cost, QWidget* parent)
    : QWidget(parent)
    , m_evaluator(evaluator)
    , m_catalog(std::move(catalog))
    , m_rates(std::move(rates))
    , m_cost(std::move(cost))
{
    auto* column = new QVBoxLayout(this);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(m_summary);
    // The charts scroll rather than shrink: below about 260 px the axis titles and the
    // GPU names of the procurement chart were elided ("million...", "...") on a
    // 1366x700 window.
    auto* charts = new QWidget;
    auto* grid = new QGridLayout(charts);
    grid->setContentsMargins(0, 0, 0, 0);
    m_breakdown = makeChartView(tr("Cost by component"), charts);
    m_byGpus = makeChartView(tr("Cost and energy against GPU count"), charts);
    m_byDeadline = makeChartView(tr("Cost against time to train: what a deadline buys"), charts);
    m_procurement = makeChartView(tr("The same run on each GPU type, at its cheapest plan"), charts);
    for (QChartView* v : { m_breakdown, m_byGpus, m_byDeadline, m_procurement })
        v->setMinimumHeight(chartMinimumHeight());
    grid->addWidget(m_breakdown, 0, 0);
    grid->addWidget(m_byGpus, 0, 1);
    grid->addWidget(m_byDeadline, 1, 0);
    grid->addWidget(m_procurement, 1, 1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(charts);
    column->addWidget(scroll, 1);
    connect(m_evaluator, &Evaluator::costStudyReady, this, &CostTab::showStudy);
}

QString CostTab::checkInputs(const Scenario& s) const
{
    if (s.cost.ownership == Ownership::Rent && s.cost.gpuHourUsd <= 0 && !m_cost.rent.count(s.hardware.id))
        return tr("No rental price for %1 in resources/cost/cost.yaml: set a price per GPU-hour, or own the cluster.")
            .arg(QString::fromStdString(s.hardware.name));
    if (s.cost.ownership == Ownership::Own && s.cost.gpuPriceUsd <= 0 && s.hardware.launchPriceUsd <= 0)
        return tr("The catalogue has no price for %1: set the GPU price.").arg(QString::fromStdString(s.hardware.name));
    if (gridIntensity(s.cost, m_cost) < 0)
        return tr("Unknown grid region \"%1\".").arg(QString::fromStdString(s.cost.region));
    return {};
}

void CostTab::showScenario(const Scenario* s)
{
    if (!s) {
        m_summary->setText(tr("The plan is not valid; fix it to price the run."));
        return;
    }
    m_error = checkInputs(*s);
    if (!m_error.isEmpty()) {
        m_summary->setText(QString("<span style='color:#c0392b'>%1</span>").arg(m_error.toHtmlEscaped()));
        return;
    }
    m_scenario = *s;
    m_evaluator->requestCostStudy(m_scenario, m_catalog, m_rates, m_cost);
}

void CostTab::showStudy(const CostAnalysis& c)
{
    if (c.problem) {
        m_hasResult = false;
        for (QChartView* v : { m_breakdown, m_byGpus, m_byDeadline, m_procurement })
            resetChart(v);
        m_summary->setText(tr("<b>No price for this run:</b> %1<br>Change <b>%2</b>.")
                               .arg(QString::fromStdString(c.problem->reason).toHtmlEscaped(),
                                   QString::fromStdString(c.problem->field)));
        return;
    }
    m_study = c;
    m_hasResult = true;
    const CostReport& r = c.report;
    const Scenario& s = m_scenario;
    QString html = "<table cellspacing=6>";
    auto row = [&](const QString& k, const QString& v) { html += QString("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(k, v); };
    row(tr("Total"), tr("<b>%1</b> (%2, %3): %4 per million %5s; %6 GPU-hours over %7 with failures and checkpoints")
                         .arg(usd(r.totalUsd), ownershipName(s.cost.ownership), QString(pricingName(s.cost.pricing)).replace('_', ' '))
                         .arg(usd(r.usdPerMillionTokens), QString::fromLatin1(unitOfWork(s.model)), QString::fromStdString(formatCount(r.gpuHours)),
                             QString::fromStdString(formatDuration(r.wallSeconds))));
    const Scaled e = energyUnit(r.energyMwh), m = massUnit(r.co2eTonnes);
    row(tr("Energy"), tr("%1 %2 at the wall (GPUs %3, hosts %4, network %5, cooling %6); GPUs compute %7% of each step, %8 W on average")
                          .arg(scaled(r.energyMwh, e), e.unit, scaled(r.gpuEnergyMwh, e), scaled(r.hostEnergyMwh, e),
                              scaled(r.networkEnergyMwh, e), scaled(r.coolingEnergyMwh, e))
                          .arg(100 * r.gpuActivity, 0, 'f', 0).arg(r.gpuWatts, 0, 'f', 0));
    row(tr("Carbon"), tr("%1 %2 CO2e: operational %3 (%4 grid), embodied %5")
                          .arg(scaled(r.co2eTonnes, m), m.unit, scaled(r.operationalTonnes, m),
                              QString::fromStdString(s.cost.region), scaled(r.embodiedTonnes, m)));
    row(tr("To buy it"), tr("%1 (GPUs %2, servers %3, network %4)")
                             .arg(usd(r.hardwareBillUsd), usd(r.bill.gpus), usd(r.bill.servers), usd(r.bill.network)));
    html += "</table>";
    m_summary->setText(html);
    plotBreakdown(c);
    plotByGpuCount(c);
    plotByDeadline(c);
    plotProcurement(c);
    for (QChartView* v : { m_breakdown, m_byGpus, m_byDeadline, m_procurement }) {
        styleChartText(v);
        if (v != m_procurement)
            v->setMinimumHeight(chartMinimumHeight());
    }
}

int CostTab::chartMinimumHeight() const
{
    // 260 px at the normal type; more for presentation mode's larger type.
    return std::max(kCostChartMinimumHeight, 14 * fontMetrics().height());
}

void CostTab::plotBreakdown(const CostAnalysis& c)
{
    QChart* chart = resetChart(m_breakdown);
    auto* pie = new QPieSeries;
    QStringList priced;
    int i = 0;
    for (const CostItem& item : c.report.breakdown) {
        if (item.usd <= 0)
            continue;
        QPieSlice* slice = pie->append(QString::fromStdString(item.name), item.usd);
        priced << QString("%1 %2").arg(QString::fromStdString(item.name), usd(item.usd));
        slice->setColor(seriesColor(i++));
        slice->setLabelColor(foreground());
    }
    // The slices say their share, short enough never to be cut at the chart's edge; the
    // legend, beside the pie with a line each, names and prices them (under it, five
    // priced items shared a line and read "gpus $..." on a 1366 px screen).
    for (QPieSlice* slice : pie->slices()) {
        slice->setLabel(QString("%1%").arg(100 * slice->percentage(), 0, 'f', slice->percentage() < 0.1 ? 1 : 0));
        slice->setLabelVisible(slice->percentage() > 0.03 || pie->count() <= 2);
    }
    pie->setPieSize(0.6);
    chart->addSeries(pie);
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->legend()->setVisible(true);
    const QList<QLegendMarker*> markers = chart->legend()->markers(pie);
    for (int m = 0; m < markers.size() && m < priced.size(); ++m)
        markers[m]->setLabel(priced[m]);
}

void CostTab::plotByGpuCount(const CostAnalysis& c)
{
    QChart* chart = resetChart(m_byGpus);
    if (c.byGpuCount.empty())
        return;
    auto* cost = new QLineSeries;
    cost->setName(tr("cost (USD)"));
    auto* energy = new QLineSeries;
    energy->setName(tr("energy (MWh)"));
    auto* misses = new QScatterSeries;
    misses->setName(tr("misses the deadline"));
    misses->setMarkerSize(9);
    double maxCost = 0, maxEnergy = 0;
    for (const CostPoint& p : c.byGpuCount) {
        maxCost = std::max(maxCost, p.costUsd);
        maxEnergy = std::max(maxEnergy, p.energyMwh);
    }
    const MoneyScale m = moneyScale(maxCost);
    cost->setName(tr("cost (%1)").arg(m.unit));
    for (const CostPoint& p : c.byGpuCount) {
        cost->append(double(p.gpus), p.costUsd / m.divisor);
        energy->append(double(p.gpus), p.energyMwh);
        if (!p.meetsDeadline)
            misses->append(double(p.gpus), p.costUsd / m.divisor);
    }
    cost->setColor(seriesColor(0));
    energy->setColor(seriesColor(1));
    misses->setColor(seriesColor(5));
    chart->addSeries(cost);
    chart->addSeries(energy);
    chart->addSeries(misses);
    // The range around the points, and each point marked: with one feasible GPU count
    // (fewer run out of memory, more break a plan rule) the chart was an empty 1-2 axis.
    auto* x = logAxis(tr("GPUs (your plan, data parallelism scaled)"));
    x->setRange(double(c.byGpuCount.front().gpus) / 1.5, double(c.byGpuCount.back().gpus) * 1.5);
    cost->setPointsVisible(true);
    energy->setPointsVisible(true);
    if (c.byGpuCount.size() == 1)
        chart->setTitle(tr("Cost against GPU count: only %1 GPUs feasible").arg(c.byGpuCount.front().gpus));
    m_byGpus->setToolTip(c.byGpuCount.size() == 1 ? tr("Scaling data parallelism up or down from this plan either runs out of memory "
                                                       "or breaks a plan rule, so only this GPU count is drawn.")
                                                  : QString());
    auto* y = valueAxis(m.unit);
    y->setRange(0, maxCost / m.divisor * 1.1);
    y->applyNiceNumbers();
    y->setLabelFormat("%g");
    auto* y2 = valueAxis(tr("MWh"));
    y2->setRange(0, maxEnergy * 1.1);
    y2->applyNiceNumbers();
    y2->setLabelFormat("%g");
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    chart->addAxis(y2, Qt::AlignRight);
    for (QAbstractSeries* series : { static_cast<QAbstractSeries*>(cost), static_cast<QAbstractSeries*>(misses) }) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    energy->attachAxis(x);
    energy->attachAxis(y2);
}

void CostTab::plotByDeadline(const CostAnalysis& c)
{
    QChart* chart = resetChart(m_byDeadline);
    if (c.byGpuCount.empty())
        return;
    // Each GPU count is one (time, cost) point; the cheapest point left of a deadline
    // is what that deadline costs.
    std::vector<CostPoint> pts = c.byGpuCount;
    std::sort(pts.begin(), pts.end(), [](const CostPoint& a, const CostPoint& b) { return a.expectedTime < b.expectedTime; });
    auto* points = new QScatterSeries;
    points->setName(tr("GPU counts"));
    points->setMarkerSize(8);
    points->setColor(seriesColor(0));
    auto* cheapest = new QLineSeries;
    cheapest->setName(tr("cheapest in time"));
    cheapest->setColor(seriesColor(2));
    double best = INFINITY, maxCost = 0, minDays = INFINITY, maxDays = 0;
    for (const CostPoint& p : pts)
        maxCost = std::max(maxCost, p.costUsd);
    const MoneyScale m = moneyScale(maxCost);
    for (const CostPoint& p : pts) {
        const double days = p.expectedTime / units::day;
        points->append(days, p.costUsd / m.divisor);
        best = std::min(best, p.costUsd / m.divisor);
        cheapest->append(days, best);
        minDays = std::min(minDays, days);
        maxDays = std::max(maxDays, days);
    }
    maxCost /= m.divisor;
    chart->addSeries(points);
    chart->addSeries(cheapest);
    auto* x = new QLogValueAxis;
    x->setBase(10);
    x->setLabelFormat("%g");
    x->setTitleText(tr("expected time to train (days)"));
    x->setLabelsColor(foreground());
    x->setTitleBrush(foreground());
    x->setGridLineColor(gridColor());
    auto* y = valueAxis(m.unit);
    y->setRange(0, maxCost * 1.1);
    y->applyNiceNumbers();
    y->setLabelFormat("%g");
    if (c.deadline > 0) {
        minDays = std::min(minDays, c.deadline / units::day);
        maxDays = std::max(maxDays, c.deadline / units::day);
    }
    x->setRange(minDays / 1.5, maxDays * 1.5);
    x->setMinorTickCount(8);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* series : { static_cast<QAbstractSeries*>(points), static_cast<QAbstractSeries*>(cheapest) }) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    if (c.deadline > 0) {
        auto* line = new QLineSeries;
        line->setName(tr("deadline %1 days").arg(c.deadline / units::day, 0, 'f', 0));
        line->append(c.deadline / units::day, 0);
        line->append(c.deadline / units::day, y->max());
        line->setColor(seriesColor(5));
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    }
}

void CostTab::plotProcurement(const CostAnalysis& c)
{
    QChart* chart = resetChart(m_procurement);
    auto* meets = new QBarSet(tr("meets the deadline"));
    auto* misses = new QBarSet(tr("misses it"));
    meets->setColor(seriesColor(2));
    misses->setColor(seriesColor(5));
    QStringList names;
    // Cheapest at the top: a horizontal bar chart draws its first category at the bottom.
    std::vector<const ProcurementRow*> rows;
    for (const ProcurementRow& r : c.byGpuType)
        if (r.feasible)
            rows.push_back(&r);
    if (rows.size() > 10)
        rows.resize(10);
    std::reverse(rows.begin(), rows.end());
    double maxCost = 0;
    for (const ProcurementRow* r : rows)
        maxCost = std::max(maxCost, r->point.costUsd);
    const MoneyScale m = moneyScale(maxCost);
    // A GPU name needs a line of the chart's type, or Qt Charts elides it to "..."; the
    // title, axis and legend about eight more (presentation mode's type is 1.5x).
    const int line = m_procurement->fontMetrics().height() + 6;
    m_procurement->setMinimumHeight(std::max(chartMinimumHeight(), (8 + int(rows.size())) * line));
    for (const ProcurementRow* r : rows) {
        names << QString::fromStdString(r->gpuId);
        *meets << (r->point.meetsDeadline ? r->point.costUsd / m.divisor : 0.0);
        *misses << (r->point.meetsDeadline ? 0.0 : r->point.costUsd / m.divisor);
    }
    auto* series = new QHorizontalStackedBarSeries;
    series->append(meets);
    series->append(misses);
    series->setBarWidth(0.9);
    chart->addSeries(series);
    auto* cats = new QBarCategoryAxis;
    cats->append(names);
    cats->setLabelsColor(foreground());
    auto* x = valueAxis(tr("%1, at the same GPU count").arg(m.unit));
    x->setRange(0, std::max(1e-9, maxCost / m.divisor * 1.05));
    x->applyNiceNumbers();
    x->setLabelFormat("%g");
    chart->addAxis(cats, Qt::AlignLeft);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(cats);
    series->attachAxis(x);
}

} // namespace dtsim::gui
