// dtsim-cli calibrate: what a measurement says. A PyTorch profiler trace is read into GPU
// time per kernel category, collectives, overlap and idle time, per profiler step.
#include "cli_common.h"
#include "commands.h"

#include "simcore/loader/read_file.h"
#include "simcore/measure/nccl_tests.h"
#include "simcore/measure/profile_summary.h"
#include "simcore/units.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTextStream>

#include <algorithm>
#include <cmath>

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
    QJsonObject categories;
    for (int c = 0; c < kKernelCategoryCount; ++c)
        categories.insert(kernelCategoryName(KernelCategory(c)),
            QJsonObject { { "gpu_s", s.categories[c].seconds }, { "count", double(s.categories[c].count) } });
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

void printProfile(QTextStream& out, const KinetoTrace& t, const ProfileSummary& s)
{
    out << QString("%1: %2 events, %3 GPU activities on device %4 (%5)\n")
               .arg(QString::fromStdString(t.file)).arg(t.events).arg(s.activities).arg(s.device)
               .arg(t.deviceName.empty() ? QString("device not named in the trace") : QString::fromStdString(t.deviceName));
    if (t.worldSize > 0)
        out << QString("rank %1 of %2 (%3)\n").arg(t.rank).arg(t.worldSize).arg(QString::fromStdString(t.backend));
    out << "\nGPU time by kernel category (summed durations)\n";
    for (int c = 0; c < kKernelCategoryCount; ++c)
        if (s.categories[c].count > 0)
            out << QString("  %1 %2 %3 x\n").arg(kernelCategoryName(KernelCategory(c)), -18)
                       .arg(seconds(s.categories[c].seconds), 10).arg(s.categories[c].count, 7);
    if (!s.collectives.empty()) {
        out << "\nCollectives\n";
        for (const CollectiveStats& k : s.collectives)
            out << QString("  %1 %2 x, %3, %4\n").arg(QString::fromStdString(k.type), -14).arg(k.count, 5).arg(seconds(k.seconds))
                       .arg(k.sized > 0 ? QString::fromStdString(formatBytes(k.bytes)) + QString(" in %1 sized").arg(k.sized)
                                        : QString("sizes not recorded"));
    }
    auto times = [&](const QString& what, const GpuTimes& g) {
        out << QString("  %1 span %2, busy %3 (%4%), idle %5; compute %6, communication %7, %8% of it under compute\n")
                   .arg(what, -18).arg(seconds(g.span), seconds(g.busy)).arg(g.span > 0 ? 100 * g.busy / g.span : 0, 0, 'f', 1)
                   .arg(seconds(g.idle()), seconds(g.compute), seconds(g.communication)).arg(100 * g.hiddenCommunication(), 0, 'f', 1);
    };
    out << "\nGPU time (unions of intervals: concurrent streams count once)\n";
    times("whole trace", s.whole);
    for (const StepFigures& f : s.steps)
        times(QString::fromStdString(f.name), f.gpu);
    if (s.steps.empty())
        out << "  (no ProfilerStep annotations: the trace was not taken with a profiler schedule)\n";
}

QJsonObject ncclJson(const NcclTestsLog& log, const NcclFit& fit)
{
    QJsonArray segments, sizes;
    for (const BandwidthSegment& g : fit.segments)
        segments.append(QJsonObject { { "from_bytes", g.fromBytes }, { "to_bytes", g.toBytes }, { "latency_s", g.latency },
            { "bus_bandwidth_bytes_per_s", std::isfinite(g.busBandwidth) ? QJsonValue(g.busBandwidth) : QJsonValue() }, { "max_error", g.maxError } });
    for (const NcclTestsRow& r : log.rows) {
        const double fitted = fit.busBandwidthAt(r.bytes, log.factor);
        sizes.append(QJsonObject { { "bytes", r.bytes }, { "line", r.line }, { "time_s", r.seconds },
            { "bus_bandwidth_measured", r.busBandwidth }, { "bus_bandwidth_fitted", fitted }, { "error", fitted / r.busBandwidth - 1 } });
    }
    return QJsonObject { { "file", QString::fromStdString(log.file) }, { "collective", QString::fromStdString(log.collective) },
        { "ranks", log.ranks }, { "bus_factor", log.factor }, { "segments", segments }, { "max_error", fit.maxError }, { "sizes", sizes } };
}

