#include "breakdown_tab.h"

#include <algorithm>

#include "chart_style.h"
#include "theme.h"
#include "palette_colors.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QValueAxis>
#include <QCursor>
#include <QToolTip>

namespace dtsim::gui {

namespace {

// Horizontal stacked bars, one per category: a set per component, in the given order.
// The series, its sets and its axes are made once per shape; an edit only changes values
// (a component at zero in every bar leaves the legend), so a drag repaints without
// relayout or allocation. (Qt Charts 6.4 also leaves ~50 scene items behind for every
// series and axis removed.) Bars listed in `grey` are drawn in shades of grey: a pinned
// scenario A under the current one.
int fillStacked(QChartView* view, const QStringList& categories, const std::vector<std::pair<QString, std::vector<double>>>& parts,
    double scale, const QString& unit, double limit = 0, const std::vector<int>& grey = {})
{
    QChart* chart = view->chart();
    auto* series = chart->series().isEmpty() ? nullptr : qobject_cast<QHorizontalStackedBarSeries*>(chart->series().first());
    const qsizetype bars = categories.size();
    if (!series || series->count() != int(parts.size()) || series->barSets().value(0)->count() != bars) {
        chart->removeAllSeries();
        series = new QHorizontalStackedBarSeries;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            auto* set = new QBarSet(parts[i].first);
            for (qsizetype b = 0; b < bars; ++b)
                *set << 0.0;
            set->setColor(seriesColor(int(i)));
            // Grey shades that still tell the components apart.
            const int level = 110 + int(i) * 97 % 120;
            set->setSelectedColor(QColor(level, level, level));
            series->append(set);
        }
        chart->addSeries(series);
        // A bar's part says its value under the pointer (the legend only names it).
        QObject::connect(series, &QHorizontalStackedBarSeries::hovered, view, [view, series](bool on, int index, QBarSet* set) {
            const QString unit = series->property("unit").toString();
            const QString category = qobject_cast<QBarCategoryAxis*>(view->chart()->axes(Qt::Vertical).value(0))->at(index);
            const QString text = on ? QString("%1, %2: %3 %4").arg(category, set->label()).arg(set->at(index), 0, 'g', 3).arg(unit) : QString();
            view->setToolTip(text);
            if (on)
                QToolTip::showText(QCursor::pos(), text, view);
            else
                QToolTip::hideText();
        });
        if (chart->axes().isEmpty()) {
            chart->addAxis(new QBarCategoryAxis, Qt::AlignLeft);
            chart->addAxis(new QValueAxis, Qt::AlignBottom);
        }
        series->attachAxis(chart->axes(Qt::Vertical).value(0));
        series->attachAxis(chart->axes(Qt::Horizontal).value(0));
    }
    int count = 0;
    double longest = 0;
    std::vector<double> totals(std::size_t(bars), 0.0);
    const QList<QBarSet*> sets = series->barSets();
    for (std::size_t i = 0; i < parts.size(); ++i) {
        bool shown = false;
        for (qsizetype b = 0; b < bars; ++b) {
            const double v = std::max(0.0, parts[i].second[std::size_t(b)] / scale);
            sets[qsizetype(i)]->replace(b, v);
            totals[std::size_t(b)] += v;
            shown |= v > 0;
        }
        sets[qsizetype(i)]->deselectAllBars();
        for (int b : grey)
            sets[qsizetype(i)]->selectBar(b);
        for (QLegendMarker* m : chart->legend()->markers(series))
            if (m->label() == parts[i].first)
                m->setVisible(shown);
        count += parts[i].second.back() > 0;
    }
    for (double t : totals)
        longest = std::max(longest, t);
    auto* cats = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Vertical).value(0));
    if (cats->categories() != categories)
        cats->setCategories(categories);
    cats->setLabelsColor(foreground());
    series->setProperty("unit", unit.section(' ', 0, 0)); // "seconds", "GiB", "ms"
    auto* values = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0));
    if (values->titleText() != unit)
        values->setTitleText(unit);
    values->setLabelsColor(foreground());
    values->setTitleBrush(foreground());
    values->setRange(0, std::max(longest, limit / scale) * 1.05);
    styleChartText(view); // new axes take the view's type (large while presenting)
    return count;
}

} // namespace

