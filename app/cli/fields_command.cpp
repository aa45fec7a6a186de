// dtsim-cli fields: every scenario field the file (and --set) accepts, from the field
// registry; --markdown prints docs/scenario.md's reference tables.
#include "cli_common.h"
#include "commands.h"

#include "simcore/fields/scenario_fields.h"
#include "simcore/loader/scenario_writer.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>
#include <QTextStream>

namespace dtsim::cli {

namespace {

const char* typeName(FieldType t)
{
    switch (t) {
    case FieldType::Integer: return "integer";
    case FieldType::Quantity: return "quantity";
    case FieldType::Flag: return "flag";
    case FieldType::Choice: return "choice";
    case FieldType::Text: return "text";
    case FieldType::Gpu: return "gpu";
    case FieldType::Topology: return "topology";
    case FieldType::Region: return "region";
    }
    return "?";
}

// A field's value in `s`, as the file would write it (a choice by its name).
QJsonValue fieldValue(const FieldDef& f, const Scenario& s)
{
    switch (f.type) {
    case FieldType::Integer:
    case FieldType::Quantity: return f.get(s, 0);
    case FieldType::Flag: return f.get(s, 0) != 0;
    case FieldType::Choice: return QString::fromStdString(choiceName(f, int(f.get(s, 0))));
    default: return f.getText ? QJsonValue(QString::fromStdString(f.getText(s, 0))) : QJsonValue();
    }
}

// fields --of FILE: every field's value in a scenario once read (defaults and derived
// values filled in), for tools that build the scenario's model elsewhere (dtsim-measure).
// Fields of sections the scenario does not have (a dense model's moe) and of lists are
// left out.
int printValues(const QCommandLineParser& p)
{
    const EngineData d = loadEngineData(p);
    const Scenario s = loadScenarioNamed(p.value("of"), p, d);
    QJsonObject values;
    for (const FieldDef& f : scenarioFields()) {
        if (!f.inFile() || !f.appliesTo(s) || f.path.find("[]") != std::string::npos)
            continue;
        const SectionDef* section = findSection(sectionOf(f.path));
        if (section && section->written && !section->written(s))
            continue;
        values.insert(QString::fromStdString(f.path), fieldValue(f, s));
    }
    if (p.isSet("yaml")) {
        QTextStream(stdout) << QString::fromStdString(scenarioToYaml(s));
    } else if (p.isSet("json")) {
        printJson(QJsonDocument(values));
    } else {
        QTextStream out(stdout);
        for (auto it = values.begin(); it != values.end(); ++it)
            out << QString("%1 %2\n").arg(it.key(), -40).arg(it.value().isString() ? it.value().toString() : it.value().toVariant().toString());
    }
    return kExitOk;
}

} // namespace

int runFields(const QStringList& args)
{
    QCommandLineParser p;
    p.addOption({ "json", "Print the fields as JSON." });
    p.addOption({ "markdown", "Print docs/scenario.md's field reference." });
    p.addOption({ "of", "Print every field's value in this scenario (a file or a preset), defaults filled in.", "FILE" });
    p.addOption({ "set", "With --of: override a field (repeatable).", "path=value" });
    p.addOption({ "yaml", "With --of: print the scenario as one file (every --set applied), as the window saves it." });
    if (!parseCommand(p, "fields", args, 0))
        return kExitBadInput;
    QTextStream out(stdout);
    if (p.isSet("of")) {
        try {
            return printValues(p);
        } catch (const InputError& e) {
            return reportInputError(e);
        }
    }
    if (p.isSet("markdown")) {
        out << QString::fromStdString(fieldReferenceMarkdown());
        return kExitOk;
    }
    QJsonArray list;
    for (const FieldDef& f : scenarioFields()) {
        if (!f.inFile())
            continue; // a view of other fields
        QJsonArray choices;
        for (const ChoiceName& c : f.choices)
            choices.append(QString::fromStdString(c.name));
        list.append(QJsonObject { { "path", QString::fromStdString(f.path) }, { "type", typeName(f.type) },
            { "required", f.required }, { "default", QString::fromStdString(f.defaultText) },
            { "choices", choices }, { "help", QString::fromStdString(f.help) } });
        if (!p.isSet("json"))
            out << QString("%1 %2 %3\n").arg(QString::fromStdString(f.path), -40).arg(typeName(f.type), -9)
                       .arg(QString::fromStdString(f.required ? "required" : f.defaultText));
    }
    if (p.isSet("json"))
        printJson(QJsonDocument(list));
    return kExitOk;
}

} // namespace dtsim::cli
