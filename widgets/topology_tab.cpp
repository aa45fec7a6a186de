#include "topology_tab.h"

#include "scenario_document.h"
#include "palette_colors.h"
#include "topology_form.h"
#include "topology_view.h"

#include <QComboBox>
#include <QSignalBlocker>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace dtsim::gui {

TopologyTab::TopologyTab(ScenarioDocument* doc, std::vector<Topology> shipped, QWidget* parent)
    : QWidget(parent)
    , m_doc(doc)
    , m_shipped(std::move(shipped))
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Start from:"), this));
    m_shippedBox = new QComboBox(this);
    // The first entry is the scenario's own network: the list showed "A100 cluster" on
    // an H100 scenario that used none of the shipped ones.
    m_shippedBox->addItem(tr("(this scenario's own network)"), QString());
    for (const Topology& t : m_shipped)
        m_shippedBox->addItem(QString::fromStdString(t.name), QString::fromStdString(t.id));
    bar->addWidget(m_shippedBox, 1);
    auto* apply = new QPushButton(tr("Use"), this);
    bar->addWidget(apply);
    bar->addSpacing(16);
    bar->addWidget(new QLabel(tr("Traffic of:"), this));
    m_overlay = new QComboBox(this);
    m_overlay->addItems({ tr("none"), "TP", "CP", "EP", "PP", "DP" });
    m_overlay->setCurrentIndex(5);
    bar->addWidget(m_overlay);
    column->addLayout(bar);
    m_warning = new QLabel(this);
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(QString("color: %1;").arg(errorColor().name()));
    m_warning->hide();
    column->addWidget(m_warning);

    auto* body = new QHBoxLayout;
    m_view = new TopologyView(this);
    body->addWidget(m_view, 3);
    auto* side = new QVBoxLayout;
    m_form = new TopologyForm(m_doc, this);
    side->addWidget(m_form);
    auto* addTier = new QPushButton(tr("Add tier above"), this);
    auto* addDc = new QPushButton(tr("Add datacenter link"), this);
    auto* remove = new QPushButton(tr("Remove tier"), this);
    auto* up = new QPushButton(tr("Move tier out"), this);
    auto* down = new QPushButton(tr("Move tier in"), this);
    for (QPushButton* b : { addTier, addDc, remove, up, down })
        side->addWidget(b);
    side->addStretch(1);
    body->addLayout(side, 1);
    column->addLayout(body, 1);

    connect(apply, &QPushButton::clicked, this, [this] {
        const int i = m_shippedBox->currentIndex() - 1; // after the scenario's own
        if (i < 0 || i >= int(m_shipped.size()))
            return;
        const Topology t = m_shipped[std::size_t(i)];
        m_doc->edit("cluster.topology", [&](Scenario& s) {
            const long long gpus = s.cluster.gpus;
            ClusterSpec c = t.cluster;
            c.gpus = gpus;
            c.topology = t.id;
            if (!t.hasScaleUpBandwidth)
                c.scaleUpBandwidth = s.hardware.scaleUpBandwidth;
            if (!t.hasScaleOutBandwidth)
                c.scaleOutBandwidth = s.hardware.scaleOutBandwidth;
            if (!t.hasScaleUpLatency)
                c.scaleUpLatency = s.hardware.scaleUpLatency;
            if (!t.hasScaleOutLatency)
                c.scaleOutLatency = s.hardware.scaleOutLatency;
            s.cluster = c;
        }, false);
    });
    connect(m_overlay, &QComboBox::currentIndexChanged, this, [this](int i) { setOverlay(i - 1); });
    connect(m_view, &TopologyView::levelClicked, this, [this](int level) { m_form->showLevel(level); });
    auto tierOp = [this](const QString& what, const std::function<void(ClusterSpec&, int)>& op) {
        const int tier = m_view->selectedLevel() - 2;
        m_doc->edit(what, [&](Scenario& s) { op(s.cluster, tier); s.cluster.topology.clear(); }, false);
    };
    connect(addTier, &QPushButton::clicked, this, [this, tierOp] {
        const ClusterSpec& now = m_doc->scenario().cluster;
        if (now.tierCount >= kMaxTiers)
            return;
        // A tier above spans more than the one below and at most the cluster: 8 times
        // the one below made a 24,576-GPU spine over 16,384 GPUs, which carried nothing.
        const long long below = now.tierCount > 0 ? now.tiers[now.tierCount - 1].spanGpus : now.scaleUpDomain;
        if (below >= now.gpus) {
            m_warning->setText(tr("The outermost level already spans all %1 GPUs: a tier above it would carry no traffic.").arg(now.gpus));
            m_warning->show();
            return;
        }
        tierOp("add tier", [](ClusterSpec& c, int) {
            NetworkTier t;
            const int inner = c.tierCount > 0 ? c.tiers[c.tierCount - 1].spanGpus : c.scaleUpDomain;
            t.spanGpus = int(std::min<long long>({ 1LL << 30, c.gpus, std::max<long long>(inner * 8LL, 2) }));
            t.oversubscription = 1;
            t.latency = 1e-6;
            t.setLabel(c.tierCount == 0 ? "leaf" : c.tierCount == 1 ? "spine" : "core");
            c.tiers[c.tierCount++] = t;
        });
        selectLevel(1 + m_doc->scenario().cluster.tierCount);
    });
    connect(addDc, &QPushButton::clicked, this, [this, tierOp] {
        if (m_doc->scenario().cluster.tierCount >= kMaxTiers)
            return;
        tierOp("add datacenter", [](ClusterSpec& c, int) {
            // Split the cluster in two sites; leaving a site is the long-haul link.
            NetworkTier t;
            t.spanGpus = int(std::max<long long>(2, c.gpus / 2));
            const int inner = c.tierCount > 0 ? c.tiers[c.tierCount - 1].spanGpus : c.scaleUpDomain;
            t.spanGpus = std::max(t.spanGpus, inner + 1);
            t.uplinkBandwidth = 3.2e12; // 64 x 400G waves
            t.latency = 1e-3;           // ~200 km of fibre
            t.setLabel("datacenter (long-haul out)");
            c.tiers[c.tierCount++] = t;
        });
        selectLevel(1 + m_doc->scenario().cluster.tierCount);
    });
    connect(remove, &QPushButton::clicked, this, [this, tierOp] {
        if (m_view->selectedLevel() < 2)
            return;
        tierOp("remove tier", [](ClusterSpec& c, int tier) {
            for (int i = tier; i + 1 < c.tierCount; ++i)
                c.tiers[i] = c.tiers[i + 1];
            // The freed slot back to its default: a scenario compares its whole array, so the
            // removed tier's leftovers made it differ from the same file reopened.
            c.tiers[--c.tierCount] = NetworkTier {};
        });
        selectLevel(1);
    });
    auto swapTiers = [this, tierOp](int direction) {
        const int tier = m_view->selectedLevel() - 2;
        const int other = tier + direction;
        if (tier < 0 || other < 0 || other >= m_doc->scenario().cluster.tierCount)
            return;
        // Spans must keep growing outward: swapping exchanges the properties, not the spans.
        tierOp("reorder tiers", [other](ClusterSpec& c, int t) {
            std::swap(c.tiers[t], c.tiers[other]);
            std::swap(c.tiers[t].spanGpus, c.tiers[other].spanGpus);
        });
        selectLevel(other + 2);
    };
    connect(up, &QPushButton::clicked, this, [swapTiers] { swapTiers(+1); });
    connect(down, &QPushButton::clicked, this, [swapTiers] { swapTiers(-1); });
    connect(m_doc, &ScenarioDocument::changed, this, [this] {
        if (m_view->selectedLevel() >= 2 + m_doc->scenario().cluster.tierCount)
            m_view->selectLevel(1);
        m_form->showLevel(m_view->selectedLevel());
    });
    m_form->showLevel(m_view->selectedLevel());
}

