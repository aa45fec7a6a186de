#include "topology_editor.h"

#include "scenario_document.h"
#include "palette_colors.h"
#include "topology_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSignalBlocker>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace dtsim::gui {

TopologyEditor::TopologyEditor(ScenarioDocument* doc, std::vector<Topology> shipped, QWidget* parent)
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
    m_formHost = new QWidget(this);
    m_form = new QFormLayout(m_formHost);
    side->addWidget(m_formHost);
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
    connect(m_view, &TopologyView::levelClicked, this, [this](int) { rebuildForm(); });
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
            --c.tierCount;
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
        refreshForm();
    });
    rebuildForm();
}

void TopologyEditor::selectLevel(int level)
{
    m_view->selectLevel(level);
    rebuildForm();
}

void TopologyEditor::setOverlay(int group)
{
    m_view->showTopology(m_doc->scenario(), m_haveReport ? &m_report : nullptr, group);
}

void TopologyEditor::showReport(const StepReport* report)
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

QWidget* TopologyEditor::fieldEditor(const QString& key) const { return m_fields.value(key); }

void TopologyEditor::editTier(const QString& what, const std::function<void(NetworkTier&)>& change)
{
    if (m_updating)
        return;
    const int tier = m_view->selectedLevel() - 2;
    m_doc->edit("cluster.tiers." + what, [&](Scenario& s) {
        if (tier >= 0 && tier < s.cluster.tierCount) {
            change(s.cluster.tiers[tier]);
            s.cluster.topology.clear();
        }
    }, false);
}

void TopologyEditor::rebuildForm()
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_fields.clear();
    m_formLevel = m_view->selectedLevel();
    auto spin = [this](const QString& key, const QString& label, double min, double max, int decimals, const QString& suffix,
                    std::function<void(double)> apply) {
        auto* box = new QDoubleSpinBox(m_formHost);
        box->setRange(min, max);
        box->setDecimals(decimals);
        box->setSuffix(suffix);
        box->setKeyboardTracking(false);
        connect(box, &QDoubleSpinBox::valueChanged, this, [this, apply](double v) {
            if (!m_updating)
                apply(v);
        });
        m_form->addRow(label, box);
        m_fields.insert(key, box);
    };
    auto check = [this](const QString& key, const QString& label, std::function<void(bool)> apply) {
        auto* box = new QCheckBox(m_formHost);
        connect(box, &QCheckBox::toggled, this, [this, apply](bool on) {
            if (!m_updating)
                apply(on);
        });
        m_form->addRow(label, box);
        m_fields.insert(key, box);
    };
    auto cluster = [this](const QString& what, const std::function<void(ClusterSpec&)>& change) {
        m_doc->edit("cluster." + what, [&](Scenario& s) { change(s.cluster); s.cluster.topology.clear(); }, false);
    };
    const int level = m_formLevel;
    if (level == 0) {
        m_form->addRow(new QLabel(tr("<b>Scale-up fabric</b> (NVLink / NVSwitch / PCIe)"), m_formHost));
        spin("domain", tr("GPUs per domain"), 1, 4096, 0, {}, [cluster](double v) { cluster("scale_up_domain", [v](ClusterSpec& c) { c.scaleUpDomain = int(v); }); });
        spin("bandwidth", tr("Bandwidth per GPU"), 0.1, 20000, 1, " GB/s", [cluster](double v) { cluster("scale_up_bandwidth", [v](ClusterSpec& c) { c.scaleUpBandwidth = v * 1e9; }); });
        spin("latency", tr("Latency"), 0, 10000, 2, " us", [cluster](double v) { cluster("scale_up_latency", [v](ClusterSpec& c) { c.scaleUpLatency = v * 1e-6; }); });
        check("reduction", tr("In-switch reduction (NVLS)"), [cluster](bool on) { cluster("scale_up_in_network_reduction", [on](ClusterSpec& c) { c.scaleUpInNetworkReduction = on; }); });
    } else if (level == 1) {
        m_form->addRow(new QLabel(tr("<b>NICs</b> (scale-out entry)"), m_formHost));
        spin("gpus_per_node", tr("GPUs per node"), 1, 576, 0, {}, [cluster](double v) { cluster("gpus_per_node", [v](ClusterSpec& c) { c.gpusPerNode = int(v); }); });
        spin("bandwidth", tr("Bandwidth per GPU"), 0.1, 100000, 1, " Gb/s", [cluster](double v) { cluster("scale_out_bandwidth", [v](ClusterSpec& c) { c.scaleOutBandwidth = v * 1e9 / 8; }); });
        spin("latency", tr("Latency"), 0, 100000, 2, " us", [cluster](double v) { cluster("scale_out_latency", [v](ClusterSpec& c) { c.scaleOutLatency = v * 1e-6; }); });
    } else {
        m_form->addRow(new QLabel(tr("<b>Switch tier</b>: what leaves one of its units"), m_formHost));
        auto* name = new QLineEdit(m_formHost);
        connect(name, &QLineEdit::editingFinished, this, [this, name] { editTier("name", [&](NetworkTier& t) { t.setLabel(name->text().toStdString()); }); });
        m_form->addRow(tr("Name"), name);
        m_fields.insert("name", name);
        spin("span", tr("GPUs per unit"), 1, 1e9, 0, {}, [this](double v) { editTier("span_gpus", [v](NetworkTier& t) { t.spanGpus = int(v); }); });
        spin("oversubscription", tr("Oversubscription"), 1, 1000, 2, " : 1", [this](double v) { editTier("oversubscription", [v](NetworkTier& t) { t.oversubscription = v; }); });
        spin("uplink", tr("Uplink total (0 = from oversubscription)"), 0, 1e6, 2, " TB/s", [this](double v) { editTier("uplink_bandwidth", [v](NetworkTier& t) { t.uplinkBandwidth = v * 1e12; }); });
        spin("latency", tr("Latency"), 0, 1e6, 2, " us", [this](double v) { editTier("latency", [v](NetworkTier& t) { t.latency = v * 1e-6; }); });
        check("rail", tr("Rail-optimized"), [this](bool on) { editTier("rail_optimized", [on](NetworkTier& t) { t.railOptimized = on; }); });
        check("reduction", tr("In-network reduction (SHARP)"), [this](bool on) { editTier("in_network_reduction", [on](NetworkTier& t) { t.inNetworkReduction = on; }); });
    }
    refreshForm();
}

