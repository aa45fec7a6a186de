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
    p.addOption({ "json", "Print JSON." });
    p.addOption({ "csv", "Print CSV." });
    p.addOption({ "explain", "Print the full report of the point nearest this FLOP budget.", "FLOP" });
    if (!parseCommand(p, "frontier", args, 0))
        return kExitBadInput;
    try {
        const EngineData data = loadEngineData(p);
        const auto& catalog = data.catalog;
        const Calibration& calibration = data.calibration;
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

        // Epoch AI's published readings for this GPU and duration, printed beside dtsim's.
        const std::vector<FrontierAnchor> anchors = anchorsFor(loadFrontierAnchors(data.paths.anchorsFile()), gpu, o.months);

        QElapsedTimer timer;
        timer.start();
        const Frontier f = computeFrontier(o, calibration);
        const double ms = timer.nsecsElapsed() / 1e6;
        QTextStream out(stdout);
        if (p.isSet("explain")) {
            const double want = numberOption(p, "explain", 1, 1e35, "a FLOP budget (such as 1e26)");
            const FrontierPoint* near = &f.points.front();
            for (const FrontierPoint& pt : f.points)
                if (std::abs(std::log(pt.flop / want)) < std::abs(std::log(near->flop / want)))
                    near = &pt;
            if (!near->feasible) {
                out << QString("%1 FLOP: no plan finishes within %2 months\n").arg(near->flop, 0, 'e', 2).arg(o.months);
                return kExitOk;
            }
            Scenario s = frontierScenario(o, near->flop);
            s.plan = near->plan;
            s.cluster.gpus = s.plan.gpus();
            s.name = "Frontier point " + QString::number(near->flop, 'e', 2).toStdString() + " FLOP";
            StepOptions so { o.mode == FrontierMode::Idealized };
            Report rep;
            rep.step = simulateStep(s, calibration, so);
            rep.steps = s.training.steps();
            rep.timeToTrain = rep.steps * rep.step.stepTime;
            rep.gpuHours = rep.timeToTrain * double(s.plan.gpus()) / 3600.0;
            rep.theoreticalMinTime = rep.step.modelFlopsPerStep * rep.steps / (double(s.plan.gpus()) * rep.step.peakFlopsPerGpu);
            rep.syncWallGpus = s.plan.gpus();
            rep.syncWallTimeToTrain = rep.timeToTrain;
            out << QString::fromStdString(reportToText(s, rep));
            return kExitOk;
        }
        if (p.isSet("json")) {
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
            printJson(QJsonDocument(QJsonObject { { "gpu", QString::fromStdString(gpu) }, { "months", o.months },
                                     { "mode", mode }, { "model", family }, { "points", pts },
                                     { "best_mfu", f.bestMfu }, { "max_flop_at_80pct", f.maxFlopAt80 },
                                     { "max_flop_any", f.maxFlopAny }, { "epoch_anchors", epoch }, { "frontier_ms", ms } }));
            return kExitOk;
        }
        if (p.isSet("csv")) {
            out << "flop,feasible,mfu,gpus,tp,tp_2d,pp,dp,ep,batch_tokens,step_time_s,days,cost_usd,parameters,layers,hidden\n";
            for (const FrontierPoint& pt : f.points)
                out << QString("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16\n")
                           .arg(pt.flop, 0, 'g', 6).arg(pt.feasible ? 1 : 0).arg(pt.mfu, 0, 'g', 6).arg(pt.gpus)
                           .arg(pt.tp).arg(pt.tp2d ? 1 : 0).arg(pt.pp).arg(pt.dp).arg(pt.ep).arg(pt.batchTokens, 0, 'g', 6)
                           .arg(pt.stepTime, 0, 'g', 6).arg(pt.days, 0, 'g', 6).arg(pt.costUsd, 0, 'g', 6)
                           .arg(pt.parameters, 0, 'g', 6).arg(pt.layers).arg(pt.hidden);
            return kExitOk;
        }
        out << QString("%1, %2 months, %3 model, %4 mode (%5 ms)\n")
                   .arg(QString::fromStdString(hw->name)).arg(o.months).arg(family, mode).arg(ms, 0, 'f', 0);
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
            printJson(QJsonDocument(QJsonObject { { "fixed_batch", fixed }, { "growing_batch", growing },
                                     { "sync_wall_gpus", curves.syncWallGpus } }));
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
                if (!pt.fits)
                    mark += "  (does not fit)";
                out << QString("%1 %2 %3 %4 %5 %6%7\n").arg(pt.gpus, 8).arg(pt.globalBatch, 8)
                           .arg(QString::fromStdString(formatSeconds(pt.stepTime)), 10)
                           .arg(QString::fromStdString(formatDuration(pt.timeToTrain)), 14)
                           .arg(QString::number(100 * pt.mfu, 'f', 1) + "%", 7)
                           .arg(QString::number(100 * pt.efficiency, 'f', 1) + "%", 10).arg(mark);
            }
        }
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

