#include "topology_form.h"

#include "field_editor.h"
#include "scenario_document.h"

#include "simcore/fields/scenario_fields.h"

#include <QFormLayout>
#include <QLabel>

#include <algorithm>
#include <optional>

namespace dtsim::gui {

namespace {

// Which fields each level shows; how each is edited is the registry's.
struct LevelRows {
    const char* title;
    std::vector<const char*> fields;
};

const LevelRows& rowsOf(int level)
{
    static const LevelRows scaleUp { QT_TR_NOOP("<b>Scale-up fabric</b> (NVLink / NVSwitch / PCIe)"),
        { "cluster.scale_up_domain", "cluster.scale_up_bandwidth", "cluster.scale_up_latency",
            "cluster.scale_up_in_network_reduction" } };
    static const LevelRows nics { QT_TR_NOOP("<b>NICs</b> (scale-out entry)"),
        { "cluster.gpus_per_node", "cluster.scale_out_bandwidth", "cluster.scale_out_latency" } };
    // A datacenter link is a tier too: leaving a site is its uplink.
    static const LevelRows tier { QT_TR_NOOP("<b>Switch tier</b>: what leaves one of its units"),
        { "cluster.tiers[].name", "cluster.tiers[].span_gpus", "cluster.tiers[].oversubscription",
            "cluster.tiers[].uplink_bandwidth", "cluster.tiers[].latency", "cluster.tiers[].rail_optimized",
            "cluster.tiers[].in_network_reduction" } };
    return level == 0 ? scaleUp : level == 1 ? nics : tier;
}

} // namespace

TopologyForm::TopologyForm(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent)
    , m_doc(doc)
{
    m_form = new QFormLayout(this);
    m_form->setContentsMargins(0, 0, 0, 0);
}

void TopologyForm::showLevel(int level)
{
    if (level != m_level) {
        m_level = level;
        rebuild();
    }
    refresh();
}

void TopologyForm::rebuild()
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_specs.clear();
    m_editors.clear();
    const LevelRows& rows = rowsOf(m_level);
    m_form->addRow(new QLabel(tr(rows.title), this));
    const int entry = std::max(0, m_level - 2);
    for (const char* id : rows.fields)
        if (const FieldDef* f = findField(id))
            if (std::optional<FieldSpec> spec = fieldSpec(*f, entry))
                m_specs.push_back(std::move(*spec));
    for (const FieldSpec& spec : m_specs)
        addRow(spec);
}

void TopologyForm::addRow(const FieldSpec& spec)
{
    QWidget* editor = makeFieldEditor(spec, this);
    onFieldEdited(editor, spec, [this, set = spec.set, id = spec.id](double v) { apply(id, [&](Scenario& s) { set(s, v); }); });
    onFieldTextEdited(editor, [this, set = spec.setText, id = spec.id](const std::string& t) { apply(id, [&](Scenario& s) { set(s, t); }); });
    auto* label = new QLabel(spec.label, this);
    label->setToolTip(spec.tooltip);
    m_form->addRow(label, editor);
    m_editors.insert(spec.id, editor);
}

void TopologyForm::apply(const QString& id, const std::function<void(Scenario&)>& change)
{
    const int tier = m_level - 2;
    // A plain edit, as the parameter panel's spin boxes make: one undo step each.
    m_doc->edit(id, [&](Scenario& s) {
        if (tier >= s.cluster.tierCount)
            return; // the tier went (undone) since the form was built
        change(s);
        // The network is the scenario's own now: the shipped one it started from no
        // longer describes it (and its tiers must not come back on reopening).
        s.cluster.topology.clear();
    }, false);
}

void TopologyForm::refresh()
{
    const Scenario& s = m_doc->scenario();
    if (m_level >= 2 && m_level - 2 >= s.cluster.tierCount)
        return; // the editor selects another level
    for (const FieldSpec& spec : m_specs)
        showFieldValue(m_editors.value(spec.id), spec, s);
}

} // namespace dtsim::gui
