#include "timeline_tab.h"

#include "view_export.h"

#include "evaluator.h"
#include "gantt_view.h"

#include "simcore/io/atomic_file.h"
#include "simcore/timeline/replica_rows.h"
#include "simcore/timeline/timeline.h"
#include "simcore/units.h"

#include <QBuffer>
#include <QAbstractButton>
#include <QCheckBox>
#include <QMenu>
#include <QToolButton>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QSvgGenerator>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace dtsim::gui {

TimelineTab::TimelineTab(Evaluator* evaluator, FailureRates rates, QWidget* parent)
    : QWidget(parent)
    , m_evaluator(evaluator)
    , m_rates(std::move(rates))
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Steps:"), this));
    m_steps = new QSpinBox(this);
    m_steps->setRange(1, 20);
    bar->addWidget(m_steps);
    // Short labels, and tool buttons: the bar sets the tab's least width, which with the
    // formula panel open must stay within a 1366 px screen (tst_stage).
    m_ranks = new QCheckBox(tr("TP ranks"), this);
    m_ranks->setToolTip(tr("One row per tensor-parallel rank of each stage."));
    m_zeroBubble = new QCheckBox(tr("Zero bubble"), this);
    m_zeroBubble->setToolTip(tr("The ZB-H1 schedule: weight gradients deferred to fill the pipeline bubble."));
    m_critical = new QCheckBox(tr("Critical path"), this);
    bar->addWidget(m_ranks);
    bar->addWidget(m_zeroBubble);
    bar->addWidget(m_critical);
    m_checkpoint = new QCheckBox(tr("End with a checkpoint"), this);
    m_checkpoint->setToolTip(tr("End the window with a checkpoint. Otherwise checkpoints fall every so many steps, "
                                "as the reliability model sets the interval."));
    bar->addWidget(m_checkpoint);
    m_replicas = new QCheckBox(tr("Replicas"), this);
    m_replicas->setToolTip(tr("One row per data-parallel replica: its compute, its wait at the gradient reduction's barrier for "
                              "the slowest replica, then the reduction. Each replica's compute is drawn with cluster.jitter as "
                              "its spread (the same draw every time)."));
    bar->addWidget(m_replicas);
    auto* fit = new QToolButton(this);
    fit->setText(tr("Fit (F)"));
    bar->addWidget(fit);
    bar->addStretch(1);
    // One button for the three exports: three kept the tab (and the window) 1013 px wide
    // at least, more than a 1366 px screen leaves beside the panel.
    auto* exports = new QToolButton(this);
    exports->setText(tr("Export"));
    exports->setPopupMode(QToolButton::InstantPopup);
    auto* exportMenu = new QMenu(exports);
    QAction* png = exportMenu->addAction(tr("PNG..."));
    QAction* svg = exportMenu->addAction(tr("SVG..."));
    QAction* json = exportMenu->addAction(tr("Chrome trace (Perfetto)..."));
    exports->setMenu(exportMenu);
    bar->addWidget(exports);
    column->addLayout(bar);
    // A pinned scenario A's steps above B's (hidden until one is pinned), each with its
    // summary, each scrolling on its own.
    auto* split = new QSplitter(Qt::Vertical, this);
    auto pane = [split](QLabel*& summary, GanttView*& gantt) {
        auto* box = new QWidget(split);
        auto* col = new QVBoxLayout(box);
        col->setContentsMargins(0, 0, 0, 0);
        summary = new QLabel(box);
        summary->setWordWrap(true); // the replica rows' summary is two lines on a laptop
        col->addWidget(summary);
        auto* scroll = new QScrollArea(box);
        scroll->setWidgetResizable(true);
        gantt = new GanttView(scroll);
        scroll->setWidget(gantt);
        col->addWidget(scroll, 1);
        split->addWidget(box);
        return box;
    };
    m_pinnedBox = pane(m_summaryA, m_ganttA);
    m_pinnedBox->hide();
    pane(m_summary, m_gantt);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    column->addWidget(split, 1);
    connect(m_evaluator, &Evaluator::pinnedTimelineReady, this, [this](const TimelineResult& t) {
        if (showsReplicas())
            return; // asked for before the rows were: they stay
        m_ganttA->setTrace(t.trace);
        m_summaryA->setText(t.trace ? tr("<b>A</b> = %1: step %2 (event simulation)")
                                          .arg(QString::fromStdString(m_pinned ? m_pinned->name : std::string()).toHtmlEscaped(),
                                              QString::fromStdString(formatSeconds(t.trace->stepTime)))
                                    : QString::fromStdString(t.refused));
        alignPinned();
    });

    connect(m_evaluator, &Evaluator::timelineReady, this, &TimelineTab::showResult);
    for (QCheckBox* box : { m_ranks, m_zeroBubble, m_checkpoint })
        connect(box, &QCheckBox::toggled, this, [this] { rebuild(); });
    connect(m_steps, &QSpinBox::valueChanged, this, [this] {
        m_fitReplicas = true; // more or fewer steps: show them all
        rebuild();
    });
    connect(m_replicas, &QCheckBox::toggled, this, &TimelineTab::setShowReplicas);
    // The path is computed only while it is shown: asking for it computes it.
    connect(m_critical, &QCheckBox::toggled, this, [this](bool on) {
        m_gantt->setShowCriticalPath(on);
        if (on && m_trace && m_trace->critical.empty())
            rebuild();
    });
    connect(fit, &QToolButton::clicked, m_gantt, &GanttView::fit);
    // A click on the toolbar hands the keyboard back to the chart: W/S/A/D stopped
    // working after a checkbox took the focus, until the chart was clicked.
    for (QAbstractButton* b : std::initializer_list<QAbstractButton*> { m_ranks, m_zeroBubble, m_critical, m_checkpoint, m_replicas, fit })
        connect(b, &QAbstractButton::clicked, m_gantt, [this] { m_gantt->setFocus(Qt::OtherFocusReason); });
    connect(m_steps, &QSpinBox::editingFinished, m_gantt, [this] { m_gantt->setFocus(Qt::OtherFocusReason); });
    // Each export says whether it was written, and why not.
    auto exportTo = [this](const QString& title, const QString& name, const QString& filter,
                        bool (TimelineTab::*run)(const QString&, QString*)) {
        const QString p = QFileDialog::getSaveFileName(this, title, name, filter);
        QString error;
        if (!p.isEmpty() && !(this->*run)(p, &error))
            QMessageBox::warning(this, title, tr("Could not export %1: %2").arg(p, error));
    };
    connect(png, &QAction::triggered, this,
        [=] { exportTo(tr("Export timeline"), "timeline.png", tr("PNG (*.png)"), &TimelineTab::exportPng); });
    connect(svg, &QAction::triggered, this,
        [=] { exportTo(tr("Export timeline"), "timeline.svg", tr("SVG (*.svg)"), &TimelineTab::exportSvg); });
    connect(json, &QAction::triggered, this,
        [=] { exportTo(tr("Export trace"), "trace.json", tr("Chrome trace (*.json)"), &TimelineTab::exportTrace); });
}

