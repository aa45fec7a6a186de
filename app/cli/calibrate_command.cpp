// dtsim-cli calibrate: what a measurement says. A PyTorch profiler trace is read into GPU
// time per kernel category, collectives, overlap and idle time, per profiler step, and
// with --scenario fitted into kernel speeds for that scenario.
#include "cli_common.h"
#include "commands.h"

#include "simcore/io/atomic_file.h"
#include "simcore/loader/calibration_overlay_loader.h"
#include "simcore/loader/read_file.h"
#include "simcore/loader/scenario_loader.h"
#include "simcore/step.h"
#include "simcore/measure/compute_fit.h"
#include "simcore/measure/measurement_text.h"
#include "simcore/measure/nccl_default.h"
#include "simcore/measure/nccl_tests.h"
#include "simcore/measure/profile_summary.h"
#include "simcore/measure/trace_fit.h"
#include "simcore/units.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace dtsim::cli {

namespace {

QJsonObject timesJson(const GpuTimes& g)
{
    return QJsonObject { { "span_s", g.span }, { "busy_s", g.busy }, { "idle_s", g.idle() }, { "compute_s", g.compute },
        { "communication_s", g.communication }, { "overlapped_s", g.overlapped },
        { "communication_hidden", g.hiddenCommunication() } };
}

QJsonObject profileJson(const KinetoTrace& t, const ProfileSummary& s)
{
    auto categoriesJson = [](const CategoryTimes& times) {
        QJsonObject categories;
        for (int c = 0; c < kKernelCategoryCount; ++c) {
            const CategoryTime& t = times[std::size_t(c)];
            QJsonObject o { { "gpu_s", t.seconds }, { "count", double(t.count) }, { "ops", double(t.ops) },
                { "input_bytes", t.inputBytes }, { "op_gpu_s", t.opSeconds } };
            if (t.flops > 0) {
                o.insert("flops", t.flops);
                o.insert("flops_per_s", t.rate());
            }
            categories.insert(kernelCategoryName(KernelCategory(c)), o);
        }
        return categories;
    };
    const QJsonObject categories = categoriesJson(s.categories);
    QJsonObject collectives;
    for (const CollectiveStats& k : s.collectives)
        collectives.insert(QString::fromStdString(k.type), QJsonObject { { "count", double(k.count) }, { "gpu_s", k.seconds },
                                                               { "bytes", k.bytes }, { "sized", double(k.sized) } });
    QJsonArray steps;
    for (const StepFigures& f : s.steps) {
        QJsonObject j = timesJson(f.gpu);
        j.insert("name", QString::fromStdString(f.name));
        j.insert("cpu_s", f.cpuSeconds);
        j.insert("activities", double(f.activities));
        j.insert("categories", categoriesJson(f.categories));
        steps.append(j);
    }
    return QJsonObject { { "file", QString::fromStdString(t.file) }, { "events", double(t.events) },
        { "device", QJsonObject { { "name", QString::fromStdString(t.deviceName) }, { "memory_bytes", t.deviceMemoryBytes },
                        { "compute_capability", QString("%1.%2").arg(t.computeMajor).arg(t.computeMinor) }, { "index", s.device } } },
        { "rank", t.rank }, { "world_size", t.worldSize }, { "backend", QString::fromStdString(t.backend) },
        { "gpu_activities", double(s.activities) }, { "categories", categories }, { "collectives", collectives },
        { "whole_trace", timesJson(s.whole) }, { "step_count", int(s.steps.size()) }, { "steps", steps } };
}

QString seconds(double s) { return QString::fromStdString(formatSeconds(s)); }

QJsonObject ncclJson(const NcclTestsLog& log, const NcclFit& fit, const std::vector<double>& defaults)
{
    QJsonArray segments, sizes;
    for (const BandwidthSegment& g : fit.segments)
        segments.append(QJsonObject { { "from_bytes", g.fromBytes }, { "to_bytes", g.toBytes }, { "latency_s", g.latency },
            { "bus_bandwidth_bytes_per_s", std::isfinite(g.busBandwidth) ? QJsonValue(g.busBandwidth) : QJsonValue() }, { "max_error", g.maxError } });
    for (std::size_t i = 0; i < log.rows.size(); ++i) {
        const NcclTestsRow& r = log.rows[i];
        const double fitted = fit.busBandwidthAt(r.bytes, log.factor);
        QJsonObject row { { "bytes", r.bytes }, { "line", r.line }, { "time_s", r.seconds },
            { "bus_bandwidth_measured", r.busBandwidth }, { "bus_bandwidth_fitted", fitted }, { "error", fitted / r.busBandwidth - 1 } };
        if (i < defaults.size()) {
            row.insert("bus_bandwidth_default", defaults[i]);
            row.insert("default_error", defaults[i] / r.busBandwidth - 1);
        }
        sizes.append(row);
    }
    return QJsonObject { { "file", QString::fromStdString(log.file) }, { "collective", QString::fromStdString(log.collective) },
        { "ranks", log.ranks }, { "bus_factor", log.factor }, { "segments", segments }, { "max_error", fit.maxError }, { "sizes", sizes } };
}

// The overlay at `path` if one is there (calibrate adds to it: one log a tier, a step),
// else a new one.
CalibrationOverlay existingOverlay(const std::string& path)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return {};
    return loadCalibrationOverlay(path);
}

