#include "commands.h"

#include "data_paths.h"
#include "report_json.h"
#include "report_table.h"

#include "simcore/input_error.h"
#include "simcore/loader/calibration_loader.h"
#include "simcore/loader/hardware_loader.h"
#include "simcore/loader/scenario_loader.h"
#include "simcore/step.h"
#include "simcore/units.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <cstdio>

namespace dtsim::cli {

namespace {

void print(const QString& s)
{
    QTextStream(stdout) << s;
}

void printJson(const QJsonDocument& doc) { print(QString::fromUtf8(doc.toJson(QJsonDocument::Indented))); }

// Parses a subcommand's options; prints usage errors itself.
bool parse(QCommandLineParser& p, const QString& command, const QStringList& args)
{
    p.setApplicationDescription(command);
    p.addHelpOption();
    p.addOption({ "data", "Folder holding presets/ and resources/ (default: found automatically).", "DIR" });
    QStringList full = args;
    full.prepend("dtsim-cli " + command);
    if (!p.parse(full)) {
        std::fprintf(stderr, "dtsim-cli %s: %s\n", qPrintable(command), qPrintable(p.errorText()));
        return false;
    }
    if (p.isSet("help")) {
        print(p.helpText());
        std::exit(kExitOk);
    }
    return true;
}

DataPaths requireData(const QCommandLineParser& p)
{
    DataPaths d = findDataPaths(p.value("data"));
    if (d.root.isEmpty())
        throw InputError("dtsim-cli", 0, "--data",
            "cannot find dtsim's data (presets/ and resources/); pass --data DIR or set DTSIM_DATA_DIR");
    return d;
}

} // namespace

// A scenario argument may be a file or the name of a shipped preset.
std::string resolveScenarioPath(const QString& arg, const DataPaths& d)
{
    if (QFileInfo::exists(arg))
        return arg.toStdString();
    const QString preset = QDir(QString::fromStdString(d.presetsDir())).filePath(arg + ".yaml");
    if (!arg.contains('/') && QFileInfo::exists(preset))
        return preset.toStdString();
    return arg.toStdString(); // the loader reports "not found" with the path
}

namespace {

int reportInputError(const InputError& e)
{
    std::fprintf(stderr, "%s\n", e.what());
    return kExitBadInput;
}

} // namespace

int runSimulate(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "Scenario YAML file, or the name of a preset.");
    p.addOption({ "set", "Override a field, e.g. --set parallel.tp=4 (repeatable).", "path=value" });
    p.addOption({ "json", "Print the report as JSON." });
    if (!parse(p, "simulate", args))
        return kExitBadInput;
    if (p.positionalArguments().size() != 1) {
        std::fprintf(stderr, "dtsim-cli simulate: expected one scenario FILE\n");
        return kExitBadInput;
    }
    try {
        const DataPaths d = requireData(p);
        const auto catalog = loadHardwareCatalog(d.hardwareDir());
        const Calibration calibration = loadCalibration(d.calibrationFile());
        std::vector<Override> overrides;
        for (const QString& s : p.values("set"))
            overrides.push_back(parseOverride(s.toStdString()));
        const std::string file = resolveScenarioPath(p.positionalArguments().first(), d);
        const Scenario s = loadScenarioFile(file, catalog, overrides);
        const Report r = simulate(s, calibration);
        if (p.isSet("json"))
            printJson(QJsonDocument(reportToJson(s, r)));
        else
            print(QString::fromStdString(reportToText(s, r)));
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

int runPresets(const QStringList& args)
{
    QCommandLineParser p;
    p.addOption({ "json", "Print the list as JSON." });
    if (!parse(p, "presets", args))
        return kExitBadInput;
    try {
        const DataPaths d = requireData(p);
        const auto catalog = loadHardwareCatalog(d.hardwareDir());
        QDir dir(QString::fromStdString(d.presetsDir()));
        QJsonArray list;
        QString text;
        for (const QString& f : dir.entryList({ "*.yaml" }, QDir::Files, QDir::Name)) {
            const Scenario s = loadScenarioFile(dir.filePath(f).toStdString(), catalog);
            const QString name = QFileInfo(f).completeBaseName();
            list.append(QJsonObject { { "name", name }, { "title", QString::fromStdString(s.name) },
                { "description", QString::fromStdString(s.description) }, { "gpu", QString::fromStdString(s.hardware.id) },
                { "gpus", s.cluster.gpus } });
            text += QString("%1  %2\n").arg(name, -22).arg(QString::fromStdString(s.name));
        }
        if (p.isSet("json"))
            printJson(QJsonDocument(list));
        else
            print(text);
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

int runHardware(const QStringList& args)
{
    QCommandLineParser p;
    p.addOption({ "json", "Print the catalogue as JSON." });
    if (!parse(p, "hardware", args))
        return kExitBadInput;
    try {
        const DataPaths d = requireData(p);
        const auto catalog = loadHardwareCatalog(d.hardwareDir());
        QJsonArray list;
        QString text = QString("%1 %2 %3 %4 %5 %6\n")
                           .arg("id", -12).arg("year", -5).arg("bf16/fp16", -14).arg("memory", -10)
                           .arg("HBM", -11).arg("name");
        for (const HardwareSpec& h : catalog) {
            QJsonObject peaks;
            for (Precision pr : kAllPrecisions)
                if (h.supports(pr))
                    peaks.insert(QString::fromUtf8(precisionName(pr).data()), h.peak(pr));
            list.append(QJsonObject { { "id", QString::fromStdString(h.id) }, { "name", QString::fromStdString(h.name) },
                { "vendor", QString::fromStdString(h.vendor) }, { "launch_year", h.launchYear },
                { "peak_dense_flops", peaks }, { "memory_bytes", h.memoryBytes },
                { "memory_bandwidth", h.memoryBandwidth }, { "scale_up_bandwidth", h.scaleUpBandwidth },
                { "scale_up_domain", h.scaleUpDomain }, { "scale_out_bandwidth", h.scaleOutBandwidth },
                { "tdp_w", h.tdpWatts }, { "launch_price_usd", h.launchPriceUsd } });
            const double half = h.supports(Precision::BF16) ? h.peak(Precision::BF16)
                : h.supports(Precision::FP16)               ? h.peak(Precision::FP16)
                                                            : h.peak(Precision::FP32);
            text += QString("%1 %2 %3 %4 %5 %6\n")
                        .arg(QString::fromStdString(h.id), -12)
                        .arg(h.launchYear, -5)
                        .arg(QString::fromStdString(formatFlops(half)), -14)
                        .arg(QString::fromStdString(formatBytes(h.memoryBytes)), -10)
                        .arg(QString::fromStdString(formatRate(h.memoryBandwidth)), -11)
                        .arg(QString::fromStdString(h.name));
        }
        if (p.isSet("json"))
            printJson(QJsonDocument(list));
        else
            print(text);
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