int runBench(const QStringList& args)
{
    QCommandLineParser p;
    p.addOption({ "json", "Print JSON." });
    if (!parseCommand(p, "bench", args, 0))
        return kExitBadInput;
    try {
        const EngineData data = loadEngineData(p);
        const auto& catalog = data.catalog;
        const Calibration& calibration = data.calibration;
        const std::string presets = data.paths.presetsDir();
        Scenario s = loadScenarioFile(presets + "/llama3-405b-h100.yaml", catalog, {}, data.topologies);

        // One core, one plan at a time: vary the recompute policy and ZeRO stage so the
        // compiler cannot hoist the work.
        using clock = std::chrono::steady_clock;
        const int n = 400000;
        double sink = 0;
        const auto t0 = clock::now();
        for (int i = 0; i < n; ++i) {
            s.plan.zeroStage = i & 3;
            s.plan.recompute = (i & 4) ? Recompute::Full : Recompute::None;
            sink += simulateStep(s, calibration).stepTime;
        }
        const double plansPerS = n / std::chrono::duration<double>(clock::now() - t0).count();

        const Scenario preset = loadScenarioFile(presets + "/llama3-405b-h100.yaml", catalog, {}, data.topologies);
        auto t1 = clock::now();
        const SearchResult sr = searchPlans(preset, calibration);
        const double searchMs = std::chrono::duration<double, std::milli>(clock::now() - t1).count();

        auto t3 = clock::now();
        const Trace trace = simulateTimeline(preset, calibration);
        const double traceMs = std::chrono::duration<double, std::milli>(clock::now() - t3).count();

        // The Timeline tab's draft while a slider drags (whole passes, no layers), at its
        // costliest: gpt3-175b-a100 with 65,536 sequences (4,096 micro-batches a pipeline).
        Scenario wide = loadScenarioFile(presets + "/gpt3-175b-a100.yaml", catalog, {}, data.topologies);
        wide.training.globalBatch = 65536;
        TimelineOptions draft;
        draft.perLayer = false;
        auto t7 = clock::now();
        const Trace draftTrace = simulateTimeline(wide, calibration, draft);
        const double draftMs = std::chrono::duration<double, std::milli>(clock::now() - t7).count();

        // 10,000 trials of a 90-day run on the preset's 16,384 GPUs (issue 24: under 1 s),
        // with storage checkpoints and with in-memory copies (a segment every few steps).
        auto timeMonteCarlo = [&](RecoveryStrategy strategy, ReliabilityReport& report, double& ms) {
            Scenario s = preset;
            s.reliability.strategy = strategy;
            report = analyzeReliability(s, calibration, data.failureRates);
            report.failureFreeTime = 90 * 86400.0;
            const auto t = clock::now();
            const MonteCarloResult m = simulateRun(report, s.reliability, 10000, 1);
            ms = std::chrono::duration<double, std::milli>(clock::now() - t).count();
            sink += m.mean;
            return m;
        };
        ReliabilityReport rr, rm;
        double monteCarloMs = 0, monteCarloMemoryMs = 0;
        const MonteCarloResult mc = timeMonteCarlo(RecoveryStrategy::Storage, rr, monteCarloMs);
        timeMonteCarlo(RecoveryStrategy::InMemory, rm, monteCarloMemoryMs);

        // A 32 x 32 sweep of the preset (issue 25: under 100 ms): global batch against the
        // scale-out bandwidth, every cell a full simulation.
        SweepAxis batchAxis, networkAxis;
        batchAxis.field = findField("training.global_batch");
        networkAxis.field = findField("cluster.scale_out_bandwidth");
        for (int i = 1; i <= 32; ++i) {
            batchAxis.values.push_back(512.0 * i);
            batchAxis.labels.push_back(std::to_string(512 * i));
            networkAxis.values.push_back(12.5e9 * i);
            networkAxis.labels.push_back(std::to_string(12.5 * i) + " GB/s");
        }
        auto t10 = clock::now();
        const SweepResult grid = sweep(preset, calibration, batchAxis, networkAxis, Headline::Mfu);
        const double sweepMs = std::chrono::duration<double, std::milli>(clock::now() - t10).count();
        int sweepCells = 0;
        for (const SweepCell& c : grid.cells)
            sweepCells += c.ok();

        // 10,000 jobs on 16,384 GPUs (64 pods) over 30 days: the shared-cluster preset at
        // sixteen times the scale, job sizes doubled, about 14 arrivals an hour.
        Scenario shared = loadScenarioFile(presets + "/shared-cluster.yaml", catalog, {}, data.topologies);
        shared.cluster.gpus = 16384;
        shared.plan.dp = 16384;
        shared.training.globalBatch = 16384;
        shared.workload.generator.count = 10000;
        shared.workload.generator.arrivalsPerHour = 10000 / (30 * 24.0);
        for (WeightedValue& size : shared.workload.generator.sizes)
            size.value *= 2;
        shared.workload.horizon = 30 * 86400.0;
        auto t5 = clock::now();
        ClusterSim clusterSim(shared, calibration, data.failureRates, 2.0);
        const ClusterResult cr = clusterSim.run(*makePolicy(shared.workload.policy));
        const double clusterMs = std::chrono::duration<double, std::milli>(clock::now() - t5).count();
        sink += cr.meanUtilization;

        // 100,000 jobs on the shared-cluster preset as shipped (1,024 GPUs, fair share):
        // the queue grows to tens of thousands, which cost quadratic time before (42 s).
        Scenario stream = loadScenarioFile(presets + "/shared-cluster.yaml", catalog, {}, data.topologies);
        stream.workload.generator.count = 100000;
        auto t6 = clock::now();
        ClusterSim streamSim(stream, calibration, data.failureRates, 2.0);
        const ClusterResult big = streamSim.run(*makePolicy(stream.workload.policy));
        const double bigMs = std::chrono::duration<double, std::milli>(clock::now() - t6).count();
        sink += big.meanUtilization;

        // A 200 MB profiler trace (issue 23's bound: under 5 s and 1 GB): written here from
        // kernel, launch and step events shaped as Kineto writes them, then read and summarized.
        // The same file tokenized by the hand-written reader and by nlohmann-json's SAX
        // reader (issue 42: which JSON reader the traces should use), MB/s each.
        double handWrittenMBps = 0, nlohmannMBps = 0;
        const double traceImportMs = [&] {
            const std::string path = (std::filesystem::temp_directory_path() / ("dtsim-bench-trace-" + std::to_string(::getpid()) + ".json")).string();
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
            const auto t = std::chrono::steady_clock::now();
            const ProfileSummary s = summarizeProfile(readKinetoTrace(path));
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
            const double mb = double(std::filesystem::file_size(path)) / 1e6;
            auto t1 = std::chrono::steady_clock::now();
            const std::size_t handValues = countJsonValues(path);
            handWrittenMBps = mb / std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
            t1 = std::chrono::steady_clock::now();
            const std::size_t nlohmannValues = countJsonValuesStreamed(path);
            nlohmannMBps = mb / std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
            if (handValues != nlohmannValues)
                handWrittenMBps = nlohmannMBps = -1; // they disagree: no figure
            std::filesystem::remove(path);
            return s.activities > 0 ? ms : -1;
        }();

        FrontierOptions fo;
        fo.hardware = *findHardware(catalog, "h100-sxm");
        auto t2 = clock::now();
        const Frontier fr = computeFrontier(fo, calibration);
        const double frontierMs = std::chrono::duration<double, std::milli>(clock::now() - t2).count();

        QTextStream out(stdout);
        if (p.isSet("json")) {
            out << QJsonDocument(QJsonObject { { "plans_per_s", plansPerS }, { "search_ms", searchMs },
                                     { "search_plans", double(sr.considered()) }, { "frontier_ms", frontierMs },
                                     { "frontier_points", int(fr.points.size()) }, { "trace_ms", traceMs },
                                     { "trace_events", double(trace.events.size()) },
                                     { "draft_trace_ms", draftMs }, { "trace_import_200mb_ms", traceImportMs }, { "json_hand_written_mb_per_s", handWrittenMBps }, { "json_nlohmann_sax_mb_per_s", nlohmannMBps }, { "draft_trace_events", double(draftTrace.events.size()) },
                                     { "montecarlo_10k_ms", monteCarloMs }, { "montecarlo_failures_per_trial", mc.failuresMean },
                                     { "montecarlo_in_memory_10k_ms", monteCarloMemoryMs },
                                     { "sweep_32x32_ms", sweepMs }, { "sweep_cells_simulated", sweepCells },
                                     { "cluster_ms", clusterMs }, { "cluster_jobs", int(cr.jobs.size()) },
                                     { "cluster_utilization", cr.meanUtilization },
                                     { "cluster_100k_ms", bigMs }, { "cluster_100k_jobs", int(big.jobs.size()) },
                                     { "checksum", sink } })
                       .toJson(QJsonDocument::Indented);
        } else {
            out << QString("plan evaluation   %1 plans/s on one core (%2 us each)\n").arg(plansPerS, 0, 'f', 0).arg(1e6 / plansPerS, 0, 'f', 3);
            out << QString("best-plan search  %1 ms for llama3-405b-h100 (%2 plans)\n").arg(searchMs, 0, 'f', 1).arg(sr.considered());
            out << QString("frontier          %1 ms for %2 points (H100, 3 months)\n").arg(frontierMs, 0, 'f', 1).arg(fr.points.size());
            out << QString("timeline          %1 ms for one llama3-405b-h100 step (%2 events)\n").arg(traceMs, 0, 'f', 1).arg(trace.events.size());
            out << QString("timeline draft    %1 ms for gpt3-175b-a100 at 65,536 sequences, whole passes (%2 events)\n").arg(draftMs, 0, 'f', 1).arg(draftTrace.events.size());
            out << QString("trace import      %1 ms for a 200 MB profiler trace, read and summarized (target: under 5 s)\n").arg(traceImportMs, 0, 'f', 0);
            out << QString("JSON reading      %1 MB/s hand-written (simcore/measure), %2 MB/s nlohmann-json's SAX, the same trace tokenized\n")
                       .arg(handWrittenMBps, 0, 'f', 0).arg(nlohmannMBps, 0, 'f', 0);
            out << QString("Monte Carlo       %1 ms for 10,000 trials of a 90-day run on %2 GPUs (%3 failures each; target: under 1 s)\n")
                       .arg(monteCarloMs, 0, 'f', 1).arg(rr.gpus).arg(mc.failuresMean, 0, 'f', 0);
            out << QString("Monte Carlo       %1 ms for the same with in-memory checkpoints (segments of %2 steps)\n")
                       .arg(monteCarloMemoryMs, 0, 'f', 1).arg(rm.intervalSteps > 0 ? rm.plan.fastInterval / (rm.interval / rm.intervalSteps) : 0.0, 0, 'f', 0);
            out << QString("sweep             %1 ms for 32 x 32 cells of llama3-405b-h100 (global batch x scale-out bandwidth, %2 simulated; target: under 100 ms)\n")
                       .arg(sweepMs, 0, 'f', 1).arg(sweepCells);
            out << QString("shared cluster    %1 ms for %2 jobs on %3 GPUs over 30 days (%4, utilization %5%)\n")
                       .arg(clusterMs, 0, 'f', 1).arg(cr.jobs.size()).arg(cr.totalGpus)
                       .arg(QString::fromStdString(cr.policy)).arg(100 * cr.meanUtilization, 0, 'f', 1);
            out << QString("shared cluster    %1 ms for %2 jobs on the shared-cluster preset's %3 GPUs (%4; target: under 5 s)\n")
                       .arg(bigMs, 0, 'f', 1).arg(big.jobs.size()).arg(big.totalGpus).arg(QString::fromStdString(big.policy));
        }
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