// Where -o goes, checked before any work: a FIFO, a device or a folder is bad input.
void checkOutput(const QCommandLineParser& p)
{
    if (!p.isSet("output"))
        return;
    if (const std::string why = unwritableTarget(p.value("output").toStdString()); !why.empty())
        throw InputError("-o", 0, "", why);
}

// An overlay that could not be written (a full disk) is a failed output: exit 1, the
// system's reason, and the old file as it was.
int writeOverlay(const std::string& path, const CalibrationOverlay& o)
{
    std::string error;
    if (!writeFileAtomically(path, calibrationOverlayText(o), &error)) {
        std::fprintf(stderr, "dtsim-cli calibrate: -o %s: %s (nothing was written)\n", path.c_str(), error.c_str());
        return kExitInternal;
    }
    std::fprintf(stderr, "wrote %s; a scenario uses it with  calibration: %s\n", path.c_str(), path.c_str());
    return kExitOk;
}

int runNcclTests(const QCommandLineParser& p)
{
    const std::string path = p.value("nccl-tests").toStdString();
    const QString collective = p.value("collective");
    if (!collective.isEmpty() && !QStringList { "allreduce", "allgather", "reducescatter", "alltoall", "sendrecv" }.contains(collective))
        throw InputError("--collective", 0, "", "\"" + collective.toStdString() + "\" is not one of: allreduce, allgather, reducescatter, alltoall, sendrecv");
    const NcclTestsLog log = parseNcclTestsLog(path, readTextFile(path, "nccl-tests log"), collective.toStdString());
    const NcclFit fit = fitNcclTests(log);
    const QString tier = p.value("tier");
    if ((p.isSet("output") || p.isSet("scenario")) && tier != "scale_up" && tier != "scale_out")
        throw InputError("--tier", 0, "", "say which tier the log measured: --tier scale_up (inside a server or NVLink domain) or "
                                          "--tier scale_out (across them)");
    // Beside the measurement, what the shipped calibration assumes for it on a scenario's links.
    std::vector<double> defaults;
    if (p.isSet("scenario")) {
        const EngineData d = loadEngineData(p);
        const Scenario s = loadScenarioFile(resolveScenarioPath(p.value("scenario"), d.paths), d.catalog, {}, d.topologies);
        defaults = defaultBusBandwidths(log, tier == "scale_up" ? MeasuredTier::ScaleUp : MeasuredTier::ScaleOut, s, d.calibration);
    }
    if (p.isSet("json")) {
        printJson(QJsonDocument(ncclJson(log, fit, defaults)));
    } else {
        QTextStream out(stdout);
        out << QString::fromStdString(ncclTestsText(log, fit));
        if (!defaults.empty()) {
            out << QString("\nAgainst the shipped calibration on %1's links (%2)\n%3 %4 %5 %6\n").arg(p.value("scenario"), tier)
                       .arg("size", 12).arg("measured", 12).arg("dtsim default", 14).arg("default off", 12);
            for (std::size_t i = 0; i < log.rows.size(); ++i)
                out << QString("%1 %2 %3 %4%\n").arg(QString::fromStdString(formatBytes(log.rows[i].bytes)), 12)
                           .arg(QString::fromStdString(formatRate(log.rows[i].busBandwidth)), 12)
                           .arg(QString::fromStdString(formatRate(defaults[i])), 14)
                           .arg(100 * (defaults[i] / log.rows[i].busBandwidth - 1), 11, 'f', 1);
        }
    }
    if (!p.isSet("output"))
        return kExitOk;
    const std::string output = p.value("output").toStdString();
    CalibrationOverlay o = existingOverlay(output);
    o.put(measuredCollective(log, fit, tier == "scale_up" ? MeasuredTier::ScaleUp : MeasuredTier::ScaleOut));
    return writeOverlay(output, o);
}

