// dtsim-cli simulate, presets and hardware.
#include "commands.h"
#include "simcore/planner/sync_wall.h"

#include "cli_common.h"
#include "report_json.h"
#include "report_table.h"

#include "simcore/loader/residuals_loader.h"
#include "simcore/loader/scenario_loader.h"
#include "simcore/step.h"
#include "simcore/units.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include "simcore/report_check.h"

#include <QJsonObject>
#include <QTextStream>

namespace dtsim::cli {

int runSimulate(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "Scenario YAML file, or the name of a preset.");
    p.addOption({ "set", "Override a field, e.g. --set parallel.tp=4 (repeatable).", "path=value" });
    p.addOption({ "json", "Print the report as JSON." });
    if (!parseCommand(p, "simulate", args, 1))
        return kExitBadInput;
    try {
        const EngineData d = loadEngineData(p);
        FieldLocator where;
        const Scenario s = loadScenarioArgument(p, d, &where);
        const Report r = predictRunWithSyncWall(s, d.calibration);
        if (const auto bad = badQuantity(r))
            where.fail("", badQuantityMessage(*bad));
        // How far to trust it: dtsim's errors on the published runs most like this one.
        const ErrorBand band = errorBand(loadResiduals(d.paths.residualsFile()), traitsOf(s));
        if (p.isSet("json")) {
            QJsonObject o = reportToJson(s, r);
            o["bands"] = bandsToJson(r, band);
            printJson(QJsonDocument(o));
        } else {
            QTextStream(stdout) << QString::fromStdString(reportToText(s, r) + bandsToText(r, band));
        }
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

int runPresets(const QStringList& args)
{
    QCommandLineParser p;
    p.addOption({ "json", "Print the list as JSON." });
    if (!parseCommand(p, "presets", args, 0))
        return kExitBadInput;
    try {
        const EngineData d = loadEngineData(p);
        QDir dir(QString::fromStdString(d.paths.presetsDir()));
        QJsonArray list;
        QString text;
        for (const QString& f : dir.entryList({ "*.yaml" }, QDir::Files, QDir::Name)) {
            const Scenario s = loadScenarioFile(dir.filePath(f).toStdString(), d.catalog, {}, d.topologies);
            const QString name = QFileInfo(f).completeBaseName();
            list.append(QJsonObject { { "name", name }, { "title", QString::fromStdString(s.name) },
                { "description", QString::fromStdString(s.description) }, { "gpu", QString::fromStdString(s.hardware.id) },
                { "gpus", s.cluster.gpus } });
            text += QString("%1  %2\n").arg(name, -22).arg(QString::fromStdString(s.name));
        }
        if (p.isSet("json"))
            printJson(QJsonDocument(list));
        else
            QTextStream(stdout) << text;
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

int runHardware(const QStringList& args)
{
    QCommandLineParser p;
    p.addOption({ "json", "Print the catalogue as JSON." });
    if (!parseCommand(p, "hardware", args, 0))
        return kExitBadInput;
    try {
        const EngineData d = loadEngineData(p);
        QJsonArray list;
        QString text = QString("%1 %2 %3 %4 %5 %6\n")
                           .arg("id", -12).arg("year", -5).arg("bf16/fp16", -14).arg("memory", -10)
                           .arg("HBM", -11).arg("name");
        for (const HardwareSpec& h : d.catalog) {
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
                        .arg(QString::fromStdString(formatMemory(h.memoryBytes)), -10)
                        .arg(QString::fromStdString(formatRate(h.memoryBandwidth)), -11)
                        .arg(QString::fromStdString(h.name));
        }
        if (p.isSet("json"))
            printJson(QJsonDocument(list));
        else
            QTextStream(stdout) << text;
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
