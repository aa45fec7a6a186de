// The Topology tab's form is the field registry's (issue 43, item 3): every editor on
// the tab is a registered field's, with the registry's label, unit, range and help, and
// random edits through those editors change exactly that field, as one undo step, and
// save and reopen unchanged. tst_fields holds the registry-side half (it has no window).
#include "gui_test_support.h"
#include "simcore/fields/scenario_fields.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/random.h"
#include "simcore/scenario_limits.h"
#include "simcore/scenario_rules.h"
#include "widgets/field_editor.h"
#include "widgets/parameter_panel.h"
#include "widgets/scenario_document.h"
#include "widgets/topology_tab.h"
#include "widgets/topology_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <cmath>
#include <set>

using namespace dtsim;
using namespace dtsim::gui;
using namespace dtsim::test;

namespace {

// The inputs a user can change under `root` (a spin box's own line edit is the spin box's).
QList<QWidget*> inputsUnder(QWidget* root)
{
    QList<QWidget*> inputs;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        const bool input = qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w) || qobject_cast<QCheckBox*>(w)
            || qobject_cast<QLineEdit*>(w);
        if (input && !qobject_cast<QAbstractSpinBox*>(w->parentWidget()) && !qobject_cast<QComboBox*>(w->parentWidget()))
            inputs << w;
    }
    return inputs;
}

QPushButton* button(TopologyTab* editor, const QString& text)
{
    for (QPushButton* b : editor->findChildren<QPushButton*>())
        if (b->text() == text)
            return b;
    return nullptr;
}

double shownValue(const FieldDef& f, const Scenario& s, int entry) { return f.get(s, entry) / f.panel.displayScale; }

// Whether `editor` is what the registry declares for its field: kind, label, unit, range
// and help. Empty when it is, else what differs.
QString mismatch(QWidget* editor, const FieldDef& f, const Scenario& s, int entry, QFormLayout* layout)
{
    const QString tooltip = QString::fromStdString(f.panel.tooltip.empty() ? f.help : f.panel.tooltip);
    if (editor->toolTip() != tooltip)
        return "tooltip " + editor->toolTip();
    if (layout) {
        auto* label = qobject_cast<QLabel*>(layout->labelForField(editor));
        if (!label || label->text() != QString::fromStdString(f.panel.label))
            return "label " + (label ? label->text() : QString("none"));
    }
    if (auto* spin = qobject_cast<QDoubleSpinBox*>(editor)) {
        if (f.type != FieldType::Integer && f.type != FieldType::Quantity)
            return "a spin box";
        const QString unit = QString::fromStdString(f.panel.unit);
        if (spin->suffix() != (unit.isEmpty() ? QString() : " " + unit))
            return "suffix " + spin->suffix();
        if (spin->decimals() != (f.type == FieldType::Integer ? 0 : 3))
            return QString("%1 decimals").arg(spin->decimals());
        // The registry's range, widened only to show a value outside it.
        const double shown = shownValue(f, s, entry);
        if (spin->minimum() != std::min(f.panel.min, shown) || spin->maximum() != std::max(f.panel.max, shown))
            return QString("range %1 to %2").arg(spin->minimum()).arg(spin->maximum());
        if (std::abs(spin->value() - shown) > 0.5 * std::pow(10.0, -spin->decimals()) * (1 + 1e-9))
            return QString("shows %1, the scenario holds %2").arg(spin->value()).arg(shown);
    } else if (auto* box = qobject_cast<QCheckBox*>(editor)) {
        if (f.type != FieldType::Flag || box->isChecked() != (f.get(s, entry) > 0.5))
            return "check box";
    } else if (auto* line = qobject_cast<QLineEdit*>(editor)) {
        if (f.type != FieldType::Text || line->text().toStdString() != f.getText(s, entry))
            return "line " + line->text();
        if (line->maxLength() != int(f.panel.max)) // a text's range is its length
            return QString("at most %1 characters").arg(line->maxLength());
    } else {
        return "an editor of no registered kind";
    }
    return {};
}

} // namespace

