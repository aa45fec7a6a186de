#include "reliability_tab.h"

#include "chaos_editor.h"
#include "palette_colors.h"
#include "units_text.h"
#include "plot_style.h"
#include "run_timeline_view.h"

#include "simcore/units.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace dtsim::gui {

namespace {

constexpr int kRunTimelineMinimumHeight = 220; // the run timeline's lanes, labels and axis stay readable

QString seconds(double s) { return QString::fromStdString(formatSeconds(s)); }

QString strategyLabel(const RecoveryPlan& p)
{
    switch (p.strategy) {
    case RecoveryStrategy::Storage: return p.async ? ReliabilityTab::tr("async storage") : ReliabilityTab::tr("storage");
    case RecoveryStrategy::InMemory: return ReliabilityTab::tr("in memory (Gemini)");
    case RecoveryStrategy::JustInTime: return ReliabilityTab::tr("just in time");
    }
    return {};
}

// Every strategy's expected time, apart enough to tell them from each other; the run's
// own in bold.
QString strategiesLine(const ReliabilityReport& r)
{
    std::vector<double> times;
    for (const RecoveryPlan& p : r.strategies)
        times.push_back(std::isfinite(p.expectedTime) ? p.expectedTime : 0.0);
    const DurationsApart apart = formatDurationsApart(times);
    QStringList parts;
    for (std::size_t i = 0; i < r.strategies.size(); ++i) {
        const RecoveryPlan& p = r.strategies[i];
        QString text = p.unavailable.empty() ? QString("%1 %2").arg(strategyLabel(p), QString::fromStdString(apart.values[i]))
                                             : ReliabilityTab::tr("%1 unavailable").arg(strategyLabel(p));
        if (std::string_view(p.name) == r.plan.name)
            text = "<b>" + text + "</b>";
        parts << text;
    }
    return ReliabilityTab::tr("expected %1 %2").arg(parts.join(" &middot; "), QString::fromStdString(apart.unit));
}

// Each chaos event and what it does on this run (or why nothing: a host OOM when nothing
// of the run lives in host memory is said, not ignored).
QString chaosEffectsText(const std::vector<ChaosEvent>& events, const ReliabilityReport& r)
{
    QString text;
    for (std::size_t i = 0; i < events.size() && i < r.chaos.size(); ++i)
        text += QString("<br>%1 at %2: %3")
                    .arg(QString::fromLatin1(chaosKindName(events[i].kind)).replace('_', ' '),
                        QString::fromStdString(formatDuration(events[i].atSeconds)),
                        QString::fromStdString(describeChaosEffect(events[i], r.chaos[i])).toHtmlEscaped());
    return text;
}

} // namespace

// P50, P90 and P99 with as many decimals as tell them apart: they printed "105, 105,
// 105 days" while the histogram spanned 104.5 to 105.6 days.
void ReliabilityTab::setChartsFirst(bool on)
{
    // On stage the run's timeline is what the audience looks at: above the summary,
    // where a 768-pixel screen shows it without scrolling.
    m_column->removeWidget(m_summary);
    m_column->removeWidget(m_charts);
    m_column->addWidget(on ? static_cast<QWidget*>(m_charts) : m_summary, on ? 1 : 0);
    m_column->addWidget(on ? static_cast<QWidget*>(m_summary) : m_charts, on ? 0 : 1);
}

QString ReliabilityTab::percentiles(double p50, double p90, double p99)
{
    const DurationsApart d = formatDurationsApart({ p50, p90, p99 });
    return tr("P50 %1, P90 %2, P99 %3 %4")
        .arg(QString::fromStdString(d.values[0]), QString::fromStdString(d.values[1]), QString::fromStdString(d.values[2]))
        .arg(d.unit == "days" ? tr("days") : tr("hours"));
}

