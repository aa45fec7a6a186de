#pragma once
// The Topology tab's form for the selected level: the scale-up fabric, the NICs, or one
// switch tier. Its rows are the field registry's (field_editor.h): each editor's label,
// unit, range and help come from the field's declaration, and an edit is one undo step
// through the field's own setter.
#include "parameter_fields.h"

#include <QHash>
#include <QWidget>

#include <functional>
#include <vector>

class QFormLayout;

namespace dtsim::gui {

class ScenarioDocument;

class TopologyForm : public QWidget {
    Q_OBJECT
public:
    explicit TopologyForm(ScenarioDocument* doc, QWidget* parent = nullptr);

    // Level 0 is the scale-up fabric, 1 the NICs, 2 + i the tier cluster.tiers[i].
    void showLevel(int level); // rebuilds the rows when the level changes
    void refresh();            // the document's values
    int level() const { return m_level; }

    // The rows shown, in order; the editor of a field id ("cluster.tiers[].latency").
    const std::vector<FieldSpec>& fields() const { return m_specs; }
    QWidget* editor(const QString& fieldId) const { return m_editors.value(fieldId); }

private:
    void rebuild();
    void addRow(const FieldSpec& spec);
    void apply(const QString& id, const std::function<void(Scenario&)>& change);

    ScenarioDocument* m_doc;
    QFormLayout* m_form = nullptr;
    std::vector<FieldSpec> m_specs;
    QHash<QString, QWidget*> m_editors;
    int m_level = -1;
};

} // namespace dtsim::gui
