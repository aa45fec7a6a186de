#include "whatif_tab.h"

#include "steady_label.h"

#include "evaluator.h"
#include "palette_colors.h"
#include "plot_style.h"

#include "simcore/fields/scenario_fields.h"
#include "simcore/io/atomic_file.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/units.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

namespace dtsim::gui {

namespace {

// The fields a sweep offers: what-if questions people ask of a training run.
const char* const kSweepFields[] = { "parallel.tp", "parallel.pp", "parallel.cp", "parallel.ep", "parallel.dp", "parallel.zero",
    "parallel.recompute", "training.micro_batch", "training.global_batch", "training.seq_len", "training.precision", "cluster.gpus",
    "cluster.scale_out_bandwidth", "cluster.scale_up_bandwidth" };

QString gainText(double gain)
{
    return gain < 1 ? QString("%1%").arg(100 * gain, 0, 'f', 1) : QString("%1x as fast").arg(1 + gain, 0, 'f', 2);
}

} // namespace

SweepAxis WhatIfTab::axisAround(const FieldDef& f, const Scenario& s)
{
    SweepAxis a;
    a.field = &f;
    const double now = f.get(s, 0);
    switch (f.type) {
    case FieldType::Choice:
        for (const ChoiceName& c : f.choices)
            if (!c.alias)
                a.values.push_back(c.value);
        break;
    case FieldType::Flag:
        a.values = { 0, 1 };
        break;
    case FieldType::Integer: {
        // Powers of two around the value: 1 to 64 for degrees and micro-batches, x1/8 to
        // x8 for counts.
        const bool degree = f.path.starts_with("parallel.") || f.path == "training.micro_batch";
        const double lo = degree ? 1 : std::max<double>(f.min, std::pow(2, std::floor(std::log2(std::max(1.0, now))) - 3));
        const double hi = degree ? 64 : lo * 64;
        for (double v = lo; v <= hi && v <= double(f.max); v *= 2)
            a.values.push_back(v);
        if (f.path == "parallel.zero") // 0 to 3
            a.values = { 0, 1, 2, 3 };
        break;
    }
    default:
        for (double k = 0.125; k <= 8.01; k *= 2)
            a.values.push_back(now > 0 ? now * k : k);
        break;
    }
    Scenario probe = s;
    for (double v : a.values) {
        applyFieldValue(probe, f, v);
        a.labels.push_back(readableLabel(probe, f));
    }
    return a;
}

std::string WhatIfTab::readableLabel(const Scenario& s, const FieldDef& f)
{
    const double v = f.get(s, 0);
    if (f.type == FieldType::Quantity && f.dimension == Dimension::BytesPerSecond)
        return formatRate(v);
    return fieldValueText(s, f, 0);
}

WhatIfTab::WhatIfTab(Evaluator* evaluator, std::vector<HardwareSpec> catalog, QWidget* parent)
    : QWidget(parent)
    , m_evaluator(evaluator)
    , m_catalog(std::move(catalog))
{
    auto* layout = new QVBoxLayout(this);
    // Its height holds as the diagnosis changes: Apply never moves the table under the
    // pointer.
    m_regime = new SteadyLabel(this);
    m_regime->setTextFormat(Qt::RichText);
    layout->addWidget(m_regime);

    auto* split = new QSplitter(Qt::Vertical, this);
    m_table = new QTableWidget(0, 5, split);
    m_table->setHorizontalHeaderLabels({ tr("Change"), tr("Faster by"), tr("Time to train"), tr("GPU-hours"), QString() });
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 5; ++c)
        m_table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setMinimumHeight(150);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { applySuggestion(row); });
    split->addWidget(m_table);

    auto* sweepBox = new QWidget(split);
    auto* sweepLayout = new QVBoxLayout(sweepBox);
    sweepLayout->setContentsMargins(0, 0, 0, 0);
    auto* controls = new QHBoxLayout;
    m_x = new QComboBox(sweepBox);
    m_y = new QComboBox(sweepBox);
    // The fields by their panel labels (the YAML path is the tooltip); the combo boxes
    // may be narrower than their longest label, so the tab fits a 1366 px screen with
    // the formula panel open.
    for (const char* path : kSweepFields) {
        const FieldDef* f = findField(path);
        const QString label = f && !f->panel.label.empty() ? QString::fromStdString(f->panel.label) : QString::fromLatin1(path);
        for (QComboBox* c : { m_x, m_y }) {
            c->addItem(label, QString::fromLatin1(path));
            c->setItemData(c->count() - 1, QString::fromLatin1(path), Qt::ToolTipRole);
        }
    }
    for (QComboBox* c : { m_x, m_y }) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(12);
    }
    m_x->setCurrentIndex(m_x->findData("parallel.tp"));
    m_y->setCurrentIndex(m_y->findData("parallel.pp"));
    m_metric = new QComboBox(sweepBox);
    for (int h = 0; h < kHeadlineCount; ++h)
        m_metric->addItem(QString::fromLatin1(headlineInfo(Headline(h)).label), h);
    m_metric->setCurrentIndex(int(Headline::Mfu));
    m_export = new QPushButton(tr("Export CSV..."), sweepBox);
    controls->addWidget(new QLabel(tr("Sweep"), sweepBox));
    controls->addWidget(m_metric);
    controls->addWidget(new QLabel(tr("across"), sweepBox));
    controls->addWidget(m_x);
    controls->addWidget(new QLabel(tr("and"), sweepBox));
    controls->addWidget(m_y);
    controls->addStretch(1);
    controls->addWidget(m_export);
    sweepLayout->addLayout(controls);
    m_sweepNote = new QLabel(sweepBox);
    m_sweepNote->setWordWrap(true);
    sweepLayout->addWidget(m_sweepNote);
    m_map = new QCustomPlot(sweepBox);
    m_map->setMinimumHeight(240);
    m_map->setBackground(background());
    styleAxis(m_map->xAxis);
    styleAxis(m_map->yAxis);
    sweepLayout->addWidget(m_map, 1);
    split->addWidget(sweepBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    for (QComboBox* c : { m_x, m_y, m_metric })
        connect(c, &QComboBox::activated, this, [this] { requestSweep(); });
    connect(m_export, &QPushButton::clicked, this, &WhatIfTab::exportCsv);
    connect(m_map, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        const int ix = int(std::lround(m_map->xAxis->pixelToCoord(e->position().x())));
        const int iy = int(std::lround(m_map->yAxis->pixelToCoord(e->position().y())));
        applyCell(ix, iy);
    });
    // Hovering a cell says what it is: its value, or why it has none.
    connect(m_map, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const int ix = int(std::lround(m_map->xAxis->pixelToCoord(e->position().x())));
        const int iy = int(std::lround(m_map->yAxis->pixelToCoord(e->position().y())));
        if (m_sweep.cells.empty() || ix < 0 || iy < 0 || ix >= int(m_sweep.x.values.size()) || iy >= int(m_sweep.y.values.size())) {
            QToolTip::hideText();
            return;
        }
        const SweepCell& c = m_sweep.at(std::size_t(ix), std::size_t(iy));
        QString text = QString::fromStdString(m_sweep.x.field->path + " " + m_sweep.x.labels[std::size_t(ix)] + ", " + m_sweep.y.field->path
            + " " + m_sweep.y.labels[std::size_t(iy)]) + "\n";
        text += c.ok() ? QString::fromStdString(formatHeadline(m_sweep.metric, c.value) + (c.adjusted.empty() ? "" : " (adjusted: " + c.adjusted + ")"))
                       : QString::fromStdString(c.issue);
        QToolTip::showText(e->globalPosition().toPoint(), text, m_map);
    });
    connect(m_evaluator, &Evaluator::adviceReady, this, &WhatIfTab::showAdvice);
    connect(m_evaluator, &Evaluator::sweepReady, this, &WhatIfTab::showSweep);
}

