// The Reliability tab's chaos editor (issue 45, item 4): add, edit, move (a drag of the
// event's marker on the run timeline), delete, each one undo step, and the edits saved
// in the scenario and read back equal. Its form is the field registry's: every chaos
// field with an editor shows for the kinds that read it.
#include "gui_test_support.h"
#include "simcore/fields/scenario_fields.h"
#include "simcore/scenario_limits.h"
#include "widgets/chaos_editor.h"
#include "widgets/field_editor.h"
#include "widgets/reliability_tab.h"
#include "widgets/run_timeline_view.h"
#include "widgets/scenario_document.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <set>

using namespace dtsim;
using namespace dtsim::gui;
using namespace dtsim::test;

namespace {

const std::vector<ChaosEvent>& events(MainWindow& w) { return w.document()->scenario().reliability.chaos; }

QAction* menuAction(ChaosEditor* e, const QString& text)
{
    for (QAction* a : e->addMenu()->actions())
        if (a->text() == text)
            return a;
    return nullptr;
}

} // namespace

class TestChaosEditor : public QObject {
    Q_OBJECT
private slots:
    // Every chaos field with an editor is on the form of some kind, and a kind's form
    // holds exactly the fields it reads.
    void theFormIsTheRegistrys()
    {
        MainWindow w(appData());
        QVERIFY(laptopWindowOn(w, "llama3-405b-h100", "reliability"));
        ChaosEditor* editor = w.reliabilityTab()->chaosEditor();
        QVERIFY(editor);
        std::set<std::string> seen;
        for (QAction* a : editor->addMenu()->actions()) {
            a->trigger();
            const ChaosEvent::Kind kind = events(w).back().kind;
            for (const FieldSpec& spec : editor->fields()) {
                const std::string id = spec.id.toStdString();
                QVERIFY2(chaosKindUses(kind, keyOf(id)), id.c_str());
                QVERIFY(editor->editor(spec.id));
                seen.insert(id);
            }
            QVERIFY(!checkScenario(w.document()->scenario())); // a new event is valid as added
        }
        QCOMPARE(int(events(w).size()), editor->addMenu()->actions().size());
        for (const FieldDef& f : scenarioFields())
            if (f.path.starts_with("reliability.chaos[].") && f.hasEditor())
                QVERIFY2(seen.count(f.path), (f.path + " is on no kind's form").c_str());
    }

