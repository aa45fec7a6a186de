// The desktop app under the offscreen platform: presets open, sliders drive the
// dashboard, undo, save/load, inline errors with their fix, and the screenshot.
#include "simcore/loader/scenario_writer.h"
#include "simcore/step.h"
#include "simcore/units.h"
#include "file_size_limit.h"
#include "gui_test_support.h"
#include "test_data.h"
#include "widgets/dashboard.h"
#include "widgets/evaluator.h"
#include "widgets/frontier_view.h"
#include "simcore/loader/hardware_loader.h"
#include <qcustomplot.h>
#include "widgets/main_window.h"
#include "widgets/measurement_import.h"
#include "widgets/parameter_panel.h"
#include "widgets/plans_tab.h"
#include "widgets/scenario_document.h"
#include "widgets/gantt_view.h"
#include "widgets/frontier_tab.h"
#include "widgets/scaling_tab.h"
#include "widgets/help_menu.h"
#include "widgets/stale_note.h"
#include "widgets/timeline_tab.h"
#include "widgets/reliability_tab.h"
#include "widgets/whatif_tab.h"
#include "widgets/breakdown_tab.h"
#include "widgets/gantt_view.h"
#include "widgets/scaling_tab.h"
#include "widgets/timeline_tab.h"
#include "simcore/loader/residuals_loader.h"
#include "widgets/cost_tab.h"
#include "widgets/teaching_panel.h"
#include "widgets/cluster_tab.h"
#include "widgets/cluster_gantt_view.h"
#include "widgets/run_timeline_view.h"
#include "widgets/topology_tab.h"
#include "widgets/topology_view.h"
#include "widgets/autosave.h"

#include <QCheckBox>
#include <QDockWidget>
#include <QTabWidget>
#include <QDir>
#include <QFile>
#include <sys/mount.h>
#include <sys/stat.h>
#include <QLockFile>
#include <QSpinBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QElapsedTimer>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QScrollArea>
#include <QSignalSpy>
#include <QScrollBar>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QChartView>

#include <set>
#include <qcustomplot.h>

using namespace dtsim;
using namespace dtsim::gui;

namespace {

using test::appData; // gui_test_support.h
using test::waitIdle;

// A window on `preset` at 1600x1000, shown, on `tab` (if given), with its work done.
bool showPreset(MainWindow& w, const char* preset, const char* tab = nullptr)
{
    if (!w.openPreset(preset))
        return false;
    w.resize(1600, 1000);
    w.show();
    if (tab && !w.selectTab(tab))
        return false;
    waitIdle(w);
    return true;
}

} // namespace

// Colours in an image, sampled every few pixels: a blank or one-colour grab has one or two.
int distinctColours(const QImage& img, int step = 4)
{
    QSet<QRgb> colours;
    for (int y = 0; y < img.height(); y += step)
        for (int x = 0; x < img.width(); x += step)
            colours.insert(img.pixel(x, y));
    return int(colours.size());
}