void TimelineTab::follow(const TabInput& in, TabMoment when)
{
    m_step = in.report ? std::optional(in.report->step) : std::nullopt;
    m_pinnedStep = in.pinnedReport ? std::optional(in.pinnedReport->step) : std::nullopt;
    if (in.pinned ? m_pinned != *in.pinned : m_pinned.has_value())
        setPinned(in.pinned ? std::optional(*in.pinned) : std::nullopt);
    if (when == TabMoment::Edit || in.valid)
        showScenario(in.valid, when == TabMoment::Edit);
}

QString TimelineTab::summary() const { return m_summary->text(); }

bool TimelineTab::showsReplicas() const { return m_replicas->isChecked(); }

void TimelineTab::setShowReplicas(bool on)
{
    if (m_replicas->isChecked() != on) {
        m_replicas->setChecked(on); // comes back here through toggled
        return;
    }
    // The pipeline's options do not apply to the rows.
    for (QCheckBox* box : { m_ranks, m_zeroBubble, m_critical, m_checkpoint })
        box->setEnabled(!on);
    m_gantt->setShowCriticalPath(!on && m_critical->isChecked());
    if (on && m_steps->value() == 1)
        m_steps->setValue(4); // one step shows no spread from step to step (this rebuilds)
    m_trace.reset();
    m_fitReplicas = on;
    rebuild();
}

