#include "timeline_tab.h"

#include "view_export.h"

#include "gantt_view.h"

#include "simcore/step.h"
#include "simcore/timeline/timeline.h"
#include "simcore/units.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSvgGenerator>
#include <QVBoxLayout>

#include <algorithm>

namespace dtsim::gui {

TimelineTab::TimelineTab(const Calibration& calibration, FailureRates rates, QWidget* parent)
    : QWidget(parent)
    , m_calibration(calibration)
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
    m_zeroBubble = new QCheckBox(tr("Zero-bubble schedule"), this);
    m_critical = new QCheckBox(tr("Critical path"), this);
    bar->addWidget(m_ranks);
    bar->addWidget(m_zeroBubble);
    bar->addWidget(m_critical);
    m_checkpoint = new QCheckBox(tr("Checkpoint at the end"), this);
    m_checkpoint->setToolTip(tr("End the window with a checkpoint. Otherwise checkpoints fall every so many steps, "
                                "as the reliability model sets the interval."));
    bar->addWidget(m_checkpoint);
    auto* fit = new QPushButton(tr("Fit (F)"), this);
    bar->addWidget(fit);
    bar->addStretch(1);
    auto* png = new QPushButton(tr("PNG..."), this);
    auto* svg = new QPushButton(tr("SVG..."), this);
    auto* json = new QPushButton(tr("Chrome trace..."), this);
    for (QPushButton* b : { png, svg, json })
        bar->addWidget(b);
    column->addLayout(bar);
    m_summary = new QLabel(this);
    column->addWidget(m_summary);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    m_gantt = new GanttView(scroll);
    scroll->setWidget(m_gantt);
    column->addWidget(scroll, 1);

    for (QCheckBox* box : { m_ranks, m_zeroBubble, m_checkpoint })
        connect(box, &QCheckBox::toggled, this, &TimelineTab::rebuild);
    connect(m_steps, &QSpinBox::valueChanged, this, &TimelineTab::rebuild);
    connect(m_critical, &QCheckBox::toggled, m_gantt, &GanttView::setShowCriticalPath);
    connect(fit, &QPushButton::clicked, m_gantt, &GanttView::fit);
    connect(png, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Export timeline"), "timeline.png", tr("PNG (*.png)"));
        if (!p.isEmpty())
            exportPng(p);
    });
    connect(svg, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Export timeline"), "timeline.svg", tr("SVG (*.svg)"));
        if (!p.isEmpty())
            exportSvg(p);
    });
    connect(json, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Export trace"), "trace.json", tr("Chrome trace (*.json)"));
        if (!p.isEmpty())
            exportTrace(p);
    });
}

void TimelineTab::showScenario(const Scenario* s)
{
    m_valid = s != nullptr;
    if (s)
        m_scenario = *s;
    rebuild();
}

void TimelineTab::rebuild()
{
    if (!m_valid) {
        m_gantt->setTrace(nullptr);
        m_summary->setText(tr("The plan is not valid: no timeline."));
        return;
    }
    const TimelineOptions o = options();
    auto trace = std::make_shared<Trace>(simulateTimeline(m_scenario, m_calibration, o));
    const double analytical = simulateStep(m_scenario, m_calibration).stepTime;
    m_summary->setText(tr("%1 bars on %2 rows. Step time: event simulation %3, analytical %4. "
                          "Checkpoint: %5 every %6 steps.")
                           .arg(trace->events.size()).arg(trace->rowNames.size())
                           .arg(QString::fromStdString(formatSeconds(trace->stepTime)), QString::fromStdString(formatSeconds(analytical)))
                           .arg(QString::fromStdString(formatSeconds(o.checkpointSeconds))).arg(m_intervalSteps));
    m_gantt->setTrace(std::move(trace));
}

TimelineOptions TimelineTab::options()
{
    TimelineOptions o;
    o.steps = m_steps->value();
    o.perRankRows = m_ranks->isChecked();
    o.zeroBubble = m_zeroBubble->isChecked();
    const ReliabilityReport rel = analyzeReliability(m_scenario, m_calibration, m_rates);
    m_intervalSteps = static_cast<long long>(std::min(1e15, rel.intervalSteps));
    o.checkpointEverySteps = m_checkpoint->isChecked() ? o.steps : static_cast<int>(std::min<long long>(m_intervalSteps, 1 << 30));
    o.checkpointSeconds = rel.checkpointWrite;
    return o;
}

bool TimelineTab::exportPng(const QString& path) { return exportWidget(m_gantt, path, nullptr); }

bool TimelineTab::exportSvg(const QString& path)
{
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(m_gantt->size());
    svg.setViewBox(QRect(QPoint(0, 0), m_gantt->size()));
    svg.setTitle(tr("dtsim timeline"));
    QPainter p;
    if (!p.begin(&svg))
        return false;
    m_gantt->renderTo(p, m_gantt->size());
    return p.end();
}

bool TimelineTab::exportTrace(const QString& path)
{
    if (!m_valid)
        return false;
    const std::string json = toChromeTrace(simulateTimeline(m_scenario, m_calibration, options()));
    return writeFileAtomically(path, QByteArray::fromStdString(json), nullptr);
}

} // namespace dtsim::gui
