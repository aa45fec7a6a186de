#include "frontier_tab.h"

#include "evaluator.h"
#include "frontier_view.h"

#include "simcore/units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStringList>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace dtsim::gui {

FrontierTab::FrontierTab(Evaluator* evaluator, std::vector<FrontierAnchor> anchors, QWidget* parent)
    : QWidget(parent)
    , m_evaluator(evaluator)
    , m_anchors(std::move(anchors))
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    auto* months = new QHBoxLayout;
    months->addWidget(new QLabel(tr("Training duration:"), this));
    m_months = new QDoubleSpinBox(this);
    m_months->setRange(0.1, 120);
    m_months->setValue(3);
    m_months->setSuffix(tr(" months"));
    m_months->setKeyboardTracking(false); // one frontier per value, not per keystroke
    m_months->setToolTip(tr("Frontier runs must finish within this time."));
    months->addWidget(m_months);
    months->addSpacing(16);
    months->addWidget(new QLabel(tr("Network:"), this));
    m_networkChoice = new QComboBox(this);
    // The GPU's own first: the frontier is what the GPU type can do (as dtsim-cli frontier
    // --gpu and docs/frontier.md compute it); the scenario's links are the what-if.
    m_networkChoice->addItems({ tr("the GPU's own server"), tr("this scenario's") });
    m_networkChoice->setToolTip(tr("The standard server of the GPU (as dtsim-cli frontier --gpu computes it), or the "
                                   "scenario's links (its cluster section)."));
    months->addWidget(m_networkChoice);
    months->addSpacing(16);
    m_criticalBatch = new QCheckBox(tr("Charge the critical batch"), this);
    m_criticalBatch->setToolTip(tr("Each point trains to the loss its compute-optimal tokens reach; a batch above the "
                                   "critical batch then needs more tokens (McCandlish et al. 2018, Kaplan et al. 2020), "
                                   "as a loss target does in a scenario. docs/convergence.md."));
    months->addWidget(m_criticalBatch);
    months->addStretch(1);
    column->addLayout(months);
    m_view = new FrontierView(this);
    column->addWidget(m_view, 1);

    connect(m_months, &QDoubleSpinBox::valueChanged, this, &FrontierTab::request);
    connect(m_networkChoice, &QComboBox::currentIndexChanged, this, &FrontierTab::request);
    connect(m_criticalBatch, &QCheckBox::toggled, this, &FrontierTab::request);
    connect(m_evaluator, &Evaluator::frontierReady, this, [this](const Frontier& real, const Frontier& ideal) {
        m_have = true;
        m_view->setBusy(false);
        const std::vector<FrontierAnchor> shown = anchorsFor(m_anchors, m_gpu.id, m_months->value());
        m_view->showFrontier(real, ideal,
            tr("%1, %2 months, on %3.\nLargest run at >= 80% of its best utilization: realistic %4 FLOP, idealized "
               "(Epoch's assumptions) %5 FLOP. Largest feasible: %6 and %7 FLOP.")
                    .arg(QString::fromStdString(m_gpu.name)).arg(m_months->value()).arg(m_requestedNetwork)
                    .arg(real.maxFlopAt80, 0, 'e', 2).arg(ideal.maxFlopAt80, 0, 'e', 2)
                    .arg(real.maxFlopAny, 0, 'e', 2).arg(ideal.maxFlopAny, 0, 'e', 2)
                + anchorsText(shown)
                + (m_layerTable ? tr("\nThe frontier sizes compute-optimal dense transformers for this GPU; this scenario's layer "
                                     "table is marked by its FLOP and MFU alone.")
                                : QString()),
            shown);
        m_view->markScenario(m_flop, m_mfu, m_valid);
    });
}

