#include "frontier_tab.h"

#include "evaluator.h"
#include "frontier_view.h"

#include "simcore/units.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace dtsim::gui {

FrontierTab::FrontierTab(Evaluator* evaluator, QWidget* parent)
    : QWidget(parent)
    , m_evaluator(evaluator)
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
    months->addStretch(1);
    column->addLayout(months);
    m_view = new FrontierView(this);
    column->addWidget(m_view, 1);

    connect(m_months, &QDoubleSpinBox::valueChanged, this, &FrontierTab::request);
    connect(m_evaluator, &Evaluator::frontierReady, this, [this](const Frontier& real, const Frontier& ideal) {
        m_have = true;
        m_view->setBusy(false);
        m_view->showFrontier(real, ideal,
            tr("%1, %2 months: largest run at >= 80% of the best utilization %3 FLOP, largest feasible %4 FLOP")
                .arg(QString::fromStdString(m_gpu.name)).arg(m_months->value())
                .arg(real.maxFlopAt80, 0, 'e', 1).arg(real.maxFlopAny, 0, 'e', 1));
        m_view->markScenario(m_flop, m_mfu, m_valid);
    });
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
    const QString key = QString("%1|%2|%3|%4|%5|%6|%7").arg(QString::fromStdString(m_gpu.id)).arg(m_months->value())
                            .arg(m_network.scaleOutBandwidth).arg(m_network.scaleUpBandwidth).arg(m_network.scaleOutLatency)
                            .arg(m_network.scaleUpLatency).arg(m_network.scaleUpDomain);
    if (key == m_key)
        return;
    m_key = key;
    FrontierOptions fo;
    fo.hardware = m_gpu;
    fo.network = m_network;
    fo.months = m_months->value();
    fo.points = 60;
    m_view->setBusy(true); // until this frontier arrives (a newer request replaces it)
    m_evaluator->requestFrontier(fo);
}

} // namespace dtsim::gui