void TopologyTab::selectLevel(int level)
{
    m_view->selectLevel(level);
    m_form->showLevel(m_view->selectedLevel());
}

void TopologyTab::setOverlay(int group)
{
    m_view->showTopology(m_doc->scenario(), m_haveReport ? &m_report : nullptr, group);
}

void TopologyTab::showReport(const StepReport* report)
{
    m_haveReport = report != nullptr;
    if (report)
        m_report = *report;
    const Scenario& s = m_doc->scenario();
    m_view->showTopology(s, report, m_overlay->currentIndex() - 1);
    {
        const QSignalBlocker block(m_shippedBox);
        const int i = m_shippedBox->findData(QString::fromStdString(s.cluster.topology));
        m_shippedBox->setCurrentIndex(i < 0 ? 0 : i);
    }
    // A layout the GPU is not built for is a what-if: say so (NVL72 on H100s).
    const bool wider = s.hardware.scaleUpDomain > 0 && s.cluster.scaleUpDomain > s.hardware.scaleUpDomain;
    m_warning->setVisible(wider);
    if (wider)
        m_warning->setText(tr("%1 GPUs share one scale-up domain here; a %2 server has %3. This is a what-if, not a "
                              "machine you can buy.")
                               .arg(s.cluster.scaleUpDomain).arg(QString::fromStdString(s.hardware.name)).arg(s.hardware.scaleUpDomain));
}

QWidget* TopologyTab::fieldEditor(const QString& fieldId) const { return m_form->editor(fieldId); }

} // namespace dtsim::gui
