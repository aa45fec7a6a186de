#include "plans_tab.h"

#include "evaluator.h"

#include "simcore/frameworks/import_scenario.h"
#include "simcore/units.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace dtsim::gui {

namespace {

// Numeric cells sort by value, not text.
class NumberItem : public QTableWidgetItem {
public:
    NumberItem(double v, const QString& text) : QTableWidgetItem(text) { setData(Qt::UserRole, v); }
    bool operator<(const QTableWidgetItem& o) const override { return data(Qt::UserRole).toDouble() < o.data(Qt::UserRole).toDouble(); }
};

} // namespace

PlansTab::PlansTab(Evaluator* evaluator, QWidget* parent)
    : QWidget(parent)
    , m_evaluator(evaluator)
{
    connect(m_evaluator, &Evaluator::searchReady, this, &PlansTab::showResult);
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel(tr("Searching..."), this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    m_table = new QTableWidget(this);
    const QStringList headers { tr("rank"), tr("GPUs"), tr("TP"), tr("PP"), tr("DP"), tr("CP"), tr("EP"), tr("schedule"),
        tr("micro"), tr("ZeRO"), tr("recompute"), tr("SP"), tr("step"), tr("MFU"), tr("time to train"), tr("speed-up"), QString() };
    m_table->setColumnCount(headers.size());
    m_table->setHorizontalHeaderLabels(headers);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(m_table, 1);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { applyRow(row); });
    // A row as the framework's own launch configuration, to paste into a script.
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        const int row = m_table->rowAt(at.y());
        if (row < 0)
            return;
        QMenu menu(this);
        for (ExportTarget t : { ExportTarget::Megatron, ExportTarget::Torchtitan, ExportTarget::DeepSpeed, ExportTarget::NeMo })
            menu.addAction(copyLabel(t), this, [this, row, t] { copyRowAs(row, t); });
        menu.exec(m_table->viewport()->mapToGlobal(at));
    });
}

QString PlansTab::copyLabel(ExportTarget t)
{
    switch (t) {
    case ExportTarget::Megatron: return tr("Copy as Megatron-LM arguments");
    case ExportTarget::Torchtitan: return tr("Copy as torchtitan TOML");
    case ExportTarget::DeepSpeed: return tr("Copy as DeepSpeed JSON");
    case ExportTarget::NeMo: return tr("Copy as NeMo recipe overrides");
    }
    return {};
}

QString PlansTab::rowAs(int row, ExportTarget target) const
{
    const QTableWidgetItem* rank = m_table->item(row, 0);
    if (!rank)
        return {};
    const int index = rank->data(Qt::UserRole).toInt() - 1;
    if (index < 0 || index >= int(m_result.top.size()))
        return {};
    // The scenario as Apply would make it.
    Scenario s = m_scenario;
    s.plan = m_result.top[index].plan;
    s.training.microBatch = m_result.top[index].microBatch;
    s.cluster.gpus = s.plan.gpus();
    const FrameworkExport out = exportScenario(s, target, m_catalogueId);
    QString text = QString::fromStdString(out.text);
    if (target == ExportTarget::DeepSpeed && !out.unexpressed.empty()) // JSON has no comments: say it beside
        for (const std::string& g : out.unexpressed)
            text += "\n// not expressed: " + QString::fromStdString(g);
    return text;
}

void PlansTab::copyRowAs(int row, ExportTarget target)
{
    const QString text = rowAs(row, target);
    if (!text.isEmpty())
        QGuiApplication::clipboard()->setText(text);
}

void PlansTab::setModelCatalogue(const std::vector<CatalogueModel>& models, const std::vector<HardwareSpec>& hardware)
{
    m_catalogue.clear();
    for (const CatalogueModel& m : models)
        m_catalogue.emplace_back(m.id, catalogueModelSpec(m, hardware));
}

