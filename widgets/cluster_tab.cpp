#include "cluster_tab.h"

#include "cluster_gantt_view.h"
#include "palette_colors.h"
#include "units_text.h"
#include "plot_style.h"

#include "simcore/cost/cost.h"
#include "simcore/units.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <qcustomplot.h>

namespace dtsim::gui {

namespace {



QCustomPlot* seriesPlot(QWidget* parent, const QString& yLabel)
{
    auto* plot = new QCustomPlot(parent);
    plot->setBackground(background());
    for (QCPAxis* a : { plot->xAxis, plot->yAxis })
        styleAxis(a);
    plot->xAxis->setLabel(QObject::tr("days"));
    plot->yAxis->setLabel(yLabel);
    plot->legend->setBrush(background());
    plot->legend->setTextColor(foreground());
    plot->legend->setBorderPen(QPen(gridColor()));
    putLegendAbovePlots(plot); // in a corner it covered one policy's curve
    plot->setMinimumHeight(170);
    return plot;
}

template <typename Value>
void addStepGraph(QCustomPlot* plot, const std::vector<std::pair<double, Value>>& series, double end, double scale,
    const QString& name, const QColor& color)
{
    QVector<double> x, y;
    for (const auto& [t, v] : series) {
        x.push_back(t / units::day);
        y.push_back(double(v) * scale);
    }
    if (!series.empty()) { // hold the last value to the end
        x.push_back(end / units::day);
        y.push_back(double(series.back().second) * scale);
    }
    QCPGraph* g = plot->addGraph();
    g->setData(x, y, true);
    g->setLineStyle(QCPGraph::lsStepLeft);
    g->setPen(QPen(color, 1.4));
    g->setName(name);
}

} // namespace

ClusterTab::ClusterTab(Evaluator* evaluator, FailureRates rates, CostRates cost, QWidget* parent)
    : QWidget(parent)
    , m_evaluator(evaluator)
    , m_rates(std::move(rates))
    , m_cost(std::move(cost))
{
    auto* column = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    m_firstPolicy = new QComboBox(this);
    m_secondPolicy = new QComboBox(this);
    for (const std::string& name : policyNames()) {
        m_firstPolicy->addItem(QString::fromStdString(name));
        m_secondPolicy->addItem(QString::fromStdString(name));
    }
    m_firstPolicy->setAccessibleName(tr("First scheduling policy"));
    m_secondPolicy->setAccessibleName(tr("Second scheduling policy"));
    controls->addWidget(new QLabel(tr("Compare"), this));
    controls->addWidget(m_firstPolicy);
    controls->addWidget(new QLabel(tr("with"), this));
    controls->addWidget(m_secondPolicy);
    m_legend = new QLabel(this);
    controls->addSpacing(16);
    controls->addWidget(m_legend);
    controls->addStretch(1);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    controls->addWidget(m_status, 2);
    column->addLayout(controls);

    auto* split = new QSplitter(Qt::Vertical, this);
    auto* gantts = new QWidget(split);
    auto* grid = new QGridLayout(gantts);
    grid->setContentsMargins(0, 0, 0, 0);
    m_firstTitle = new QLabel(gantts);
    m_secondTitle = new QLabel(gantts);
    for (QLabel* l : { m_firstTitle, m_secondTitle }) {
        l->setWordWrap(true);
        l->setTextFormat(Qt::RichText);
    }
    m_firstGantt = new ClusterGanttView(gantts);
    m_secondGantt = new ClusterGanttView(gantts);
    grid->addWidget(m_firstTitle, 0, 0);
    grid->addWidget(m_secondTitle, 0, 1);
    grid->addWidget(m_firstGantt, 1, 0);
    grid->addWidget(m_secondGantt, 1, 1);
    grid->setRowStretch(1, 1);

    auto* charts = new QWidget(split);
    auto* row = new QHBoxLayout(charts);
    row->setContentsMargins(0, 0, 0, 0);
    m_utilization = seriesPlot(charts, tr("GPUs busy (%)"));
    m_queue = seriesPlot(charts, tr("jobs waiting"));
    row->addWidget(m_utilization);
    row->addWidget(m_queue);

    m_table = new QTableWidget(split);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->setVisible(false);
    m_table->setAccessibleName(tr("Per-project results"));
    split->addWidget(gantts);
    split->addWidget(charts);
    split->addWidget(m_table);
    split->setStretchFactor(0, 6);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 1);
    column->addWidget(split, 1);

    connect(m_evaluator, &Evaluator::clusterReady, this, &ClusterTab::showComparison);
    for (QComboBox* box : { m_firstPolicy, m_secondPolicy })
        connect(box, &QComboBox::currentIndexChanged, this, [this] { request(); });
    showScenario(nullptr);
}

