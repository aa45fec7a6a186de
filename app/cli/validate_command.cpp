// dtsim-cli validate: the engine against a published-runs file.
#include "commands.h"
#include "simcore/planner/sync_wall.h"
#include "cli_common.h"

#include "simcore/input_error.h"
#include "simcore/loader/calibration_loader.h"
#include "simcore/loader/hardware_loader.h"
#include "simcore/loader/published_runs_loader.h"
#include "report_table.h"
#include "simcore/step.h"
#include "simcore/validation/reported_throughput.h"
#include "simcore/validation/run_to_scenario.h"
#include "simcore/validation/extrapolation.h"
#include "simcore/validation/validation.h"
#include "simcore/study/error_band.h"

#include <algorithm>
#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <cstdio>

namespace dtsim::cli {

namespace {

QJsonObject statsJson(const ErrorStats& s)
{
    return { { "count", s.count }, { "median_abs_rel_error", s.median }, { "p90_abs_rel_error", s.p90 },
        { "max_abs_rel_error", s.max } };
}

QJsonObject bySourceJson(const std::map<std::string, ErrorStats>& good, const std::map<std::string, ErrorStats>& all)
{
    QJsonObject o;
    for (const auto& [source, stats] : all) {
        auto g = good.find(source);
        o.insert(QString::fromStdString(source),
            QJsonObject { { "good", statsJson(g != good.end() ? g->second : ErrorStats {}) }, { "all", statsJson(stats) } });
    }
    return o;
}

QString statsLine(const char* label, const ErrorStats& s)
{
    return QString("  %1 %2 runs   median %3%   p90 %4%   max %5%\n")
        .arg(label, -22)
        .arg(s.count, 4)
        .arg(100 * s.median, 5, 'f', 1)
        .arg(100 * s.p90, 5, 'f', 1)
        .arg(100 * s.max, 6, 'f', 1);
}

int printExtrapolation(const ExtrapolationResult& x, bool json)
{
    if (json) {
        QJsonArray groups;
        for (const ExtrapolationGroup& g : x.groups) {
            QJsonArray runs;
            for (const ExtrapolatedRun& r : g.runs)
                runs.append(QJsonObject { { "id", QString::fromStdString(r.id) }, { "gpus", r.gpus }, { "error_before", r.errorBefore },
                    { "error_after", r.errorAfter } });
            groups.append(QJsonObject { { "key", QString::fromStdString(g.key) }, { "fitted_on", QString::fromStdString(g.fittedOn) },
                { "fitted_gpus", g.fittedGpus }, { "compute_scale", g.computeScale }, { "runs", runs } });
        }
        QJsonArray notFitted;
        for (const std::string& k : x.notFitted)
            notFitted.append(QString::fromStdString(k));
        printJson(QJsonDocument(QJsonObject { { "groups", groups }, { "not_fitted", notFitted }, { "before", statsJson(x.before) },
            { "after", statsJson(x.after) } }));
        return kExitOk;
    }
    QTextStream out(stdout);
    out << "Calibrate on each model-and-stack's smallest run, predict its larger ones\n\n";
    for (const ExtrapolationGroup& g : x.groups) {
        out << QString::fromStdString(g.key) << "\n  fitted on " << QString::fromStdString(g.fittedOn) << " (" << g.fittedGpus
            << " GPUs): compute x" << QString::number(g.computeScale, 'f', 3) << "\n";
        for (const ExtrapolatedRun& r : g.runs)
            out << QString("    %1 %2 GPUs   error %3% -> %4%\n").arg(QString::fromStdString(r.id), -52).arg(r.gpus, 6)
                       .arg(100 * r.errorBefore, 6, 'f', 1).arg(100 * r.errorAfter, 6, 'f', 1);
    }
    for (const std::string& k : x.notFitted)
        out << QString::fromStdString(k) << "\n  not fitted: no compute speed within x0.1-x10 reproduces its smallest run\n";
    out << QString("\n|error| over %1 extrapolated runs: median %2% -> %3%, p90 %4% -> %5%, max %6% -> %7%\n")
               .arg(x.after.count).arg(100 * x.before.median, 0, 'f', 1).arg(100 * x.after.median, 0, 'f', 1)
               .arg(100 * x.before.p90, 0, 'f', 1).arg(100 * x.after.p90, 0, 'f', 1)
               .arg(100 * x.before.max, 0, 'f', 1).arg(100 * x.after.max, 0, 'f', 1);
    return kExitOk;
}

} // namespace

int runValidate(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "A published-runs YAML file (schema: tests/validation/README.md).");
    p.addOption({ "json", "Print the comparison as JSON." });
    p.addOption({ "explain", "Print the scenario dtsim built for run ID and its full report.", "ID" });
    p.addOption({ "extrapolate", "Calibrate, then extrapolate: fit the compute speed to each model-and-stack's smallest run "
                                 "and predict its larger runs (docs/calibration.md)." });
    if (!parseCommand(p, "validate", args, 1))
        return kExitBadInput;
    try {
        const EngineData data = loadEngineData(p);
        const auto& catalog = data.catalog;
        const Calibration& calibration = data.calibration;
        const auto runs = loadPublishedRuns(p.positionalArguments().first().toStdString());
        if (p.isSet("explain")) {
            for (const RunRecord& r : runs) {
                if (r.id != p.value("explain").toStdString())
                    continue;
                auto built = scenarioFromRun(r, catalog, calibration);
                if (auto* skip = std::get_if<SkippedRun>(&built)) {
                    QTextStream(stdout) << "skipped: " << QString::fromStdString(skip->reason) << "\n";
                    return kExitOk;
                }
                const Scenario& s = std::get<Scenario>(built);
                const ReportedThroughput measured = reportedThroughput(r, s);
                QTextStream(stdout) << QString::fromStdString(reportToText(s, predictRunWithSyncWall(s, calibration)))
                                    << "\nreported: " << measured.tokensPerSecondPerGpu.value_or(0)
                                    << " " << unitOfWork(s.model) << "s/s per GPU (from " << QString::fromStdString(measured.basis) << ")\n";
                return kExitOk;
            }
            throw InputError(p.positionalArguments().first().toStdString(), 0, "--explain", "no run with that id");
        }
        if (p.isSet("extrapolate"))
            return printExtrapolation(extrapolationCheck(runs, catalog, calibration), p.isSet("json"));
        const ValidationResult v = validateRuns(runs, catalog, calibration);

        QTextStream out(stdout);
        if (p.isSet("json")) {
            QJsonArray rows;
            for (const ValidationRow& r : v.rows) {
                QJsonObject o { { "id", QString::fromStdString(r.id) }, { "quality", QString::fromStdString(r.quality) },
                    { "source", QString::fromStdString(r.source) }, { "skipped", r.skipped } };
                if (r.skipped) {
                    o.insert("skip_reason", QString::fromStdString(r.skipReason));
                    o.insert("reported_tokens_per_s_per_gpu", QJsonValue::Null);
                    o.insert("predicted_tokens_per_s_per_gpu", QJsonValue::Null);
                    o.insert("rel_error", QJsonValue::Null);
                } else {
                    o.insert("reported_tokens_per_s_per_gpu", r.reported);
                    o.insert("predicted_tokens_per_s_per_gpu", r.predicted);
                    o.insert("rel_error", r.relError);
                    o.insert("reported_basis", QString::fromStdString(r.basis));
                    o.insert("predicted_mfu", r.predictedMfu);
                    o.insert("predicted_fits_in_memory", r.predictedFits);
                    o.insert("predicted_memory_gib", r.predictedMemoryGib);
                    o.insert("reported_memory_gib", r.reportedMemoryGib ? QJsonValue(*r.reportedMemoryGib) : QJsonValue());
                    o.insert("memory_rel_error", r.reportedMemoryGib ? QJsonValue(r.memoryRelError) : QJsonValue());
                    o.insert("moe", r.moe);
                    o.insert("blackwell", r.blackwell);
                    o.insert("generation", QString::fromStdString(r.generation));
                    o.insert("gpus", double(r.gpus));
                    o.insert("low_precision", r.lowPrecision);
                }
                rows.append(o);
            }
            // The error bands' leave-one-out check over the good rows (docs/advice.md).
            const std::vector<Residual> residuals = residualsOf(v);
            const BandCoverage coverage = leaveOneOutCoverage(residuals);
            const QJsonObject doc { { "runs", rows }, { "good", statsJson(v.good) }, { "all", statsJson(v.all) },
                { "band_coverage", QJsonObject { { "rows", coverage.banded }, { "inside", coverage.inside }, { "share", coverage.share() },
                                       { "good_rows", int(residuals.size()) } } },
                { "per_source", bySourceJson(v.goodBySource, v.allBySource) }, { "good_moe", statsJson(v.goodMoe) },
                { "good_blackwell", statsJson(v.goodBlackwell) }, { "memory", statsJson(v.memory) },
                { "good_out_of_memory", v.goodOutOfMemory } };
            printJson(QJsonDocument(doc));
            return kExitOk;
        }

        out << QString("%1 %2 %3 %4 %5   %6\n").arg("id", -52).arg("quality", -15).arg("reported", 10).arg("predicted", 10).arg("error", 8)
                   .arg("memory GiB: predicted (reported, error)");
        QString skipped;
        for (const ValidationRow& r : v.rows) {
            if (r.skipped) {
                skipped += QString("  %1 %2\n").arg(QString::fromStdString(r.id), -52).arg(QString::fromStdString(r.skipReason));
                continue;
            }
            const QString memory = r.reportedMemoryGib
                ? QString("%1 (%2, %3%)").arg(r.predictedMemoryGib, 0, 'f', 1).arg(*r.reportedMemoryGib, 0, 'f', 1).arg(100 * r.memoryRelError, 0, 'f', 1)
                : QString::number(r.predictedMemoryGib, 'f', 1);
            out << QString("%1 %2 %3 %4 %5%   %6%7\n")
                       .arg(QString::fromStdString(r.id), -52)
                       .arg(QString::fromStdString(r.quality).left(15), -15)
                       .arg(r.reported, 10, 'f', 1)
                       .arg(r.predicted, 10, 'f', 1)
                       .arg(100 * r.relError, 7, 'f', 1)
                       .arg(memory)
                       .arg(r.predictedFits ? "" : "  (predicted out of memory)");
        }
        // Layer-table rows count samples (images, sequences), transformer rows tokens.
        const bool tables = std::all_of(runs.begin(), runs.end(), [](const RunRecord& r) { return !r.layerTable.empty(); });
        out << "\nAbsolute relative error of " << (tables ? "samples" : "tokens") << "/s per GPU\n";
        out << statsLine("good rows", v.good);
        out << statsLine("all rows", v.all);
        out << statsLine("good MoE rows", v.goodMoe);
        out << statsLine("good Blackwell rows", v.goodBlackwell);
        out << "\nAbsolute relative error of peak memory per GPU, rows that state it\n";
        out << statsLine("memory", v.memory);
        out << QString("good rows predicted out of memory: %1\n").arg(v.goodOutOfMemory);
        out << "\nPer source (good rows | all rows)\n";
        for (const auto& [source, all] : v.allBySource) {
            auto g = v.goodBySource.find(source);
            const ErrorStats good = g != v.goodBySource.end() ? g->second : ErrorStats {};
            out << QString("  %1 good %2 median %3% p90 %4% | all %5 median %6% p90 %7%\n")
                       .arg(QString::fromStdString(source), -12)
                       .arg(good.count, 3)
                       .arg(100 * good.median, 5, 'f', 1)
                       .arg(100 * good.p90, 5, 'f', 1)
                       .arg(all.count, 3)
                       .arg(100 * all.median, 5, 'f', 1)
                       .arg(100 * all.p90, 5, 'f', 1);
        }
        if (!skipped.isEmpty())
            out << "\nSkipped\n" << skipped;
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