void WhatIfTab::follow(const TabInput& in, TabMoment when)
{
    if (when != TabMoment::Pause || !in.valid)
        return;
    m_scenario = *in.valid;
    m_hasScenario = true;
    m_evaluator->requestAdvice(m_scenario, m_catalog);
    requestSweep();
}

bool WhatIfTab::setSweep(const std::string& xPath, const std::string& yPath, Headline metric)
{
    const int x = m_x->findData(QString::fromStdString(xPath)), y = m_y->findData(QString::fromStdString(yPath));
    if (x < 0 || y < 0 || x == y)
        return false;
    m_x->setCurrentIndex(x);
    m_y->setCurrentIndex(y);
    m_metric->setCurrentIndex(int(metric));
    requestSweep();
    return true;
}

void WhatIfTab::requestSweep()
{
    if (!m_hasScenario)
        return;
    const FieldDef* fx = findField(m_x->currentData().toString().toStdString());
    const FieldDef* fy = findField(m_y->currentData().toString().toStdString());
    if (!fx || !fy || fx == fy) {
        m_sweepNote->setText(tr("Pick two different fields."));
        return;
    }
    m_evaluator->requestSweep(m_scenario, axisAround(*fx, m_scenario), axisAround(*fy, m_scenario), Headline(m_metric->currentData().toInt()));
}

