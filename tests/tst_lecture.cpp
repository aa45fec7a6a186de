// Lecture scripts (issue 41): both shipped scripts step through end to end in
// presentation mode, by Page Down as a presenter's clicker sends it, on the screen the
// test runs on (CMakeLists runs it at 1366x768 and at 1920x1080). At every step nothing
// is cut off: the window fits the screen, no chart label is elided, no two plot labels
// overlap, the dashboard's figures and the caption show whole. With DTSIM_LECTURE_SHOTS
// set to a folder, every step is also saved there (docs/screenshots/lecture/update.sh).
#include "gui_test_support.h"
#include "widgets/dashboard.h"
#include "widgets/lecture_bar.h"
#include "widgets/scenario_document.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace dtsim;
using namespace dtsim::gui;
using namespace dtsim::test;

namespace {

QString currentTabName(MainWindow& w)
{
    return QString::fromStdString(MainWindow::tabNames()[std::size_t(w.findChild<QTabWidget*>()->currentIndex())]);
}

// What a person would see cut off or on top of something else, at this step.
QStringList problemsOnScreen(MainWindow& w)
{
    QStringList problems;
    const QRect screen = w.screen()->geometry();
    if (!screen.contains(w.frameGeometry())) {
        qWarning() << "minimum" << w.minimumSizeHint() << "dashboard" << w.dashboard()->minimumSizeHint() << w.dashboard()->height()
                   << "bar" << w.lectureBar()->minimumSizeHint() << "tabs" << w.findChild<QTabWidget*>()->minimumSizeHint()
                   << "current" << w.findChild<QTabWidget*>()->currentWidget()->minimumSizeHint();
        problems << QString("the window (%1x%2) is larger than the %3x%4 screen").arg(w.width()).arg(w.height()).arg(screen.width()).arg(screen.height());
    }
    for (const QString& e : elidedChartTexts(&w))
        problems << "elided: " + e;
    for (QCustomPlot* plot : w.findChildren<QCustomPlot*>())
        if (plot->isVisible()) {
            plot->replot();
            for (const QString& o : overlappingPlotTexts(plot))
                problems << "overlapping: " + o;
        }
    for (QLabel* value : w.dashboard()->findChildren<QLabel*>())
        if (value->objectName().startsWith("dashboard-") && value->isVisible() && !value->wordWrap() && value->width() < value->sizeHint().width())
            problems << QString("dashboard figure cut: %1").arg(value->text());
    QLabel* caption = w.lectureBar()->captionLabel();
    if (caption->height() < caption->heightForWidth(caption->width()))
        problems << "the caption is cut off";
    return problems;
}

} // namespace

