#include "cli_common.h"

#include "commands.h"

#include "simcore/loader/calibration_loader.h"
#include "simcore/loader/cost_loader.h"
#include "simcore/loader/hardware_loader.h"
#include "simcore/loader/reliability_loader.h"
#include "simcore/loader/scenario_loader.h"

#include "simcore/convergence.h"
#include "simcore/report_check.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QFileInfo>
#include <QTextStream>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace dtsim::cli {

bool parseCommand(QCommandLineParser& p, const QString& command, const QStringList& args, int positional)
{
    p.setApplicationDescription("dtsim-cli " + command);
    p.addHelpOption();
    p.addOption({ "data", "Folder holding presets/ and resources/ (default: found automatically).", "DIR" });
    QStringList full = args;
    full.prepend("dtsim-cli " + command);
    if (!p.parse(full)) {
        std::fprintf(stderr, "dtsim-cli %s: %s\n", qPrintable(command), qPrintable(p.errorText()));
        return false;
    }
    if (p.isSet("help")) {
        QTextStream(stdout) << p.helpText();
        std::exit(std::fflush(stdout) == 0 && !std::ferror(stdout) ? kExitOk : kExitInternal);
    }
    if (positional >= 0 && p.positionalArguments().size() != positional) {
        std::fprintf(stderr, "dtsim-cli %s: expected %d argument(s); see --help\n", qPrintable(command), positional);
        return false;
    }
    return true;
}

EngineData loadEngineData(const QCommandLineParser& p)
{
    EngineData d;
    d.paths = findDataPaths(p.value("data"));
    if (!d.paths.problem.isEmpty())
        throw InputError("dtsim-cli", 0, "", d.paths.problem.toStdString());
    if (d.paths.root.isEmpty())
        throw InputError("dtsim-cli", 0, "--data",
            "cannot find dtsim's data (presets/ and resources/); pass --data DIR or set DTSIM_DATA_DIR");
    d.catalog = loadHardwareCatalog(d.paths.hardwareDir());
    d.calibration = loadCalibration(d.paths.calibrationFile());
    d.topologies = loadTopologyCatalog(d.paths.topologiesDir());
    d.failureRates = loadFailureRates(d.paths.reliabilityFile());
    d.costRates = loadCostRates(d.paths.costFile());
    d.models = loadModelCatalogue(d.paths.modelCatalogueFile());
    return d;
}

std::string resolveScenarioPath(const QString& arg, const DataPaths& d)
{
    if (QFileInfo::exists(arg))
        return arg.toStdString();
    const QString preset = QDir(QString::fromStdString(d.presetsDir())).filePath(arg + ".yaml");
    if (!arg.contains('/') && QFileInfo::exists(preset))
        return preset.toStdString();
    return arg.toStdString(); // the loader reports "not found" with the path
}

Scenario loadScenarioArgument(const QCommandLineParser& p, const EngineData& d, FieldLocator* where)
{
    return loadScenarioNamed(p.positionalArguments().first(), p, d, where);
}

Scenario loadScenarioNamed(const QString& fileOrPreset, const QCommandLineParser& p, const EngineData& d, FieldLocator* where)
{
    std::vector<Override> overrides;
    for (const QString& s : p.values("set"))
        overrides.push_back(parseOverride(s.toStdString()));
    expandCatalogueModels(overrides, d.models);
    ScenarioSource source;
    Scenario s = loadScenarioFile(resolveScenarioPath(fileOrPreset, d.paths), d.catalog, overrides, d.topologies, &source);
    checkOverlay(s, d.calibration); // a measured speed within what the GPU can do
    if (const auto why = convergenceIssue(s, d.calibration)) // a loss target the law can plan
        throw source.locator.error("training.target_loss", *why);
    if (const auto why = compressionCostIssue(s, d.calibration)) // the method's token cost is in the calibration
        throw source.locator.error("training.grad_compression", *why);
    for (const std::string& note : source.notes)
        std::fprintf(stderr, "note: %s\n", note.c_str());
    if (where)
        *where = std::move(source.locator);
    return s;
}

namespace {

// The path of the first number in `v` that is NaN or infinite (JSON would print it as
// null), or an empty string.
QString nonFiniteAt(const QJsonValue& v, const QString& path)
{
    if (v.isDouble())
        return std::isfinite(v.toDouble()) ? QString() : (path.isEmpty() ? "(top)" : path);
    if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            if (QString at = nonFiniteAt(a[i], QString("%1[%2]").arg(path).arg(i)); !at.isEmpty())
                return at;
    }
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (QString at = nonFiniteAt(it.value(), path.isEmpty() ? it.key() : path + "." + it.key()); !at.isEmpty())
                return at;
    }
    return {};
}

} // namespace

QString jsonText(const QJsonDocument& doc)
{
    // The engine's edge: a number that is not finite never leaves as null.
    const QString bad = nonFiniteAt(doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object()), {});
    if (!bad.isEmpty())
        throw InputError("dtsim-cli", 0, bad.toStdString(), badQuantityMessage(bad.toStdString()));
    return QString::fromUtf8(doc.toJson(QJsonDocument::Indented));
}

void printJson(const QJsonDocument& doc) { QTextStream(stdout) << jsonText(doc); }

namespace {

std::string shortNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

} // namespace

double numberOption(const QCommandLineParser& p, const QString& name, double min, double max, const std::string& what)
{
    bool ok = false;
    const QString text = p.value(name);
    const double v = text.toDouble(&ok);
    if (!ok || !(v >= min) || !(v <= max))
        throw InputError("--" + name.toStdString(), 0, "",
            "\"" + text.toStdString() + "\" is not " + what + " from " + shortNumber(min) + " to " + shortNumber(max));
    return v;
}

long long wholeOption(const QCommandLineParser& p, const QString& name, long long min, long long max, const std::string& what)
{
    bool ok = false;
    const QString text = p.value(name);
    const long long v = text.toLongLong(&ok);
    if (!ok || v < min || v > max)
        throw InputError("--" + name.toStdString(), 0, "",
            "\"" + text.toStdString() + "\" is not " + what + " from " + std::to_string(min) + " to " + std::to_string(max));
    return v;
}

int reportInputError(const InputError& e)
{
    std::fprintf(stderr, "%s\n", e.what());
    return kExitBadInput;
}

} // namespace dtsim::cli
