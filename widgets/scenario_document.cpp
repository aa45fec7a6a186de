#include "scenario_document.h"

#include "simcore/fields/scenario_fields.h"

#include <QUndoCommand>

#include <unordered_map>

namespace dtsim::gui {

namespace {

// What Edit > Undo says: the field's label as the panel shows it ("Undo Change Layers",
// not "Change model.layers"), or the kind of edit.
QString editName(const QString& id)
{
    const std::string path = id.toStdString();
    if (const FieldDef* f = findField(path); f && !f->panel.label.empty())
        return QObject::tr("Change %1").arg(QString::fromStdString(f->panel.label));
    static const std::pair<const char*, const char*> kinds[] = { { "plan", "Apply a plan" }, { "what-if", "Apply a what-if change" },
        { "fix", "Apply the suggested fix" }, { "recover", "Recover unsaved work" }, { "calibration", "Calibrate from measurements" },
        { "cluster.topology", "Change the topology" } };
    for (const auto& [key, text] : kinds)
        if (path == key)
            return QObject::tr(text);
    if (id.startsWith("cluster."))
        return QObject::tr("Edit the topology");
    return QObject::tr("Change %1").arg(id);
}

// Merge ids per field name, so that only edits of the same field merge.
int mergeIdFor(const QString& field)
{
    static std::unordered_map<std::string, int> ids;
    auto [it, inserted] = ids.emplace(field.toStdString(), int(ids.size()) + 1);
    return it->second;
}

class EditCommand : public QUndoCommand {
public:
    EditCommand(ScenarioDocument* doc, const QString& field, Scenario before, Scenario after, int serial)
        : m_doc(doc)
        , m_id(mergeIdFor(field))
        , m_serial(serial)
        , m_before(std::move(before))
        , m_after(std::move(after))
    {
        setText(editName(field));
    }
    void undo() override { m_doc->setScenario(m_before); }
    void redo() override { m_doc->setScenario(m_after); }
    int id() const override { return m_id; }
    bool mergeWith(const QUndoCommand* other) override
    {
        // Only edits of the same field within the same gesture merge.
        if (other->id() != id() || static_cast<const EditCommand*>(other)->m_serial != m_serial)
            return false;
        m_after = static_cast<const EditCommand*>(other)->m_after;
        return true;
    }

private:
    ScenarioDocument* m_doc;
    int m_id;
    int m_serial;
    Scenario m_before;
    Scenario m_after;
};

} // namespace

ScenarioDocument::ScenarioDocument(QObject* parent) : QObject(parent)
{
    // Saving (or undoing back to the saved state) changes the modified mark, not the
    // scenario: a signal of its own, so the views do not recompute for it.
    connect(&m_undo, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
}

ScenarioDocument::~ScenarioDocument()
{
    // The undo stack emits cleanChanged while it is destroyed; nobody may hear it.
    disconnect(&m_undo, nullptr, this, nullptr);
}

void ScenarioDocument::reset(const Scenario& s, const QString& path)
{
    m_undo.clear();
    m_scenario = s;
    setPath(path);
    emit changed();
}

void ScenarioDocument::edit(const QString& field, const std::function<void(Scenario&)>& change, bool merge)
{
    Scenario after = m_scenario;
    change(after);
    if (!merge)
        ++m_gesture; // a new gesture: never merges into the previous step
    m_undo.push(new EditCommand(this, field, m_scenario, std::move(after), m_gesture));
}

void ScenarioDocument::setPath(const QString& p)
{
    if (p == m_path)
        return;
    m_path = p;
    emit pathChanged(p);
}

void ScenarioDocument::setScenario(const Scenario& s)
{
    m_scenario = s;
    emit changed();
}

} // namespace dtsim::gui