class TestTopologyFields : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("dtsim-tests");
        QCoreApplication::setApplicationName("tst_topology_fields");
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void everyEditorIsARegisteredField()
    {
        std::set<std::string> seen;
        // Tiers written out, a shipped topology by name, and one server given a
        // datacenter link.
        for (const char* preset : { "llama3-405b-h100", "gpt3-175b-a100", "llama2-7b-8xa100" }) {
            MainWindow w(appData());
            QVERIFY(laptopWindowOn(w, preset, "topology"));
            TopologyTab* editor = w.topologyTab();
            if (w.document()->scenario().cluster.tierCount == 0)
                button(editor, "Add datacenter link")->click();
            const int levels = 2 + w.document()->scenario().cluster.tierCount;
            for (int level = 0; level < levels; ++level) {
                editor->selectLevel(level);
                const Scenario& s = w.document()->scenario();
                int fields = 0, others = 0;
                for (QWidget* input : inputsUnder(editor)) {
                    const std::string id = fieldIdOf(input).toStdString();
                    if (id.empty()) { // the shipped-topology chooser and the traffic overlay
                        QVERIFY2(qobject_cast<QComboBox*>(input) && !editor->form()->isAncestorOf(input), qPrintable(input->metaObject()->className()));
                        ++others;
                        continue;
                    }
                    const FieldDef* f = findField(id);
                    QVERIFY2(f && f->hasEditor(), id.c_str());
                    const bool listed = sectionOf(id) == "cluster.tiers";
                    QCOMPARE(fieldEntryOf(input), listed ? level - 2 : 0);
                    QVERIFY2(listed == (level >= 2), id.c_str());
                    const QString why = mismatch(input, *f, s, fieldEntryOf(input), qobject_cast<QFormLayout*>(editor->form()->layout()));
                    QVERIFY2(why.isEmpty(), qPrintable(QString("%1 on %2, level %3: %4").arg(id.c_str(), preset).arg(level).arg(why)));
                    QCOMPARE(editor->fieldEditor(QString::fromStdString(id)), input);
                    // Where the panel shows the field too, it edits it the same way.
                    if (QWidget* row = w.panel()->editor(QString::fromStdString(id))) {
                        const QString inPanel = mismatch(row, *f, s, 0, nullptr);
                        QVERIFY2(inPanel.isEmpty(), qPrintable(QString("%1 in the panel: %2").arg(id.c_str(), inPanel)));
                        QCOMPARE(row->metaObject()->className(), input->metaObject()->className());
                    }
                    seen.insert(id);
                    ++fields;
                }
                QCOMPARE(others, 2);
                QCOMPARE(fields, int(editor->form()->fields().size()));
                QVERIFY(fields >= 3);
            }
        }
        // Every field the registry gives an editor outside the panel is on the tab (but
        // a chaos event's, which the Reliability tab's chaos editor shows:
        // tst_chaos_editor), and the network fields the tab always had are there too.
        for (const FieldDef& f : scenarioFields())
            if (f.hasEditor() && !f.inPanel() && !f.path.starts_with("reliability.chaos[]."))
                QVERIFY2(seen.count(f.path), (f.path + " has an editor declared but is on no form").c_str());
        for (const char* id : { "cluster.scale_up_domain", "cluster.gpus_per_node", "cluster.scale_up_bandwidth", "cluster.scale_up_latency",
                 "cluster.scale_out_bandwidth", "cluster.scale_out_latency", "cluster.scale_up_in_network_reduction",
                 "cluster.tiers[].name", "cluster.tiers[].span_gpus", "cluster.tiers[].oversubscription",
                 "cluster.tiers[].uplink_bandwidth", "cluster.tiers[].latency", "cluster.tiers[].rail_optimized",
                 "cluster.tiers[].in_network_reduction" })
            QVERIFY2(seen.count(id), id);
    }

    void aTpuPodsDomainShowsWhole()
    {
        // The tab's own range (1..4096) clamped a TPU v5p pod's 8,960-chip domain, and an
        // edit of another field then wrote 4,096 back.
        MainWindow w(appData());
        QVERIFY(laptopWindowOn(w, "dit-xl2-tpuv3", "topology"));
        const HardwareSpec* v5p = nullptr;
        for (const HardwareSpec& h : catalog())
            if (h.id == "tpu-v5p")
                v5p = &h;
        QVERIFY(v5p && v5p->scaleUpDomain == 8960);
        w.document()->edit("hardware.gpu", [v5p](Scenario& s) { switchGpu(s, *v5p); }, false);
        TopologyTab* editor = w.topologyTab();
        editor->selectLevel(0);
        auto* domain = qobject_cast<QDoubleSpinBox*>(editor->fieldEditor("cluster.scale_up_domain"));
        QVERIFY(domain);
        QCOMPARE(domain->value(), 8960.0);
        QCOMPARE(domain->maximum(), 8960.0); // the registry's range, not widened
        auto* latency = qobject_cast<QDoubleSpinBox*>(editor->fieldEditor("cluster.scale_up_latency"));
        latency->setValue(latency->value() + 1);
        QCOMPARE(w.document()->scenario().cluster.scaleUpDomain, 8960);
    }

    void randomEditsThroughTheTabSaveAndReopen()
    {
        SplitMix64 rng { 20260143 };
        int edits = 0, refused = 0, tiers = 0;
        for (const std::string& preset : presetNames()) {
            MainWindow w(appData());
            QVERIFY(laptopWindowOn(w, preset.c_str(), "topology"));
            for (int step = 0; step < 40; ++step) {
                const Scenario before = w.document()->scenario();
                const int undoBefore = w.document()->undoStack()->index();
                const QString what = rng.uniform() < 0.2 ? structuralEdit(w, rng) : fieldEdit(w, rng);
                if (QTest::currentTestFailed())
                    return;
                if (what.isEmpty())
                    continue; // nothing changed (the value it drew was the one shown)
                QCOMPARE(w.document()->undoStack()->index(), undoBefore + 1); // one undo step
                tiers += what.startsWith("cluster.tiers[]");
                ++edits;
                const Scenario& now = w.document()->scenario();
                if (checkScenario(now)) { // the window says why; undo takes it back
                    ++refused;
                    w.document()->undoStack()->undo();
                    QVERIFY(w.document()->scenario() == before);
                    continue;
                }
                const std::string yaml = scenarioToYaml(now);
                try {
                    const Scenario back = loadScenarioText(yaml, preset + " after " + what.toStdString(), catalog(), {}, topologies());
                    QVERIFY2(back == now, qPrintable(QString("%1: %2 does not reopen equal:\n%3").arg(preset.c_str(), what, yaml.c_str())));
                } catch (const InputError& e) {
                    QFAIL(qPrintable(QString("%1: saved after %2, but it does not reopen: %3").arg(preset.c_str(), what, e.what())));
                }
            }
            // Saved over the preset's own text (only the changed fields rewritten) and
            // opened in a new window: the same scenario.
            QTemporaryDir dir;
            const QString path = dir.filePath("edited.yaml");
            QVERIFY(w.saveTo(path));
            MainWindow again(appData());
            QVERIFY2(again.openFile(path), qPrintable(again.openError()));
            QVERIFY2(again.document()->scenario() == w.document()->scenario(), qPrintable(readAll(path)));
        }
        qInfo("%d edits through the tab, %d of a tier, %d refused by checkScenario and undone", edits, tiers, refused);
        QVERIFY(edits > 300);
        QVERIFY(tiers > 50);
    }