void ClusterTab::setPolicies(const QString& first, const QString& second)
{
    const QSignalBlocker a(m_firstPolicy), b(m_secondPolicy);
    m_firstPolicy->setCurrentText(first);
    m_secondPolicy->setCurrentText(second);
    request();
}

QString ClusterTab::message() const { return m_status->text(); }

void ClusterTab::showScenario(const Scenario* s)
{
    m_hasScenario = s && !s->workload.empty();
    if (!s) {
        m_status->setText(tr("Fix the scenario's inputs to simulate its cluster."));
        return;
    }
    const bool wasEmpty = m_scenario.workload.empty() || m_scenario.workload.policy != s->workload.policy;
    m_scenario = *s;
    if (!m_hasScenario) {
        m_comparison.reset();
        m_firstGantt->setResult(nullptr);
        m_secondGantt->setResult(nullptr);
        m_firstTitle->clear();
        m_secondTitle->clear();
        m_status->setText(tr("This scenario has no workload (projects and a job stream). Open the shared-cluster "
                             "preset, or add a workload section (docs/scenario.md)."));
        return;
    }
    if (wasEmpty) {
        // Start from the scenario's own policy against the simplest one.
        const QString own = QString::fromStdString(s->workload.policy);
        const QSignalBlocker a(m_firstPolicy), b(m_secondPolicy);
        m_firstPolicy->setCurrentText(own);
        m_secondPolicy->setCurrentText(own == "fifo" ? "fair-share" : "fifo");
    }
    request();
}

void ClusterTab::request()
{
    if (!m_hasScenario)
        return;
    m_status->setText(tr("Simulating %L1 jobs on %L2 GPUs…")
                          .arg(m_scenario.workload.jobs.size() + m_scenario.workload.generator.count)
                          .arg(m_scenario.cluster.gpus));
    m_evaluator->requestCluster(m_scenario, m_rates, gpuHourUsd(m_scenario, m_cost),
        m_firstPolicy->currentText().toStdString(), m_secondPolicy->currentText().toStdString());
}

QString ClusterTab::headline(const ClusterResult& r) const
{
    QString text = tr("<b>%1</b>: %2% busy, mean wait %3, Jain fairness %4, %5 preemptions, %6 failures, "
                      "%7 GPU-hours wasted, all done after %8")
                       .arg(QString::fromStdString(r.policy)).arg(100 * r.meanUtilization, 0, 'f', 1)
                       .arg(durationText(r.meanQueueSeconds)).arg(r.jainFairness, 0, 'f', 3).arg(r.preemptions).arg(r.failures)
                       .arg(QString::fromStdString(formatCount(r.wastedGpuHours))).arg(durationText(r.makespan));
    if (r.infeasible > 0)
        text += tr(" — <span style='color:#c0392b'>%1 jobs cannot run at their size</span>").arg(r.infeasible);
    return text;
}

void ClusterTab::showComparison(const ClusterComparison& c)
{
    if (!c.first.refused.empty()) {
        // Too large to simulate, or jobs that could never finish: what to change.
        m_comparison.reset();
        m_firstGantt->setResult(nullptr);
        m_secondGantt->setResult(nullptr);
        m_firstTitle->clear();
        m_secondTitle->clear();
        m_status->setText(tr("<span style='color:#c0392b'>Not simulated: %1</span>")
                              .arg(QString::fromStdString(c.first.refused).toHtmlEscaped()));
        return;
    }
    m_comparison = std::make_unique<ClusterComparison>(c);
    // One time scale for both, so the two policies line up.
    const double end = std::max(c.first.makespan, c.second.makespan);
    m_firstGantt->setResult(&m_comparison->first, end);
    m_secondGantt->setResult(&m_comparison->second, end);
    m_firstTitle->setText(headline(c.first));
    m_secondTitle->setText(headline(c.second));
    QStringList legend;
    for (std::size_t p = 0; p < c.first.projects.size(); ++p)
        legend << QString("<span style='color:%1'>&#9632;</span> %2").arg(seriesColor(int(p)).name(),
                      QString::fromStdString(c.first.projects[p].name).toHtmlEscaped());
    m_legend->setText(legend.join("&nbsp;&nbsp;"));
    const long long gpusPerNode = c.first.totalGpus / std::max(1, c.first.nodes);
    m_status->setText(tr("%L1 jobs on %L2 GPUs (%L3 nodes, %L4-GPU pods), the same stream under both policies. "
                         "Wheel zooms a Gantt, drag pans, double-click fits; hover names a job.")
                          .arg(c.first.jobs.size()).arg(c.first.totalGpus).arg(c.first.nodes)
                          .arg(c.first.nodesPerPod * gpusPerNode));
    plotSeries(c);
    fillTable(c);
}

