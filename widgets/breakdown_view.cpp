#include "breakdown_view.h"

#include "chart_style.h"
#include "palette_colors.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHorizontalStackedBarSeries>
#include <QValueAxis>

namespace dtsim::gui {

namespace {

// One horizontal stacked bar: a set per component, in the given order.
int fillStacked(QChartView* view, const QString& category, const std::vector<std::pair<QString, double>>& parts,
    double scale, const QString& unit, double limit = 0)
{
    QChart* chart = view->chart();
    clearChart(chart);
    auto* series = new QHorizontalStackedBarSeries;
    int i = 0, count = 0;
    double total = 0;
    for (const auto& [name, value] : parts) {
        ++i;
        if (value <= 0)
            continue;
        auto* set = new QBarSet(name);
        *set << value / scale;
        set->setColor(seriesColor(i - 1));
        series->append(set);
        total += value / scale;
        ++count;
    }
    chart->addSeries(series);
    auto* cats = new QBarCategoryAxis;
    cats->append(category);
    cats->setLabelsColor(foreground());
    chart->addAxis(cats, Qt::AlignLeft);
    series->attachAxis(cats);
    auto* values = new QValueAxis;
    values->setTitleText(unit);
    values->setLabelsColor(foreground());
    values->setTitleBrush(foreground());
    values->setRange(0, std::max(total, limit / scale) * 1.05);
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(values);
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
    fillStacked(m_memory, m.fits ? tr("fits") : tr("does NOT fit"), mem, 1e9,
        tr("GB (capacity %1 GB)").arg(m.capacity / 1e9, 0, 'f', 1), m.capacity);
}

} // namespace dtsim::gui