BreakdownTab::BreakdownTab(QWidget* parent) : QWidget(parent)
{
    m_grid = new QGridLayout(this);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_step = makeChartView(tr("Step time by component"), this);
    m_memory = makeChartView(tr("Memory per GPU"), this);
    m_layers = makeChartView(tr("Compute by layer type (layer tables)"), this);
    m_layers->hide();
    arrange();
}

int BreakdownTab::chartHeight() const
{
    // A title, a bar or two, tick labels, the axis title and a legend: about eleven lines.
    return 11 * fontMetrics().height();
}

void BreakdownTab::arrange(bool force)
{
    // One column while each chart gets its height; two when they would be squeezed (a
    // 1366x768 screen in presentation mode), where Qt Charts would elide every label.
    const int charts = 2 + (m_layers->isHidden() ? 0 : 1);
    const bool wide = height() > 0 && height() < charts * chartHeight() && charts == 3;
    if (wide == m_twoColumns && m_grid->count() > 0 && !force)
        return;
    m_twoColumns = wide;
    for (QWidget* chart : { static_cast<QWidget*>(m_step), static_cast<QWidget*>(m_layers), static_cast<QWidget*>(m_memory) })
        m_grid->removeWidget(chart);
    if (wide) {
        // The step chart's legend is the longest: it keeps the whole width.
        m_grid->addWidget(m_step, 0, 0, 1, 2);
        m_grid->addWidget(m_memory, 1, 0, 1, m_layers->isHidden() ? 2 : 1);
        m_grid->addWidget(m_layers, 1, 1);
    } else {
        m_grid->addWidget(m_step, 0, 0);
        m_grid->addWidget(m_layers, 1, 0);
        m_grid->addWidget(m_memory, 2, 0);
    }
    // Rows share the height; a hidden chart's row takes none.
    m_grid->setRowStretch(0, 1);
    m_grid->setRowStretch(1, wide || !m_layers->isHidden() ? 1 : 0);
    m_grid->setRowStretch(2, wide ? 0 : 1);
}

void BreakdownTab::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    arrange();
}

void BreakdownTab::changeEvent(QEvent* e)
{
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange)
        arrange();
}

int BreakdownTab::stepBarsForTest() const
{
    const auto axes = m_step->chart()->axes(Qt::Vertical);
    auto* cats = axes.isEmpty() ? nullptr : qobject_cast<QBarCategoryAxis*>(axes.first());
    return cats ? int(cats->count()) : 0;
}

bool BreakdownTab::layerChartShownForTest() const
{
    return !m_layers->isHidden();
}

void BreakdownTab::showLayerTypes(const Report& r)
{
    // A layer table's compute by layer type, forward and backward (simulated per layer by
    // the engine; the view only draws it). Hidden for transformers.
    double layerTotal = 0;
    for (int t = 0; t < kLayerTypeCount; ++t)
        layerTotal += r.layerTypeForward[t] + r.layerTypeBackward[t];
    const StepReport::MoeLayerTimes& ml = r.step.moeLayer;
    const bool layers = layerTotal > 0 || ml.total() > 0;
    if (layers != !m_layers->isHidden()) {
        m_layers->setVisible(layers);
        arrange(true); // lay out again for the chart that came or went
    }
    if (layerTotal <= 0 && ml.total() > 0) {
        // One MoE layer for one micro-batch, as the engine splits it (milliseconds).
        const std::vector<std::pair<QString, std::vector<double>>> parts {
            { tr("router"), { ml.router } }, { tr("permute + unpermute"), { ml.permute } },
            { tr("dispatch all-to-all"), { ml.dispatch } }, { tr("experts"), { ml.experts } },
            { tr("combine all-to-all"), { ml.combine } }, { tr("shared experts"), { ml.shared } } };
        m_layers->chart()->setTitle(tr("One MoE layer"));
        fillStacked(m_layers, { tr("one MoE layer") }, parts, 1e-3,
            tr("ms, one micro-batch forward + backward (all-to-alls hidden or not)"));
        return;
    }
    if (layerTotal <= 0)
        return;
    std::vector<std::pair<QString, std::vector<double>>> types;
    for (int t = 0; t < kLayerTypeCount; ++t)
        types.emplace_back(QString::fromLatin1(layerTypeName(LayerType(t))), std::vector<double> { r.layerTypeBackward[t], r.layerTypeForward[t] });
    m_layers->chart()->setTitle(tr("Compute by layer type"));
    fillStacked(m_layers, { tr("backward"), tr("forward") }, types, 1.0, tr("seconds a step (dtsim-cli layers lists every layer)"));
}