private:
    // One edit of a random field of a random level through its editor, checked against
    // the registry: the field changed to what the editor shows, nothing else did (but the
    // shipped topology's name, which a hand-edited network drops). Returns the field's
    // id, or "" when the edit changed nothing.
    static QString fieldEdit(MainWindow& w, SplitMix64& rng)
    {
        auto below = [&rng](int n) { return std::min(n - 1, int(rng.uniform() * n)); };
        TopologyTab* editor = w.topologyTab();
        editor->selectLevel(below(2 + w.document()->scenario().cluster.tierCount));
        const std::vector<FieldSpec>& rows = editor->form()->fields();
        const FieldSpec spec = rows[std::size_t(below(int(rows.size())))];
        const FieldDef& f = *findField(spec.id.toStdString());
        const int entry = spec.entry;
        QWidget* input = editor->fieldEditor(spec.id);
        Scenario expected = w.document()->scenario();
        if (auto* spin = qobject_cast<QDoubleSpinBox*>(input)) {
            const double lo = f.panel.min, hi = f.panel.max, u = rng.uniform();
            const double old = spin->value();
            spin->setValue(f.panel.slider != SliderScale::Linear && lo > 0 ? lo * std::pow(hi / lo, u) : lo + (hi - lo) * u);
            if (spin->value() == old)
                return {};
            f.set(expected, spin->value() * f.panel.displayScale, entry);
        } else if (auto* box = qobject_cast<QCheckBox*>(input)) {
            box->click();
            f.set(expected, box->isChecked() ? 1 : 0, entry);
        } else if (auto* line = qobject_cast<QLineEdit*>(input)) {
            // The tab's own datacenter label (26 bytes, which a 24-byte label cut), and 34
            // bytes in 30 characters, cut at a whole character.
            static const char* const names[] = { "leaf", "spine 2", "core: east", "pod #3", "datacenter (long-haul out)",
                "Glasfaserstrecke Z\u00fcrich\u2013Gen\u00e8ve" };
            const std::string name = names[below(6)];
            if (line->text().toStdString() == name)
                return {};
            line->selectAll();
            for (const QChar c : QString::fromStdString(name)) // keyClicks takes ASCII only
                QTest::sendKeyEvent(QTest::Click, line, Qt::Key_unknown, QString(c), Qt::NoModifier);
            const std::string typed = line->text().toStdString(); // as much as the line takes
            QTest::keyClick(line, Qt::Key_Return);
            f.setText(expected, typed, entry);
        } else {
            QTest::qFail("an editor of no registered kind", __FILE__, __LINE__);
            return {};
        }
        expected.cluster.topology.clear();
        const Scenario& now = w.document()->scenario();
        if (!(now == expected))
            QTest::qFail(qPrintable(spec.id + ": the edit changed more than the field, or not to the editor's value"), __FILE__, __LINE__);
        const QString undo = w.document()->undoStack()->undoText();
        if (undo != "Change " + spec.label)
            QTest::qFail(qPrintable("undo says " + undo), __FILE__, __LINE__);
        return spec.id;
    }

    // A button of the tab: add a tier or a datacenter, remove or move the selected tier,
    // or start from a shipped topology. "" when the button does nothing here.
    static QString structuralEdit(MainWindow& w, SplitMix64& rng)
    {
        TopologyTab* editor = w.topologyTab();
        const int tiers = w.document()->scenario().cluster.tierCount;
        editor->selectLevel(std::min(1 + tiers, int(rng.uniform() * (2 + tiers))));
        static const char* const buttons[] = { "Add tier above", "Add datacenter link", "Remove tier", "Move tier out", "Move tier in", "Use" };
        const QString which = buttons[std::min(5, int(rng.uniform() * 6))];
        if (which == "Use") {
            auto* start = editor->findChild<QComboBox*>();
            start->setCurrentIndex(1 + std::min(start->count() - 2, int(rng.uniform() * (start->count() - 1))));
        }
        const int undoBefore = w.document()->undoStack()->index();
        button(editor, which)->click();
        return w.document()->undoStack()->index() == undoBefore ? QString() : which;
    }
};

QTEST_MAIN(TestTopologyFields)
#include "tst_topology_fields.moc"