class TestLecture : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("dtsim-tests");
        QCoreApplication::setApplicationName("tst_lecture");
        QStandardPaths::setTestModeEnabled(true);
    }

    void everyStepShowsWholeOnStage_data()
    {
        QTest::addColumn<QString>("script");
        MainWindow w(appData());
        QVERIFY(w.lectureNames().size() >= 2);
        for (const QString& name : w.lectureNames())
            QTest::newRow(qPrintable(name)) << name;
    }

    void everyStepShowsWholeOnStage()
    {
        QFETCH(QString, script);
        MainWindow w(appData());
        QVERIFY2(w.openLecture(script), qPrintable(w.openError()));
        w.setPresentationMode(true);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        const QString shots = qEnvironmentVariable("DTSIM_LECTURE_SHOTS");
        const QSize screen = w.screen()->geometry().size();
        const int steps = int(w.lecture().steps.size());
        for (int i = 0; i < steps; ++i) {
            if (i > 0)
                QTest::keyClick(&w, Qt::Key_PageDown); // a presenter's clicker
            QCOMPARE(w.lectureStep(), i);
            const LectureStep& step = w.lecture().steps[std::size_t(i)];
            QCOMPARE(currentTabName(w), QString::fromStdString(step.tab));
            QCOMPARE(w.lectureBar()->caption(), QString::fromStdString(step.caption));
            waitIdle(w, 60000);
            QTest::qWait(100); // queued layouts and replots
            const QStringList problems = problemsOnScreen(w);
            QVERIFY2(problems.isEmpty(), qPrintable(QString("%1 step %2 at %3x%4: %5").arg(script).arg(i + 1)
                                                         .arg(screen.width()).arg(screen.height()).arg(problems.join("; "))));
            if (!shots.isEmpty())
                QVERIFY(w.grab().save(QDir(shots).filePath(QString("%1-%2x%3-step%4.png").arg(script).arg(screen.width()).arg(screen.height()).arg(i + 1))));
        }
        // Past the end it stays; Page Up goes back a step, Esc leaves the stage.
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(w.lectureStep(), steps - 1);
        QTest::keyClick(&w, Qt::Key_PageUp);
        QCOMPARE(w.lectureStep(), steps - 2);
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!w.presentationMode());
    }

    void theManualShowsEveryStep()
    {
        // docs/teaching.md gives every step's caption and its screenshot: edited with the
        // scripts, not left behind.
        QFile f(QString::fromStdString(dataPath("docs/teaching.md")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString doc = QString::fromUtf8(f.readAll()).simplified();
        MainWindow w(appData());
        for (const QString& name : w.lectureNames()) {
            QVERIFY(w.openLecture(name));
            for (std::size_t i = 0; i < w.lecture().steps.size(); ++i) {
                const QString caption = QString::fromStdString(w.lecture().steps[i].caption).simplified();
                QVERIFY2(doc.contains(caption), qPrintable(QString("%1 step %2: %3").arg(name).arg(i + 1).arg(caption)));
                for (const char* screen : { "1366x768", "1920x1080" }) {
                    const QString shot = QString("screenshots/lecture/%1-%2-step%3.png").arg(name, screen).arg(i + 1);
                    QVERIFY2(doc.contains(shot) && QFileInfo::exists(QString::fromStdString(dataPath("docs/" + shot.toStdString()))), qPrintable(shot));
                }
            }
        }
    }

    void aStepChangesOnlyWhatItSays()
    {
        // A step is its preset plus its own changes: stepping back undoes the next one's.
        MainWindow w(appData());
        QVERIFY(w.openLecture("what-breaks-at-16384-gpus"));
        const Scenario first = w.document()->scenario();
        QVERIFY(w.showLectureStep(1));
        QVERIFY(w.document()->scenario().reliability.checkpointInterval == 7200);
        QVERIFY(w.showLectureStep(0));
        QVERIFY(w.document()->scenario() == first);
        w.closeLecture();
        QVERIFY(w.lectureStep() < 0 && w.lectureBar()->isHidden());
        QVERIFY(!w.showLectureStep(0));
    }

    void aBadScriptSaysWhereAndWhy_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const QString head = "version: 1\ntitle: t\nsteps:\n";
        QTest::newRow("unknown key") << head + "  - preset: gtx580-2012\n    tab: frontier\n    caption: c\n    zoom: 2\n" << ":7: steps[0].zoom";
        QTest::newRow("unknown tab") << head + "  - preset: gtx580-2012\n    tab: gantt\n    caption: c\n" << "steps[0].tab";
        QTest::newRow("no caption") << head + "  - preset: gtx580-2012\n    tab: frontier\n" << "steps[0].caption";
        QTest::newRow("no preset") << head + "  - tab: frontier\n    caption: c\n" << "steps[0].preset";
        QTest::newRow("unknown field") << head + "  - preset: gtx580-2012\n    tab: frontier\n    caption: c\n    set: { model.depth: 3 }\n"
                                       << "steps[0].set.model.depth";
        QTest::newRow("unknown preset") << head + "  - preset: gtx-9000\n    tab: frontier\n    caption: c\n" << "no preset \"gtx-9000\"";
        QTest::newRow("bad value") << head + "  - preset: gtx580-2012\n    tab: frontier\n    caption: c\n    set: { parallel.tp: many }\n"
                                   << ":7: steps[0].set.parallel.tp";
    }

    void aBadScriptSaysWhereAndWhy()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath("talk.yaml");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.toUtf8());
        f.close();
        MainWindow w(appData());
        QVERIFY(!w.openLecture(path));
        QVERIFY2(w.openError().contains("talk.yaml") && w.openError().contains(expected), qPrintable(w.openError()));
        QVERIFY(w.lectureStep() < 0);
    }
};

QTEST_MAIN(TestLecture)
#include "tst_lecture.moc"