ReliabilityTab::ReliabilityTab(Evaluator* evaluator, FailureRates rates, ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent)
    , m_evaluator(evaluator)
    , m_rates(std::move(rates))
{
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    m_trials = new QSpinBox(this);
    m_trials->setRange(10, 100000);
    m_trials->setValue(1000);
    m_trials->setSingleStep(100);
    m_trials->setToolTip(tr("Monte Carlo trials: each simulates the whole run with random failures."));
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, 1 << 30);
    m_seed->setValue(1);
    m_seed->setToolTip(tr("The same seed gives the same runs."));
    controls->addWidget(new QLabel(tr("Trials"), this));
    controls->addWidget(m_trials);
    controls->addWidget(new QLabel(tr("Seed"), this));
    controls->addWidget(m_seed);
    auto* hint = new QLabel(doc ? tr("Storage, checkpoint policy, spares and stragglers: the Reliability group on the left; "
                                     "chaos events: the list on the right (drag a marker on the run to move it).")
                                : tr("Storage, checkpoint policy, spares and stragglers: the Reliability group on the left; "
                                     "chaos events: the scenario's reliability.chaos list."), this);
    hint->setWordWrap(true); // on one line it kept the window 1419 px wide at least
    controls->addWidget(hint, 1);
    layout->addLayout(controls);

    // The odds of a deadline, live: drag it across the trials' spread and read the share
    // of runs that finish in time (the Monte Carlo is not rerun).
    auto* deadlineRow = new QHBoxLayout;
    deadlineRow->addWidget(new QLabel(tr("Deadline"), this));
    m_deadline = new QDoubleSpinBox(this);
    m_deadline->setRange(0.01, 100000);
    m_deadline->setDecimals(2);
    m_deadline->setSuffix(tr(" days"));
    m_deadline->setToolTip(tr("The share of Monte Carlo trials that finish by this time (the scenario's deadline to start with)."));
    m_deadlineSlider = new QSlider(Qt::Horizontal, this);
    m_deadlineSlider->setRange(0, 1000);
    m_deadlineSlider->setToolTip(m_deadline->toolTip());
    m_odds = new QLabel(this);
    m_odds->setObjectName("reliability-deadline-odds");
    deadlineRow->addWidget(m_deadline);
    deadlineRow->addWidget(m_deadlineSlider, 1);
    deadlineRow->addWidget(m_odds, 2);
    layout->addLayout(deadlineRow);

    // The summary and the charts scroll together rather than squeeze the charts below
    // a readable height (at 1366 x 768 the timeline lost its axis).
    auto* content = new QWidget(this);
    auto* column = new QVBoxLayout(content);
    m_column = column;
    column->setContentsMargins(0, 0, 0, 0);
    m_summary = new QLabel(content);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(m_summary);

    auto* split = new QSplitter(Qt::Vertical, content);
    m_timeline = new RunTimelineView(split);
    m_histogram = new QCustomPlot(split);
    m_histogram->setMinimumHeight(kRunTimelineMinimumHeight);
    split->addWidget(m_timeline);
    split->addWidget(m_histogram);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    column->addWidget(split, 1);
    m_charts = split;
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    if (doc) {
        // The chaos editor beside the run it changes, full height.
        auto* side = new QSplitter(Qt::Horizontal, this);
        side->addWidget(scroll);
        m_chaosEditor = new ChaosEditor(doc, side);
        side->addWidget(m_chaosEditor);
        side->setStretchFactor(0, 1);
        side->setStretchFactor(1, 0);
        side->setSizes({ 1000, fontMetrics().horizontalAdvance(QString(28, 'x')) });
        layout->addWidget(side, 1);
        connect(m_timeline, &RunTimelineView::chaosEventMoved, m_chaosEditor, &ChaosEditor::moveEvent);
    } else {
        layout->addWidget(scroll, 1);
    }

    m_histogram->setBackground(background());
    styleAxis(m_histogram->xAxis);
    styleAxis(m_histogram->yAxis);
    m_histogram->xAxis->setLabel(tr("time to train (days), over the trials"));
    m_histogram->yAxis->setLabel(tr("trials"));
    m_histogram->legend->setVisible(true);
    m_histogram->legend->setBrush(background());
    m_histogram->legend->setTextColor(foreground());
    m_histogram->legend->setBorderPen(QPen(gridColor()));
    putLegendAbovePlots(m_histogram); // inside, it covered the P50 and "expected" lines

    // The slider spans the trials' spread (a little either side); the box holds the value.
    connect(m_deadlineSlider, &QSlider::valueChanged, this, [this](int v) {
        if (!m_hasResult)
            return;
        const double lo = m_outlook.run.times.front(), hi = m_outlook.run.times.back(), pad = 0.05 * (hi - lo) + 1;
        m_deadline->setValue((lo - pad + (hi - lo + 2 * pad) * v / 1000.0) / units::day);
    });
    connect(m_deadline, &QDoubleSpinBox::valueChanged, this, &ReliabilityTab::showDeadline);
    connect(m_trials, &QSpinBox::valueChanged, this, &ReliabilityTab::request);
    connect(m_seed, &QSpinBox::valueChanged, this, &ReliabilityTab::request);
    connect(m_evaluator, &Evaluator::runOutlookReady, this, &ReliabilityTab::showOutlook);
}