int runMeasuredStep(const QCommandLineParser& p)
{
    const EngineData d = loadEngineData(p);
    Scenario s = loadScenarioArgument(p, d);
    // A step time, or a throughput turned into one (the scenario's tokens a step).
    double measured = 0;
    if (p.isSet("measured-step")) {
        const QuantityParse q = parseQuantity(p.value("measured-step").toStdString(), Dimension::Seconds);
        if (!q.value || *q.value <= 0)
            throw InputError("--measured-step", 0, "", q.error.empty() ? "must be a positive time, such as 1.23 s" : q.error);
        measured = *q.value;
    } else {
        const QuantityParse q = parseQuantity(p.value("measured-tokens-per-s").toStdString(), Dimension::Count);
        if (!q.value || *q.value <= 0)
            throw InputError("--measured-tokens-per-s", 0, "", q.error.empty() ? "must be a positive throughput of the whole run, such as 1.2M" : q.error);
        measured = stepFromThroughput(s, d.calibration, *q.value);
    }
    const double before = predictStep(s, d.calibration).stepTime;
    const ComputeFit fit = fitComputeScale(s, d.calibration, measured);
    if (!fit.reached && fit.tooFast())
        throw InputError(p.isSet("measured-step") ? "--measured-step" : "--measured-tokens-per-s", 0, "",
            QString("%1 is faster than %2 GPUs can run this scenario: even with every kernel at the GPU's peak (compute x%3 of the "
                    "model's) the step takes %4; check that the scenario is the run you measured")
                .arg(seconds(measured)).arg(s.plan.gpus()).arg(fit.maxScale, 0, 'f', 2).arg(seconds(fit.fittedStep)).toStdString());
    if (!fit.reached)
        throw InputError(p.isSet("measured-step") ? "--measured-step" : "--measured-tokens-per-s", 0, "",
            QString("no compute speed between x%1 and x%2 of the model's gives %3 (the nearest gives %4): check that the scenario is "
                    "the run you measured").arg(kMinComputeScale, 0, 'f', 1).arg(fit.maxScale, 0, 'f', 2)
                .arg(seconds(measured), seconds(fit.fittedStep)).toStdString());
    const double scale = fit.scale, after = fit.fittedStep;
    const double base = s.calibration.computeScale; // an overlay the scenario already names
    if (p.isSet("json")) {
        printJson(QJsonDocument(QJsonObject { { "scenario", QString::fromStdString(s.name) }, { "measured_step_s", measured },
            { "predicted_step_s", before }, { "compute_scale", scale }, { "compute_scale_before", base },
            { "fitted_step_s", after }, { "residual", after / measured - 1 } }));
    } else {
        QTextStream out(stdout);
        out << QString("%1\n  measured step %2, predicted %3 (%4%)\n  compute speed x%5 of the model's (was x%6): the step then takes %7 "
                       "(%8% off)\n")
                   .arg(QString::fromStdString(s.name), seconds(measured), seconds(before)).arg(100 * (before / measured - 1), 0, 'f', 1)
                   .arg(scale, 0, 'f', 3).arg(base, 0, 'f', 3).arg(seconds(after)).arg(100 * (after / measured - 1), 0, 'f', 2);
    }
    if (p.isSet("output")) {
        const std::string output = p.value("output").toStdString();
        CalibrationOverlay o = existingOverlay(output);
        o.computeScale = scale;
        o.computeSource = "fit to a measured step of " + seconds(measured).toStdString() + " on scenario \"" + s.name + "\" ("
            + std::to_string(s.plan.gpus()) + " x " + s.hardware.id + "); predicted " + seconds(before).toStdString() + " before";
        return writeOverlay(output, o);
    }
    return kExitOk;
}