class TestGui : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("dtsim-tests");
        QCoreApplication::setApplicationName("tst_gui");
        QStandardPaths::setTestModeEnabled(true); // autosave and settings under ~/.qttest
    }

    void everyPresetOpens()
    {
        MainWindow w(appData());
        for (const QString& name : w.presetNames()) {
            QVERIFY2(w.openPreset(name), qPrintable(name));
            QVERIFY2(w.bannerText().isEmpty(), qPrintable(w.bannerText()));
            QVERIFY2(w.dashboard()->value("step") != "-", qPrintable(name));
        }
        QVERIFY(w.presetNames().size() >= 5);
    }

    void sliderChangesDashboardAndUndoRestores()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("gpt3-175b-a100"));
        const QString before = w.dashboard()->value("step");
        const double bandwidth = w.document()->scenario().cluster.scaleOutBandwidth;
        QSlider* slider = w.panel()->slider("cluster.scale_out_bandwidth");
        QVERIFY(slider);
        // One drag, several positions: one undo step.
        const int steps = w.document()->undoStack()->count();
        slider->setSliderDown(true);
        for (int pos : { slider->value() - 50, slider->value() - 100, slider->value() - 200 })
            slider->setValue(pos);
        slider->setSliderDown(false);
        QCOMPARE(w.document()->undoStack()->count(), steps + 1);
        QVERIFY(w.document()->scenario().cluster.scaleOutBandwidth < bandwidth);
        QVERIFY2(w.dashboard()->value("step") != before, qPrintable(before));

        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->scenario().cluster.scaleOutBandwidth, bandwidth);
        QCOMPARE(w.dashboard()->value("step"), before);
        w.document()->undoStack()->redo();
        QVERIFY(w.document()->scenario().cluster.scaleOutBandwidth < bandwidth);
    }

    // Block recomputation and captured steps are fields like any other: recomputing
    // fewer layers shortens the step and keeps more activations.
    void recomputedLayersAndCapturedStepFields()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("gpt3-175b-a100"));
        QCOMPARE(w.document()->scenario().plan.recompute, Recompute::Full);
        const double stepAll = predictStep(w.document()->scenario(), test::calibration()).stepTime;
        auto* layers = qobject_cast<QDoubleSpinBox*>(w.panel()->editor("parallel.recompute_layers"));
        QVERIFY(layers);
        const QString step = w.dashboard()->value("step"), memory = w.dashboard()->value("memory");
        layers->setValue(2);
        QCOMPARE(w.document()->scenario().plan.recomputeLayers, 2);
        QVERIFY(predictStep(w.document()->scenario(), test::calibration()).stepTime < stepAll);
        QVERIFY2(w.dashboard()->value("step") != step, qPrintable(step));
        QVERIFY2(w.dashboard()->value("memory") != memory, qPrintable(memory));
        auto* graphs = qobject_cast<QCheckBox*>(w.panel()->editor("training.graph_capture"));
        QVERIFY(graphs);
        QVERIFY(!graphs->isChecked());
        graphs->click();
        w.flushPending();
        QVERIFY(w.document()->scenario().training.graphCapture);
    }

    void saveThenLoadGivesTheSameScenario()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("mixtral-8x7b-h100"));
        auto* spin = qobject_cast<QDoubleSpinBox*>(w.panel()->editor("training.seq_len"));
        QVERIFY(spin);
        spin->setValue(8192); // an edit, so the saved file differs from the preset
        QVERIFY(w.document()->isModified());
        const std::string edited = scenarioToYaml(w.document()->scenario());
        QTemporaryDir dir;
        const QString path = dir.path() + "/saved.yaml";
        QVERIFY(w.saveTo(path));
        QVERIFY(!w.document()->isModified());
        QVERIFY(w.openFile(path));
        QCOMPARE(scenarioToYaml(w.document()->scenario()), edited);
        QCOMPARE(w.document()->scenario().training.seqLen, 8192);
        // Saving over an existing file replaces it whole.
        QVERIFY(w.saveTo(path));
        QVERIFY(w.openFile(path));
    }

    void savingReplacesAtomicallyAndAFailedSaveLosesNothing()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("mixtral-8x7b-h100"));
        QTemporaryDir dir;
        const QString path = dir.path() + "/run.yaml";
        QVERIFY(w.saveTo(path));
        struct stat before {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &before), 0);
        auto* spin = qobject_cast<QDoubleSpinBox*>(w.panel()->editor("training.seq_len"));
        spin->setValue(8192);
        QVERIFY(w.saveTo(path));
        // A new file renamed over the old one, never the old one rewritten in place: a
        // crash mid-save leaves either the old or the new file whole.
        struct stat after {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &after), 0);
        QVERIFY(before.st_ino != after.st_ino);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList { "run.yaml" }); // no temporaries left
        const QByteArray saved = [&] { QFile f(path); f.open(QIODevice::ReadOnly); return f.readAll(); }();
        // A save that cannot happen says so, keeps the changes unsaved and the file intact.
        spin->setValue(2048);
        QVERIFY(!w.saveTo(dir.path() + "/missing-folder/run.yaml"));
        QVERIFY(w.bannerText().contains("Could not save"));
        QVERIFY(!w.saveTo(dir.path())); // a directory
        QVERIFY(w.document()->isModified());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), saved);
    }

    void unsavedWorkIsRecoveredAfterACrash()
    {
        QTemporaryDir folder;
        AppData data = appData();
        data.autosaveFolder = folder.path();
        {
            MainWindow crashed(data);
            QVERIFY(crashed.openPreset("mixtral-8x7b-h100"));
            QVERIFY(!crashed.autosave()->saveNow()); // nothing unsaved yet
            qobject_cast<QDoubleSpinBox*>(crashed.panel()->editor("training.seq_len"))->setValue(8192);
            // The copy is written a moment after the edit, without being asked.
            QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(crashed.autosave()->path()), Autosave::kDelayMs + 3000);
            crashed.autosave()->simulateCrash();
        }
        // A session still running keeps its copy to itself.
        MainWindow running(data);
        QVERIFY(running.openPreset("gpt3-175b-a100"));
        qobject_cast<QDoubleSpinBox*>(running.panel()->editor("training.seq_len"))->setValue(4096);
        QVERIFY(running.autosave()->saveNow());

        MainWindow next(data);
        QVERIFY(next.openPreset("llama3-405b-h100"));
        const std::vector<RecoverableScenario> found = next.recoverable();
        QCOMPARE(int(found.size()), 1);
        QVERIFY(found.front().originalPath.endsWith("mixtral-8x7b-h100.yaml"));
        next.offerRecovery();
        QVERIFY(next.bannerText().contains("unsaved changes to mixtral-8x7b-h100.yaml"));
        QVERIFY(next.recover(found.front()));
        QCOMPARE(next.document()->scenario().training.seqLen, 8192);
        QVERIFY(next.document()->isModified());
        next.document()->undoStack()->undo(); // back to the file it came from
        QCOMPARE(next.document()->scenario().training.seqLen, 4096);
        QVERIFY(next.recoverable().empty()); // recovered once

        // A normal end removes the copy.
        const QString runningCopy = running.autosave()->path();
        QVERIFY(QFileInfo::exists(runningCopy));
        {
            MainWindow clean(data);
            QVERIFY(clean.openPreset("gpt3-175b-a100"));
            qobject_cast<QDoubleSpinBox*>(clean.panel()->editor("training.seq_len"))->setValue(4096);
            QVERIFY(clean.autosave()->saveNow());
            QVERIFY(QFileInfo::exists(clean.autosave()->path()));
        }
        QVERIFY(next.recoverable().empty());
    }

    void inconsistentInputShowsInlineErrorWithFix()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("gpt3-175b-a100"));
        auto* tp = qobject_cast<QDoubleSpinBox*>(w.panel()->editor("parallel.tp"));
        QVERIFY(tp);
        tp->setValue(7); // 96 heads are not divisible by 7
        QVERIFY2(w.panel()->errorText("parallel.tp").contains("does not divide"), qPrintable(w.panel()->errorText("parallel.tp")));
        QCOMPARE(w.dashboard()->value("step"), QString("-"));
        // The one-click fix restores a valid plan with the same GPU count.
        QPushButton* fix = nullptr;
        for (QPushButton* b : w.panel()->findChildren<QPushButton*>())
            if (!b->isHidden() && b->text().startsWith("Set TP"))
                fix = b;
        QVERIFY(fix);
        fix->click();
        QVERIFY(w.panel()->errorText("parallel.tp").isEmpty());
        QCOMPARE(w.document()->scenario().plan.gpus(), 1024LL);
        QVERIFY(w.dashboard()->value("step") != "-");
    }

    void movingTpKeepsTheGpuCount()
    {
        // Issue 22, item 5: dragging TP was a dead end (DP stayed, every TP but one broke
        // the GPU product), and the explanation sat under DP, hidden while searching "tp".
        MainWindow w(appData());
        QVERIFY(w.openPreset("gpt3-175b-a100")); // TP 8 x PP 8 x DP 16 = 1024
        QVERIFY(w.panel()->keepsGpuCount());
        auto* tp = qobject_cast<QDoubleSpinBox*>(w.panel()->editor("parallel.tp"));
        for (int t : { 4, 2, 16, 8 }) {
            tp->setValue(t);
            const Scenario& s = w.document()->scenario();
            QCOMPARE(s.plan.tp, t);
            QCOMPARE(s.plan.gpus(), 1024LL);
            QVERIFY2(w.dashboard()->value("step") != "-", qPrintable(QString("TP %1").arg(t)));
        }
        // The slider's whole travel keeps the GPU count wherever TP x PP divides it (TP 1
        // breaks another rule: 12 micro-batches are not a multiple of PP 8 once DP is 128).
        QSlider* slider = w.panel()->slider("parallel.tp");
        int kept = 0;
        for (int pos = slider->minimum(); pos <= slider->maximum(); pos += std::max(1, (slider->maximum() - slider->minimum()) / 40)) {
            slider->setValue(pos);
            const Scenario& s = w.document()->scenario();
            if (1024 % (s.plan.tp * 8) == 0) {
                QCOMPARE(s.plan.gpus(), 1024LL);
                QVERIFY(firstViolation(s) != PlanRule::GpuProduct);
                ++kept;
            }
        }
        QVERIFY(kept >= 4);
        tp->setValue(8);
        QCOMPARE(w.document()->scenario().plan.dp, 16);
        // Off: each degree moves alone, and the rule's explanation stays in view while
        // the search shows only TP.
        w.panel()->keepGpuCountBox()->setChecked(false);
        w.panel()->findChild<QLineEdit*>()->setText("tensor");
        tp->setValue(4);
        QCOMPARE(w.document()->scenario().plan.dp, 16);
        QCOMPARE(w.dashboard()->value("step"), QString("-"));
        QWidget* dpRow = w.panel()->editor("parallel.dp")->parentWidget();
        QVERIFY(!w.panel()->errorText("parallel.dp").isEmpty());
        QVERIFY(!dpRow->isHidden());
        QVERIFY(w.panel()->editor("model.layers")->parentWidget()->isHidden());
    }

    void theWheelScrollsThePanelUnlessAControlHasFocus()
    {
        // Issue 22, item 7: scrolling the panel over a slider changed its value.
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama3-405b-h100"));
        w.resize(1600, 1000);
        w.show();
        QSlider* vocab = w.panel()->slider("model.vocab");
        const int before = w.document()->scenario().model.vocab;
        auto* scroll = w.panel()->findChild<QScrollArea*>();
        const int scrolled = scroll->verticalScrollBar()->value();
        auto wheel = [](QWidget* target) {
            QWheelEvent e(QPointF(10, 5), target->mapToGlobal(QPointF(10, 5)), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                Qt::NoScrollPhase, false);
            QApplication::sendEvent(target, &e);
        };
        wheel(vocab);
        QCOMPARE(w.document()->scenario().model.vocab, before);
        QVERIFY(scroll->verticalScrollBar()->value() > scrolled); // the panel scrolled instead
        // Focused (clicked or tabbed to), the wheel moves it.
        vocab->setFocus();
        QTRY_VERIFY(vocab->hasFocus());
        wheel(vocab);
        QVERIFY(w.document()->scenario().model.vocab != before);
    }

    void slidersReachTheValuesModelsUse()
    {
        // Issue 22, item 8: every log slider snapped to powers of two (Layers 126 -> 128 ->
        // 256), so 80 or 96 layers needed typing.
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama3-405b-h100"));
        auto reachable = [&](const QString& id) {
            QSlider* s = w.panel()->slider(id);
            std::set<long long> values;
            for (int pos = s->minimum(); pos <= s->maximum(); ++pos) {
                s->setValue(pos);
                values.insert(std::llround(qobject_cast<QDoubleSpinBox*>(w.panel()->editor(id))->value()));
            }
            return values;
        };
        const auto layers = reachable("model.layers");
        for (long long l : { 24, 32, 40, 48, 60, 80, 96, 126 })
            QVERIFY2(layers.count(l), qPrintable(QString("%1 layers").arg(l)));
        const auto hidden = reachable("model.hidden");
        for (long long h : hidden)
            QVERIFY2(h % 64 == 0, qPrintable(QString("hidden %1").arg(h)));
        for (long long h : { 2048, 4096, 5120, 8192, 12288, 16384 })
            QVERIFY2(hidden.count(h), qPrintable(QString("hidden %1").arg(h)));
        // Parallel degrees stay powers of two.
        for (long long t : reachable("parallel.tp"))
            QVERIFY2((t & (t - 1)) == 0, qPrintable(QString("TP %1").arg(t)));
    }

    void tabsSayWhenTheyShowAnEarlierScenario()
    {
        // Issue 22, item 6: the Breakdown kept an earlier valid scenario's chart while the
        // dashboard showed "-", without a word.
        MainWindow w(appData());
        QVERIFY(showPreset(w, "gpt3-175b-a100", "breakdown"));
        auto note = [&]() -> QString {
            for (StaleNote* n : w.findChildren<StaleNote*>())
                if (n->isVisible())
                    return n->text();
            return {};
        };
        QVERIFY(note().isEmpty());
        qobject_cast<QDoubleSpinBox*>(w.panel()->editor("parallel.tp"))->setValue(7); // 96 heads
        QCOMPARE(w.dashboard()->value("step"), QString("-"));
        QVERIFY2(note().contains("not valid"), qPrintable(note()));
        for (const char* tab : { "scaling", "plans", "topology", "reliability", "cost" }) {
            QVERIFY(w.selectTab(tab));
            QVERIFY2(note().contains("not valid"), tab);
        }
        QVERIFY(w.selectTab("timeline")); // it clears and says so itself
        QVERIFY(note().isEmpty());
        QVERIFY(w.selectTab("scaling"));
        w.document()->undoStack()->undo();
        QVERIFY(note().isEmpty());
    }

    void badFileShowsAnErrorNotACrash()
    {
        MainWindow w(appData());
        QTemporaryDir dir;
        const QString path = dir.path() + "/bad.yaml";
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("version: 1\nmodel: {layers: -3}\n");
        f.close();
        QVERIFY(!w.openFile(path));
        QVERIFY2(w.bannerText().contains("bad.yaml:2"), qPrintable(w.bannerText()));
        QVERIFY(!w.openFile(dir.path() + "/missing.yaml"));
        QVERIFY(w.bannerText().contains("not found"));
    }

    void frontierDurationKeepsTheUsersValue()
    {
        // Issue 22, item 1: on a preset with a deadline the duration snapped back to it on
        // every pause, and "(updating...)" stayed while the app was idle.
        MainWindow w(appData());
        QVERIFY(showPreset(w, "gtx580-2012"));
        auto* tab = w.findChild<FrontierTab*>();
        QVERIFY(tab);
        QDoubleSpinBox* months = tab->duration();
        const double deadlineMonths = w.document()->scenario().training.deadline / units::month;
        QVERIFY(std::abs(months->value() - deadlineMonths) < 0.01);
        months->setValue(6);
        waitIdle(w);
        QCOMPARE(months->value(), 6.0);
        QVERIFY2(tab->view()->status().contains("6 months"), qPrintable(tab->view()->status()));
        QVERIFY2(!tab->view()->status().contains("updating"), qPrintable(tab->view()->status()));
        // Another field's edit keeps it; a new deadline sets it.
        qobject_cast<QDoubleSpinBox*>(w.panel()->editor("model.layers"))->setValue(24);
        waitIdle(w);
        QCOMPARE(months->value(), 6.0);
        w.document()->edit("test", [](Scenario& s) { s.training.deadline = 2 * units::month; }, false);
        waitIdle(w);
        QCOMPARE(months->value(), 2.0);
        QVERIFY(!tab->view()->status().contains("updating"));
    }

    void frontierShowsBothModesOnANamedNetwork()
    {
        // Issue 22, item 2: the GTX 580 demo. The window used the preset's network without
        // saying so and showed only the realistic reading; the CLI's idealized one is the
        // docs' (docs/frontier.md).
        MainWindow w(appData());
        QVERIFY(showPreset(w, "gtx580-2012"));
        auto* tab = w.findChild<FrontierTab*>();
        QVERIFY(tab && w.hasFrontier());
        QCOMPARE(tab->network()->currentIndex(), 0); // the GPU's own, as the CLI
        // As the preset opens (its 90-day deadline: 2.96 months).
        const QString status = tab->view()->status();
        QVERIFY2(status.contains("own server") && status.contains("idealized"), qPrintable(status));
        // What `dtsim-cli frontier --gpu gtx580 --months 3 --mode idealized` computes.
        FrontierOptions o;
        o.hardware = *findHardware(test::catalog(), "gtx580");
        o.months = 3;
        o.mode = FrontierMode::Idealized;
        const double cliAt80 = computeFrontier(o, test::calibration()).maxFlopAt80;
        QVERIFY(cliAt80 > 1e24);
        const double windowAt80 = tab->view()->idealized().maxFlopAt80;
        QVERIFY2(std::abs(windowAt80 / cliAt80 - 1) <= 0.10, qPrintable(QString("window %1, CLI %2").arg(windowAt80).arg(cliAt80)));
        // The scenario's network is one switch away, and named.
        tab->network()->setCurrentIndex(1);
        waitIdle(w);
        QVERIFY2(tab->view()->status().contains("this scenario's network"), qPrintable(tab->view()->status()));
        // Every point has a tooltip.
        QCustomPlot* plot = tab->view()->plot();
        plot->replot();
        const FrontierPoint& p = tab->view()->idealized().points.front();
        const QPoint at(int(plot->axisRect(0)->axis(QCPAxis::atBottom)->coordToPixel(p.flop)),
            int(plot->axisRect(0)->axis(QCPAxis::atLeft)->coordToPixel(100 * p.mfu)));
        const QString tip = tab->view()->pointTip(at);
        QVERIFY2(tip.contains("GPUs") && tip.contains("TP") && tip.contains("days"), qPrintable(tip));
        QVERIFY(tab->view()->pointTip(QPoint(-100, -100)).isEmpty());
    }

    void frontierShowsEpochsAnchors()
    {
        // Issue 22: the GTX 580 demo shows dtsim's figures next to Epoch AI's (from
        // resources/anchors/epoch.yaml), and says so when the duration is not theirs.
        MainWindow w(appData());
        QVERIFY(showPreset(w, "gtx580-2012"));
        auto* tab = w.findChild<FrontierTab*>();
        QVERIFY(tab && w.hasFrontier());
        FrontierView* view = tab->view();
        QCOMPARE(int(view->anchors().size()), 1); // 2.96 months: within 10% of Epoch's 3
        QCOMPARE(view->anchors().front().flop, 1e26);
        QVERIFY2(view->status().contains("Epoch AI (stars)") && view->status().contains("1e+26"), qPrintable(view->status()));
        QCPGraph* stars = nullptr;
        for (int i = 0; i < view->plot()->graphCount(); ++i)
            if (view->plot()->graph(i)->name() == "Epoch AI's readings")
                stars = view->plot()->graph(i);
        QVERIFY(stars && stars->dataCount() == 1);
        // On the idealized curve's 80% line, with a tooltip that names its source.
        const double y = stars->data()->begin()->value;
        QVERIFY2(std::abs(y - 80 * view->idealized().bestMfu) < 1e-9, qPrintable(QString::number(y)));
        QCustomPlot* plot = view->plot();
        plot->replot();
        const QPoint at(int(plot->axisRect(0)->axis(QCPAxis::atBottom)->coordToPixel(1e26)),
            int(plot->axisRect(0)->axis(QCPAxis::atLeft)->coordToPixel(y)));
        const QString tip = view->pointTip(at);
        QVERIFY2(tip.contains("Epoch AI") && tip.contains("16 M GPUs") && tip.contains("epoch.ai"), qPrintable(tip));
        // Four months is not Epoch's reading: no stars, and the status says why.
        tab->duration()->setValue(4);
        waitIdle(w);
        QVERIFY(view->anchors().empty());
        QVERIFY2(view->status().contains("readings for this GPU are for 3 months"), qPrintable(view->status()));
    }

    void backgroundViewsFillAndPlansApply()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama2-7b-8xa100"));
        waitIdle(w);
        QVERIFY(w.hasFrontier());
        QVERIFY(w.frontierView()->pointCount() > 10);
        // A hidden tab computes nothing on an edit; shown, it catches up.
        QCOMPARE(w.plansTab()->rowCount(), 0);
        QVERIFY(w.selectTab("plans"));
        waitIdle(w);
        QVERIFY(w.plansTab()->rowCount() > 0);
        const int before = w.document()->undoStack()->count();
        w.plansTab()->applyRow(0);
        QCOMPARE(w.document()->undoStack()->count(), before + 1);
        QVERIFY(w.dashboard()->value("step") != "-");
    }

    void screenshotShowsTheDashboard()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama3-405b-h100"));
        w.keepSizeOnShow(); // larger than the offscreen screen
        w.resize(1600, 1000);
        w.show();
        waitIdle(w);
        const QImage shot = w.grab().toImage();
        QCOMPARE(shot.size(), QSize(1600, 1000));
        // Not blank: many distinct colours.
        QSet<QRgb> colours;
        for (int y = 0; y < shot.height(); y += 10)
            for (int x = 0; x < shot.width(); x += 10)
                colours.insert(shot.pixel(x, y));
        QVERIFY(colours.size() > 20);
        auto* step = w.findChild<QLabel*>("dashboard-step");
        QVERIFY(step && step->isVisible() && step->text() != "-");
    }

    void runFieldsBudgetAndDeadline()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("gpt3-175b-a100"));
        auto* budget = qobject_cast<QDoubleSpinBox*>(w.panel()->editor("training.flop_budget"));
        QVERIFY(budget);
        const double tokens = w.document()->scenario().training.tokens;
        budget->setValue(budget->value() * 2);
        QVERIFY(std::abs(w.document()->scenario().training.tokens / tokens - 2) < 1e-3);

        auto* deadline = qobject_cast<QDoubleSpinBox*>(w.panel()->editor("training.deadline"));
        QVERIFY(deadline);
        deadline->setValue(10); // days: far shorter than the predicted run
        auto* ttt = w.findChild<QLabel*>("dashboard-ttt");
        QVERIFY(ttt->styleSheet().contains("c0392b"));
        QVERIFY(ttt->toolTip().contains("deadline"));
        deadline->setValue(3000);
        QVERIFY(!ttt->styleSheet().contains("c0392b"));
    }

    void editingATopologyLevelChangesScenarioAndDashboard()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama3-405b-h100"));
        TopologyTab* editor = w.topologyTab();
        QVERIFY(editor);
        const QString before = w.dashboard()->value("step");
        // The NICs: halve the bandwidth.
        editor->selectLevel(1);
        auto* nic = qobject_cast<QDoubleSpinBox*>(editor->fieldEditor("cluster.scale_out_bandwidth"));
        QVERIFY(nic);
        const double gbps = nic->value();
        nic->setValue(gbps / 8);
        QVERIFY(std::abs(w.document()->scenario().cluster.scaleOutBandwidth - gbps / 8 * 1e9 / 8) < 1e3);
        QVERIFY(w.dashboard()->value("step") != before);
        // The pod tier: far more oversubscription never speeds the step.
        const double stepBefore = w.evaluator()->report(w.document()->scenario()).step.stepTime;
        editor->selectLevel(2);
        auto* over = qobject_cast<QDoubleSpinBox*>(editor->fieldEditor("cluster.tiers[].oversubscription"));
        QVERIFY(over);
        over->setValue(200);
        QCOMPARE(w.document()->scenario().cluster.tiers[0].oversubscription, 200.0);
        QVERIFY(w.evaluator()->report(w.document()->scenario()).step.stepTime >= stepBefore);
        // Both edits undo.
        w.document()->undoStack()->undo();
        w.document()->undoStack()->undo();
        QCOMPARE(w.dashboard()->value("step"), before);
    }

    void timelineDrawsFoldsAndExports()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama3-405b-h100"));
        w.resize(1600, 1000);
        w.show();
        QVERIFY(w.selectTab("timeline"));
        TimelineTab* tab = w.timelineTab();
        auto* ranks = tab->findChild<QCheckBox*>();
        QVERIFY(ranks);
        ranks->setChecked(true); // 16 stages x 8 TP ranks
        // Simulated on the worker: the chart is stale until the result arrives.
        QVERIFY(tab->isStale());
        waitIdle(w);
        QVERIFY(!tab->isStale());
        GanttView* g = tab->gantt();
        g->fit();
        // Drawn, not blank: the stages' bars bring many colours.
        const QImage img = g->grab().toImage();
        QVERIFY2(distinctColours(img) >= 6, qPrintable(QString::number(distinctColours(img))));
        // Level of detail: far fewer bars drawn than events, at most about one per pixel per lane.
        QVERIFY2(g->drawnBars() < 128 * 3 * 1600, qPrintable(QString::number(g->drawnBars())));
        // Zoom and pan change the visible window; F fits again.
        const double span = g->visibleEnd() - g->visibleStart();
        QTest::keyClick(g, Qt::Key_W);
        QVERIFY(g->visibleEnd() - g->visibleStart() < span);
        QTest::keyClick(g, Qt::Key_D);
        QTest::keyClick(g, Qt::Key_F);
        QVERIFY(std::abs((g->visibleEnd() - g->visibleStart()) - span) < 1e-9 * span);
        QTemporaryDir dir;
        QVERIFY(tab->exportPng(dir.path() + "/t.png"));
        QVERIFY(tab->exportSvg(dir.path() + "/t.svg"));
        QVERIFY(tab->exportTrace(dir.path() + "/t.json"));
        QVERIFY(QFileInfo(dir.path() + "/t.svg").size() > 1000);
        QFile json(dir.path() + "/t.json");
        QVERIFY(json.open(QIODevice::ReadOnly));
        QVERIFY(!QJsonDocument::fromJson(json.readAll()).isNull());
    }

    void timelineDraftsDuringADragAndFillsInAfter()
    {
        MainWindow w(appData());
        QVERIFY(showPreset(w, "gpt3-175b-a100", "timeline"));
        TimelineTab* tab = w.timelineTab();
        QVERIFY(!tab->isStale());
        auto layerBars = [&] {
            int n = 0;
            for (const TraceEvent& e : tab->gantt()->trace()->events)
                n += e.kind == TaskKind::Forward;
            return n;
        };
        const int fullForwards = layerBars();
        QVERIFY(tab->gantt()->trace()->critical.empty()); // not asked for
        // An edit of a drag, before the pause: a draft with one forward bar per pass.
        QSlider* batch = w.panel()->slider("training.global_batch");
        batch->setSliderDown(true);
        batch->setValue(batch->value() + 1);
        QElapsedTimer t;
        t.start();
        while (w.evaluator()->busy() && t.elapsed() < 20000)
            QApplication::processEvents(); // the worker's draft, not the debounced full timeline
        QVERIFY(tab->isStale());
        const int draftForwards = layerBars();
        const Scenario& s = w.document()->scenario();
        QCOMPARE(draftForwards, s.plan.pp * 2 * int(s.training.globalBatch / (s.training.microBatch * s.plan.dp)));
        batch->setSliderDown(false);
        // The pause: the layers fill in (96 layers on 8 stages x 2 chunks: 6 per pass).
        waitIdle(w);
        QVERIFY(!tab->isStale());
        QCOMPARE(layerBars(), draftForwards * 6);
        QVERIFY(fullForwards > 0);
        // The critical path is computed once it is asked for.
        QCheckBox* critical = nullptr;
        for (QCheckBox* box : tab->findChildren<QCheckBox*>())
            if (box->text() == "Critical path")
                critical = box;
        QVERIFY(critical);
        critical->setChecked(true);
        waitIdle(w);
        const Trace* trace = tab->gantt()->trace();
        QCOMPARE(trace->critical.size(), trace->events.size());
        QVERIFY(std::count(trace->critical.begin(), trace->critical.end(), 1) > 0);
    }

    void timelineKeysWorkAfterAToolbarClick()
    {
        // Issue 22, item 9: after a click on a toolbar checkbox, W/S/A/D did nothing until
        // the chart was clicked.
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama2-7b-8xa100"));
        w.resize(1600, 1000);
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(w.selectTab("timeline"));
        waitIdle(w);
        TimelineTab* tab = w.timelineTab();
        GanttView* g = tab->gantt();
        QCheckBox* critical = nullptr;
        for (QCheckBox* box : tab->findChildren<QCheckBox*>())
            if (box->text() == "Critical path")
                critical = box;
        QVERIFY(critical);
        QTest::mouseClick(critical, Qt::LeftButton, Qt::NoModifier, QPoint(5, critical->height() / 2));
        QVERIFY(critical->isChecked());
        waitIdle(w);
        const double span = g->visibleEnd() - g->visibleStart();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_W);
        QVERIFY2(g->visibleEnd() - g->visibleStart() < span, "W zooms after the click");
    }

    void reliabilityFollowsTheSliders()
    {
        MainWindow w(appData());
        QVERIFY(showPreset(w, "llama3-405b-h100", "reliability"));
        ReliabilityTab* tab = w.reliabilityTab();
        QVERIFY(tab->hasResult());
        const RunOutlook before = tab->outlook();
        QCOMPARE(before.trials, 1000);
        QVERIFY(!before.run.firstTrial.empty());
        QVERIFY(tab->findChild<QLabel*>() != nullptr);
        // One GPU 15% slow: the expected run grows by 15%, and the new Monte Carlo arrives.
        auto* slow = qobject_cast<QDoubleSpinBox*>(w.panel()->editor("reliability.straggler_slowdown"));
        QVERIFY(slow);
        slow->setValue(15);
        QCOMPARE(w.document()->scenario().reliability.stragglerSlowdown, 0.15);
        waitIdle(w);
        const RunOutlook after = tab->outlook();
        QVERIFY(std::abs(after.report.expectedTime / before.report.expectedTime - 1.15) < 0.01);
        QVERIFY(after.run.p50 > 1.1 * before.run.p50);
        // The run timeline shows a phase under the middle of the training lane.
        RunTimelineView* view = tab->timeline();
        view->fit();
        const QImage runImage = view->grab().toImage(); // training, checkpoints and failures in colour
        QVERIFY2(distinctColours(runImage) >= 4, qPrintable(QString::number(distinctColours(runImage))));
        const RunPhase* ph = view->phaseAt(QPoint(view->width() / 2, view->height() / 4));
        QVERIFY(ph != nullptr);
        // Undo brings the first run back.
        w.document()->undoStack()->undo();
        waitIdle(w);
        QVERIFY(std::abs(tab->outlook().report.expectedTime / before.report.expectedTime - 1) < 1e-9);
    }

    // Issue 24: the recovery strategy is a panel control; the Reliability tab names every
    // strategy's expected time with the chosen one in bold, and the Monte Carlo follows.
    void recoveryStrategyFromThePanel()
    {
        MainWindow w(appData());
        QVERIFY(showPreset(w, "llama3-405b-chaos", "reliability"));
        ReliabilityTab* tab = w.reliabilityTab();
        QVERIFY(tab->hasResult());
        const RunOutlook storage = tab->outlook();
        auto* strategy = qobject_cast<QComboBox*>(w.panel()->editor("reliability.strategy"));
        QVERIFY(strategy);
        QCOMPARE(strategy->count(), 3);
        strategy->setCurrentIndex(int(RecoveryStrategy::InMemory));
        emit strategy->activated(int(RecoveryStrategy::InMemory)); // what a user's pick sends
        QCOMPARE(w.document()->scenario().reliability.strategy, RecoveryStrategy::InMemory);
        waitIdle(w);
        const RunOutlook memory = tab->outlook();
        QCOMPARE(memory.report.plan.strategy, RecoveryStrategy::InMemory);
        QVERIFY(memory.run.checkpointGpuHours < 0.1 * storage.run.checkpointGpuHours);
        QString text;
        for (QLabel* l : tab->findChildren<QLabel*>())
            if (l->text().contains("Strategies"))
                text = l->text();
        QVERIFY2(text.contains("<b>in memory (Gemini)"), qPrintable(text));
        QVERIFY(text.contains("just in time"));
        // A census from another fleet changes the failure rate the tab reports.
        auto* census = qobject_cast<QComboBox*>(w.panel()->editor("reliability.failure_rates"));
        QVERIFY(census);
        census->setCurrentIndex(int(RateSet::OptA100));
        emit census->activated(int(RateSet::OptA100));
        waitIdle(w);
        QVERIFY(tab->outlook().report.clusterMtbf < 0.3 * memory.report.clusterMtbf);
        w.document()->undoStack()->undo();
        w.document()->undoStack()->undo();
        waitIdle(w);
        QCOMPARE(w.document()->scenario().reliability.strategy, RecoveryStrategy::Storage);
    }

    // Issue 25: the What-if tab names the regime and lists changes with engine-computed
    // gains; Apply makes one change (one undo step) and the document then runs as
    // predicted; the heat map's cells are sweep simulations, a click applies one, and the
    // CSV holds the grid.
    void whatIfAdvisesAndSweeps()
    {
        MainWindow w(appData());
        QVERIFY(showPreset(w, "llama3-405b-h100", "whatif"));
        WhatIfTab* tab = w.whatIfTab();
        QTRY_VERIFY_WITH_TIMEOUT(!tab->advice().suggestions.empty(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!tab->sweepResult().cells.empty(), 20000);
        const Advice advice = tab->advice();
        QVERIFY(advice.suggestions.size() >= 3);
        QCOMPARE(tab->suggestionTable()->rowCount(), int(advice.suggestions.size()));
        int planRow = -1;
        for (int i = 0; i < int(advice.suggestions.size()); ++i)
            if (advice.suggestions[std::size_t(i)].title.starts_with("the planner's"))
                planRow = i;
        QVERIFY(planRow >= 0);
        const Scenario before = w.document()->scenario();
        tab->applySuggestion(planRow);
        waitIdle(w);
        QVERIFY(!(w.document()->scenario().plan == before.plan));
        const double predicted = advice.suggestions[std::size_t(planRow)].timeToTrain;
        QVERIFY(std::abs(w.evaluator()->report(w.document()->scenario()).timeToTrain / predicted - 1) < 1e-9);
        w.document()->undoStack()->undo();
        waitIdle(w);
        QVERIFY(w.document()->scenario().plan == before.plan);

        // The default sweep is TP x PP of MFU, the scenario's own cell marked.
        QTRY_VERIFY_WITH_TIMEOUT(tab->sweepResult().currentX >= 0, 20000);
        const SweepResult grid = tab->sweepResult();
        QCOMPARE(grid.x.field->path, std::string("parallel.tp"));
        QCOMPARE(grid.metric, Headline::Mfu);
        const SweepCell& own = grid.at(std::size_t(grid.currentX), std::size_t(grid.currentY));
        QVERIFY(own.ok());
        QCOMPARE(own.value, w.evaluator()->report(before).step.mfu);
        QVERIFY(tab->heatMap()->plottableCount() == 1);
        const QStringList csv = tab->sweepCsv().split('\n', Qt::SkipEmptyParts);
        QCOMPARE(csv.size(), int(grid.y.values.size()) + 1);
        // Another pair of fields; a click on a valid cell applies it.
        QVERIFY(tab->setSweep("cluster.gpus", "training.global_batch", Headline::TimeToTrain));
        QTRY_VERIFY_WITH_TIMEOUT(tab->sweepResult().x.field && tab->sweepResult().x.field->path == "cluster.gpus", 20000);
        const SweepResult gpus = tab->sweepResult();
        int cx = -1, cy = -1;
        for (std::size_t iy = 0; iy < gpus.y.values.size() && cx < 0; ++iy)
            for (std::size_t ix = 0; ix < gpus.x.values.size(); ++ix)
                if (gpus.at(ix, iy).ok() && (int(ix) != gpus.currentX || int(iy) != gpus.currentY)) {
                    cx = int(ix);
                    cy = int(iy);
                    break;
                }
        QVERIFY(cx >= 0);
        tab->applyCell(cx, cy);
        waitIdle(w);
        QCOMPARE(double(w.document()->scenario().cluster.gpus), gpus.x.values[std::size_t(cx)]);
        QCOMPARE(w.evaluator()->report(w.document()->scenario()).timeToTrain, gpus.at(std::size_t(cx), std::size_t(cy)).value);
    }

    // Issue 25: the dashboard says how far to trust its numbers: the band where the
    // measured value fell on the most similar published runs, moving with the scenario.
    void dashboardShowsErrorBands()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama3-405b-h100"));
        waitIdle(w);
        const QString note = w.dashboard()->bandNote();
        QVERIFY2(note.contains("similar published runs (hopper, dense"), qPrintable(note));
        QVERIFY(note.contains("MFU"));
        // Mixture of experts on Hopper rests on other runs than the dense model.
        QVERIFY(w.openPreset("mixtral-8x7b-h100"));
        waitIdle(w);
        QVERIFY2(w.dashboard()->bandNote().contains("MoE"), qPrintable(w.dashboard()->bandNote()));
        // A GTX 580 has no published run to compare with.
        QVERIFY(w.openPreset("gtx580-2012"));
        waitIdle(w);
        QVERIFY2(w.dashboard()->bandNote().startsWith("No similar published run"), qPrintable(w.dashboard()->bandNote()));
    }

    // Issue 25: side by side. Pin A, edit B: the dashboard gives A's numbers and B's
    // change from them, the Breakdown draws A's step in grey under B's; unpinning clears
    // both; two files on the command line open compared.
    void pinAAndCompare()
    {
        MainWindow w(appData());
        QVERIFY(showPreset(w, "llama3-405b-h100", "breakdown"));
        QVERIFY(w.dashboard()->compareNote().isEmpty());
        QVERIFY(w.pinAsA());
        QVERIFY(w.pinnedA().has_value());
        w.document()->edit("test", [](Scenario& s) { s.plan.recompute = Recompute::Full; }, false);
        waitIdle(w);
        const QString note = w.dashboard()->compareNote();
        // A's figures as the engine gives them; full recomputation makes B slower.
        const StepReport pinned = predictStep(test::preset("llama3-405b-h100"), test::calibration());
        QVERIFY2(note.contains(QString("Step time %1 (B +").arg(QString::fromStdString(formatSeconds(pinned.stepTime)))), qPrintable(note));
        QVERIFY2(note.contains(QString("MFU %1% (B -").arg(100 * pinned.mfu, 0, 'f', 1)), qPrintable(note));
        QCOMPARE(w.breakdownTab()->stepBarsForTest(), 2);
        // The Timeline draws A's steps above B's on one time scale; the Scaling tab adds
        // A's curves in grey.
        QVERIFY(w.selectTab("timeline"));
        waitIdle(w);
        GanttView* a = w.timelineTab()->pinnedGantt();
        QTRY_VERIFY_WITH_TIMEOUT(a->traceLength() > 0 && w.timelineTab()->gantt()->traceLength() > 0, 20000);
        QVERIFY(a->isVisibleTo(w.timelineTab()));
        QVERIFY(w.timelineTab()->gantt()->traceLength() > a->traceLength()); // B recomputes: its step is longer
        QCOMPARE(a->visibleEnd(), w.timelineTab()->gantt()->visibleEnd());
        QVERIFY(w.selectTab("scaling"));
        waitIdle(w);
        QTRY_VERIFY_WITH_TIMEOUT(w.scalingTab()->plot()->graphCount() == 6, 20000);
        QCOMPARE(w.scalingTab()->plot()->graph(0)->name(), QString("A: time, fixed batch"));
        w.unpinA();
        QVERIFY(w.selectTab("timeline")); // A goes with the tab's next update (TabInput::pinned)
        waitIdle(w);
        QVERIFY(!w.timelineTab()->pinnedGantt()->isVisibleTo(w.timelineTab()));
        QVERIFY(w.dashboard()->compareNote().isEmpty());
        QVERIFY(w.selectTab("breakdown")); // a hidden tab catches up when shown
        waitIdle(w);
        QCOMPARE(w.breakdownTab()->stepBarsForTest(), 1);

        MainWindow c(appData());
        QVERIFY(c.openCompared(QString::fromStdString(test::dataPath("presets/llama3-405b-h100.yaml")),
            QString::fromStdString(test::dataPath("presets/llama3-405b-chaos.yaml"))));
        QCOMPARE(c.pinnedA()->name, std::string("Llama 3.1 405B on 16,384 H100"));
        QCOMPARE(c.document()->scenario().name, std::string("Llama 3.1 405B, chaos drill"));
        // A's time to train as the engine gives it; the chaos drill's B takes longer.
        const QRegularExpressionMatch train = QRegularExpression(R"(Time to train ([0-9.]+) days \(B \+)").match(c.dashboard()->compareNote());
        QVERIFY2(train.hasMatch(), qPrintable(c.dashboard()->compareNote()));
        QVERIFY(std::abs(train.captured(1).toDouble() - predictRun(test::preset("llama3-405b-h100"), test::calibration()).timeToTrain / 86400) < 0.06);
    }

    void costTabPricesAndFollowsTheFields()
    {
        MainWindow w(appData());
        QVERIFY(showPreset(w, "gpt3-175b-a100", "cost"));
        CostTab* tab = w.costTab();
        QVERIFY(tab->hasResult());
        const CostAnalysis before = tab->study();
        QVERIFY(before.report.totalUsd > 0);
        QVERIFY(before.byGpuCount.size() >= 3);
        QVERIFY(!before.byGpuType.empty());
        // Reserved pricing: cheaper, and the study is redone on the worker thread.
        auto* pricing = qobject_cast<QComboBox*>(w.panel()->editor("cost.pricing"));
        QVERIFY(pricing);
        pricing->setCurrentIndex(1);
        emit pricing->activated(1); // what a user's pick sends
        QCOMPARE(w.document()->scenario().cost.pricing, Pricing::Reserved);
        waitIdle(w);
        QVERIFY(tab->study().report.totalUsd < 0.9 * before.report.totalUsd);
        // An impossible PUE is refused inline on its row (the field registry's rule, the
        // loader's too), not priced.
        auto* pue = qobject_cast<QDoubleSpinBox*>(w.panel()->editor("cost.pue"));
        QVERIFY(pue);
        pue->setValue(0.5);
        waitIdle(w);
        QVERIFY2(w.panel()->errorText("cost.pue").contains("PUE"), qPrintable(w.panel()->errorText("cost.pue")));
        const double energyBefore = tab->study().report.energyMwh; // at PUE 1.2 (the default)
        pue->setValue(1.4);
        waitIdle(w);
        QVERIFY(w.panel()->errorText("cost.pue").isEmpty());
        QVERIFY(tab->error().isEmpty());
        QVERIFY(tab->study().report.energyMwh > energyBefore); // priced again: PUE 1.4 draws more at the wall
    }

    void costChartsKeepTheirLabelsOnASmallWindow()
    {
        // Issue 22, item 10: at 1366x700 the procurement chart elided every GPU name to
        // "..." (9 rows in 100 px) and the money axes read "million...". The charts now
        // scroll rather than shrink below a readable height.
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama3-405b-h100"));
        w.keepSizeOnShow();
        w.resize(1366, 700);
        w.show();
        QVERIFY(w.selectTab("cost"));
        waitIdle(w);
        QVERIFY(w.costTab()->hasResult());
        QChartView* procurement = nullptr;
        for (QChartView* v : w.costTab()->findChildren<QChartView*>())
            if (v->chart()->title().startsWith("The same run on each GPU type"))
                procurement = v;
        QVERIFY(procurement);
        QApplication::processEvents();
        const auto axes = procurement->chart()->axes(Qt::Vertical);
        QVERIFY(!axes.isEmpty());
        auto* names = qobject_cast<QBarCategoryAxis*>(axes.front());
        QVERIFY(names && names->count() >= 5);
        const double perName = procurement->chart()->plotArea().height() / names->count();
        QVERIFY2(perName >= 16, qPrintable(QString("%1 px per GPU name").arg(perName)));
        for (QChartView* v : w.costTab()->findChildren<QChartView*>())
            QVERIFY2(v->height() >= 260, qPrintable(v->chart()->title()));
    }

    void clusterTabComparesPolicies()
    {
        MainWindow w(appData());
        QVERIFY(showPreset(w, "shared-cluster", "cluster"));
        ClusterTab* tab = w.clusterTab();
        QVERIFY(tab->hasResult());
        QCOMPARE(tab->comparison()->first.policy, std::string("fair-share"));
        QCOMPARE(tab->comparison()->second.policy, std::string("fifo"));
        QCOMPARE(int(tab->comparison()->first.jobs.size()), 400);
        // The Gantt shows allocations: somewhere early on, a node is busy.
        auto* gantt = tab->findChild<ClusterGanttView*>();
        QVERIFY(gantt);
        bool hit = false;
        for (int y = 20; y < gantt->height() - 30 && !hit; y += 5)
            hit = gantt->allocationAt(QPoint(gantt->width() / 4, y)) != nullptr;
        QVERIFY(hit);
        // Issue 22, item 14: one unit for every time in the table, named in its heading,
        // and "share of due" explained where it is read.
        auto* table = tab->findChild<QTableWidget*>();
        QVERIFY(table && table->rowCount() > 0);
        const QString unit = table->horizontalHeaderItem(3)->text().section('(', 1).chopped(1);
        QVERIFY2(unit == "h" || unit == "days", qPrintable(table->horizontalHeaderItem(3)->text()));
        for (int col : { 3, 4, 5, 6 }) {
            QVERIFY(table->horizontalHeaderItem(col)->text().endsWith("(" + unit + ")"));
            for (int row = 0; row < table->rowCount(); ++row) {
                bool number = false;
                table->item(row, col)->text().toDouble(&number);
                QVERIFY2(number, qPrintable(table->item(row, col)->text())); // a bare number in the column's unit
            }
        }
        QVERIFY(table->horizontalHeaderItem(7)->text().contains("share of due"));
        QVERIFY(table->horizontalHeaderItem(7)->toolTip().contains("quota"));
        // Another pair, on the worker thread.
        tab->setPolicies("backfill", "priority");
        waitIdle(w);
        QCOMPARE(tab->comparison()->first.policy, std::string("backfill"));
        QVERIFY(tab->comparison()->second.preemptions > 0);
        // A panel field re-runs it: twice the arrivals, more waiting.
        const double queued = tab->comparison()->first.meanQueueSeconds;
        auto* arrivals = qobject_cast<QDoubleSpinBox*>(w.panel()->editor("workload.generate.arrivals_per_hour"));
        QVERIFY(arrivals);
        arrivals->setValue(12);
        waitIdle(w);
        QCOMPARE(w.document()->scenario().workload.generator.arrivalsPerHour, 12.0);
        QVERIFY(tab->comparison()->first.meanQueueSeconds > queued);
        const double busier = tab->comparison()->first.meanQueueSeconds;
        // Twice the cluster: the scenario's own DP no longer matches its GPU count, but
        // the cluster sizes each job itself, so the tab still runs.
        auto* gpus = qobject_cast<QDoubleSpinBox*>(w.panel()->editor("cluster.gpus"));
        QVERIFY(gpus);
        gpus->setValue(2048);
        QVERIFY(!w.bannerText().contains("Could not"));
        waitIdle(w);
        QCOMPARE(tab->comparison()->first.totalGpus, 2048LL);
        QVERIFY(tab->comparison()->first.meanQueueSeconds < busier); // the same stream on twice the GPUs
        // A scenario without a workload says so.
        QVERIFY(w.openPreset("gpt3-175b-a100"));
        waitIdle(w);
        QVERIFY(!tab->hasResult());
        QVERIFY(tab->message().contains("no workload"));
    }

    void everyViewExports()
    {
        AppData data = appData();
        data.reportJson = [](const Scenario& s, const Report&) { return QByteArray::fromStdString("{\"name\": \"" + s.name + "\"}"); };
        MainWindow w(data);
        QVERIFY(w.openPreset("shared-cluster"));
        w.resize(1600, 1000);
        w.show();
        QTemporaryDir dir;
        auto head = [](const QString& path, int n) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.read(n) : QByteArray();
        };
        for (const char* tab : { "frontier", "scaling", "breakdown", "plans", "topology", "timeline", "reliability", "cost", "cluster", "whatif" }) {
            QVERIFY(w.selectTab(tab));
            waitIdle(w);
            QString error;
            const QString base = dir.path() + "/" + tab;
            QVERIFY2(w.exportCurrentView(base + ".png", &error), qPrintable(error));
            QCOMPARE(head(base + ".png", 4), QByteArray("\x89PNG"));
            QVERIFY2(w.exportCurrentView(base + ".svg", &error), qPrintable(error));
            QVERIFY(head(base + ".svg", 400).contains("<svg"));
            QVERIFY(QFileInfo(base + ".svg").size() > 2000); // drawn, not an empty canvas
            QVERIFY2(w.exportCurrentView(base + ".pdf", &error), qPrintable(error));
            QCOMPARE(head(base + ".pdf", 5), QByteArray("%PDF-"));
        }
        QString error;
        QVERIFY(!w.exportCurrentView(dir.path() + "/x.bmp", &error));
        QVERIFY(error.contains("png, svg or pdf"));
        // Tables to CSV: the cluster tab's per-project table, header first.
        QVERIFY(w.selectTab("cluster"));
        QVERIFY2(w.exportCurrentTables(dir.path() + "/projects.csv", &error), qPrintable(error));
        const QList<QByteArray> rows = head(dir.path() + "/projects.csv", 100000).split('\n');
        QVERIFY(rows.front().startsWith("project,quota,jobs,"));
        QVERIFY2(rows.front().contains(",fair-share wait (h),") || rows.front().contains(",fair-share wait (days),"), rows.front());
        QVERIFY(rows.at(1).startsWith("research,50%,"));
        QVERIFY(w.selectTab("plans"));
        waitIdle(w);
        QVERIFY2(w.exportCurrentTables(dir.path() + "/plans.csv", &error), qPrintable(error));
        QVERIFY(head(dir.path() + "/plans.csv", 100000).count('\n') > 3);
        QVERIFY(w.selectTab("breakdown"));
        QVERIFY(!w.exportCurrentTables(dir.path() + "/none.csv", &error)); // charts only
        QVERIFY(error.contains("no table"));
        QVERIFY(!QFileInfo::exists(dir.path() + "/none.csv"));
        // The report, the trace and the scenario.
        QVERIFY2(w.exportReport(dir.path() + "/report.json", &error), qPrintable(error));
        QVERIFY(QJsonDocument::fromJson(head(dir.path() + "/report.json", 100000)).object().contains("name"));
        QVERIFY2(w.exportTrace(dir.path() + "/trace.json", &error), qPrintable(error));
        QVERIFY(QJsonDocument::fromJson(head(dir.path() + "/trace.json", 1 << 26)).object().contains("traceEvents"));
        QVERIFY2(w.exportScenario(dir.path() + "/scenario.yaml", &error), qPrintable(error));
        QCOMPARE(scenarioToYaml(loadScenarioFile((dir.path() + "/scenario.yaml").toStdString(), test::catalog(), {}, test::topologies())),
            scenarioToYaml(w.document()->scenario()));
        QVERIFY(w.document()->path().endsWith("shared-cluster.yaml")); // exporting is not saving as
    }

    void teachingPanelExplainsTheClickedNumber()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("gpt3-175b-a100"));
        w.show();
        QVERIFY(!w.teachingDock()->isVisible());
        auto* mfu = w.dashboard()->findChild<QLabel*>("dashboard-mfu");
        QVERIFY(mfu);
        QTest::mouseClick(mfu, Qt::LeftButton);
        QVERIFY(w.teachingDock()->isVisible());
        QCOMPARE(w.teachingPanel()->figure(), QString("mfu"));
        const QString text = w.teachingPanel()->text();
        QVERIFY2(text.contains("model FLOPs per step / (step time x GPUs x peak"), qPrintable(text));
        QVERIFY2(text.contains(w.dashboard()->value("mfu")), qPrintable(text)); // the same result as the dashboard
        // It follows the scenario: another tensor-parallel degree, other numbers.
        auto* tp = qobject_cast<QDoubleSpinBox*>(w.panel()->editor("parallel.tp"));
        const double before = tp->value();
        auto* dp = qobject_cast<QDoubleSpinBox*>(w.panel()->editor("parallel.dp"));
        const double dpBefore = dp->value();
        tp->setValue(before / 2); // DP follows (the panel keeps the GPU count)
        QCOMPARE(dp->value(), dpBefore * 2);
        QVERIFY(w.teachingPanel()->text() != text);
        QVERIFY(w.teachingPanel()->text().contains(w.dashboard()->value("mfu")));
        w.teachingPanel()->selectFigure("memory");
        QVERIFY(w.teachingPanel()->text().contains("weights + gradients + optimizer states"));
    }

    void presentationModeShowsTheChosenViewsLarge()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("gpt3-175b-a100"));
        w.show();
        const qreal size = w.font().pointSizeF();
        w.setPresentationTabs({ "frontier", "timeline" });
        QVERIFY(w.selectTab("plans"));
        w.setPresentationMode(true);
        QVERIFY(w.presentationMode());
        QVERIFY(w.windowState() & Qt::WindowFullScreen);
        QVERIFY(w.font().pointSizeF() > 1.4 * size);
        QVERIFY(!w.panel()->isVisible());
        // The charts' text grows with the window's (issue 22, item 3).
        QCPAxis* axis = w.frontierView()->plot()->axisRect(0)->axis(QCPAxis::atLeft);
        QVERIFY2(axis->labelFont().pointSizeF() > 1.4 * size, qPrintable(QString::number(axis->labelFont().pointSizeF())));
        // So do labels made after it began: a new frontier draws its "80% of best" and
        // "latency wall" labels anew (they kept QCPItemText's fixed small default).
        w.selectTab("frontier");
        w.findChild<FrontierTab*>()->duration()->setValue(5);
        waitIdle(w);
        QCustomPlot* frontier = w.frontierView()->plot();
        int labels = 0;
        for (int i = 0; i < frontier->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(frontier->item(i))) {
                ++labels;
                QVERIFY2(t->font().pointSizeF() > 1.2 * size, qPrintable(t->text() + ": " + QString::number(t->font().pointSizeF())));
            }
        QVERIFY(labels >= 2);
        auto* tabs = w.findChild<QTabWidget*>();
        int visible = 0;
        for (int i = 0; i < tabs->count(); ++i)
            visible += tabs->isTabVisible(i);
        QCOMPARE(visible, 2);
        QVERIFY(tabs->isTabVisible(tabs->currentIndex())); // moved off the hidden tab
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(tabs, Qt::Key_Escape); // shortcuts need an active window
        QVERIFY(!w.presentationMode());
        QVERIFY(!(w.windowState() & Qt::WindowFullScreen));
        QCOMPARE(w.font().pointSizeF(), size);
        QVERIFY(w.panel()->isVisible());
        QVERIFY(std::abs(axis->labelFont().pointSizeF() - size) < 0.01);
        for (int i = 0; i < tabs->count(); ++i)
            QVERIFY(tabs->isTabVisible(i));
    }

    void presentationModeLeavesByF11AndWhenEnteredBeforeShowing()
    {
        // Issue 22, item 3: F11 did not leave (the hidden menu bar took its shortcut along),
        // and --present then Esc lost the parameter panel for the session.
        MainWindow w(appData());
        QVERIFY(w.openPreset("gpt3-175b-a100"));
        w.setPresentationMode(true); // as --present does, before the window is shown
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(!w.panel()->isVisible());
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!w.presentationMode());
        QVERIFY(w.panel()->isVisible());
        QTest::keyClick(&w, Qt::Key_F11);
        QVERIFY(w.presentationMode());
        QVERIFY(w.menuBar()->isHidden());
        QTest::keyClick(&w, Qt::Key_F11);
        QVERIFY(!w.presentationMode());
        QVERIFY(w.panel()->isVisible());
        QVERIFY(w.menuBar()->isVisible());
    }

    void presentationAt1366FitsTheDashboard()
    {
        // Issue 22, item 3: at 1366x768, presentation mode cut the dashboard's figures off
        // ("16.1 da"). The tiles now take as many rows as they need.
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama3-405b-h100"));
        w.setPresentationMode(true);
        w.setWindowState(Qt::WindowNoState);
        w.keepSizeOnShow(); // 1366 px on the 800 px offscreen screen
        w.resize(1366, 768);
        w.show();
        QApplication::processEvents();
        QVERIFY2(w.width() <= 1366, qPrintable(QString::number(w.width()))); // not pushed wider than the screen
        for (QLabel* value : w.dashboard()->findChildren<QLabel*>())
            if (value->objectName().startsWith("dashboard-") && value->isVisible() && !value->wordWrap()) // the notes wrap
                QVERIFY2(value->width() >= value->sizeHint().width(),
                    qPrintable(QString("%1: %2 < %3").arg(value->text()).arg(value->width()).arg(value->sizeHint().width())));
    }

    void theWindowFitsSmallScreens()
    {
        // Issue 22, item 10: the window could not be narrower than 1419 px, and a saved
        // 1600x1000 geometry came back unchanged onto a smaller screen.
        {
            MainWindow big(appData());
            big.resize(1600, 1000);
            QSettings().setValue("window/geometry", big.saveGeometry());
        }
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama3-405b-h100"));
        w.show();
        QApplication::processEvents();
        for (const char* tab : { "frontier", "scaling", "breakdown", "plans", "topology", "timeline", "reliability", "cost" }) {
            QVERIFY(w.selectTab(tab));
            QVERIFY2(w.minimumSizeHint().width() <= 1366 - 100, qPrintable(QString("%1: %2 px").arg(tab).arg(w.minimumSizeHint().width())));
        }
        QSettings().remove("window/geometry");
        const QRect room = w.screen()->availableGeometry();
        if (room.width() < 1366)
            QSKIP("the 1366x768 screen is tested by tst_gui_1366 (offscreen with tests/screens/1366x768.json)");
        QTRY_VERIFY2(room.contains(w.frameGeometry()), qPrintable(QString("%1x%2 at %3,%4 on %5x%6").arg(w.width()).arg(w.height())
                                                                 .arg(w.x()).arg(w.y()).arg(room.width()).arg(room.height())));
        // Opening the formula panel keeps the window on the screen (it grew past it).
        w.teachingDock()->show();
        QTRY_VERIFY2(room.contains(w.frameGeometry()), qPrintable(QString("%1x%2 with the formula panel").arg(w.width()).arg(w.height())));
        QVERIFY(w.teachingDock()->isVisible());
    }

    void titleNamesTheFile()
    {
        // Issue 22, item 12: the title showed the scenario's name, not the file.
        MainWindow w(appData());
        QVERIFY(w.openPreset("gpt3-175b-a100"));
        QVERIFY2(w.windowTitle().startsWith("gpt3-175b-a100.yaml[*]: GPT-3 175B"), qPrintable(w.windowTitle()));
        QTemporaryDir dir;
        const QString path = dir.filePath("my-run.yaml");
        QVERIFY(w.saveTo(path));
        QVERIFY2(w.windowTitle().startsWith("my-run.yaml[*]: GPT-3 175B"), qPrintable(w.windowTitle()));
    }

    void savingKeepsTheFilesCommentsAndUnits()
    {
        // Issue 22, item 12: a save rewrote the file in base units without its comments.
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama3-405b-h100"));
        qobject_cast<QDoubleSpinBox*>(w.panel()->editor("training.global_batch"))->setValue(4096);
        QTemporaryDir dir;
        const QString path = dir.filePath("mine.yaml");
        QVERIFY(w.saveTo(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.startsWith("# Llama 3.1 405B pre-training"));
        QVERIFY2(text.contains("deadline: 120 days  # Meta pre-trained"), qPrintable(text));
        QVERIFY(text.contains("global_batch: 4096"));
        QVERIFY(text.contains("scale_out_bandwidth: 400 Gbps"));
        // And again from what was saved.
        qobject_cast<QDoubleSpinBox*>(w.panel()->editor("training.global_batch"))->setValue(2048);
        QVERIFY(w.saveTo(path));
        QFile again(path); // saved by replacing the file: a new one
        QVERIFY(again.open(QIODevice::ReadOnly));
        const QString second = QString::fromUtf8(again.readAll());
        QVERIFY(second.contains("global_batch: 2048") && second.startsWith("# Llama 3.1 405B pre-training"));
    }

    void topologyTabSpeaksOneUnitAndWarnsOfWhatIfs()
    {
        // Issue 22, item 13: "NIC 50 GB/s" drawn beside "400.0 Gb/s" in the editor; "Start
        // from: A100 cluster" on an H100 scenario; NVL72 on H100s without a word.
        MainWindow w(appData());
        QVERIFY(showPreset(w, "llama3-405b-h100", "topology"));
        TopologyTab* editor = w.topologyTab();
        QStringList texts;
        for (QGraphicsItem* item : editor->view()->scene()->items())
            if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item))
                texts << t->text();
        QVERIFY2(texts.join("|").contains("NIC 400 Gb/s per GPU"), qPrintable(texts.join(" | ")));
        QComboBox* start = editor->findChild<QComboBox*>();
        QVERIFY(start);
        QVERIFY2(start->currentText().contains("own network"), qPrintable(start->currentText()));
        // A shipped layout with a wider scale-up domain than the GPU's: a warning.
        int wide = -1;
        for (int i = 1; i < start->count(); ++i)
            if (start->itemText(i).contains("NVL72"))
                wide = i;
        QVERIFY(wide > 0);
        start->setCurrentIndex(wide);
        for (QPushButton* b : editor->findChildren<QPushButton*>())
            if (b->text() == "Use")
                b->click();
        waitIdle(w);
        QCOMPARE(start->currentIndex(), wide); // the scenario's topology now
        // A tier added above spans at most the cluster (it made a spine wider than it).
        const int tiers = w.document()->scenario().cluster.tierCount;
        for (QPushButton* b : editor->findChildren<QPushButton*>())
            if (b->text() == "Add tier above")
                b->click();
        const ClusterSpec& c = w.document()->scenario().cluster;
        QCOMPARE(c.tierCount, tiers + 1);
        QVERIFY(c.tiers[c.tierCount - 1].spanGpus <= c.gpus);
        QVERIFY(c.tiers[c.tierCount - 1].spanGpus > (tiers > 0 ? c.tiers[tiers - 1].spanGpus : c.scaleUpDomain));
        bool warned = false;
        for (QLabel* l : editor->findChildren<QLabel*>())
            warned = warned || (l->isVisible() && l->text().contains("what-if"));
        QVERIFY(warned);
    }

    void labelsAndLegendsStayOffEachOtherAndTheData()
    {
        // Issue 22, item 11: "this scenario" over "sync wall" on Scaling; the frontier,
        // scaling and reliability legends over their plots' data.
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama3-405b-h100")); // its GPU count is its sync wall
        w.resize(1600, 1000);
        w.show();
        auto legendOutsideThePlot = [](QCustomPlot* plot) {
            plot->replot();
            const QRect legend = plot->legend->outerRect();
            for (QCPAxisRect* r : plot->axisRects())
                if (legend.intersects(r->rect()))
                    return false;
            return !legend.isEmpty();
        };
        waitIdle(w);
        QVERIFY(legendOutsideThePlot(w.frontierView()->plot()));
        QVERIFY(w.selectTab("scaling"));
        waitIdle(w);
        auto* scaling = w.findChild<ScalingTab*>()->plot();
        QVERIFY(legendOutsideThePlot(scaling)); // inside, it covered the growing batch's efficiency
        scaling->replot();
        std::vector<QRectF> labels;
        for (int i = 0; i < scaling->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(scaling->item(i)))
                labels.push_back(QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition()));
        QCOMPARE(int(labels.size()), 2);
        QVERIFY2(!labels[0].intersects(labels[1]), "the sync wall's and the scenario's labels overlap");
        QVERIFY(w.selectTab("reliability"));
        waitIdle(w);
        QVERIFY(legendOutsideThePlot(w.reliabilityTab()->histogram()));
    }

    void memoryReadsInTheUnitItIsSoldIn()
    {
        // Issue 22, item 13: an "80GB" H100 showed 85.9 GB (decimal GB of 80 GiB).
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama3-405b-h100"));
        QVERIFY2(w.dashboard()->value("memory").endsWith("/ 80 GiB"), qPrintable(w.dashboard()->value("memory")));
        QCOMPARE(QString::fromStdString(formatMemory(80.0 * 1024 * 1024 * 1024)), QString("80 GiB"));
    }

    void deadlineOddsMoveLive()
    {
        // Issue 24: a deadline control on the Reliability tab moves the odds of meeting it
        // over the trials at hand, without another Monte Carlo.
        MainWindow w(appData());
        QVERIFY(showPreset(w, "llama3-405b-chaos", "reliability"));
        ReliabilityTab* tab = w.reliabilityTab();
        QVERIFY(tab->hasResult());
        const MonteCarloResult& m = tab->outlook().run;
        const double deadline = w.document()->scenario().training.deadline;
        QCOMPARE(tab->deadline()->value(), deadline / units::day); // the scenario's, to start with
        QVERIFY2(tab->deadlineOdds().contains(QString("%1%").arg(100 * deadlineProbability(m, deadline), 0, 'f', 1)), qPrintable(tab->deadlineOdds()));
        tab->deadline()->setValue(m.p50 / units::day);
        const QString middle = tab->deadlineOdds();
        QVERIFY2(middle.contains(QString("%1%").arg(100 * deadlineProbability(m, tab->deadline()->value() * units::day), 0, 'f', 1)), qPrintable(middle));
        tab->deadline()->setValue(m.times.back() / units::day + 1);
        QVERIFY2(tab->deadlineOdds().startsWith("<b>100.0%</b>"), qPrintable(tab->deadlineOdds()));
        QVERIFY(!w.evaluator()->busy()); // no new Monte Carlo for it
        // Another edit's new outlook keeps the user's deadline.
        const double mine = tab->deadline()->value();
        qobject_cast<QSpinBox*>(tab->findChildren<QSpinBox*>().front())->setValue(500); // trials
        waitIdle(w);
        QCOMPARE(tab->deadline()->value(), mine);
    }

    void importMeasurements()
    {
        // File > Import measurements: a real profiler trace read on a worker and summarized;
        // an unreadable file says why; an nccl-tests fit goes into the scenario's overlay,
        // which the dashboard then names.
        MainWindow w(appData());
        QVERIFY(showPreset(w, "llama2-7b-8xa100"));
        MeasurementImport* import = w.measurementImport();
        import->setInteractive(false);
        QSignalSpy done(import, &MeasurementImport::finished);
        import->importFile(QString::fromStdString(test::dataPath("tests/profiles/a100x2-resnet-allreduce.json.gz")));
        QVERIFY(done.wait(10000));
        QVERIFY2(!import->lastFailed() && import->lastSummary().contains("allreduce") && import->lastSummary().contains("ProfilerStep#4"),
            qPrintable(import->lastSummary()));
        QTemporaryDir dir;
        const QString junk = dir.path() + "/junk.json";
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"traceEvents\": [1, 2");
        f.close();
        import->importFile(junk);
        QVERIFY(done.wait(10000));
        QVERIFY(import->lastFailed() && import->lastSummary().contains("junk.json"));
        // Saved beside an overlay, the scenario names it relative to itself.
        QVERIFY(w.saveTo(dir.path() + "/run.yaml"));
        QCOMPARE(import->defaultOverlayPath(), dir.path() + "/run.calibration.yaml");
        QVERIFY(w.dashboard()->calibrationNote().isEmpty());
        const QString why = import->useNcclLog(QString::fromStdString(test::dataPath("tests/nccl/all_reduce_perf-8xh100.log")),
            MeasuredTier::ScaleUp, import->defaultOverlayPath());
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(w.document()->scenario().calibration.file, std::string("run.calibration.yaml"));
        QCOMPARE(int(w.document()->scenario().calibration.collectives.size()), 1);
        waitIdle(w);
        QVERIFY2(w.dashboard()->calibrationNote().contains("calibrated from run.calibration.yaml"), qPrintable(w.dashboard()->calibrationNote()));
        // Undo takes it back.
        w.document()->undoStack()->undo();
        waitIdle(w);
        QVERIFY(w.document()->scenario().calibration.empty());
        QVERIFY(w.dashboard()->calibrationNote().isEmpty());
    }

    void helpMenuPresetNamesAndPercentiles()
    {
        // Issue 22, item 14: no Help menu; presets listed by file name; "P50 105, P90 105,
        // P99 105 days" while the histogram spanned 104.5 to 105.6.
        MainWindow w(appData());
        QMenu* help = nullptr;
        for (QAction* a : w.menuBar()->actions())
            if (a->text().remove('&') == "Help")
                help = a->menu();
        QVERIFY(help);
        QVERIFY(w.findChild<QAction*>("help-keys") && w.findChild<QAction*>("help-about"));
        QVERIFY(aboutText().contains("General Public License") && shortcutsText().contains("F11"));
        auto* manual = w.findChild<QMenu*>("help-manual");
        QVERIFY(manual);
        QStringList pages;
        for (QAction* a : manual->actions())
            pages << a->text();
        QVERIFY2(pages.contains("README") && pages.contains("scenario") && pages.contains("frontier"), qPrintable(pages.join(", ")));
        // Presets by the names they give themselves.
        QStringList presets;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->data().toString() == "gpt3-175b-a100")
                presets << a->text();
        QCOMPARE(presets, QStringList { "GPT-3 175B on 1,024 A100 (Megatron-LM)" });
        const double day = units::day;
        QCOMPARE(ReliabilityTab::percentiles(104.9 * day, 105.3 * day, 105.6 * day), QString("P50 104.9, P90 105.3, P99 105.6 days"));
        QCOMPARE(ReliabilityTab::percentiles(40 * day, 52 * day, 70 * day), QString("P50 40, P90 52, P99 70 days"));
        QCOMPARE(ReliabilityTab::percentiles(30 * 3600, 30.5 * 3600, 31 * 3600), QString("P50 30.0, P90 30.5, P99 31.0 hours"));
        QCOMPARE(ReliabilityTab::percentiles(105 * day, 105 * day, 105 * day), QString("P50 105, P90 105, P99 105 days")); // equal: equal
    }

    void themesRecolourTheCharts()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("shared-cluster"));
        w.show();
        QVERIFY(w.selectTab("cluster"));
        waitIdle(w);
        auto* plot = w.findChild<QCustomPlot*>();
        QVERIFY(plot);
        QVERIFY(w.setTheme("dark", false));
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 128);
        waitIdle(w);
        QVERIFY(plot->grab().toImage().pixelColor(3, 3).lightness() < 128);
        QVERIFY(plot->xAxis->tickLabelColor().lightness() > 128);
        QVERIFY(w.setTheme("light", false));
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 128);
        QVERIFY(plot->grab().toImage().pixelColor(3, 3).lightness() > 128);
        QVERIFY(!w.setTheme("sepia", false));
        QVERIFY(w.setTheme("system", false));
    }

    void tabsByName()
    {
        MainWindow w(appData());
        for (const char* t : { "frontier", "scaling", "breakdown", "plans", "topology", "timeline", "reliability", "cost", "cluster", "whatif" })
            QVERIFY(w.selectTab(t));
        QVERIFY(!w.selectTab("nope"));
    }

    // --- Issue 19: never lose work, never hang ---------------------------------------
    void aSaveThatFailsMidwayLosesNothing()
    {
        // A full disk made write() fail, and the file was renamed over the scenario
        // anyway: an empty file, no error, the modified mark cleared and the autosave
        // copy deleted. A file-size limit fails the write the same way (EFBIG).
        QTemporaryDir folder;
        AppData data = appData();
        data.autosaveFolder = folder.path() + "/autosave";
        MainWindow w(data);
        QVERIFY(w.openPreset("llama2-7b-8xa100"));
        const QString path = folder.path() + "/run.yaml";
        QVERIFY(w.saveTo(path));
        const QByteArray saved = [&] { QFile f(path); f.open(QIODevice::ReadOnly); return f.readAll(); }();
        qobject_cast<QDoubleSpinBox*>(w.panel()->editor("training.seq_len"))->setValue(8192);
        QVERIFY(w.autosave()->saveNow());
        const QString copy = w.autosave()->path();
        QVERIFY(QFileInfo::exists(copy));
        {
            test::FileSizeLimit limit(100); // the scenario needs ~1 kB
            QVERIFY(!w.saveTo(path));
        }
        QVERIFY2(w.bannerText().contains("Could not save") && w.bannerText().contains("File too large"), qPrintable(w.bannerText()));
        QVERIFY(w.document()->isModified());
        QVERIFY(w.isWindowModified());
        QVERIFY(QFileInfo::exists(copy)); // the recovery copy stays
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), saved); // the file on disk is the last good save, byte for byte
        QCOMPARE(QDir(folder.path()).entryList(QDir::Files | QDir::Hidden), QStringList { "run.yaml" });
        // Once there is room again, the save goes through and the copy goes.
        QVERIFY(w.saveTo(path));
        QVERIFY(!w.document()->isModified());
        QVERIFY(!QFileInfo::exists(copy));
    }

    void aFullTmpfsLosesNothing()
    {
        // The issue's reproduction as it was reported: a 64 KiB tmpfs, filled.
        QTemporaryDir folder;
        const QByteArray mountPoint = QFile::encodeName(folder.path());
        if (::mount("tmpfs", mountPoint.constData(), "tmpfs", 0, "size=64k") != 0)
            QSKIP("cannot mount a tmpfs here (not root); aSaveThatFailsMidwayLosesNothing covers the same failure");
        bool ok = true;
        QString banner;
        QByteArray before, after;
        {
            MainWindow w(appData());
            QVERIFY(w.openPreset("llama2-7b-8xa100"));
            const QString path = folder.path() + "/run.yaml";
            ok = w.saveTo(path);
            before = [&] { QFile f(path); f.open(QIODevice::ReadOnly); return f.readAll(); }();
            QFile fill(folder.path() + "/fill");
            fill.open(QIODevice::WriteOnly);
            while (fill.write(QByteArray(4096, 0)) == 4096 && fill.flush()) {
            }
            fill.close();
            qobject_cast<QDoubleSpinBox*>(w.panel()->editor("training.seq_len"))->setValue(8192);
            ok = ok && !w.saveTo(path);
            banner = w.bannerText();
            ok = ok && w.document()->isModified();
            after = [&] { QFile f(path); f.open(QIODevice::ReadOnly); return f.readAll(); }();
        }
        ::umount(mountPoint.constData());
        QVERIFY(ok);
        QVERIFY2(banner.contains("No space left on device"), qPrintable(banner));
        QVERIFY(!before.isEmpty());
        QCOMPARE(after, before);
    }

    void aFailedAutosaveIsShownAndRetried()
    {
        QTemporaryDir folder;
        AppData data = appData();
        data.autosaveFolder = folder.path();
        MainWindow w(data);
        QVERIFY(w.openPreset("llama2-7b-8xa100"));
        auto* seq = qobject_cast<QDoubleSpinBox*>(w.panel()->editor("training.seq_len"));
        seq->setValue(8192);
        {
            test::FileSizeLimit limit(100);
            QVERIFY(!w.autosave()->saveNow());
        }
        QVERIFY2(w.bannerText().contains("recovery copy") && w.bannerText().contains("File too large"), qPrintable(w.bannerText()));
        seq->setValue(2048);
        QVERIFY(w.autosave()->saveNow()); // the next edit's copy goes through, and the warning goes
        QVERIFY(w.bannerText().isEmpty());
    }

    void staleLocksAreClearedAndOpenErrorsStayInView()
    {
        QTemporaryDir folder;
        AppData data = appData();
        data.autosaveFolder = folder.path();
        // A session that crashed with nothing unsaved left only its lock: a lock file
        // naming a process that no longer runs.
        {
            QFile lone(folder.filePath("session-gone.yaml.lock"));
            QVERIFY(lone.open(QIODevice::WriteOnly));
            lone.write("999999\n" + QCoreApplication::applicationName().toUtf8() + "\n" + QSysInfo::machineHostName().toUtf8() + "\n");
        }
        // And one that crashed with unsaved changes.
        {
            MainWindow crashed(data);
            QVERIFY(crashed.openPreset("mixtral-8x7b-h100"));
            qobject_cast<QDoubleSpinBox*>(crashed.panel()->editor("training.seq_len"))->setValue(8192);
            QVERIFY(crashed.autosave()->saveNow());
            crashed.autosave()->simulateCrash();
        }
        MainWindow next(data);
        QVERIFY(!next.openFile(folder.filePath("missing.yaml")));
        const std::vector<RecoverableScenario> found = next.recoverable();
        QCOMPARE(int(found.size()), 1);
        QVERIFY(!QFileInfo::exists(folder.filePath("session-gone.yaml.lock")));
        next.offerRecovery();
        QVERIFY2(next.bannerText().contains("not found") && next.bannerText().contains("unsaved changes"),
            qPrintable(next.bannerText()));
    }

    void theTimelineWorksOffTheGuiThreadOnlyWhenShown()
    {
        MainWindow w(appData());
        QVERIFY(showPreset(w, "gpt3-175b-a100", "breakdown"));
        TimelineTab* tab = w.timelineTab();
        qobject_cast<QDoubleSpinBox*>(w.panel()->editor("training.global_batch"))->setValue(768);
        waitIdle(w);
        QVERIFY(tab->isStale()); // hidden: not simulated
        QVERIFY(w.selectTab("timeline"));
        waitIdle(w);
        QVERIFY(!tab->isStale());
        // Two requests in a row: only the latest one is drawn.
        auto* steps = tab->findChild<QSpinBox*>();
        steps->setValue(2);
        steps->setValue(3);
        waitIdle(w);
        QVERIFY(!tab->isStale());
        const auto* label = tab->findChild<QLabel*>();
        int rows = 0;
        for (const TraceEvent& e : tab->gantt()->trace()->events)
            rows = std::max(rows, e.step + 1);
        QCOMPARE(rows, 3);
        Q_UNUSED(label);
        // A timeline too large to hold is explained, not built.
        qobject_cast<QDoubleSpinBox*>(w.panel()->editor("parallel.dp"))->setValue(1);
        w.document()->edit("test", [](Scenario& s) {
            s.training.globalBatch = 1 << 22;
            s.training.microBatch = 1;
            s.training.tokens = 1e15;
            s.plan.dp = 1;
            s.cluster.gpus = int(s.plan.gpus());
        }, false);
        waitIdle(w);
        QVERIFY(tab->gantt()->trace() == nullptr);
        bool explained = false;
        for (const QLabel* l : tab->findChildren<QLabel*>())
            explained = explained || l->text().contains("would have");
        QVERIFY(explained);
    }

    void extremeScenariosOpenAtOnce()
    {
        // global_batch 2^31 - 1 on one GPU hung the window before it appeared (the sync
        // wall's int overflowed); 6e19 parameters showed an MFU of -105%.
        QTemporaryDir dir;
        std::string text = scenarioToYaml(test::preset("llama2-7b-8xa100"));
        auto replace = [&](const std::string& from, const std::string& to) { text.replace(text.find(from), from.size(), to); };
        replace("global_batch: 256", "global_batch: 2147483647");
        replace("micro_batch: 2", "micro_batch: 1");
        replace("tokens: 20000000000", "tokens: 1e20");
        replace("gpus: 8", "gpus: 1");
        replace("dp: 8", "dp: 1");
        const QString path = dir.path() + "/huge-batch.yaml";
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(text));
        f.close();
        MainWindow w(appData());
        QElapsedTimer timer;
        timer.start();
        QVERIFY2(w.openFile(path), qPrintable(w.bannerText()));
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(w.dashboard()->value("step") != "-");
        QVERIFY(!w.dashboard()->value("mfu").startsWith('-'));
        // A model no cluster could hold is an inline error on the field to blame.
        w.document()->edit("test", [](Scenario& s) {
            s.model.hidden = 600000000;
            s.model.heads = s.model.kvHeads = 1;
            s.model.headDim = 600000000;
        }, false);
        QVERIFY2(w.panel()->errorText("model.hidden").contains("more than any cluster could hold"),
            qPrintable(w.panel()->errorText("model.hidden")));
        QCOMPARE(w.dashboard()->value("mfu"), QString("-"));
    }

    // Issue 26: a layer-table scenario's Breakdown adds its compute by layer type; a
    // transformer's hides that chart.
    void layerTableBreakdownByType()
    {
        MainWindow w(appData());
        QVERIFY(showPreset(w, "resnet50-mlperf", "breakdown"));
        QVERIFY(w.breakdownTab()->layerChartShownForTest());
        QVERIFY(showPreset(w, "llama3-405b-h100", "breakdown"));
        QVERIFY(!w.breakdownTab()->layerChartShownForTest());
    }

    // An edit that flips the saved state is one change of the scenario (one refresh of
    // the views) and one change of the modified mark, not two changes.
    void anEditIsOneChange()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama2-7b-8xa100"));
        ScenarioDocument* doc = w.document();
        QVERIFY(!doc->isModified());
        QSignalSpy changes(doc, &ScenarioDocument::changed);
        QSignalSpy marks(doc, &ScenarioDocument::modifiedChanged);
        doc->edit("training.global_batch", [](Scenario& s) { s.training.globalBatch *= 2; }, false);
        QCOMPARE(changes.count(), 1);
        QCOMPARE(marks.count(), 1);
        QVERIFY(w.windowTitle().contains('*') || w.isWindowModified());
        doc->undoStack()->undo();
        QCOMPARE(changes.count(), 2);
        QCOMPARE(marks.count(), 2);
        QVERIFY(!doc->isModified());
    }
};

QTEST_MAIN(TestGui)
#include "tst_gui.moc"