void ReliabilityTab::showScenario(const Scenario* s)
{
    m_valid = s != nullptr;
    if (!s) {
        m_timeline->clear();
        m_summary->setText(tr("The plan is not valid; fix it to see the run."));
        return;
    }
    m_scenario = *s;
    request();
}

void ReliabilityTab::request()
{
    if (m_valid)
        m_evaluator->requestRunOutlook(m_scenario, m_rates, m_trials->value(), static_cast<unsigned long long>(m_seed->value()));
}

void ReliabilityTab::showOutlook(const RunOutlook& o)
{
    if (o.problem) {
        // Nothing to draw: say why (a run that never ends, or a strategy that cannot run
        // here) and what to change.
        m_hasResult = false;
        m_timeline->clear(tr("No run to show."));
        m_histogram->clearPlottables();
        m_histogram->clearItems();
        m_deadlineLine = nullptr; // cleared with the items
        m_odds->clear();
        m_histogram->replot();
        m_summary->setText(tr("<b>No run to show:</b> %1<br>Change <b>%2</b>.")
                               .arg(QString::fromStdString(o.problem->reason).toHtmlEscaped(),
                                   QString::fromStdString(o.problem->field)));
        return;
    }
    if (o.run.times.empty())
        return;
    m_hasResult = true;
    m_outlook = o;
    const ReliabilityReport& r = o.report;
    const MonteCarloResult& m = o.run;
    const bool async = m_scenario.reliability.asyncCheckpoint;
    QString causes;
    for (int i = 0; i < kComponentCount; ++i)
        causes += QString("%1%2 %3").arg(i ? ", " : "").arg(QString(failureCauseName(FailureCause(i))).replace('_', ' '))
                      .arg(r.failuresPerDayByCause[i], 0, 'f', 2);
    QString lost;
    for (int i = 0; i < kFailureCauseCount; ++i)
        if (m.lostGpuHoursByCause[i] > 0)
            lost += QString("%1 %2, ").arg(QString(failureCauseName(FailureCause(i))).replace('_', ' '))
                        .arg(QString::fromStdString(formatCount(m.lostGpuHoursByCause[i])));
    lost += tr("checkpoints %1").arg(QString::fromStdString(formatCount(m.checkpointGpuHours)));

    QString html = "<table cellspacing=6>";
    auto row = [&](const QString& k, const QString& v) { html += QString("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(k, v); };
    row(tr("Cluster MTBF"), tr("%1 (failures a day: %2)").arg(durationText(r.clusterMtbf), causes));
    row(tr("Checkpoint"), async
            ? tr("%1; training pauses %2 to stage it, the flush takes %3 in the background; reload %4")
                  .arg(QString::fromStdString(formatBytes(r.checkpointBytes)), seconds(r.checkpointWrite), seconds(r.checkpointFlush), seconds(r.checkpointLoad))
            : tr("%1; training pauses %2 to write it; reload %3")
                  .arg(QString::fromStdString(formatBytes(r.checkpointBytes)), seconds(r.checkpointWrite), seconds(r.checkpointLoad)));
    row(tr("Interval"), tr("every %1, %2 steps (Young's optimum %3)").arg(durationText(r.interval)).arg(r.intervalSteps).arg(durationText(r.youngInterval)));
    row(tr("Recovery"), tr("%1 per failure (detect %2, drain %3, provision %4, load %5, reinit %6) plus the lost work")
                            .arg(durationText(r.recovery), seconds(r.detect), seconds(r.drain), seconds(r.provision), seconds(r.checkpointLoad),
                                seconds(r.reinit)));
    if (r.plan.strategy != RecoveryStrategy::Storage) {
        double covered = 0, all = 0;
        for (int i = 0; i < kComponentCount; ++i) {
            all += r.failuresPerDayByCause[i];
            covered += r.plan.covered[i] ? r.failuresPerDayByCause[i] : 0.0;
        }
        row(tr("Strategy"), tr("%1: a copy every %2 (stall %3); survives %4 of %5 failures a day without storage")
                                .arg(strategyLabel(r.plan), durationText(r.plan.fastInterval), seconds(r.plan.fastStall))
                                .arg(covered, 0, 'f', 2).arg(all, 0, 'f', 2));
    }
    row(tr("Strategies"), strategiesLine(r));
    row(tr("Time to train"), tr("failure-free %1; expected <b>%2</b> (+%3%); Monte Carlo %4")
                                 .arg(durationText(r.failureFreeTime), durationText(r.expectedTime))
                                 .arg(100 * r.overheadFraction, 0, 'f', 1)
                                 .arg(percentiles(m.p50, m.p90, m.p99)));
    row(tr("Goodput"), tr("%1% over %2 trials, %3 failures a run; GPU-hours lost: %4")
                           .arg(100 * m.goodput, 0, 'f', 1).arg(o.trials).arg(m.failuresMean, 0, 'f', 1).arg(lost));
    if (o.trials < o.trialsAsked)
        row(tr("Trials"), tr("%1 of the %2 asked: with %3 failures a run, the Monte Carlo follows at most %4 failures")
                              .arg(o.trials).arg(o.trialsAsked).arg(m.failuresMean, 0, 'f', 0)
                              .arg(QString::fromStdString(formatCount(kMonteCarloFailureBudget))));
    if (m.cappedTrials > 0)
        row(tr("Capped"), tr("%1 trials stopped after 50 times the expected failures; their times are lower bounds").arg(m.cappedTrials));
    if (r.stepSlowdown > 0)
        row(tr("Stragglers"), tr("every step %1% slower (a slow GPU or a degraded link)").arg(100 * r.stepSlowdown, 0, 'f', 1));
    if (r.mitigationGpuHours > 0)
        row(tr("Mitigation"), tr("hot spares and backup workers hold %1 GPU-hours idle")
                                  .arg(QString::fromStdString(formatCount(r.mitigationGpuHours))));
    if (o.hasChaos)
        row(tr("Chaos events"), tr("P50 %1 against %2 for the clean run: %3 later")
                                    .arg(durationText(m.p50), durationText(o.clean.p50), durationText(m.p50 - o.clean.p50))
                + chaosEffectsText(m_scenario.reliability.chaos, r));
    html += "</table>";
    m_summary->setText(html);

    m_timeline->setRun(m.firstTrial, m_scenario.reliability.chaos, r.failureFreeTime, r.expectedTime);
    if (m_chaosEditor)
        m_chaosEditor->setRunLength(r.expectedTime);
    plotHistogram(o);
    // A new scenario deadline sets the control; the user's own value stands until then
    // (the Frontier tab's duration works the same way). Without one, the P90.
    const double scenarioDeadline = m_scenario.training.deadline;
    if (scenarioDeadline != m_scenarioDeadline) {
        m_scenarioDeadline = scenarioDeadline;
        const QSignalBlocker block(m_deadline);
        m_deadline->setValue((scenarioDeadline > 0 ? scenarioDeadline : deadlineAtOdds(m, 0.9)) / units::day);
    }
    showDeadline();
}

QString ReliabilityTab::deadlineOdds() const { return m_odds->text(); }

void ReliabilityTab::showDeadline()
{
    if (!m_hasResult)
        return;
    const MonteCarloResult& m = m_outlook.run;
    const double deadline = m_deadline->value() * units::day;
    const DurationsApart d = formatDurationsApart({ deadline, deadlineAtOdds(m, 0.9), deadlineAtOdds(m, 0.99) });
    m_odds->setText(tr("<b>%1%</b> of the trials finish by %2 %3; 90% by %4, 99% by %5 %3")
                        .arg(100 * deadlineProbability(m, deadline), 0, 'f', 1)
                        .arg(QString::fromStdString(d.values[0]), QString::fromStdString(d.unit), QString::fromStdString(d.values[1]),
                            QString::fromStdString(d.values[2])));
    // The slider follows the box without echoing back.
    const double lo = m.times.front(), hi = m.times.back(), pad = 0.05 * (hi - lo) + 1;
    const QSignalBlocker block(m_deadlineSlider);
    m_deadlineSlider->setValue(int(std::lround(std::clamp((deadline - lo + pad) / (hi - lo + 2 * pad), 0.0, 1.0) * 1000)));
    if (m_deadlineLine) {
        m_deadlineLine->point1->setCoords(deadline / units::day, 0);
        m_deadlineLine->point2->setCoords(deadline / units::day, 1);
        m_histogram->replot(QCustomPlot::rpQueuedReplot);
    }
}

void ReliabilityTab::plotHistogram(const RunOutlook& o)
{
    QCustomPlot* plot = m_histogram;
    plot->clearPlottables();
    plot->clearItems();
    m_deadlineLine = nullptr; // cleared with the items
    const MonteCarloResult& m = o.run;
    double lo = m.times.front(), hi = m.times.back();
    if (o.hasChaos) {
        lo = std::min(lo, o.clean.times.front());
        hi = std::max(hi, o.clean.times.back());
    }
    // Each series is binned over its own spread, so a far-off clean run keeps its shape.
    const int bins = std::clamp(int(std::sqrt(double(m.times.size()))), 10, 60);
    auto histogram = [&](const std::vector<double>& times, const QString& name, QColor color) {
        const double lo = times.front();
        const double width = std::max((times.back() - lo) / bins, 1.0);
        QVector<double> x(bins), y(bins, 0);
        for (int i = 0; i < bins; ++i)
            x[i] = (lo + (i + 0.5) * width) / units::day;
        for (double t : times)
            y[std::min(bins - 1, int((t - lo) / width))] += 1;
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(name);
        bars->setWidth(width / units::day);
        bars->setData(x, y, true);
        bars->setPen(QPen(color.darker(130)));
        color.setAlpha(150);
        bars->setBrush(color);
        return *std::max_element(y.begin(), y.end());
    };
    double top = 0;
    if (o.hasChaos)
        top = histogram(o.clean.times, tr("clean run"), seriesColor(7));
    top = std::max(top, histogram(m.times, o.hasChaos ? tr("with the chaos events") : tr("time to train"), seriesColor(0)));

    auto line = [&](double t, const QString& label, const QColor& c, Qt::PenStyle style, double height) {
        auto* l = new QCPItemStraightLine(plot);
        l->point1->setCoords(t / units::day, 0);
        l->point2->setCoords(t / units::day, 1);
        l->setPen(QPen(c, 2, style));
        auto* text = addPlotText(plot);
        text->position->setCoords(t / units::day, top * height);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        text->setText(" " + label);
        text->setColor(c);
    };
    const QColor fg = foreground();
    line(o.report.expectedTime, (o.hasChaos ? tr("expected without chaos %1") : tr("expected %1")).arg(durationText(o.report.expectedTime)),
        QColor(213, 94, 0), Qt::SolidLine, 1.05);
    line(m.p50, tr("P50"), fg, Qt::DashLine, 0.9);
    line(m.p90, tr("P90"), fg, Qt::DashLine, 0.75);
    line(m.p99, tr("P99"), fg, Qt::DashLine, 0.6);
    // The deadline of the control above, moved with it.
    m_deadlineLine = new QCPItemStraightLine(plot);
    m_deadlineLine->setPen(QPen(errorColor(), 2, Qt::DotLine));
    const double margin = std::max(60.0, 0.04 * (hi - lo));
    plot->xAxis->setRange((lo - margin) / units::day, (hi + 3 * margin) / units::day);
    plot->yAxis->setRange(0, top * 1.15);
    plot->replot();
}

} // namespace dtsim::gui