QJsonObject kindsJson(const KernelKinds& k)
{
    return QJsonObject { { "gemm_s", k.gemm }, { "attention_s", k.attention }, { "stream_s", k.stream }, { "optimizer_s", k.optimizer } };
}

// calibrate TRACE --scenario FILE: the trace's kernel speeds as an overlay for the scenario.
int runTraceFit(const QCommandLineParser& p)
{
    const EngineData d = loadEngineData(p);
    const Scenario s = loadScenarioNamed(p.value("scenario"), p, d);
    const KinetoTrace t = readKinetoTrace(p.positionalArguments().front().toStdString());
    const ProfileSummary summary = summarizeProfile(t);
    TraceFit fit;
    try {
        fit = fitTrace(s, d.calibration, summary);
    } catch (const InputError& e) {
        if (e.where() != "TRACE")
            throw;
        throw InputError(t.file, 0, e.field(), e.reason()); // the trace's own name
    }
    // A trace of another GPU fits speeds that mean nothing for this one.
    if (t.deviceMemoryBytes > 0 && std::abs(t.deviceMemoryBytes / s.hardware.memoryBytes - 1) > 0.1)
        std::fprintf(stderr, "note: the trace's GPU (%s, %s) is not the scenario's %s (%s)\n", t.deviceName.c_str(),
            formatMemory(t.deviceMemoryBytes).c_str(), s.hardware.name.c_str(), formatMemory(s.hardware.memoryBytes).c_str());
    const MeasuredKernels& k = fit.kernels;
    if (p.isSet("json")) {
        QJsonObject fitted = kindsJson(fit.fitted);
        fitted.insert("step_s", fit.fittedStep);
        QJsonObject measured = kindsJson(fit.measured);
        measured.insert("step_s", fit.measuredStep);
        measured.insert("busy_s", fit.measuredBusy);
        QJsonObject predicted = kindsJson(fit.predicted);
        predicted.insert("step_s", fit.predictedStep);
        printJson(QJsonDocument(QJsonObject { { "scenario", QString::fromStdString(s.name) }, { "steps", fit.steps },
            { "measured", measured }, { "predicted", predicted }, { "fitted", fitted }, { "converged", fit.converged() },
            { "gemm_scale", k.gemmScale }, { "attention_scale", k.attentionScale }, { "memory_scale", k.memoryScale },
            { "step_overhead_s", k.stepOverhead }, { "residual", fit.residual() } }));
    } else {
        QTextStream out(stdout);
        out << QString("%1 against %2 (median of %3 steps)\n").arg(QString::fromStdString(s.name), QString::fromStdString(t.file)).arg(fit.steps);
        out << QString("%1 %2 %3 %4 %5\n").arg("", -12).arg("traced", 10).arg("predicted", 10).arg("fitted", 10).arg("speed", 8);
        auto row = [&](const char* name, double measured, double predicted, double fitted, double scale) {
            out << QString("%1 %2 %3 %4 %5\n").arg(name, -12).arg(seconds(measured), 10).arg(seconds(predicted), 10).arg(seconds(fitted), 10)
                       .arg(scale > 0 ? QString("x%1").arg(scale, 0, 'f', 3) : QString(), 8);
        };
        row("GEMM", fit.measured.gemm, fit.predicted.gemm, fit.fitted.gemm, k.gemmScale);
        row("attention", fit.measured.attention, fit.predicted.attention, fit.fitted.attention, k.attentionScale);
        row("memory-bound", fit.measured.stream, fit.predicted.stream, fit.fitted.stream, k.memoryScale);
        row("optimizer", fit.measured.optimizer, fit.predicted.optimizer, fit.fitted.optimizer, 0);
        row("step", fit.measuredStep, fit.predictedStep, fit.fittedStep, 0);
        out << QString("outside kernels %1 a step (GPU busy %2 of the traced %3); the fitted step is %4% off the traced one\n")
                   .arg(seconds(k.stepOverhead), seconds(fit.measuredBusy), seconds(fit.measuredStep))
                   .arg(100 * fit.residual(), 0, 'f', 2);
    }
    if (!fit.converged())
        throw InputError(t.file, 0, "", "the traced kernels cannot be reproduced with speeds within ten times the model's: is the "
                                         "trace of this scenario (its model, batch and sequence) on this GPU?");
    if (!p.isSet("output"))
        return kExitOk;
    const std::string output = p.value("output").toStdString();
    CalibrationOverlay o = existingOverlay(output);
    o.kernels = k;
    o.kernels.source = "fit to " + std::to_string(fit.steps) + " steps of " + t.file + " (" + t.deviceName + ") on scenario \""
        + s.name + "\": step " + seconds(fit.measuredStep).toStdString() + " traced, " + seconds(fit.predictedStep).toStdString()
        + " predicted before";
    return writeOverlay(output, o);
}

} // namespace