void PlansTab::follow(const TabInput& in, TabMoment when)
{
    if (when != TabMoment::Pause || !in.valid)
        return;
    m_scenario = *in.valid;
    m_catalogueId.clear();
    for (const auto& [id, spec] : m_catalogue) {
        ModelSpec a = spec;
        a.name = m_scenario.model.name;
        if (a == m_scenario.model)
            m_catalogueId = id;
    }
    SearchOptions o;
    o.topN = 25;
    m_evaluator->requestSearch(*in.valid, o);
}

int PlansTab::rowCount() const { return m_table->rowCount(); }

void PlansTab::applyRow(int row)
{
    const QTableWidgetItem* rank = m_table->item(row, 0);
    if (!rank)
        return;
    const int index = rank->data(Qt::UserRole).toInt() - 1;
    if (index >= 0 && index < int(m_result.top.size()))
        emit applyPlan(m_result.top[index].plan, m_result.top[index].microBatch);
}

void PlansTab::showResult(const SearchResult& r)
{
    m_result = r;
    m_table->setSortingEnabled(false);
    m_table->setRowCount(int(r.top.size()));
    const double base = r.baseline ? r.baseline->timeToTrain : 0;
    for (int i = 0; i < int(r.top.size()); ++i) {
        const PlanCandidate& c = r.top[i];
        const ParallelPlan& p = c.plan;
        int col = 0;
        auto num = [&](double v, const QString& text) { m_table->setItem(i, col++, new NumberItem(v, text)); };
        auto txt = [&](const QString& text) { m_table->setItem(i, col++, new QTableWidgetItem(text)); };
        num(i + 1, QString::number(i + 1));
        num(double(c.gpus), QString::number(c.gpus));
        num(p.tp, QString::number(p.tp));
        num(p.pp, QString::number(p.pp));
        num(p.dp, QString::number(p.dp));
        num(p.cp, QString::number(p.cp));
        num(p.ep, QString::number(p.ep));
        txt(QString::fromUtf8(scheduleName(p.schedule).data()) + (p.virtualStages > 1 ? QString(" v%1").arg(p.virtualStages) : QString()));
        num(c.microBatch, QString::number(c.microBatch));
        num(p.zeroStage, QString::number(p.zeroStage));
        txt(QString::fromUtf8(recomputeName(p.recompute).data()));
        txt(p.sequenceParallel ? tr("on") : tr("off"));
        num(c.step.stepTime, QString::fromStdString(formatSeconds(c.step.stepTime)));
        num(c.step.mfu, QString("%1%").arg(100 * c.step.mfu, 0, 'f', 1));
        num(c.timeToTrain, QString::fromStdString(formatDuration(c.timeToTrain)));
        num(base > 0 ? base / c.timeToTrain : 0, base > 0 ? QString("%1x").arg(base / c.timeToTrain, 0, 'f', 2) : QString("-"));
        auto* apply = new QPushButton(tr("Apply"), m_table);
        // Bound to the plan, not the row, so sorting the table cannot change its target.
        connect(apply, &QPushButton::clicked, this, [this, i] { emit applyPlan(m_result.top[i].plan, m_result.top[i].microBatch); });
        m_table->setCellWidget(i, col, apply);
    }
    m_table->setSortingEnabled(true);
    m_summary->setText(tr("%1 plans considered, %2 valid and fitting; %3 rejected for memory.%4 Right-click a row to copy it "
                          "as a Megatron-LM, torchtitan, DeepSpeed or NeMo configuration.")
                           .arg(r.considered()).arg(r.evaluated).arg(r.rejectedMemory)
                           .arg(r.baseline ? tr(" Your plan: %1.").arg(QString::fromStdString(formatDuration(r.baseline->timeToTrain)))
                                           : tr(" Your plan is not valid or does not fit."))
        + (r.offload ? tr(" Nothing fits in GPU memory alone: these plans offload (Apply sets parallel.offload).") : QString()));
}

} // namespace dtsim::gui