void WhatIfTab::showAdvice(const Advice& a)
{
    m_advice = a;
    m_regime->setSteadyText(tr("<b>%1</b><br>%2. Time to train %3.")
                          .arg(QString::fromStdString(a.diagnosis.summary).toHtmlEscaped(),
                              QString::fromStdString(a.diagnosis.reading).toHtmlEscaped().replace(0, 1, QString::fromStdString(a.diagnosis.reading).left(1).toUpper()),
                              a.fits ? QString::fromStdString(formatDuration(a.timeToTrain)) : tr("none: the run cannot start")));
    m_table->setRowCount(int(a.suggestions.size()));
    for (int row = 0; row < int(a.suggestions.size()); ++row) {
        const Suggestion& sg = a.suggestions[std::size_t(row)];
        QString sets;
        for (const auto& [path, value] : sg.sets)
            sets += QString("%1=%2\n").arg(QString::fromStdString(path), QString::fromStdString(value));
        auto* change = new QTableWidgetItem(QString::fromStdString(sg.title));
        change->setToolTip(tr("The changes, as --set overrides:\n%1%2").arg(sets, sg.note.empty() ? QString() : "\n" + QString::fromStdString(sg.note)));
        m_table->setItem(row, 0, change);
        m_table->setItem(row, 1, new QTableWidgetItem(sg.makesItFit ? tr("makes it fit") : gainText(sg.gain)));
        m_table->setItem(row, 2, new QTableWidgetItem(QString::fromStdString(formatDuration(sg.timeToTrain))));
        m_table->setItem(row, 3, new QTableWidgetItem(sg.makesItFit ? QString::fromStdString(formatCount(sg.gpuHours))
                                                                    : QString("%1 (%2%3%)")
                                                                          .arg(QString::fromStdString(formatCount(sg.gpuHours)))
                                                                          .arg(sg.gpuHoursChange >= 0 ? "+" : "")
                                                                          .arg(100 * sg.gpuHoursChange, 0, 'f', 1)));
        auto* apply = new QPushButton(tr("Apply"), m_table);
        apply->setToolTip(tr("Apply this change (Edit > Undo takes it back)."));
        connect(apply, &QPushButton::clicked, this, [this, row] { applySuggestion(row); });
        m_table->setCellWidget(row, 4, apply);
    }
    if (a.suggestions.empty()) {
        m_table->setRowCount(1);
        m_table->setItem(0, 0, new QTableWidgetItem(a.fits ? tr("No change dtsim tried makes this run faster.")
                                                           : tr("No change dtsim tried makes this run fit.")));
    }
}

void WhatIfTab::applySuggestion(int row)
{
    if (row >= 0 && row < int(m_advice.suggestions.size()))
        emit applyScenario(m_advice.suggestions[std::size_t(row)].scenario, QString::fromStdString(m_advice.suggestions[std::size_t(row)].title));
}

void WhatIfTab::applyCell(int ix, int iy)
{
    if (!m_hasScenario || m_sweep.cells.empty() || ix < 0 || iy < 0 || ix >= int(m_sweep.x.values.size()) || iy >= int(m_sweep.y.values.size()))
        return;
    if (!m_sweep.at(std::size_t(ix), std::size_t(iy)).ok())
        return;
    emit applyScenario(sweepScenario(m_scenario, m_sweep.x, m_sweep.y, std::size_t(ix), std::size_t(iy)),
        QString::fromStdString(m_sweep.x.field->path + " = " + m_sweep.x.labels[std::size_t(ix)] + ", " + m_sweep.y.field->path + " = "
            + m_sweep.y.labels[std::size_t(iy)]));
}

