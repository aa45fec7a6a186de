// dtsim-cli frontier, scaling and bench: the planner's sweeps and the speed figures.
#include "commands.h"
#include "cli_common.h"
#include "simcore/sched/cluster_sim.h"
#include "report_table.h"

#include "simcore/input_error.h"
#include "simcore/loader/calibration_loader.h"
#include "simcore/loader/hardware_loader.h"
#include "simcore/loader/scenario_loader.h"
#include "simcore/planner/frontier.h"
#include "simcore/planner/scaling.h"
#include "simcore/planner/search.h"
#include "simcore/reliability/reliability.h"
#include "simcore/fields/scenario_fields.h"
#include "simcore/study/sweep.h"
#include "simcore/step.h"
#include "simcore/timeline/timeline.h"
#include "simcore/loader/anchors_loader.h"
#include "simcore/frameworks/config_document.h"
#include "simcore/measure/json_reader.h"
#include "simcore/measure/profile_summary.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>
#include "simcore/units.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <limits>

#include <chrono>
#include <cmath>
#include <cstdio>

namespace dtsim::cli {

namespace {

QString csvEscape(const QString& s) { return s.contains(',') ? "\"" + s + "\"" : s; }

// The frontier's options from the command line. Throws InputError.
FrontierOptions frontierOptions(const QCommandLineParser& p, const std::vector<HardwareSpec>& catalog)
{
    FrontierOptions o;
    const std::string gpu = p.value("gpu").toStdString();
    const HardwareSpec* hw = findHardware(catalog, gpu);
    if (!hw)
        throw InputError("--gpu", 0, "", gpu.empty() ? "is required (see dtsim-cli hardware)" : "unknown GPU \"" + gpu + "\"");
    o.hardware = *hw;
    if (p.isSet("network")) {
        const std::string netId = p.value("network").toStdString();
        const HardwareSpec* net = findHardware(catalog, netId);
        if (!net)
            throw InputError("--network", 0, "", "unknown GPU \"" + netId + "\"");
        o.network = *net;
    }
    o.months = numberOption(p, "months", 0.01, 1200, "a training duration in months");
    const QString family = p.value("model");
    if (family != "dense" && family != "moe")
        throw InputError("--model", 0, "", "\"" + family.toStdString() + "\" is not one of: dense, moe");
    o.moe = family == "moe";
    const QString mode = p.value("mode");
    if (mode != "realistic" && mode != "idealized")
        throw InputError("--mode", 0, "", "\"" + mode.toStdString() + "\" is not one of: realistic, idealized");
    o.mode = mode == "idealized" ? FrontierMode::Idealized : FrontierMode::Realistic;
    o.maxGpus = wholeOption(p, "max-gpus", 0, std::numeric_limits<int>::max(), "a GPU count (0 = no limit)");
    o.batch.coefficient = numberOption(p, "batch-coefficient", 1e-6, 1e12, "a batch-size coefficient");
    o.batch.exponent = numberOption(p, "batch-exponent", 1e-3, 1, "a batch-size exponent");
    o.points = int(wholeOption(p, "points", 2, 1000, "a number of points"));
    o.chargeCriticalBatch = p.isSet("critical-batch");
    return o;
}

// --explain: the full report of the frontier point nearest `want` FLOP, with its plan.
void printFrontierPointReport(QTextStream& out, const FrontierOptions& o, const Frontier& f, double want,
    const Calibration& calibration)
{
    const FrontierPoint* near = &f.points.front();
    for (const FrontierPoint& pt : f.points)
        if (std::abs(std::log(pt.flop / want)) < std::abs(std::log(near->flop / want)))
            near = &pt;
    if (!near->feasible) {
        out << QString("%1 FLOP: no plan finishes within %2 months\n").arg(near->flop, 0, 'e', 2).arg(o.months);
        return;
    }
    Scenario s = frontierScenario(o, near->flop, calibration);
    s.plan = near->plan;
    s.cluster.gpus = s.plan.gpus();
    s.name = "Frontier point " + QString::number(near->flop, 'e', 2).toStdString() + " FLOP";
    StepOptions so { o.mode == FrontierMode::Idealized };
    Report rep;
    rep.step = predictStep(s, calibration, so);
    rep.steps = trainingSteps(s, calibration);
    rep.timeToTrain = rep.steps * rep.step.stepTime;
    if (s.training.target == TrainingTarget::Loss)
        rep.convergence = convergencePlan(s, calibration);
    rep.gpuHours = rep.timeToTrain * double(s.plan.gpus()) / 3600.0;
    rep.theoreticalMinTime = rep.step.modelFlopsPerStep * rep.steps / (double(s.plan.gpus()) * rep.step.peakFlopsPerGpu);
    rep.syncWallGpus = s.plan.gpus();
    rep.syncWallTimeToTrain = rep.timeToTrain;
    out << QString::fromStdString(reportToText(s, rep));
}

// --json: every point, the summary figures and Epoch AI's readings. `p` gives the
// options as typed, which the JSON echoes.
void printFrontierJson(const QCommandLineParser& p, const FrontierOptions& o, const Frontier& f,
    const std::vector<FrontierAnchor>& anchors, double ms)
{
    QJsonArray pts;
    for (const FrontierPoint& pt : f.points) {
        QJsonObject j { { "flop", pt.flop }, { "feasible", pt.feasible } };
        if (pt.feasible) {
            j.insert("mfu", pt.mfu);
            j.insert("gpus", pt.gpus);
            j.insert("tp", pt.tp);
            j.insert("tp_2d", pt.tp2d);
            j.insert("pp", pt.pp);
            j.insert("dp", pt.dp);
            j.insert("ep", pt.ep);
            j.insert("step_time_s", pt.stepTime);
            j.insert("days", pt.days);
            j.insert("cost_usd", pt.costUsd);
        }
        j.insert("batch_tokens", pt.batchTokens);
        j.insert("parameters", pt.parameters);
        j.insert("layers", pt.layers);
        j.insert("hidden", pt.hidden);
        pts.append(j);
    }
    QJsonArray epoch;
    for (const FrontierAnchor& a : anchors)
        epoch.append(QJsonObject { { "reading", a.reading == FrontierAnchor::Reading::At80 ? "at_80" : "feasible" },
            { "flop", a.flop }, { "gpus", a.gpus }, { "cost_usd", a.costUsd }, { "plan", QString::fromStdString(a.plan) },
            { "source", QString::fromStdString(a.source) } });
    printJson(QJsonDocument(QJsonObject { { "gpu", p.value("gpu") }, { "months", o.months },
                             { "mode", p.value("mode") }, { "model", p.value("model") }, { "points", pts },
                             { "best_mfu", f.bestMfu }, { "max_flop_at_80pct", f.maxFlopAt80 },
                             { "max_flop_any", f.maxFlopAny }, { "epoch_anchors", epoch }, { "frontier_ms", ms } }));
}

void printFrontierCsv(QTextStream& out, const Frontier& f)
{
    out << "flop,feasible,mfu,gpus,tp,tp_2d,pp,dp,ep,batch_tokens,step_time_s,days,cost_usd,parameters,layers,hidden\n";
    for (const FrontierPoint& pt : f.points)
        out << QString("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16\n")
                   .arg(pt.flop, 0, 'g', 6).arg(pt.feasible ? 1 : 0).arg(pt.mfu, 0, 'g', 6).arg(pt.gpus)
                   .arg(pt.tp).arg(pt.tp2d ? 1 : 0).arg(pt.pp).arg(pt.dp).arg(pt.ep).arg(pt.batchTokens, 0, 'g', 6)
                   .arg(pt.stepTime, 0, 'g', 6).arg(pt.days, 0, 'g', 6).arg(pt.costUsd, 0, 'g', 6)
                   .arg(pt.parameters, 0, 'g', 6).arg(pt.layers).arg(pt.hidden);
}

// The default output: a table of the points, the summary, and Epoch AI's readings beside.
void printFrontierTable(QTextStream& out, const QCommandLineParser& p, const FrontierOptions& o, const Frontier& f,
    const std::vector<FrontierAnchor>& anchors, double ms)
{
    out << QString("%1, %2 months, %3 model, %4 mode (%5 ms)\n")
               .arg(QString::fromStdString(o.hardware.name)).arg(o.months).arg(p.value("model"), p.value("mode"))
               .arg(ms, 0, 'f', 0);
    out << QString("%1 %2 %3 %4 %5 %6 %7 %8 %9\n").arg("FLOP", 9).arg("MFU", 6).arg("GPUs", 12).arg("TP", 6)
               .arg("PP", 4).arg("DP", 7).arg("batch tok", 10).arg("step", 9).arg("days", 6);
    for (const FrontierPoint& pt : f.points) {
        if (!pt.feasible) {
            out << QString("%1   infeasible\n").arg(pt.flop, 9, 'e', 1);
            continue;
        }
        out << QString("%1 %2 %3 %4 %5 %6 %7 %8 %9\n")
                   .arg(pt.flop, 9, 'e', 1).arg(QString::number(100 * pt.mfu, 'f', 1) + "%", 6).arg(pt.gpus, 12)
                   .arg(QString::number(pt.tp) + (pt.tp2d ? "2d" : ""), 6).arg(pt.pp, 4).arg(pt.dp, 7)
                   .arg(pt.batchTokens, 10, 'e', 1).arg(QString::fromStdString(formatSeconds(pt.stepTime)), 9)
                   .arg(pt.days, 6, 'f', 1);
    }
    out << QString("\nbest MFU %1%; largest run at >= 80% of it: %2 FLOP; largest feasible: %3 FLOP\n")
               .arg(100 * f.bestMfu, 0, 'f', 1).arg(f.maxFlopAt80, 0, 'e', 2).arg(f.maxFlopAny, 0, 'e', 2);
    for (const FrontierAnchor& a : anchors) {
        QString extra;
        if (a.gpus > 0)
            extra += QString("%1 GPUs").arg(QString::fromStdString(formatCount(a.gpus)));
        if (a.costUsd > 0)
            extra += QString(", about $%1").arg(QString::fromStdString(formatCount(a.costUsd)));
        if (!a.plan.empty())
            extra += ", " + QString::fromStdString(a.plan);
        out << QString("Epoch AI's reading: %1 %2 FLOP%3\n").arg(anchorReadingText(a.reading)).arg(a.flop, 0, 'e', 0)
                   .arg(extra.isEmpty() ? QString() : " (" + extra + ")");
    }
}

} // namespace

int runFrontier(const QStringList& args)
{
    QCommandLineParser p;
    p.addOption({ "gpu", "Accelerator id (see dtsim-cli hardware).", "ID" });
    p.addOption({ "months", "Training duration in months (default 3).", "M", "3" });
    p.addOption({ "model", "dense (default) or moe.", "FAMILY", "dense" });
    p.addOption({ "mode", "realistic (default) or idealized (Epoch's assumptions).", "MODE", "realistic" });
    p.addOption({ "max-gpus", "Largest cluster allowed (default: no limit).", "N", "0" });
    p.addOption({ "network", "Use the network (fabric, NICs, latencies) of another catalogue GPU.", "ID" });
    p.addOption({ "batch-coefficient", "Critical batch rule B = k C^e tokens: k (default 0.292).", "K", "0.292" });
    p.addOption({ "batch-exponent", "Critical batch rule exponent e (default 0.3271).", "E", "0.3271" });
    p.addOption({ "points", "Points between 1e20 and 1e32 FLOP (default 100).", "N", "100" });
    p.addOption({ "critical-batch", "Charge a batch above the critical batch in tokens: each point trains to the loss its "
                                    "compute-optimal tokens reach (docs/convergence.md)." });
    p.addOption({ "json", "Print JSON." });
    p.addOption({ "csv", "Print CSV." });
    p.addOption({ "explain", "Print the full report of the point nearest this FLOP budget.", "FLOP" });
    if (!parseCommand(p, "frontier", args, 0))
        return kExitBadInput;
    try {
        const EngineData data = loadEngineData(p);
        const FrontierOptions o = frontierOptions(p, data.catalog);
        // Epoch AI's published readings for this GPU and duration, printed beside dtsim's.
        const std::vector<FrontierAnchor> anchors
            = anchorsFor(loadFrontierAnchors(data.paths.anchorsFile()), p.value("gpu").toStdString(), o.months);

        QElapsedTimer timer;
        timer.start();
        const Frontier f = computeFrontier(o, data.calibration);
        const double ms = timer.nsecsElapsed() / 1e6;
        QTextStream out(stdout);
        if (p.isSet("explain"))
            printFrontierPointReport(out, o, f, numberOption(p, "explain", 1, 1e35, "a FLOP budget (such as 1e26)"), data.calibration);
        else if (p.isSet("json"))
            printFrontierJson(p, o, f, anchors, ms);
        else if (p.isSet("csv"))
            printFrontierCsv(out, f);
        else
            printFrontierTable(out, p, o, f, anchors, ms);
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

int runScaling(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "Scenario YAML file, or the name of a preset.");
    p.addOption({ "set", "Override a scenario field (repeatable).", "path=value" });
    p.addOption({ "json", "Print JSON." });
    p.addOption({ "csv", "Print CSV." });
    if (!parseCommand(p, "scaling", args, 1))
        return kExitBadInput;
    try {
        const EngineData data = loadEngineData(p);
        const Scenario s = loadScenarioArgument(p, data);
        const ScalingCurves curves = scalingCurves(s, data.calibration);
        const bool lossTarget = s.training.target == TrainingTarget::Loss;
        QTextStream out(stdout);
        auto pointJson = [](const ScalingPoint& pt) {
            return QJsonObject { { "gpus", pt.gpus }, { "dp", pt.dp }, { "global_batch", pt.globalBatch },
                { "step_time_s", pt.stepTime }, { "time_to_train_s", pt.timeToTrain }, { "tokens_per_s", pt.tokensPerSecond },
                { "mfu", pt.mfu }, { "efficiency", pt.efficiency }, { "gpu_hours", pt.gpuHours }, { "fits_in_memory", pt.fits } };
        };
        if (p.isSet("json")) {
            QJsonArray fixed, growing;
            for (const ScalingPoint& pt : curves.fixedBatch)
                fixed.append(pointJson(pt));
            for (const ScalingPoint& pt : curves.growingBatch)
                growing.append(pointJson(pt));
            QJsonObject doc { { "fixed_batch", fixed }, { "growing_batch", growing }, { "sync_wall_gpus", curves.syncWallGpus } };
            if (lossTarget) // new with loss targets; token targets print what they always did
                doc.insert("turnaround_gpus", double(curves.turnaroundGpus));
            printJson(QJsonDocument(doc));
            return kExitOk;
        }
        const bool csv = p.isSet("csv");
        if (csv)
            out << "curve,gpus,dp,global_batch,step_time_s,time_to_train_s,tokens_per_s,mfu,efficiency,gpu_hours,fits_in_memory\n";
        for (int k = 0; k < 2; ++k) {
            const auto& curve = k == 0 ? curves.fixedBatch : curves.growingBatch;
            const QString name = k == 0 ? "fixed_batch" : "growing_batch";
            if (!csv)
                out << (k == 0 ? "Fixed global batch (strong scaling)\n" : "\nGrowing global batch (weak scaling)\n")
                    << QString("%1 %2 %3 %4 %5 %6 %7\n").arg("GPUs", 8).arg("batch", 8).arg("step", 10).arg("time to train", 14)
                           .arg("MFU", 7).arg("efficiency", 10).arg("");
            for (const ScalingPoint& pt : curve) {
                if (csv) {
                    out << QString("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11\n").arg(csvEscape(name)).arg(pt.gpus).arg(pt.dp)
                               .arg(pt.globalBatch).arg(pt.stepTime, 0, 'g', 8).arg(pt.timeToTrain, 0, 'g', 8)
                               .arg(pt.tokensPerSecond, 0, 'g', 8).arg(pt.mfu, 0, 'g', 6).arg(pt.efficiency, 0, 'g', 6)
                               .arg(pt.gpuHours, 0, 'g', 8).arg(pt.fits ? 1 : 0);
                    continue;
                }
                QString mark;
                if (k == 0 && pt.gpus == curves.syncWallGpus)
                    mark = "  <- sync wall";
                if (k == 1 && lossTarget && pt.gpus == curves.turnaroundGpus)
                    mark = "  <- turnaround: past here more GPUs take longer";
                if (!pt.fits)
                    mark += "  (does not fit)";
                out << QString("%1 %2 %3 %4 %5 %6%7\n").arg(pt.gpus, 8).arg(pt.globalBatch, 8)
                           .arg(QString::fromStdString(formatSeconds(pt.stepTime)), 10)
                           .arg(QString::fromStdString(formatDuration(pt.timeToTrain)), 14)
                           .arg(QString::number(100 * pt.mfu, 'f', 1) + "%", 7)
                           .arg(QString::number(100 * pt.efficiency, 'f', 1) + "%", 10).arg(mark);
            }
        }
        if (lossTarget && !csv)
            out << QString("\nTime to train is time to loss %1 (%2): past the critical batch each larger batch needs more "
                           "tokens.\n%3\n")
                       .arg(s.training.targetLoss).arg(q(std::string(lossLawName(s.training.lossLaw))))
                       .arg(curves.turnaroundGpus > 0
                               ? QString("Turnaround at %1 GPUs: beyond it the growing batch costs more time than the GPUs save.")
                                     .arg(curves.turnaroundGpus)
                               : QString("No turnaround on this curve: time still falls at its largest point."));
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

namespace {

using BenchClock = std::chrono::steady_clock;

double msSince(BenchClock::time_point t0) { return std::chrono::duration<double, std::milli>(BenchClock::now() - t0).count(); }

// What dtsim-cli bench measures, each figure beside the result it timed.
struct BenchResults {
    double sink = 0; // a checksum of the results, so that the compiler keeps the work
    double plansPerS = 0;
    SearchResult search;
    double searchMs = 0;
    Trace trace, draftTrace;
    double traceMs = 0, draftMs = 0;
    MonteCarloResult monteCarlo;
    ReliabilityReport storageRecovery, memoryRecovery;
    double monteCarloMs = 0, monteCarloMemoryMs = 0;
    double sweepMs = 0;
    int sweepCells = 0;
    ClusterResult cluster, streamCluster;
    double clusterMs = 0, streamClusterMs = 0;
    double traceImportMs = 0, handWrittenMBps = 0, nlohmannMBps = 0;
    Frontier frontier;
    double frontierMs = 0;
};

// One core, one plan at a time: vary the recompute policy and ZeRO stage so the
// compiler cannot hoist the work.
void benchPlanEvaluation(BenchResults& b, Scenario s, const Calibration& calibration)
{
    const int n = 400000;
    const auto t0 = BenchClock::now();
    for (int i = 0; i < n; ++i) {
        s.plan.zeroStage = i & 3;
        s.plan.recompute = (i & 4) ? Recompute::Full : Recompute::None;
        b.sink += predictStep(s, calibration).stepTime;
    }
    b.plansPerS = n / std::chrono::duration<double>(BenchClock::now() - t0).count();
}

// The best-plan search and a step's timeline on the preset, then the Timeline tab's draft
// while a slider drags (whole passes, no layers), at its costliest: gpt3-175b-a100 with
// 65,536 sequences (4,096 micro-batches a pipeline).
void benchSearchAndTimelines(BenchResults& b, const Scenario& preset, const EngineData& data)
{
    auto t = BenchClock::now();
    b.search = searchPlans(preset, data.calibration);
    b.searchMs = msSince(t);

    t = BenchClock::now();
    b.trace = simulateTimeline(preset, data.calibration);
    b.traceMs = msSince(t);

    Scenario wide = loadScenarioFile(data.paths.presetsDir() + "/gpt3-175b-a100.yaml", data.catalog, {}, data.topologies);
    wide.training.globalBatch = 65536;
    TimelineOptions draft;
    draft.perLayer = false;
    t = BenchClock::now();
    b.draftTrace = simulateTimeline(wide, data.calibration, draft);
    b.draftMs = msSince(t);
}

// 10,000 trials of a 90-day run on the preset's 16,384 GPUs (issue 24: under 1 s),
// with storage checkpoints and with in-memory copies (a segment every few steps).
void benchMonteCarlo(BenchResults& b, const Scenario& preset, const EngineData& data)
{
    auto timeMonteCarlo = [&](RecoveryStrategy strategy, ReliabilityReport& report, double& ms) {
        Scenario s = preset;
        s.reliability.strategy = strategy;
        report = analyzeReliability(s, data.calibration, data.failureRates);
        report.failureFreeTime = 90 * 86400.0;
        report.chaos = chaosEffects(s, data.calibration, report);
        const auto t = BenchClock::now();
        const MonteCarloResult m = sampleRuns(report, s.reliability, 10000, 1);
        ms = msSince(t);
        b.sink += m.mean;
        return m;
    };
    b.monteCarlo = timeMonteCarlo(RecoveryStrategy::Storage, b.storageRecovery, b.monteCarloMs);
    timeMonteCarlo(RecoveryStrategy::InMemory, b.memoryRecovery, b.monteCarloMemoryMs);
}

// A 32 x 32 sweep of the preset (issue 25: under 100 ms): global batch against the
// scale-out bandwidth, every cell a full simulation.
void benchSweep(BenchResults& b, const Scenario& preset, const Calibration& calibration)
{
    SweepAxis batchAxis, networkAxis;
    batchAxis.field = findField("training.global_batch");
    networkAxis.field = findField("cluster.scale_out_bandwidth");
    for (int i = 1; i <= 32; ++i) {
        batchAxis.values.push_back(512.0 * i);
        batchAxis.labels.push_back(std::to_string(512 * i));
        networkAxis.values.push_back(12.5e9 * i);
        networkAxis.labels.push_back(std::to_string(12.5 * i) + " GB/s");
    }
    const auto t = BenchClock::now();
    const SweepResult grid = sweep(preset, calibration, batchAxis, networkAxis, Headline::Mfu);
    b.sweepMs = msSince(t);
    for (const SweepCell& c : grid.cells)
        b.sweepCells += c.ok();
}

// The shared-cluster preset twice: 10,000 jobs on 16,384 GPUs (64 pods) over 30 days, at
// sixteen times the scale, job sizes doubled, about 14 arrivals an hour; then 100,000 jobs
// on the preset as shipped (1,024 GPUs, fair share): the queue grows to tens of thousands,
// which cost quadratic time before (42 s).
void benchSharedClusters(BenchResults& b, const EngineData& data)
{
    const std::string file = data.paths.presetsDir() + "/shared-cluster.yaml";
    Scenario shared = loadScenarioFile(file, data.catalog, {}, data.topologies);
    shared.cluster.gpus = 16384;
    shared.plan.dp = 16384;
    shared.training.globalBatch = 16384;
    shared.workload.generator.count = 10000;
    shared.workload.generator.arrivalsPerHour = 10000 / (30 * 24.0);
    for (WeightedValue& size : shared.workload.generator.sizes)
        size.value *= 2;
    shared.workload.horizon = 30 * 86400.0;
    auto t = BenchClock::now();
    ClusterSim clusterSim(shared, data.calibration, data.failureRates, 2.0);
    b.cluster = clusterSim.run(*makePolicy(shared.workload.policy));
    b.clusterMs = msSince(t);
    b.sink += b.cluster.meanUtilization;

    Scenario stream = loadScenarioFile(file, data.catalog, {}, data.topologies);
    stream.workload.generator.count = 100000;
    t = BenchClock::now();
    ClusterSim streamSim(stream, data.calibration, data.failureRates, 2.0);
    b.streamCluster = streamSim.run(*makePolicy(stream.workload.policy));
    b.streamClusterMs = msSince(t);
    b.sink += b.streamCluster.meanUtilization;
}

// A profiler trace of about 200 MB at `path`, from kernel, launch and step events shaped
// as Kineto writes them.
void writeBenchTrace(const std::string& path)
{
    std::ofstream f(path);
    f << "{\"traceEvents\": [\n";
    std::size_t bytes = 0;
    char line[512];
    for (long long i = 0; bytes < 200'000'000; ++i) {
        const double ts = 1e6 + i * 10.0;
        const int n = i % 3 == 0
            ? std::snprintf(line, sizeof line, "%s{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 2, \"ts\": %.3f, \"dur\": 4.1, \"args\": {\"External id\": %lld, \"correlation\": %lld}}",
                  i ? ",\n" : "", ts, i, i)
            : i % 2000 == 1 ? std::snprintf(line, sizeof line, ",\n{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%lld\", \"pid\": 1, \"tid\": 2, \"ts\": %.3f, \"dur\": 20000}", i / 2000, ts)
            : std::snprintf(line, sizeof line, ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1\", \"pid\": 0, \"tid\": 7, \"ts\": %.3f, \"dur\": 8.5, \"args\": {\"External id\": %lld, \"queued\": 0, \"device\": 0, \"context\": 1, \"stream\": 7, \"correlation\": %lld, \"registers per thread\": 168, \"shared memory\": 213248, \"grid\": [132, 1, 1], \"block\": [384, 1, 1]}}",
                  ts + 5, i - 1, i - 1);
        f.write(line, n);
        bytes += std::size_t(n);
    }
    f << "\n], \"distributedInfo\": {\"rank\": 0, \"world_size\": 8}}\n";
}

// A 200 MB profiler trace (issue 23's bound: under 5 s and 1 GB), read and summarized.
// The same file tokenized by the hand-written reader and by nlohmann-json's SAX
// reader (issue 42: which JSON reader the traces should use), MB/s each.
void benchTraceImport(BenchResults& b)
{
    const std::string path = (std::filesystem::temp_directory_path() / ("dtsim-bench-trace-" + std::to_string(::getpid()) + ".json")).string();
    writeBenchTrace(path);
    const auto t = BenchClock::now();
    const ProfileSummary s = summarizeProfile(readKinetoTrace(path));
    const double ms = msSince(t);
    const double mb = double(std::filesystem::file_size(path)) / 1e6;
    auto t1 = BenchClock::now();
    const std::size_t handValues = countJsonValues(path);
    b.handWrittenMBps = mb / std::chrono::duration<double>(BenchClock::now() - t1).count();
    t1 = BenchClock::now();
    const std::size_t nlohmannValues = countJsonValuesStreamed(path);
    b.nlohmannMBps = mb / std::chrono::duration<double>(BenchClock::now() - t1).count();
    if (handValues != nlohmannValues)
        b.handWrittenMBps = b.nlohmannMBps = -1; // they disagree: no figure
    std::filesystem::remove(path);
    b.traceImportMs = s.activities > 0 ? ms : -1;
}

void benchFrontier(BenchResults& b, const EngineData& data)
{
    FrontierOptions fo;
    fo.hardware = *findHardware(data.catalog, "h100-sxm");
    const auto t = BenchClock::now();
    b.frontier = computeFrontier(fo, data.calibration);
    b.frontierMs = msSince(t);
}

void printBenchJson(QTextStream& out, const BenchResults& b)
{
    out << QJsonDocument(QJsonObject { { "plans_per_s", b.plansPerS }, { "search_ms", b.searchMs },
                             { "search_plans", double(b.search.considered()) }, { "frontier_ms", b.frontierMs },
                             { "frontier_points", int(b.frontier.points.size()) }, { "trace_ms", b.traceMs },
                             { "trace_events", double(b.trace.events.size()) },
                             { "draft_trace_ms", b.draftMs }, { "trace_import_200mb_ms", b.traceImportMs }, { "json_hand_written_mb_per_s", b.handWrittenMBps }, { "json_nlohmann_sax_mb_per_s", b.nlohmannMBps }, { "draft_trace_events", double(b.draftTrace.events.size()) },
                             { "montecarlo_10k_ms", b.monteCarloMs }, { "montecarlo_failures_per_trial", b.monteCarlo.failuresMean },
                             { "montecarlo_in_memory_10k_ms", b.monteCarloMemoryMs },
                             { "sweep_32x32_ms", b.sweepMs }, { "sweep_cells_simulated", b.sweepCells },
                             { "cluster_ms", b.clusterMs }, { "cluster_jobs", int(b.cluster.jobs.size()) },
                             { "cluster_utilization", b.cluster.meanUtilization },
                             { "cluster_100k_ms", b.streamClusterMs }, { "cluster_100k_jobs", int(b.streamCluster.jobs.size()) },
                             { "checksum", b.sink } })
               .toJson(QJsonDocument::Indented);
}

void printBenchText(QTextStream& out, const BenchResults& b)
{
    const ReliabilityReport& rm = b.memoryRecovery;
    const ClusterResult &cr = b.cluster, &big = b.streamCluster;
    out << QString("plan evaluation   %1 plans/s on one core (%2 us each)\n").arg(b.plansPerS, 0, 'f', 0).arg(1e6 / b.plansPerS, 0, 'f', 3);
    out << QString("best-plan search  %1 ms for llama3-405b-h100 (%2 plans)\n").arg(b.searchMs, 0, 'f', 1).arg(b.search.considered());
    out << QString("frontier          %1 ms for %2 points (H100, 3 months)\n").arg(b.frontierMs, 0, 'f', 1).arg(b.frontier.points.size());
    out << QString("timeline          %1 ms for one llama3-405b-h100 step (%2 events)\n").arg(b.traceMs, 0, 'f', 1).arg(b.trace.events.size());
    out << QString("timeline draft    %1 ms for gpt3-175b-a100 at 65,536 sequences, whole passes (%2 events)\n").arg(b.draftMs, 0, 'f', 1).arg(b.draftTrace.events.size());
    out << QString("trace import      %1 ms for a 200 MB profiler trace, read and summarized (target: under 5 s)\n").arg(b.traceImportMs, 0, 'f', 0);
    out << QString("JSON reading      %1 MB/s hand-written (simcore/measure), %2 MB/s nlohmann-json's SAX, the same trace tokenized\n")
               .arg(b.handWrittenMBps, 0, 'f', 0).arg(b.nlohmannMBps, 0, 'f', 0);
    out << QString("Monte Carlo       %1 ms for 10,000 trials of a 90-day run on %2 GPUs (%3 failures each; target: under 1 s)\n")
               .arg(b.monteCarloMs, 0, 'f', 1).arg(b.storageRecovery.gpus).arg(b.monteCarlo.failuresMean, 0, 'f', 0);
    out << QString("Monte Carlo       %1 ms for the same with in-memory checkpoints (segments of %2 steps)\n")
               .arg(b.monteCarloMemoryMs, 0, 'f', 1).arg(rm.intervalSteps > 0 ? rm.plan.fastInterval / (rm.interval / rm.intervalSteps) : 0.0, 0, 'f', 0);
    out << QString("sweep             %1 ms for 32 x 32 cells of llama3-405b-h100 (global batch x scale-out bandwidth, %2 simulated; target: under 100 ms)\n")
               .arg(b.sweepMs, 0, 'f', 1).arg(b.sweepCells);
    out << QString("shared cluster    %1 ms for %2 jobs on %3 GPUs over 30 days (%4, utilization %5%)\n")
               .arg(b.clusterMs, 0, 'f', 1).arg(cr.jobs.size()).arg(cr.totalGpus)
               .arg(QString::fromStdString(cr.policy)).arg(100 * cr.meanUtilization, 0, 'f', 1);
    out << QString("shared cluster    %1 ms for %2 jobs on the shared-cluster preset's %3 GPUs (%4; target: under 5 s)\n")
               .arg(b.streamClusterMs, 0, 'f', 1).arg(big.jobs.size()).arg(big.totalGpus).arg(QString::fromStdString(big.policy));
}

} // namespace

int runBench(const QStringList& args)
{
    QCommandLineParser p;
    p.addOption({ "json", "Print JSON." });
    if (!parseCommand(p, "bench", args, 0))
        return kExitBadInput;
    try {
        const EngineData data = loadEngineData(p);
        const std::string presetFile = data.paths.presetsDir() + "/llama3-405b-h100.yaml";
        // Each part of the engine timed on its own workload, in this order (the checksum
        // adds up in it).
        BenchResults b;
        benchPlanEvaluation(b, loadScenarioFile(presetFile, data.catalog, {}, data.topologies), data.calibration);
        const Scenario preset = loadScenarioFile(presetFile, data.catalog, {}, data.topologies);
        benchSearchAndTimelines(b, preset, data);
        benchMonteCarlo(b, preset, data);
        benchSweep(b, preset, data.calibration);
        benchSharedClusters(b, data);
        benchTraceImport(b);
        benchFrontier(b, data);

        QTextStream out(stdout);
        if (p.isSet("json"))
            printBenchJson(out, b);
        else
            printBenchText(out, b);
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