void TimelineTab::showScenario(const Scenario* s, bool draft)
{
    m_valid = s != nullptr;
    if (s)
        m_scenario = *s;
    m_stale = true;
    rebuild(draft);
}

void TimelineTab::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    if (m_stale)
        rebuild(); // an edit made while the tab was hidden
}

void TimelineTab::rebuild(bool draft)
{
    if (!m_valid) {
        m_trace.reset();
        m_gantt->setTrace(nullptr);
        m_summary->setText(tr("The plan is not valid: no timeline."));
        m_stale = false;
        return;
    }
    m_stale = true;
    if (!isVisible() && window()->isVisible())
        return; // nobody looks: simulate when the tab is shown (a window not shown yet, as under --screenshot, computes)
    if (showsReplicas()) {
        showReplicaRows(); // microseconds: a few draws per row and step
        return;
    }
    TimelineOptions o;
    o.steps = m_steps->value();
    o.perRankRows = m_ranks->isChecked();
    o.zeroBubble = m_zeroBubble->isChecked();
    o.perLayer = !draft;
    if (!m_trace)
        m_summary->setText(tr("Simulating the steps...")); // otherwise the last one stays up until this one is drawn
    m_evaluator->requestTimeline(m_scenario, m_rates, o, m_checkpoint->isChecked(), m_critical->isChecked());
    if (m_pinned && !draft)
        m_evaluator->requestPinnedTimeline(*m_pinned, m_rates, o, m_checkpoint->isChecked());
}

void TimelineTab::alignPinned()
{
    if (!m_pinned || m_ganttA->traceLength() <= 0 || m_gantt->traceLength() <= 0)
        return;
    const double span = std::max(m_ganttA->traceLength(), m_gantt->traceLength());
    m_ganttA->fitTo(span);
    m_gantt->fitTo(span);
}

void TimelineTab::setPinned(const std::optional<Scenario>& a)
{
    m_pinned = a;
    m_pinnedBox->setVisible(a.has_value());
    if (!a) {
        m_ganttA->setTrace(nullptr);
        return;
    }
    m_summaryA->setText(tr("<b>A</b>: simulating its steps..."));
    m_stale = true;
    rebuild();
}

namespace {
QString replicaSummary(const Scenario& s, const ReplicaRows& r)
{
    auto text = [](double seconds) { return QString::fromStdString(formatSeconds(seconds)); };
    QString who = r.ranksPerReplica == 1 ? TimelineTab::tr("%1 data-parallel replicas of one GPU").arg(r.replicas)
                                         : TimelineTab::tr("%1 data-parallel replicas of %2 GPUs (the slowest rank paces each)")
                                               .arg(r.replicas).arg(r.ranksPerReplica);
    if (r.restRow)
        who += TimelineTab::tr("; %1 drawn, and the slowest of the other %2 each step").arg(r.shownReplicas).arg(r.replicas - r.shownReplicas);
    if (s.cluster.jitter <= 0)
        return who + TimelineTab::tr(". No jitter (cluster.jitter 0): every replica ends its compute together and none waits.");
    return who + TimelineTab::tr(". Jitter %1%: over %2 steps the barrier came %3% after the nominal compute on average "
                                 "(the step model's straggler term: %4%); a drawn replica waited %5 on average.")
                     .arg(100 * s.cluster.jitter, 0, 'g', 3).arg(r.stretch.size()).arg(100 * r.meanStretch(), 0, 'f', 1)
                     .arg(100 * r.expectedStretch, 0, 'f', 1).arg(text(r.meanWait()));
}
} // namespace