void WhatIfTab::showSweep(const SweepResult& r)
{
    m_sweep = r;
    m_map->clearPlottables();
    m_map->clearItems();
    const int nx = int(r.x.values.size()), ny = int(r.y.values.size());
    auto* map = new QCPColorMap(m_map->xAxis, m_map->yAxis);
    map->data()->setSize(nx, ny);
    map->data()->setRange(QCPRange(0, nx - 1), QCPRange(0, ny - 1));
    int valid = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (int iy = 0; iy < ny; ++iy)
        for (int ix = 0; ix < nx; ++ix) {
            const SweepCell& c = r.at(std::size_t(ix), std::size_t(iy));
            map->data()->setCell(ix, iy, c.ok() ? c.value : std::nan(""));
            if (c.ok()) {
                ++valid;
                lo = std::min(lo, c.value);
                hi = std::max(hi, c.value);
            }
        }
    // Viridis' stops (perceptually even, readable without colour vision); better is
    // brighter, so inverted where less is better.
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, QColor(0x44, 0x01, 0x54));
    gradient.setColorStopAt(0.33, QColor(0x31, 0x68, 0x8e));
    gradient.setColorStopAt(0.66, QColor(0x35, 0xb7, 0x79));
    gradient.setColorStopAt(1.0, QColor(0xfd, 0xe7, 0x25));
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    if (!headlineInfo(r.metric).higherIsBetter)
        gradient = gradient.inverted();
    map->setGradient(gradient);
    map->setInterpolate(false);
    if (valid > 0)
        map->setDataRange(QCPRange(lo, hi > lo ? hi : lo + 1e-12));
    // Values in the cells, and the scenario's own cell outlined.
    const QFont small = plotSmallFont(m_map);
    for (int iy = 0; iy < ny; ++iy)
        for (int ix = 0; ix < nx; ++ix) {
            const SweepCell& c = r.at(std::size_t(ix), std::size_t(iy));
            auto* t = addPlotText(m_map);
            t->position->setCoords(ix, iy);
            t->setText(c.ok() ? QString::fromStdString(formatHeadline(r.metric, c.value)) : QString::fromUtf8("\u2013"));
            const double level = valid > 0 && hi > lo ? (c.value - lo) / (hi - lo) : 0.5;
            const bool darkCell = headlineInfo(r.metric).higherIsBetter ? level < 0.55 : level > 0.45;
            t->setColor(c.ok() ? (darkCell ? Qt::white : Qt::black) : foreground());
            t->setFont(small);
        }
    if (r.currentX >= 0 && r.currentY >= 0) {
        auto* mark = new QCPItemRect(m_map);
        mark->topLeft->setCoords(r.currentX - 0.5, r.currentY + 0.5);
        mark->bottomRight->setCoords(r.currentX + 0.5, r.currentY - 0.5);
        mark->setPen(QPen(errorBannerInk(), 3));
    }
    auto labels = [](const SweepAxis& a) {
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        for (std::size_t i = 0; i < a.labels.size(); ++i)
            ticker->addTick(double(i), QString::fromStdString(a.labels[i]));
        return ticker;
    };
    m_map->xAxis->setTicker(labels(r.x));
    m_map->yAxis->setTicker(labels(r.y));
    auto title = [](const FieldDef* f) { return QString::fromStdString(f->panel.label.empty() ? f->path : f->panel.label); };
    m_map->xAxis->setLabel(title(r.x.field));
    m_map->yAxis->setLabel(title(r.y.field));
    m_map->xAxis->setRange(-0.5, nx - 0.5);
    m_map->yAxis->setRange(-0.5, ny - 0.5);
    m_map->xAxis->grid()->setVisible(false);
    m_map->yAxis->grid()->setVisible(false);
    m_map->replot();
    m_sweepNote->setText(tr("%1 over %2 x %3 cells: brighter is better; the outlined cell is the scenario as it stands; "
                            "\u2013 a cell the rules refuse or that does not fit in memory (its tooltip says why). Click a cell to apply it.")
                             .arg(QString::fromLatin1(headlineInfo(r.metric).label))
                             .arg(nx)
                             .arg(ny));
}

QString WhatIfTab::sweepCsv() const
{
    if (m_sweep.cells.empty())
        return {};
    QString csv = QString::fromStdString(m_sweep.y.field->path + " \\ " + m_sweep.x.field->path);
    for (const std::string& l : m_sweep.x.labels)
        csv += "," + QString::fromStdString(l);
    csv += "\n";
    for (std::size_t iy = 0; iy < m_sweep.y.values.size(); ++iy) {
        csv += QString::fromStdString(m_sweep.y.labels[iy]);
        for (std::size_t ix = 0; ix < m_sweep.x.values.size(); ++ix) {
            const SweepCell& c = m_sweep.at(ix, iy);
            csv += "," + (c.ok() ? QString::number(c.value, 'g', 10) : QString());
        }
        csv += "\n";
    }
    return csv;
}

void WhatIfTab::exportCsv()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the sweep"), QString(), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    std::string error;
    if (!dtsim::writeFileAtomically(path.toStdString(), sweepCsv().toStdString(), &error))
        QMessageBox::warning(this, tr("Export the sweep"), tr("Could not write %1: %2").arg(path, QString::fromStdString(error)));
}

} // namespace dtsim::gui