void BreakdownTab::setPinned(std::optional<StepReport> a, const QString& name)
{
    m_pinned = std::move(a);
    m_pinnedName = name;
}

void BreakdownTab::showReport(const StepReport& r)
{
    // The pinned scenario A, in grey under the current one (B), when there is one.
    std::vector<const StepReport*> reports;
    if (m_pinned)
        reports.push_back(&*m_pinned);
    reports.push_back(&r);
    auto values = [&](auto get) {
        std::vector<double> v;
        for (const StepReport* x : reports)
            v.push_back(get(*x));
        return v;
    };
    std::vector<std::pair<QString, std::vector<double>>> parts {
        { tr("forward"), values([](const StepReport& x) { return x.breakdown.forward; }) },
        { tr("backward"), values([](const StepReport& x) { return x.breakdown.backward; }) },
        { tr("recompute"), values([](const StepReport& x) { return x.breakdown.recompute; }) } };
    const char* comm[] = { "TP comm", "CP comm", "EP comm", "PP comm", "DP comm" };
    for (int i = 0; i < kCommGroupCount; ++i)
        parts.emplace_back(tr(comm[i]), values([i](const StepReport& x) { return x.breakdown.exposedComm[i]; }));
    parts.emplace_back(tr("pipeline bubble"), values([](const StepReport& x) { return x.breakdown.bubble; }));
    parts.emplace_back(tr("optimizer"), values([](const StepReport& x) { return x.breakdown.optimizer; }));
    parts.emplace_back(tr("overhead + contention"), values([](const StepReport& x) { return x.breakdown.overhead + x.breakdown.contention + x.breakdown.inputStall + x.breakdown.straggler + x.breakdown.outerSync + x.breakdown.compression; }));
    // Offload's wait for the host (parallel.offload), listed when a report has one.
    const std::vector<double> host = values([](const StepReport& x) { return x.breakdown.offload; });
    if (std::any_of(host.begin(), host.end(), [](double v) { return v > 0; }))
        parts.emplace_back(tr("waiting for the host (offload)"), host);
    const QStringList stepBars = m_pinned ? QStringList { tr("A: %1").arg(m_pinnedName), tr("B: step") } : QStringList { tr("step") };
    const std::vector<int> grey = m_pinned ? std::vector<int> { 0 } : std::vector<int> {};
    m_stepSeries = fillStacked(m_step, stepBars, parts, 1.0, tr("seconds"), 0, grey);

    const MemoryReport& m = r.memory;
    std::vector<std::pair<QString, std::vector<double>>> mem {
        { tr("weights"), values([](const StepReport& x) { return x.memory.weights; }) },
        { tr("gradients"), values([](const StepReport& x) { return x.memory.gradients; }) },
        { tr("optimizer states"), values([](const StepReport& x) { return x.memory.optimizer; }) },
        { tr("activations"), values([](const StepReport& x) { return x.memory.activations; }) },
        { tr("logits"), values([](const StepReport& x) { return x.memory.logits; }) },
        { tr("reserved"), values([](const StepReport& x) { return x.memory.reserved; }) } };
    // GiB, the unit device memory is sold in (an 80 GB part holds 80 GiB).
    constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
    const QString fits = m.fits ? tr("fits") : tr("does NOT fit");
    const QStringList memBars = m_pinned ? QStringList { tr("A"), tr("B: %1").arg(fits) } : QStringList { fits };
    QString axis = tr("GiB (capacity %1 GiB)").arg(m.capacity / GiB, 0, 'f', 1);
    if (m.hostBytes + m.nvmeBytes > 0) // offloaded state lives off the GPU: say where and how much
        axis += tr("; offloaded %1 GiB to host memory (of %2), %3 GiB to NVMe")
                    .arg(m.hostBytes / GiB, 0, 'f', 1).arg(m.hostCapacity / GiB, 0, 'f', 0).arg(m.nvmeBytes / GiB, 0, 'f', 1);
    fillStacked(m_memory, memBars, mem, GiB, axis, m.capacity, grey);
}

} // namespace dtsim::gui
