// What the window shows of a run's convergence: the Scaling tab's turnaround and its time
// to a loss, the dashboard's loss and tokens, and the Timeline's data-parallel replica rows.
#include "gui_test_support.h"
#include "test_data.h"
#include "widgets/dashboard.h"
#include "widgets/gantt_view.h"
#include "widgets/main_window.h"
#include "widgets/scaling_tab.h"
#include "widgets/scenario_document.h"
#include "widgets/timeline_tab.h"

#include <QLabel>
#include <QtTest>
#include <qcustomplot.h>

using namespace dtsim;
using namespace dtsim::gui;
using namespace dtsim::test;

namespace {

QStringList plotTexts(QCustomPlot* plot)
{
    QStringList texts;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)))
            texts << t->text();
    return texts;
}

// DTSIM_VIEW_SHOTS=DIR keeps what a test drew, to look at.
void keepShot(QWidget* w, const QString& name)
{
    const QString dir = qEnvironmentVariable("DTSIM_VIEW_SHOTS");
    if (!dir.isEmpty())
        w->window()->grab().save(dir + "/" + name + ".png");
}

} // namespace

class TestConvergenceViews : public QObject {
    Q_OBJECT
private slots:
    void scalingMarksTheTurnaroundOfALossTarget()
    {
        MainWindow w(appData());
        QVERIFY(laptopWindowOn(w, "critical-batch-gpt3-xl", "scaling"));
        QCustomPlot* plot = w.scalingTab()->plot();
        QTRY_VERIFY_WITH_TIMEOUT(plot->graphCount() >= 4, 20000);
        plot->replot();
        keepShot(plot, "scaling-loss-target");
        QVERIFY2(plot->yAxis->label().startsWith("time to loss 2.4"), qPrintable(plot->yAxis->label()));
        QVERIFY(plot->graph(0)->name().startsWith("time to loss 2.4"));
        const QStringList texts = plotTexts(plot);
        QVERIFY2(texts.contains("turnaround: more GPUs take longer"), qPrintable(texts.join(", ")));
        QVERIFY2(overlappingPlotTexts(plot).isEmpty(), qPrintable(overlappingPlotTexts(plot).join(", ")));

        // A token target says time to train and draws no turnaround where the curve has none.
        QVERIFY(laptopWindowOn(w, "gpt3-175b-a100", "scaling"));
        QTRY_VERIFY_WITH_TIMEOUT(plot->yAxis->label() == "time to train (days)", 20000);
        QVERIFY(!plotTexts(plot).join(",").contains("turnaround"));
    }

