#include "timeline_tab.h"

#include "view_export.h"

#include "evaluator.h"
#include "gantt_view.h"

#include "simcore/io/atomic_file.h"
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
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QSvgGenerator>
#include <QVBoxLayout>

#include <algorithm>

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
    m_ranks = new QCheckBox(tr("Row per TP rank"), this);
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
    auto* fit = new QPushButton(tr("Fit (F)"), this);
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
    connect(m_steps, &QSpinBox::valueChanged, this, [this] { rebuild(); });
    // The path is computed only while it is shown: asking for it computes it.
    connect(m_critical, &QCheckBox::toggled, this, [this](bool on) {
        m_gantt->setShowCriticalPath(on);
        if (on && m_trace && m_trace->critical.empty())
            rebuild();
    });
    connect(fit, &QPushButton::clicked, m_gantt, &GanttView::fit);
    // A click on the toolbar hands the keyboard back to the chart: W/S/A/D stopped
    // working after a checkbox took the focus, until the chart was clicked.
    for (QAbstractButton* b : std::initializer_list<QAbstractButton*> { m_ranks, m_zeroBubble, m_critical, m_checkpoint, fit })
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

void TimelineTab::showResult(const TimelineResult& t)
{
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