void TopologyEditor::refreshForm()
{
    if (m_view->selectedLevel() != m_formLevel) {
        rebuildForm();
        return;
    }
    m_updating = true;
    const ClusterSpec& c = m_doc->scenario().cluster;
    auto setSpin = [this](const QString& key, double v) {
        if (auto* box = qobject_cast<QDoubleSpinBox*>(m_fields.value(key)))
            box->setValue(v);
    };
    auto setCheck = [this](const QString& key, bool on) {
        if (auto* box = qobject_cast<QCheckBox*>(m_fields.value(key)))
            box->setChecked(on);
    };
    if (m_formLevel == 0) {
        setSpin("domain", c.scaleUpDomain);
        setSpin("bandwidth", c.scaleUpBandwidth / 1e9);
        setSpin("latency", c.scaleUpLatency * 1e6);
        setCheck("reduction", c.scaleUpInNetworkReduction);
    } else if (m_formLevel == 1) {
        setSpin("gpus_per_node", c.gpusPerNode);
        setSpin("bandwidth", c.scaleOutBandwidth * 8 / 1e9);
        setSpin("latency", c.scaleOutLatency * 1e6);
    } else if (m_formLevel - 2 < c.tierCount) {
        const NetworkTier& t = c.tiers[m_formLevel - 2];
        if (auto* name = qobject_cast<QLineEdit*>(m_fields.value("name")))
            name->setText(QString::fromUtf8(t.label().data(), int(t.label().size())));
        setSpin("span", t.spanGpus);
        setSpin("oversubscription", t.oversubscription);
        setSpin("uplink", t.uplinkBandwidth / 1e12);
        setSpin("latency", t.latency * 1e6);
        setCheck("rail", t.railOptimized);
        setCheck("reduction", t.inNetworkReduction);
    }
    m_updating = false;
}

} // namespace dtsim::gui