    void threeMarksKeepTheirLabelsApart()
    {
        MainWindow w(appData());
        QVERIFY(laptopWindowOn(w, "gtx580-2012", "scaling"));
        ScalingTab& view = *w.scalingTab();
        ScalingCurves c = halvingScalingCurves();
        // Every order of the three lines, each a doubling from the next or on top of it.
        for (long long wall : { 256LL, 1024LL, 4096LL })
            for (long long turn : { 128LL, 512LL, 1024LL, 2048LL })
                for (long long current : { 1LL, 256LL, 512LL, 2048LL, 4096LL }) {
                    c.syncWallGpus = int(wall);
                    c.turnaroundGpus = turn;
                    view.showCurves(c, current);
                    view.plot()->replot();
                    const QStringList overlaps = overlappingPlotTexts(view.plot());
                    QVERIFY2(overlaps.isEmpty(), qPrintable(QString("wall %1, turnaround %2, scenario %3: %4")
                                                                .arg(wall).arg(turn).arg(current).arg(overlaps.join(", "))));
                    const QRect area = view.plot()->axisRect()->rect();
                    for (int i = 0; i < view.plot()->itemCount(); ++i)
                        if (auto* t = qobject_cast<QCPItemText*>(view.plot()->item(i))) {
                            const QRectF box = QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition()).normalized();
                            QVERIFY2(box.left() >= area.left() - 1 && box.right() <= area.right() + 1,
                                qPrintable(QString("%1 cut by the plot's edge (wall %2, turnaround %3, scenario %4)")
                                               .arg(t->text()).arg(wall).arg(turn).arg(current)));
                        }
                }
    }

    void dashboardShowsTheLossAndTheTokens()
    {
        MainWindow w(appData());
        QVERIFY(laptopWindowOn(w, "critical-batch-gpt3-xl", "breakdown"));
        const QString loss = w.dashboard()->convergenceNote();
        keepShot(w.dashboard(), "dashboard-loss-target");
        QVERIFY2(loss.contains("Loss <b>2.400</b> &plusmn; "), qPrintable(loss));
        QVERIFY2(loss.contains("target, Besiroglu et al. 2024 refit"), qPrintable(loss));
        QVERIFY2(loss.contains(" tokens, +") && loss.contains("over a small batch"), qPrintable(loss));
        QVERIFY2(loss.contains("critical batch"), qPrintable(loss));
        // A token target: the loss it reaches, predicted.
        QVERIFY(laptopWindowOn(w, "gpt3-175b-a100", "breakdown"));
        QVERIFY2(w.dashboard()->convergenceNote().contains("predicted at <b>300 B</b> tokens"), qPrintable(w.dashboard()->convergenceNote()));
        // A layer table has no loss law: no line.
        QVERIFY(laptopWindowOn(w, "resnet50-mlperf", "breakdown"));
        QVERIFY(w.dashboard()->convergenceNote().isEmpty());
    }

    void onStageALossTargetsLineTakesTheBandsPlace()
    {
        // A 1366x768 projector has room for one line under the tiles.
        MainWindow w(appData());
        QVERIFY(w.openPreset("critical-batch-gpt3-xl"));
        laptopWindow(w, true);
        QVERIFY(w.selectTab("scaling"));
        waitIdle(w);
        auto* line = w.dashboard()->findChild<QLabel*>("dashboard-convergence");
        auto* band = w.dashboard()->findChild<QLabel*>("dashboard-band");
        QVERIFY(line && band);
        QVERIFY(line->isVisible());
        QVERIFY(!band->isVisible());
        keepShot(&w, "stage-loss-target");
        QVERIFY2(w.height() <= 768, qPrintable(QString("%1 px tall on a 768 px screen").arg(w.height())));
        // A token target keeps the band on stage, and the line gives way.
        QVERIFY(w.openPreset("gpt3-175b-a100"));
        waitIdle(w);
        QVERIFY(!line->isVisible());
        QVERIFY(band->isVisible());
        w.setPresentationMode(false);
        QApplication::processEvents();
        QVERIFY(line->isVisible());
    }

    void theReplicasToggleShowsARowPerReplica()
    {
        MainWindow w(appData());
        QVERIFY(laptopWindowOn(w, "critical-batch-gpt3-xl", "timeline"));
        TimelineTab* tab = w.timelineTab();
        QTRY_VERIFY_WITH_TIMEOUT(tab->gantt()->trace() != nullptr, 20000);
        QVERIFY(QString::fromStdString(tab->gantt()->trace()->rowNames[0]).startsWith("stage"));
        tab->setShowReplicas(true);
        const Trace* t = tab->gantt()->trace();
        QVERIFY(t);
        QCOMPARE(int(t->rowNames.size()), 8);
        QCOMPARE(QString::fromStdString(t->rowNames[0]), QString("replica 0"));
        QVERIFY(QString::fromStdString(t->rowNames[7]).startsWith("slowest of the other"));
        QVERIFY2(tab->summary().contains("Jitter 3%"), qPrintable(tab->summary()));
        QApplication::processEvents();
        keepShot(tab, "timeline-replicas");
        // Back to the event simulation.
        tab->setShowReplicas(false);
        QTRY_VERIFY_WITH_TIMEOUT(tab->gantt()->trace() && QString::fromStdString(tab->gantt()->trace()->rowNames[0]).startsWith("stage"), 20000);
    }

    void withoutJitterNoReplicaWaits()
    {
        // GPT-3 175B: 16 replicas of 64 GPUs, no jitter; then jitter, edited in the window.
        MainWindow w(appData());
        QVERIFY(laptopWindowOn(w, "gpt3-175b-a100", "timeline"));
        TimelineTab* tab = w.timelineTab();
        tab->setShowReplicas(true);
        auto waits = [&] {
            int n = 0;
            for (const TraceEvent& e : tab->gantt()->trace()->events)
                n += e.kind == TaskKind::BarrierWait;
            return n;
        };
        QVERIFY2(tab->summary().contains("No jitter"), qPrintable(tab->summary()));
        QCOMPARE(waits(), 0);
        w.document()->edit("cluster.jitter", [](Scenario& s) { s.cluster.jitter = 0.05; }, false);
        waitIdle(w);
        QTRY_VERIFY_WITH_TIMEOUT(tab->summary().contains("Jitter 5%"), 5000);
        QVERIFY2(tab->summary().contains("16 data-parallel replicas of 64 GPUs"), qPrintable(tab->summary()));
        QCOMPARE(waits(), 4 * 7); // four steps, every drawn row but the slowest
        QVERIFY(tab->gantt()->visibleEnd() >= tab->gantt()->traceLength()); // shown whole before, shown whole after
        keepShot(tab, "timeline-replicas-gpt3");
    }
};

QTEST_MAIN(TestConvergenceViews)
#include "tst_convergence_views.moc"