// Epoch AI's readings in words, or where to find them when the duration differs.
QString FrontierTab::anchorsText(const std::vector<FrontierAnchor>& shown) const
{
    QStringList parts;
    for (const FrontierAnchor& a : shown) {
        QString part = tr("%1 %2 FLOP").arg(QString::fromUtf8(anchorReadingText(a.reading))).arg(a.flop, 0, 'e', 0);
        if (a.gpus > 0)
            part += tr(" with %1 GPUs").arg(QString::fromStdString(formatCount(a.gpus)));
        parts << part;
    }
    if (!parts.isEmpty())
        return tr("\nEpoch AI (stars): %1.").arg(parts.join(tr("; ")));
    for (const FrontierAnchor& a : m_anchors)
        if (a.gpu == m_gpu.id)
            return tr("\nEpoch AI's readings for this GPU are for %1 months.").arg(a.months);
    return {};
}

void FrontierTab::follow(const TabInput& in, TabMoment when)
{
    m_valid = in.report != nullptr;
    m_flop = m_valid ? in.report->step.modelFlopsPerStep * in.report->steps : 0;
    m_mfu = m_valid ? in.report->step.mfu : 0;
    if (when == TabMoment::Edit) {
        m_view->markScenario(m_flop, m_mfu, m_valid);
        return;
    }
    if (!in.valid)
        return;
    // The frontier depends on the GPU, its network and the duration only; a scenario
    // deadline sets the duration.
    const Scenario& s = *in.valid;
    if (s.model.isLayerTable() != m_layerTable)
        m_key.clear(); // the title changes
    m_layerTable = s.model.isLayerTable();
    m_gpu = s.hardware;
    m_network = s.hardware;
    m_network.scaleUpBandwidth = s.cluster.scaleUpBandwidth;
    m_network.scaleUpLatency = s.cluster.scaleUpLatency;
    m_network.scaleOutBandwidth = s.cluster.scaleOutBandwidth;
    m_network.scaleOutLatency = s.cluster.scaleOutLatency;
    m_network.scaleUpDomain = s.cluster.scaleUpDomain;
    m_haveScenario = true;
    // A new deadline sets the duration; the user's own duration stands until then (it
    // snapped back to the deadline on every pause).
    if (s.training.deadline > 0 && s.training.deadline != m_deadline) {
        const QSignalBlocker block(m_months);
        m_months->setValue(s.training.deadline / units::month);
    }
    m_deadline = s.training.deadline;
    request();
}

void FrontierTab::request()
{
    if (!m_haveScenario)
        return;
    const bool own = m_networkChoice->currentIndex() == 0;
    const HardwareSpec& net = own ? m_gpu : m_network;
    const QString key = QString("%1|%2|%3|%4|%5|%6|%7|%8").arg(QString::fromStdString(m_gpu.id)).arg(m_months->value())
                            .arg(net.scaleOutBandwidth).arg(net.scaleUpBandwidth).arg(net.scaleOutLatency)
                            .arg(net.scaleUpLatency).arg(net.scaleUpDomain).arg(own)
                            + (m_criticalBatch->isChecked() ? "|critical" : "");
    if (key == m_key)
        return;
    m_key = key;
    // Named in the title: the frontier depends on it as much as on the GPU.
    m_requestedNetwork = tr("%1 (%2 per GPU out of the server at %3; %4 GPUs per server at %5)")
                             .arg(own ? tr("its own server") : tr("this scenario's network"))
                             .arg(QString::fromStdString(formatRate(net.scaleOutBandwidth)), QString::fromStdString(formatSeconds(net.scaleOutLatency)))
                             .arg(net.scaleUpDomain)
                             .arg(QString::fromStdString(formatRate(net.scaleUpBandwidth)));
    FrontierOptions fo;
    fo.hardware = m_gpu;
    if (!own)
        fo.network = m_network;
    fo.months = m_months->value();
    fo.points = 100; // the CLI's grid: the window's readings are the CLI's
    fo.chargeCriticalBatch = m_criticalBatch->isChecked();
    m_view->setBusy(true); // until this frontier arrives (a newer request replaces it)
    m_evaluator->requestFrontier(fo);
}

} // namespace dtsim::gui
