#include "chaos_editor.h"

#include "field_editor.h"
#include "scenario_document.h"

#include "simcore/fields/scenario_fields.h"
#include "simcore/units.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace dtsim::gui {

namespace {

constexpr const char* kEventField = "reliability.chaos[].event";
constexpr const char* kChaosPrefix = "reliability.chaos[].";

// The kinds as the registry names them ("link_degraded"), shown with spaces.
std::vector<ChoiceName> kinds()
{
    const FieldDef* f = findField(kEventField);
    return f ? f->choices : std::vector<ChoiceName> {};
}

QString kindLabel(int kind)
{
    for (const ChoiceName& c : kinds())
        if (c.value == kind && !c.alias)
            return QString::fromStdString(c.name).replace('_', ' ');
    return QString::number(kind);
}

QString itemText(const ChaosEvent& e)
{
    return QString("%1  %2%3").arg(QString::fromStdString(formatDuration(e.atSeconds)), kindLabel(int(e.kind)),
        e.target.empty() ? QString() : QString(" (%1)").arg(QString::fromStdString(e.target)));
}

} // namespace

ChaosEvent newChaosEvent(ChaosEvent::Kind kind, double at)
{
    ChaosEvent e;
    e.kind = kind;
    e.atSeconds = at;
    if (chaosKindLasts(kind))
        e.duration = 4 * 3600.0;
    if (kind == ChaosEvent::Kind::LinkDegraded)
        e.fraction = 0.5;
    if (kind == ChaosEvent::Kind::Straggler)
        e.slowdown = 0.15;
    return e;
}

ChaosEditor::ChaosEditor(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent)
    , m_doc(doc)
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(tr("<b>Chaos events</b>"), this);
    title->setToolTip(tr("Injected incidents, in every Monte Carlo trial and the simulated run. Drag a marker on the run's "
                         "timeline to move an event. Saved in the scenario (reliability.chaos)."));
    column->addWidget(title);
    m_list = new QListWidget(this);
    m_list->setObjectName("chaos-events");
    m_list->setMinimumHeight(fontMetrics().height() * 5);
    column->addWidget(m_list, 1);

    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add"), this);
    m_addMenu = new QMenu(add);
    for (const ChoiceName& c : kinds())
        if (!c.alias)
            m_addMenu->addAction(QString::fromStdString(c.name).replace('_', ' '), this,
                [this, k = c.value] { addEvent(ChaosEvent::Kind(k)); });
    add->setMenu(m_addMenu);
    m_delete = new QPushButton(tr("Delete"), this);
    buttons->addWidget(add);
    buttons->addWidget(m_delete);
    column->addLayout(buttons);

    m_empty = new QLabel(tr("No events: Add one, or write them under reliability.chaos."), this);
    m_empty->setWordWrap(true);
    column->addWidget(m_empty);
    m_formBox = new QWidget(this);
    m_form = new QFormLayout(m_formBox);
    m_form->setContentsMargins(0, 0, 0, 0);
    m_kind = new QComboBox(m_formBox);
    for (const ChoiceName& c : kinds())
        if (!c.alias)
            m_kind->addItem(QString::fromStdString(c.name).replace('_', ' '), c.value);
    m_kind->setToolTip(tr("What happens (docs/reliability.md, \"Chaos events\"); the fields below are the ones it reads."));
    m_form->addRow(tr("Event"), m_kind);
    column->addWidget(m_formBox, 2);

    connect(m_delete, &QPushButton::clicked, this, &ChaosEditor::deleteSelected);
    connect(m_list, &QListWidget::currentRowChanged, this, [this] { rebuildForm(); });
    connect(m_kind, &QComboBox::activated, this, [this](int i) { setKind(ChaosEvent::Kind(m_kind->itemData(i).toInt())); });
    connect(m_doc, &ScenarioDocument::changed, this, &ChaosEditor::refresh);
    refresh();
}

int ChaosEditor::selected() const { return m_list->currentRow(); }

void ChaosEditor::select(int index)
{
    m_list->setCurrentRow(index);
    rebuildForm();
}

void ChaosEditor::refresh()
{
    const std::vector<ChaosEvent>& events = m_doc->scenario().reliability.chaos;
    int row = selected();
    {
        const QSignalBlocker block(m_list);
        m_list->clear();
        for (const ChaosEvent& e : events)
            m_list->addItem(itemText(e));
        row = events.empty() ? -1 : std::clamp(row < 0 ? 0 : row, 0, int(events.size()) - 1);
        m_list->setCurrentRow(row);
    }
    rebuildForm();
}