int runCalibrate(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("INPUT", "A PyTorch profiler trace (Chrome trace JSON, plain or .gz), or with --measured-step a scenario.");
    p.addOption({ "nccl-tests", "Fit latency and bus bandwidth to an nccl-tests log (all_reduce_perf, ...).", "LOG" });
    p.addOption({ "collective", "With --nccl-tests: the collective, when neither the log nor its name says "
                                "(allreduce, allgather, reducescatter, alltoall, sendrecv).", "NAME" });
    p.addOption({ "tier", "With --nccl-tests -o or --scenario: the network tier the log measured (scale_up or scale_out).", "TIER" });
    p.addOption({ "scenario", "With a trace: fit its kernel speeds to the scenario it ran (with -o, into an overlay). With "
                              "--nccl-tests: compare with what the shipped calibration assumes on this scenario's links.", "FILE" });
    p.addOption({ "measured-step", "Fit the compute speed of scenario INPUT to a step time you measured (such as 1.23 s).", "TIME" });
    p.addOption({ "measured-tokens-per-s", "The same from the whole run's tokens/s instead of a step time.", "N" });
    p.addOption({ "set", "With --measured-step or a trace's --scenario: override a scenario field (repeatable).", "path=value" });
    p.addOption({ { "o", "output" }, "Write (or add to) a calibration overlay file a scenario can name (calibration: FILE).", "FILE" });
    p.addOption({ "json", "Print JSON." });
    const bool nccl = std::any_of(args.begin(), args.end(), [](const QString& a) { return a.startsWith("--nccl-tests"); });
    if (!parseCommand(p, "calibrate", args, nccl ? 0 : 1))
        return kExitBadInput;
    try {
        checkOutput(p);
        if (p.isSet("measured-step") && p.isSet("measured-tokens-per-s"))
            throw InputError("--measured-tokens-per-s", 0, "", "give a measured step or a measured throughput, not both");
        if (nccl && (p.isSet("measured-step") || p.isSet("measured-tokens-per-s")))
            throw InputError("--nccl-tests", 0, "", "fits a network log; a measured step is fitted by its own call");
        if (nccl)
            return runNcclTests(p);
        if (p.isSet("measured-step") || p.isSet("measured-tokens-per-s"))
            return runMeasuredStep(p);
        if (p.isSet("scenario"))
            return runTraceFit(p);
        if (p.isSet("output"))
            throw InputError("-o", 0, "", "a profiler trace is fitted to the scenario it ran: add --scenario FILE");
        const KinetoTrace t = readKinetoTrace(p.positionalArguments().front().toStdString());
        const ProfileSummary s = summarizeProfile(t);
        if (p.isSet("json")) {
            printJson(QJsonDocument(profileJson(t, s)));
        } else {
            QTextStream(stdout) << QString::fromStdString(profileText(t, s));
        }
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