QString rate(double bytesPerSecond) { return QString::fromStdString(formatRate(bytesPerSecond)); }

void printNccl(QTextStream& out, const NcclTestsLog& log, const NcclFit& fit)
{
    out << QString("%1: %2 over %3 ranks, %4 sizes (bus factor %5)\n").arg(QString::fromStdString(log.file), QString::fromStdString(log.collective))
               .arg(log.ranks > 0 ? QString::number(log.ranks) : QString("?")).arg(log.rows.size()).arg(log.factor, 0, 'f', 3);
    out << "\nFitted t(S) = latency + factor S / bus bandwidth, one line per protocol regime\n";
    for (const BandwidthSegment& g : fit.segments)
        out << QString("  %1 - %2   latency %3   bus bandwidth %4   worst size %5%\n")
                   .arg(QString::fromStdString(formatBytes(g.fromBytes)), 9).arg(QString::fromStdString(formatBytes(g.toBytes)), -9)
                   .arg(seconds(g.latency), 8).arg(std::isfinite(g.busBandwidth) ? rate(g.busBandwidth) : QString("(latency-bound)"), 10).arg(100 * g.maxError, 0, 'f', 1);
    out << QString("\n%1 %2 %3 %4\n").arg("size", 12).arg("measured", 12).arg("fitted", 12).arg("error", 8);
    for (const NcclTestsRow& r : log.rows) {
        const double fitted = fit.busBandwidthAt(r.bytes, log.factor);
        out << QString("%1 %2 %3 %4%\n").arg(QString::fromStdString(formatBytes(r.bytes)), 12).arg(rate(r.busBandwidth), 12)
                   .arg(rate(fitted), 12).arg(100 * (fitted / r.busBandwidth - 1), 7, 'f', 1);
    }
    out << QString("\nworst size: %1% off the log's bus bandwidth\n").arg(100 * fit.maxError, 0, 'f', 1);
}

} // namespace

int runCalibrate(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("TRACE", "A PyTorch profiler trace (Chrome trace JSON, plain or .gz).");
    p.addOption({ "nccl-tests", "Fit latency and bus bandwidth to an nccl-tests log (all_reduce_perf, ...) instead.", "LOG" });
    p.addOption({ "collective", "With --nccl-tests: the collective, when neither the log nor its name says "
                                "(allreduce, allgather, reducescatter, alltoall, sendrecv).", "NAME" });
    p.addOption({ "json", "Print JSON." });
    const bool nccl = args.contains("--nccl-tests") || std::any_of(args.begin(), args.end(), [](const QString& a) { return a.startsWith("--nccl-tests="); });
    if (!parseCommand(p, "calibrate", args, nccl ? 0 : 1))
        return kExitBadInput;
    try {
        if (nccl) {
            const std::string path = p.value("nccl-tests").toStdString();
            const QString collective = p.value("collective");
            if (!collective.isEmpty() && !QStringList { "allreduce", "allgather", "reducescatter", "alltoall", "sendrecv" }.contains(collective))
                throw InputError("--collective", 0, "", "\"" + collective.toStdString() + "\" is not one of: allreduce, allgather, reducescatter, alltoall, sendrecv");
            const NcclTestsLog log = parseNcclTestsLog(path, readTextFile(path, "nccl-tests log"), collective.toStdString());
            const NcclFit fit = fitNcclTests(log);
            if (p.isSet("json")) {
                printJson(QJsonDocument(ncclJson(log, fit)));
            } else {
                QTextStream out(stdout);
                printNccl(out, log, fit);
            }
            return kExitOk;
        }
        const KinetoTrace t = readKinetoTrace(p.positionalArguments().front().toStdString());
        const ProfileSummary s = summarizeProfile(t);
        if (p.isSet("json")) {
            printJson(QJsonDocument(profileJson(t, s)));
        } else {
            QTextStream out(stdout);
            printProfile(out, t, s);
        }
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