void ChaosEditor::rebuildForm()
{
    const std::vector<ChaosEvent>& events = m_doc->scenario().reliability.chaos;
    const int entry = selected();
    const bool any = entry >= 0 && entry < int(events.size());
    m_empty->setVisible(events.empty());
    m_formBox->setVisible(any);
    m_delete->setEnabled(any);
    if (!any)
        return;
    const int kind = int(events[std::size_t(entry)].kind);
    if (entry != m_formEntry || kind != m_formKind) {
        m_formEntry = entry;
        m_formKind = kind;
        while (m_form->rowCount() > 1)
            m_form->removeRow(1);
        m_specs.clear();
        m_editors.clear();
        for (const FieldDef& f : dtsim::scenarioFields())
            if (f.path.starts_with(kChaosPrefix) && f.hasEditor() && chaosKindUses(ChaosEvent::Kind(kind), keyOf(f.path)))
                if (std::optional<FieldSpec> spec = fieldSpec(f, entry))
                    m_specs.push_back(std::move(*spec));
        for (const FieldSpec& spec : m_specs)
            addRow(spec);
    }
    showValues();
}

void ChaosEditor::addRow(const FieldSpec& spec)
{
    QWidget* editor = makeFieldEditor(spec, m_formBox);
    onFieldEdited(editor, spec, [this, set = spec.set, id = spec.id](double v) {
        m_doc->edit(id, [&](Scenario& s) {
            if (m_formEntry < int(s.reliability.chaos.size()))
                set(s, v);
        }, false);
    });
    onFieldTextEdited(editor, [this, set = spec.setText, id = spec.id](const std::string& t) {
        m_doc->edit(id, [&](Scenario& s) {
            if (m_formEntry < int(s.reliability.chaos.size()))
                set(s, t);
        }, false);
    });
    auto* label = new QLabel(spec.label, m_formBox);
    label->setToolTip(spec.tooltip);
    m_form->addRow(label, editor);
    m_editors.insert(spec.id, editor);
}

void ChaosEditor::showValues()
{
    const Scenario& s = m_doc->scenario();
    {
        const QSignalBlocker block(m_kind);
        m_kind->setCurrentIndex(m_kind->findData(m_formKind));
    }
    for (const FieldSpec& spec : m_specs)
        showFieldValue(m_editors.value(spec.id), spec, s);
}

void ChaosEditor::apply(const QString& field, const std::function<void(std::vector<ChaosEvent>&)>& change, bool merge)
{
    m_doc->edit(field, [&](Scenario& s) { change(s.reliability.chaos); }, merge);
}

void ChaosEditor::addEvent(ChaosEvent::Kind kind)
{
    const double at = m_runLength > 0 ? m_runLength / 2 : units::day;
    apply("reliability.chaos", [&](std::vector<ChaosEvent>& events) { events.push_back(newChaosEvent(kind, at)); });
    select(int(m_doc->scenario().reliability.chaos.size()) - 1);
}

void ChaosEditor::deleteSelected()
{
    const int i = selected();
    if (i < 0 || i >= int(m_doc->scenario().reliability.chaos.size()))
        return;
    apply("reliability.chaos", [&](std::vector<ChaosEvent>& events) { events.erase(events.begin() + i); });
}

void ChaosEditor::setKind(ChaosEvent::Kind kind)
{
    const int i = selected();
    if (i < 0 || i >= int(m_doc->scenario().reliability.chaos.size()) || m_doc->scenario().reliability.chaos[std::size_t(i)].kind == kind)
        return;
    apply(kEventField, [&](std::vector<ChaosEvent>& events) {
        ChaosEvent& e = events[std::size_t(i)];
        ChaosEvent fresh = newChaosEvent(kind, e.atSeconds);
        fresh.target = e.target;
        if (chaosKindLasts(kind) && e.duration > 0)
            fresh.duration = e.duration; // an incident keeps its length across kinds
        e = fresh;
    });
}

void ChaosEditor::moveEvent(int index, double seconds, bool first)
{
    if (index < 0 || index >= int(m_doc->scenario().reliability.chaos.size()))
        return;
    apply("reliability.chaos[].at", [&](std::vector<ChaosEvent>& events) { events[std::size_t(index)].atSeconds = std::max(0.0, seconds); },
        !first);
    select(index);
}

} // namespace dtsim::gui