void TimelineTab::showReplicaRows()
{
    auto draw = [this](const Scenario& s, const std::optional<StepReport>& st, GanttView* gantt, QLabel* summary, const QString& who) {
        std::shared_ptr<const Trace> trace;
        if (st) {
            const ReplicaRows rows = simulateReplicaRows(replicaRowsInput(s, *st, m_steps->value()));
            trace = std::make_shared<const Trace>(replicaTrace(rows));
            summary->setText(who + replicaSummary(s, rows));
        } else {
            summary->setText(who + tr("No step report to draw the replicas from."));
        }
        gantt->setTrace(trace);
        return trace;
    };
    m_stale = false;
    m_trace = draw(m_scenario, m_step, m_gantt, m_summary, m_pinned ? tr("<b>B</b>: ") : QString());
    if (m_pinned)
        draw(*m_pinned, m_pinnedStep, m_ganttA, m_summaryA, tr("<b>A</b>: "));
    if (std::exchange(m_fitReplicas, false))
        m_gantt->fit(); // the rows just came up, or the steps changed; an edit keeps the zoom
    alignPinned();
}

void TimelineTab::showResult(const TimelineResult& t)
{
    if (showsReplicas())
        return; // asked for before the rows were: they stay
    m_stale = t.draft;
    m_trace = t.trace;
    m_gantt->setTrace(t.trace);
    alignPinned();
    if (!t.trace) {
        m_summary->setText(QString::fromStdString(t.refused));
        return;
    }
    m_summary->setText((m_pinned ? tr("<b>B</b>: ") : QString()) + tr("%1 bars on %2 rows. Step time: event simulation %3, analytical %4. "
                          "Checkpoint: %5 every %6 steps.")
                           .arg(t.trace->events.size()).arg(t.trace->rowNames.size())
                           .arg(QString::fromStdString(formatSeconds(t.trace->stepTime)), QString::fromStdString(formatSeconds(t.analyticalStep)))
                           .arg(QString::fromStdString(formatSeconds(t.checkpointSeconds))).arg(t.intervalSteps)
        + (t.draft ? tr(" (Whole passes while editing: the layers follow when the edits pause.)") : QString()));
}

bool TimelineTab::exportPng(const QString& path, QString* error) { return exportWidget(m_gantt, path, error); }

bool TimelineTab::exportSvg(const QString& path, QString* error)
{
    // Drawn into memory, then written whole: a failed write keeps an older export.
    QByteArray bytes;
    QBuffer buffer(&bytes);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(m_gantt->size());
    svg.setViewBox(QRect(QPoint(0, 0), m_gantt->size()));
    svg.setTitle(tr("dtsim timeline"));
    QPainter p;
    if (!p.begin(&svg)) {
        if (error)
            *error = tr("cannot draw the timeline");
        return false;
    }
    m_gantt->renderTo(p, m_gantt->size());
    p.end();
    return writeFileAtomically(path, bytes, error);
}

bool TimelineTab::exportTrace(const QString& path, QString* error)
{
    if (!m_trace || m_stale) {
        if (error)
            *error = !m_valid ? tr("the scenario's plan is not valid") : tr("the timeline is not drawn yet");
        return false;
    }
    // Streamed from the drawn trace: nothing is simulated again on the GUI thread.
    AtomicFile out(QFile::encodeName(path).toStdString());
    if (out.open() && writeChromeTrace(*m_trace, [&](std::string_view piece) { return out.write(piece); }) && out.commit())
        return true;
    if (error)
        *error = QString::fromLocal8Bit(out.error().c_str());
    return false;
}

} // namespace dtsim::gui
