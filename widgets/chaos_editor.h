#pragma once
// The Reliability tab's chaos editor: the scenario's chaos events as a list, Add (a menu
// of kinds) and Delete, and the selected event's form. The form's rows are the field
// registry's `reliability.chaos[].*` fields that the event's kind reads
// (chaosKindUses), made by field_editor like the panel's; the kind is a combo box of
// the registry's choices. Every add, edit, move and delete is one undo step through
// ScenarioDocument::edit; a marker dragged on the run timeline is one step per drag.
#include "parameter_fields.h"

#include "simcore/reliability_spec.h"

#include <QHash>
#include <QWidget>

#include <functional>
#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QListWidget;
class QMenu;
class QPushButton;

namespace dtsim::gui {

class ScenarioDocument;

class ChaosEditor : public QWidget {
    Q_OBJECT
public:
    explicit ChaosEditor(ScenarioDocument* doc, QWidget* parent = nullptr);

    void refresh(); // the document's events and values (after any edit, undo or redo)
    // Where a new event goes: the middle of the run last simulated (seconds).
    void setRunLength(double seconds) { m_runLength = seconds; }

    // One undo step each.
    void addEvent(ChaosEvent::Kind kind);
    void deleteSelected();
    void setKind(ChaosEvent::Kind kind); // the selected event's, with the new kind's defaults
    // From the run timeline: `first` starts a new step, later moves merge into it.
    void moveEvent(int index, double seconds, bool first);

    int selected() const; // -1 when none
    void select(int index);
    // For tests: the widgets.
    QListWidget* list() const { return m_list; }
    QMenu* addMenu() const { return m_addMenu; }
    QPushButton* deleteButton() const { return m_delete; }
    QComboBox* kindBox() const { return m_kind; }
    const std::vector<FieldSpec>& fields() const { return m_specs; } // the form's rows now
    QWidget* editor(const QString& fieldId) const { return m_editors.value(fieldId); }

private:
    void rebuildForm(); // the rows the selected event's kind reads
    void addRow(const FieldSpec& spec);
    void showValues();
    void apply(const QString& field, const std::function<void(std::vector<ChaosEvent>&)>& change, bool merge = false);

    ScenarioDocument* m_doc;
    QListWidget* m_list = nullptr;
    QMenu* m_addMenu = nullptr;
    QPushButton* m_delete = nullptr;
    QComboBox* m_kind = nullptr;
    QLabel* m_empty = nullptr;
    QWidget* m_formBox = nullptr;
    QFormLayout* m_form = nullptr;
    std::vector<FieldSpec> m_specs;
    QHash<QString, QWidget*> m_editors;
    int m_formEntry = -1; // the entry and kind the form was built for
    int m_formKind = -1;
    double m_runLength = 0;
};

// A new event of `kind` at `at` seconds, with what its kind needs set to a plain value
// (a 4 h incident, a link at half its bandwidth, a 15% straggler).
ChaosEvent newChaosEvent(ChaosEvent::Kind kind, double at);

} // namespace dtsim::gui
