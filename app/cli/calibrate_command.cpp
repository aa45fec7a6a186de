// dtsim-cli calibrate: what a measurement says. A PyTorch profiler trace is read into GPU
// time per kernel category, collectives, overlap and idle time, per profiler step.
#include "cli_common.h"
#include "commands.h"

#include "simcore/measure/profile_summary.h"
#include "simcore/units.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTextStream>

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

} // namespace

int runCalibrate(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("TRACE", "A PyTorch profiler trace (Chrome trace JSON, plain or .gz).");
    p.addOption({ "json", "Print JSON." });
    if (!parseCommand(p, "calibrate", args, 1))
        return kExitBadInput;
    try {
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