void ClusterTab::plotSeries(const ClusterComparison& c)
{
    const double end = std::max(c.first.makespan, c.second.makespan);
    m_utilization->clearGraphs();
    m_queue->clearGraphs();
    int i = 0;
    for (const ClusterResult* r : { &c.first, &c.second }) {
        const QColor color = i == 0 ? foreground() : seriesColor(5);
        const QString name = QString::fromStdString(r->policy) + (i == 1 && c.first.policy == r->policy ? " (2)" : "");
        addStepGraph(m_utilization, r->utilization, r->makespan, 100.0, name, color);
        addStepGraph(m_queue, r->queueLength, r->makespan, 1.0, name, color);
        ++i;
    }
    for (QCustomPlot* plot : { m_utilization, m_queue }) {
        plot->xAxis->setRange(0, std::max(1e-3, end / units::day));
        plot->yAxis->rescale();
        plot->yAxis->setRangeLower(0);
        plot->replot();
    }
    m_utilization->yAxis->setRange(0, 105);
    m_utilization->replot();
}

void ClusterTab::fillTable(const ClusterComparison& c)
{
    const QString a = QString::fromStdString(c.first.policy), b = QString::fromStdString(c.second.policy);
    // One unit for all the times (hours, or days past two days): the columns mixed
    // "5.2 h" with "3.1 days".
    double longest = 0;
    for (const auto* r : { &c.first, &c.second })
        for (const ProjectResult& p : r->projects)
            longest = std::max({ longest, p.meanQueueSeconds, p.meanCompletionSeconds });
    const bool inDays = longest >= 2 * units::day;
    const double unit = inDays ? units::day : units::hour;
    const QString u = inDays ? tr("days") : tr("h");
    auto time = [&](double s) { return QString::number(s / unit, 'f', s / unit < 10 ? 1 : 0); };
    // Two lines a heading, the policy above what it measures: on one line the columns
    // ran past a 1366 px window.
    const QStringList headers { tr("project"), tr("quota"), tr("jobs"), tr("%1\nwait (%2)").arg(a, u), tr("%1\nwait (%2)").arg(b, u),
        tr("%1\ncompletion (%2)").arg(a, u), tr("%1\ncompletion (%2)").arg(b, u), tr("%1\nshare of due").arg(a),
        tr("%1\nshare of due").arg(b), tr("%1\ncost").arg(a), tr("%1\ncost").arg(b) };
    m_table->clear();
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    // Each heading says what it counts.
    const QString due = tr("The share of its due (its quota, or less when it asked for less) the project held while it "
                           "was short of it: 100% means the policy always gave it what it was owed.");
    for (int col : { 7, 8 })
        m_table->horizontalHeaderItem(col)->setToolTip(due);
    for (int col : { 3, 4 })
        m_table->horizontalHeaderItem(col)->setToolTip(tr("Mean time a job waited in the queue."));
    for (int col : { 5, 6 })
        m_table->horizontalHeaderItem(col)->setToolTip(tr("Mean time from a job's arrival to its end."));
    m_table->setRowCount(int(c.first.projects.size()));
    auto cell = [&](int row, int col, const QString& text) {
        auto* item = new QTableWidgetItem(text);
        item->setTextAlignment(col == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, col, item);
    };
    for (int p = 0; p < int(c.first.projects.size()); ++p) {
        const ProjectResult& x = c.first.projects[p];
        const ProjectResult& y = p < int(c.second.projects.size()) ? c.second.projects[p] : x;
        cell(p, 0, QString::fromStdString(x.name));
        cell(p, 1, QString("%1%").arg(100 * x.quota, 0, 'f', 0));
        cell(p, 2, QString::number(x.jobs));
        cell(p, 3, time(x.meanQueueSeconds));
        cell(p, 4, time(y.meanQueueSeconds));
        cell(p, 5, time(x.meanCompletionSeconds));
        cell(p, 6, time(y.meanCompletionSeconds));
        cell(p, 7, QString("%1%").arg(100 * x.entitlement, 0, 'f', 0));
        cell(p, 8, QString("%1%").arg(100 * y.entitlement, 0, 'f', 0));
        cell(p, 9, "$" + QString::fromStdString(formatCount(x.costUsd)));
        cell(p, 10, "$" + QString::fromStdString(formatCount(y.costUsd)));
        m_table->item(p, 0)->setForeground(seriesColor(p));
    }
    m_table->resizeColumnsToContents();
    // Every project visible without scrolling, up to a dozen.
    const int rows = std::min(12, m_table->rowCount());
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() + rows * m_table->verticalHeader()->defaultSectionSize()
        + 2 * m_table->frameWidth() + 2);
    m_table->setToolTip(tr("wait: mean time queued; completion: arrival to end; share of due: the share of its due "
                           "(its quota, or less when it asked for less) the project held while short of it"));
}

} // namespace dtsim::gui