    void addEditMoveDeleteUndoAndSave()
    {
        MainWindow w(appData());
        QVERIFY(laptopWindowOn(w, "llama3-405b-h100", "reliability"));
        ReliabilityTab* tab = w.reliabilityTab();
        ChaosEditor* editor = tab->chaosEditor();
        QUndoStack* undo = w.document()->undoStack();
        QVERIFY(events(w).empty());

        // Add: one step, a drain in the middle of the run with a 4 h duration.
        const int before = undo->count();
        menuAction(editor, "drain")->trigger();
        QCOMPARE(undo->count(), before + 1);
        QCOMPARE(events(w).size(), std::size_t(1));
        QCOMPARE(events(w)[0].kind, ChaosEvent::Kind::Drain);
        QCOMPARE(events(w)[0].duration, 4 * 3600.0);
        QCOMPARE(editor->list()->count(), 1);

        // Edit through the form: the duration to 10 h, then the kind to link_degraded.
        auto* duration = qobject_cast<QDoubleSpinBox*>(editor->editor("reliability.chaos[].duration"));
        QVERIFY(duration);
        QCOMPARE(duration->value(), 4.0); // shown in hours
        duration->setValue(10);
        QCOMPARE(events(w)[0].duration, 10 * 3600.0);
        QCOMPARE(undo->count(), before + 2);
        QVERIFY(!editor->editor("reliability.chaos[].fraction")); // a drain has none
        QComboBox* kind = editor->kindBox();
        const int link = kind->findText("link degraded");
        QVERIFY(link >= 0);
        kind->setCurrentIndex(link);
        emit kind->activated(link);
        QCOMPARE(events(w)[0].kind, ChaosEvent::Kind::LinkDegraded);
        QCOMPARE(events(w)[0].duration, 10 * 3600.0); // kept across kinds
        QCOMPARE(events(w)[0].fraction, 0.5);
        QCOMPARE(undo->count(), before + 3);
        auto* fraction = qobject_cast<QDoubleSpinBox*>(editor->editor("reliability.chaos[].fraction"));
        QVERIFY(fraction);
        fraction->setValue(25); // shown in %
        QCOMPARE(events(w)[0].fraction, 0.25);
        QCOMPARE(undo->count(), before + 4);

        // Move: a drag of its marker on the run timeline, many mouse moves, one step.
        waitIdle(w);
        RunTimelineView* view = tab->timeline();
        const double from = events(w)[0].atSeconds;
        const int y = view->laneCentreForTest(RunPhase::Kind::Training);
        const int x0 = view->xForTest(from), x1 = view->xForTest(from * 0.5);
        QVERIFY(x1 < x0 - 20);
        QCOMPARE(view->markerAt(QPointF(x0, y)), 0);
        QTest::mousePress(view, Qt::LeftButton, {}, QPoint(x0, y));
        for (int x = x0 - 5; x >= x1; x -= 5)
            QTest::mouseMove(view, QPoint(x, y));
        QTest::mouseMove(view, QPoint(x1, y));
        QTest::mouseRelease(view, Qt::LeftButton, {}, QPoint(x1, y));
        const double moved = events(w)[0].atSeconds;
        QVERIFY2(std::abs(moved - from * 0.5) < 0.02 * from, qPrintable(QString("%1 s, not %2 s").arg(moved).arg(from * 0.5)));
        QCOMPARE(undo->count(), before + 5);

        // Undo each, newest first, then redo them all.
        undo->undo();
        QCOMPARE(events(w)[0].atSeconds, from);
        undo->undo();
        QCOMPARE(events(w)[0].fraction, 0.5);
        undo->undo();
        QCOMPARE(events(w)[0].kind, ChaosEvent::Kind::Drain);
        undo->undo();
        QCOMPARE(events(w)[0].duration, 4 * 3600.0);
        undo->undo();
        QVERIFY(events(w).empty());
        QCOMPARE(editor->list()->count(), 0);
        for (int i = 0; i < 5; ++i)
            undo->redo();
        QCOMPARE(events(w)[0].atSeconds, moved);

        // Delete a second event: one step, undone.
        menuAction(editor, "host oom")->trigger();
        QCOMPARE(events(w).size(), std::size_t(2));
        editor->select(1);
        editor->deleteButton()->click();
        QCOMPARE(events(w).size(), std::size_t(1));
        undo->undo();
        QCOMPARE(events(w)[1].kind, ChaosEvent::Kind::HostOom);

        // Saved through the window's own path and opened again: the same events.
        const Scenario edited = w.document()->scenario();
        QTemporaryDir dir;
        const QString path = dir.filePath("chaos.yaml");
        QVERIFY(w.saveTo(path));
        MainWindow again(appData());
        QVERIFY(again.openFile(path));
        QVERIFY(again.document()->scenario().reliability == edited.reliability);
        QCOMPARE(events(again)[0].kind, ChaosEvent::Kind::LinkDegraded);
        QCOMPARE(events(again)[0].fraction, 0.25);
        QCOMPARE(events(again)[0].atSeconds, moved);
    }

    // A host OOM on a run with nothing in host memory is said to do nothing.
    void aHarmlessEventSaysSo()
    {
        MainWindow w(appData());
        QVERIFY(laptopWindowOn(w, "llama3-405b-h100", "reliability"));
        menuAction(w.reliabilityTab()->chaosEditor(), "host oom")->trigger();
        waitIdle(w);
        QTest::qWait(200);
        waitIdle(w);
        const QString summary = w.reliabilityTab()->findChild<QLabel*>()->text();
        bool said = false;
        for (QLabel* l : w.reliabilityTab()->findChildren<QLabel*>())
            said |= l->text().contains("nothing of this run lives in host memory");
        QVERIFY2(said, qPrintable(summary));
    }
};

QTEST_MAIN(TestChaosEditor)
#include "tst_chaos_editor.moc"
