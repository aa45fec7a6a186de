#include "breakdown_view.h"

#include "chart_style.h"
#include "palette_colors.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QValueAxis>

namespace dtsim::gui {

namespace {

// One horizontal stacked bar: a set per component, in the given order. The series, its
// sets and its axes are made once; an edit only changes values (a component at zero
// leaves the legend), so a drag repaints without relayout or allocation. (Qt Charts 6.4
// also leaves ~50 scene items behind for every series and axis removed.)
int fillStacked(QChartView* view, const QString& category, const std::vector<std::pair<QString, double>>& parts,
    double scale, const QString& unit, double limit = 0)
{
    QChart* chart = view->chart();
    auto* series = chart->series().isEmpty() ? nullptr : qobject_cast<QHorizontalStackedBarSeries*>(chart->series().first());
    if (!series || series->count() != int(parts.size())) {
        chart->removeAllSeries();
        series = new QHorizontalStackedBarSeries;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            auto* set = new QBarSet(parts[i].first);
            *set << 0.0;
            set->setColor(seriesColor(int(i)));
            series->append(set);
        }
        chart->addSeries(series);
        if (chart->axes().isEmpty()) {
            chart->addAxis(new QBarCategoryAxis, Qt::AlignLeft);
            chart->addAxis(new QValueAxis, Qt::AlignBottom);
        }
        series->attachAxis(chart->axes(Qt::Vertical).value(0));
        series->attachAxis(chart->axes(Qt::Horizontal).value(0));
    }
    int count = 0;
    double total = 0;
    const QList<QBarSet*> sets = series->barSets();
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const double v = std::max(0.0, parts[i].second / scale);
        sets[qsizetype(i)]->replace(0, v);
        for (QLegendMarker* m : chart->legend()->markers(series))
            if (m->label() == parts[i].first)
                m->setVisible(v > 0);
        total += v;
        count += v > 0;
    }
    auto* cats = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Vertical).value(0));
    if (cats->categories() != QStringList { category })
        cats->setCategories({ category });
    cats->setLabelsColor(foreground());
    auto* values = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0));
    if (values->titleText() != unit)
        values->setTitleText(unit);
    values->setLabelsColor(foreground());
    values->setTitleBrush(foreground());
    values->setRange(0, std::max(total, limit / scale) * 1.05);
    return count;
}

} // namespace

BreakdownView::BreakdownView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_step = makeChartView(tr("Step time by component"), this);
    m_memory = makeChartView(tr("Memory per GPU"), this);
    layout->addWidget(m_step, 1);
    layout->addWidget(m_memory, 1);
}

void BreakdownView::showReport(const StepReport& r)
{
    const StepBreakdown& b = r.breakdown;
    std::vector<std::pair<QString, double>> parts { { tr("forward"), b.forward }, { tr("backward"), b.backward },
        { tr("recompute"), b.recompute } };
    const char* comm[] = { "TP comm", "CP comm", "EP comm", "PP comm", "DP comm" };
    for (int i = 0; i < kCommGroupCount; ++i)
        parts.emplace_back(tr(comm[i]), b.exposedComm[i]);
    parts.emplace_back(tr("pipeline bubble"), b.bubble);
    parts.emplace_back(tr("optimizer"), b.optimizer);
    parts.emplace_back(tr("overhead + contention"), b.overhead + b.contention);
    m_stepSeries = fillStacked(m_step, tr("step"), parts, 1.0, tr("seconds"));

    const MemoryReport& m = r.memory;
    std::vector<std::pair<QString, double>> mem { { tr("weights"), m.weights }, { tr("gradients"), m.gradients },
        { tr("optimizer states"), m.optimizer }, { tr("activations"), m.activations }, { tr("logits"), m.logits },
        { tr("reserved"), m.reserved } };
    // GiB, the unit device memory is sold in (an 80 GB part holds 80 GiB).
    constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
    fillStacked(m_memory, m.fits ? tr("fits") : tr("does NOT fit"), mem, GiB,
        tr("GiB (capacity %1 GiB)").arg(m.capacity / GiB, 0, 'f', 1), m.capacity);
}

} // namespace dtsim::gui
