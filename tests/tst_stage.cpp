// On stage and on a laptop (issue 41): every shortcut in presentation mode, nothing cut
// off or overlapping at 1366x768, saves that read like the user wrote them, and numbers
// that never compare unlike things. Run on a 1366x768 offscreen screen (CMakeLists).
#include "simcore/loader/exact_number.h"
#include "simcore/units.h"
#include "test_data.h"
#include "gui_test_support.h"
#include "widgets/dashboard.h"
#include "widgets/evaluator.h"
#include "widgets/main_window.h"
#include "widgets/parameter_panel.h"
#include "widgets/plans_view.h"
#include "widgets/scaling_view.h"
#include "widgets/scenario_document.h"
#include "widgets/teaching_panel.h"
#include "widgets/whatif_tab.h"
#include "widgets/breakdown_view.h"
#include "widgets/cost_tab.h"
#include "widgets/frontier_view.h"

#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QMenuBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <qcustomplot.h>

using namespace dtsim;
using namespace dtsim::gui;
using namespace dtsim::test;

class TestStage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("dtsim-tests");
        QCoreApplication::setApplicationName("tst_stage");
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void everyShortcutWorksInPresentationMode()
    {
        // Item 1: only F11 and Esc worked; the others lived in the hidden menu bar.
        MainWindow w(appData());
        QVERIFY(w.openPreset("gtx580-2012"));
        w.setPresentationMode(true);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(w.menuBar()->isHidden());
        auto* tabs = w.findChild<QTabWidget*>();
        QTest::keyClick(&w, Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), 2);
        QTest::keyClick(&w, Qt::Key_1, Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), 0);
        QTest::keyClick(&w, Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(w.pinnedA().has_value());
        const int before = w.document()->undoStack()->index();
        w.document()->edit("training.global_batch", [](Scenario& s) { s.training.globalBatch *= 2; }, false);
        QCOMPARE(w.document()->undoStack()->index(), before + 1);
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(w.document()->undoStack()->index(), before);
        QTest::keyClick(&w, Qt::Key_Y, Qt::ControlModifier);
        QCOMPARE(w.document()->undoStack()->index(), before + 1);
        QTest::keyClick(&w, Qt::Key_F2);
        QVERIFY(w.teachingDock()->isVisible());
        QTest::keyClick(&w, Qt::Key_F2);
        QVERIFY(!w.teachingDock()->isVisible());
        QVERIFY(w.presentationMode()); // none of them left it
        w.document()->undoStack()->setClean();
        w.document()->markSaved();
        QTest::keyClick(&w, Qt::Key_Q, Qt::ControlModifier);
        QTRY_VERIFY(!w.isVisible());
    }

    void noChartLabelIsElidedOnALaptop()
    {
        // Items 2 and 12: the Breakdown chart's ticks and titles read "..." at 1366x768,
        // the Cost tab's pie legend and "thousand U...".
        for (const char* preset : { "alexnet-2012-gtx580", "llama3-405b-h100", "gtx580-2012" })
            for (bool presenting : { false, true }) {
                MainWindow w(appData());
                QVERIFY(w.openPreset(preset));
                laptopWindow(w, presenting);
                for (const char* tab : { "breakdown", "cost" }) {
                    QVERIFY(w.selectTab(tab));
                    waitIdle(w);
                    QTest::qWait(50); // Qt Charts lays its text out in a queued event
                    const QStringList elided = elidedChartTexts(&w);
                    QVERIFY2(elided.isEmpty(), qPrintable(QString("%1 %2%3: %4").arg(preset, tab, presenting ? " presenting" : "", elided.join(" | "))));
                }
            }
    }

    void theFormulaPanelNeverWidensTheWindow()
    {
        // Item 3: F2 at 1366x768 widened the window to ~1614 px, and it stayed so.
        MainWindow w(appData());
        QVERIFY(w.openPreset("alexnet-2012-gtx580"));
        w.show();
        QApplication::processEvents();
        const QRect room = w.screen()->availableGeometry();
        QCOMPARE(room.width(), 1366);
        for (const char* tab : { "frontier", "scaling", "breakdown", "plans", "topology", "timeline", "reliability", "cost", "cluster", "whatif" }) {
            QVERIFY(w.selectTab(tab));
            waitIdle(w);
            QTRY_VERIFY(room.contains(w.frameGeometry()));
            const QSize before = w.size();
            w.teachingDock()->show();
            QApplication::processEvents();
            QTest::qWait(50);
            QVERIFY2(w.width() <= room.width(), qPrintable(QString("%1: %2 px with the formula panel").arg(tab).arg(w.width())));
            // With room for a window manager's border (the offscreen screen draws none).
            QVERIFY2(w.minimumSizeHint().width() <= room.width() - 16, qPrintable(QString("%1: at least %2 px").arg(tab).arg(w.minimumSizeHint().width())));
            w.teachingDock()->hide();
            QApplication::processEvents();
            QTest::qWait(50);
            QVERIFY2(w.size() == before, qPrintable(QString("%1: %2 px after it closed, %3 before").arg(tab).arg(w.width()).arg(before.width())));
            QVERIFY(w.panel()->isVisible()); // if it made room, the parameters are back
        }
    }

    void scalingLabelsNeverOverlap()
    {
        // Item 4: "this scenario" over "sync wall" one doubling apart.
        MainWindow w(appData());
        QVERIFY(w.openPreset("gtx580-2012"));
        laptopWindow(w, false);
        QVERIFY(w.selectTab("scaling"));
        waitIdle(w);
        ScalingView& view = *w.scalingView();
        ScalingCurves c;
        for (long long g = 1; g <= 4096; g *= 2) {
            ScalingPoint p;
            p.gpus = g;
            p.timeToTrain = 1e6 / double(g);
            p.efficiency = 0.9;
            c.fixedBatch.push_back(p);
            p.timeToTrain *= 1.2;
            c.growingBatch.push_back(p);
        }
        for (long long current : { 256LL, 512LL, 1024LL, 2048LL, 4096LL }) {
            c.syncWallGpus = 1024;
            view.showCurves(c, current);
            view.plot()->replot();
            const QStringList overlaps = overlappingPlotTexts(view.plot());
            QVERIFY2(overlaps.isEmpty(), qPrintable(QString("scenario at %1, wall at 1024: %2").arg(current).arg(overlaps.join(", "))));
        }
    }

    void aSaveFromAPresetReadsLikeTheUserWroteIt()
    {
        // Item 5: Save as after applying a plan wrote `deadline: 1.0368e+07 s`,
        // `4.9999999999999996e-06 s`, every default, and no comments.
        MainWindow w(appData());
        QVERIFY(w.openPreset("gtx580-2012"));
        const QString source = readAll(QString::fromStdString(dataPath("presets/gtx580-2012.yaml")));
        laptopWindow(w, false);
        QVERIFY(w.selectTab("plans"));
        waitIdle(w);
        QVERIFY(w.plansView()->rowCount() > 0);
        const Scenario before = w.document()->scenario();
        w.plansView()->applyRow(0); // the planner's best plan
        QVERIFY(!(w.document()->scenario().plan == before.plan));
        QTemporaryDir dir;
        const QString path = dir.filePath("mine.yaml");
        QVERIFY(w.saveTo(path));
        const QString text = readAll(path);
        QVERIFY2(!text.contains("e+0") && !text.contains("e-0") && !text.contains("99999"), qPrintable(text));
        for (const QString& line : source.split('\n'))
            if (line.trimmed().startsWith('#'))
                QVERIFY2(text.contains(line), qPrintable("lost the comment: " + line));
        QVERIFY2(text.count('\n') <= source.count('\n') + 3, qPrintable(text)); // no defaults written out
        // Export > Scenario as YAML writes the same text.
        QString error;
        QVERIFY(w.exportScenario(dir.filePath("exported.yaml"), &error));
        QCOMPARE(readAll(dir.filePath("exported.yaml")), text);
        MainWindow again(appData());
        QVERIFY(again.openFile(path));
        QVERIFY(again.document()->scenario() == w.document()->scenario());
                // The shortest text that reads back, without an exponent where a person writes none.
        QCOMPARE(QString::fromStdString(exactNumber(10368000)), QString("10368000"));
        QCOMPARE(QString::fromStdString(exactNumber(0.1 + 0.2)), QString("0.30000000000000004"));
        QCOMPARE(QString::fromStdString(exactNumber(120)), QString("120"));
        QCOMPARE(QString::fromStdString(exactNumber(0.00025)), QString("0.00025"));
    }

    void anInvalidPlanClearsTheErrorBand()
    {
        // Item 6: the figures showed "-", the band line the last valid plan's ranges.
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama3-405b-h100"));
        w.show();
        waitIdle(w);
        QVERIFY(w.dashboard()->bandNote().contains("would put these at"));
        w.document()->edit("parallel.tp", [](Scenario& s) { s.plan.tp = 3; }, false);
        waitIdle(w);
        QCOMPARE(w.dashboard()->value("step"), QString("-"));
        QVERIFY2(!w.dashboard()->bandNote().contains("would put these at"), qPrintable(w.dashboard()->bandNote()));
        QVERIFY(w.pinAsA() == false);
    }

    void nothingMovesUnderThePointerAfterAClick()
    {
        // Item 7: pinning A added a line, Apply made it wrap: the table moved down
        // between two clicks.
        MainWindow w(appData());
        QVERIFY(w.openPreset("gtx580-2012"));
        laptopWindow(w, false);
        QVERIFY(w.selectTab("whatif"));
        waitIdle(w);
        QTableWidget* table = w.whatIfTab()->suggestionTable();
        const QPoint at = table->mapTo(&w, QPoint(0, 0));
        QVERIFY(w.pinAsA());
        QApplication::processEvents();
        QCOMPARE(table->mapTo(&w, QPoint(0, 0)), at);
        for (int click = 0; click < 2 && table->rowCount() > 0 && table->cellWidget(0, 4); ++click) {
            qobject_cast<QPushButton*>(table->cellWidget(0, 4))->click();
            waitIdle(w);
            QApplication::processEvents();
            QCOMPARE(table->mapTo(&w, QPoint(0, 0)), at);
        }
    }

    void scenariosOfDifferentUnitsAreNotCompared()
    {
        // Item 8: a pin survived a preset switch and compared GPT tokens/s with AlexNet
        // samples/s.
        MainWindow w(appData());
        QVERIFY(w.openPreset("gpt3-175b-a100"));
        w.show();
        QVERIFY(w.pinAsA());
        QVERIFY(w.openPreset("alexnet-2012-gtx580"));
        waitIdle(w);
        const QString note = w.dashboard()->compareNote();
        QVERIFY2(!note.contains("(B "), qPrintable(note));
        QVERIFY2(note.contains("samples") && note.contains("tokens"), qPrintable(note));
    }

    void presentationFontsSurviveAnEdit()
    {
        // Item 9: an edit redrew the charts' axes in the normal size.
        MainWindow w(appData());
        QVERIFY(w.openPreset("gtx580-2012"));
        w.show();
        const qreal normal = w.font().pointSizeF();
        w.setPresentationMode(true);
        for (const char* tab : { "frontier", "scaling", "timeline", "reliability", "whatif" }) {
            QVERIFY(w.selectTab(tab));
            waitIdle(w);
            w.document()->edit("training.global_batch", [](Scenario& s) { s.training.globalBatch *= 2; }, false);
            waitIdle(w);
            for (QCustomPlot* plot : w.findChildren<QCustomPlot*>()) {
                if (!plot->isVisible())
                    continue;
                for (QCPAxisRect* r : plot->axisRects())
                    for (QCPAxis* a : r->axes())
                        QVERIFY2(a->tickLabelFont().pointSizeF() > 1.2 * normal,
                            qPrintable(QString("%1: %2 pt").arg(tab).arg(a->tickLabelFont().pointSizeF())));
            }
        }
    }

    void memoryIsInOneUnitEverywhere()
    {
        // Item 10: the comparison line said "1.52 GB" where the dashboard said "1.41 GiB".
        MainWindow w(appData());
        QVERIFY(w.openPreset("gtx580-2012"));
        w.show();
        QVERIFY(w.pinAsA());
        waitIdle(w);
        const QString memory = w.dashboard()->value("memory").section(" / ", 0, 0);
        QVERIFY2(w.dashboard()->compareNote().contains(memory), qPrintable(w.dashboard()->compareNote() + " vs " + memory));
    }
};

QTEST_MAIN(TestStage)
#include "tst_stage.moc"
