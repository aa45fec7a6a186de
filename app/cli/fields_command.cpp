// dtsim-cli fields: every scenario field the file (and --set) accepts, from the field
// registry; --markdown prints docs/scenario.md's reference tables.
#include "cli_common.h"
#include "commands.h"

#include "simcore/fields/scenario_fields.h"

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

} // namespace

int runFields(const QStringList& args)
{
    QCommandLineParser p;
    p.addOption({ "json", "Print the fields as JSON." });
    p.addOption({ "markdown", "Print docs/scenario.md's field reference." });
    if (!parseCommand(p, "fields", args, 0))
        return kExitBadInput;
    QTextStream out(stdout);
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
