// dtsim-cli search: the best parallel plans for a scenario.
#include "commands.h"
#include "cli_common.h"

#include "simcore/input_error.h"
#include "simcore/loader/calibration_loader.h"
#include "simcore/loader/hardware_loader.h"
#include "simcore/loader/scenario_loader.h"
#include "simcore/planner/cost_search.h"
#include "simcore/planner/search.h"
#include "simcore/units.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <cstdio>

namespace dtsim::cli {

namespace {

// "optimizer and gradients to CPU memory, parameters to NVMe"
std::string offloadText(const OffloadSpec& o)
{
    std::string text;
    auto add = [&](const char* what, OffloadTarget t) {
        if (t == OffloadTarget::None)
            return;
        text += (text.empty() ? "" : ", ") + std::string(what) + (t == OffloadTarget::Nvme ? " to NVMe" : " to CPU memory");
    };
    add("the optimizer states", o.optimizer);
    add("gradients", o.gradients);
    add("parameters", o.parameters);
    add("activations", o.activations);
    return text;
}

} // namespace


namespace {

QJsonObject candidateJson(const PlanCandidate& c, const PlanCandidate* baseline)
{
    const ParallelPlan& p = c.plan;
    QJsonObject o { { "gpus", c.gpus }, { "tp", p.tp }, { "pp", p.pp }, { "dp", p.dp }, { "cp", p.cp }, { "ep", p.ep },
        { "schedule", QString::fromUtf8(scheduleName(p.schedule).data()) }, { "virtual_stages", p.virtualStages },
        { "micro_batch", c.microBatch }, { "zero", p.zeroStage },
        { "recompute", QString::fromUtf8(recomputeName(p.recompute).data()) }, { "sequence_parallel", p.sequenceParallel },
        { "step_time_s", c.step.stepTime }, { "mfu", c.step.mfu }, { "tokens_per_s", c.step.tokensPerSecond },
        { "time_to_train_s", c.timeToTrain }, { "gpu_hours", c.timeToTrain * c.gpus / 3600.0 },
        { "memory_per_gpu_bytes", c.step.memory.total } };
    if (baseline)
        o.insert("speedup_vs_baseline", baseline->timeToTrain / c.timeToTrain);
    if (!c.finishes)
        o.insert("finishes", false);
    if (c.costUsd > 0) {
        o.insert("cost_usd", c.costUsd);
        o.insert("expected_time_s", c.expectedTime);
        o.insert("co2e_tonnes", c.co2eTonnes);
        o.insert("meets_limits", c.meetsLimits);
    }
    return o;
}

QString candidateLine(const PlanCandidate& c)
{
    const ParallelPlan& p = c.plan;
    QString sched = QString::fromUtf8(scheduleName(p.schedule).data());
    if (p.virtualStages > 1)
        sched += QString(" v%1").arg(p.virtualStages);
    return QString("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11 %12 %13")
        .arg(c.gpus, 6).arg(p.tp, 4).arg(p.pp, 4).arg(p.dp, 5).arg(p.cp, 3).arg(p.ep, 3)
        .arg(sched, -15).arg(c.microBatch, 3).arg(p.zeroStage, 2)
        .arg(QString::fromUtf8(recomputeName(p.recompute).data()), -9).arg(p.sequenceParallel ? "sp" : "  ")
        .arg(QString::fromStdString(formatSeconds(c.step.stepTime)), 9)
        .arg(QString("%1%  %2").arg(100 * c.step.mfu, 5, 'f', 1).arg(QString::fromStdString(formatDuration(c.timeToTrain))))
        + (c.costUsd > 0 ? QString("  $%1%2").arg(QString::fromStdString(formatCount(c.costUsd)), c.meetsLimits ? "" : " (misses the deadline)") : QString())
        + (c.finishes ? QString() : QString("  never finishes: failures outpace its checkpoints"));
}

} // namespace

int runSearch(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "Scenario YAML file, or the name of a preset.");
    p.addOption({ "objective", "time (default), mfu, or cost (cheapest under the deadline; tries smaller GPU counts too).", "NAME", "time" });
    p.addOption({ "top", "How many plans to list (default 10).", "N", "10" });
    p.addOption({ "vary-gpus", "Also try 1/2, 1/4, ... of the cluster's GPUs." });
    p.addOption({ "set", "Override a scenario field (repeatable).", "path=value" });
    p.addOption({ "json", "Print JSON." });
    if (!parseCommand(p, "search", args, 1))
        return kExitBadInput;
    try {
        const std::string objectiveText = p.value("objective").toStdString();
        const auto objective = objectiveFromName(objectiveText);
        if (!objective)
            throw InputError("--objective", 0, "", "\"" + objectiveText + "\" is not one of: time, mfu, cost");
        bool ok = false;
        const int top = p.value("top").toInt(&ok);
        if (!ok || top < 1 || top > 10000)
            throw InputError("--top", 0, "", "expected a whole number from 1 to 10000");

        const EngineData d = loadEngineData(p);
        FieldLocator where;
        const Scenario s = loadScenarioArgument(p, d, &where);

        SearchOptions options;
        options.objective = *objective;
        options.topN = top;
        options.varyGpus = p.isSet("vary-gpus") || *objective == Objective::Cost;
        QElapsedTimer timer;
        timer.start();
        CostSearchResult costed;
        if (*objective == Objective::Cost) {
            checkCostInputs(s, d.costRates, where);
            costed = searchCheapest(s, d.calibration, d.failureRates, d.costRates, options);
        } else {
            costed.search = searchPlans(s, d.calibration, options);
        }
        const SearchResult& r = costed.search;
        const double ms = timer.nsecsElapsed() / 1e6;
        const PlanCandidate* base = r.baseline ? &*r.baseline : nullptr;

        QJsonObject rejected;
        for (int i = 1; i < kPlanRuleCount; ++i)
            if (r.rejectedByRule[i] > 0)
                rejected.insert(QString::fromUtf8(planRuleName(static_cast<PlanRule>(i)).data()), double(r.rejectedByRule[i]));
        rejected.insert("memory", double(r.rejectedMemory));
        if (r.rejectedUnfinished > 0)
            rejected.insert("never_finishes", double(r.rejectedUnfinished));

        QTextStream out(stdout);
        if (p.isSet("json")) {
            QJsonArray list;
            for (const PlanCandidate& c : r.top)
                list.append(candidateJson(c, base));
            QJsonObject doc { { "objective", QString::fromStdString(objectiveText) }, { "evaluated", double(r.evaluated) },
                { "considered", double(r.considered()) }, { "rejected", rejected }, { "search_ms", ms }, { "top", list },
                { "baseline", base ? QJsonValue(candidateJson(*base, nullptr)) : QJsonValue(QJsonValue::Null) } };
            if (r.offload)
                doc.insert("offloaded", QString::fromStdString(offloadText(*r.offload)));
            if (*objective == Objective::Cost) {
                doc.insert("naive", costed.naive ? QJsonValue(candidateJson(*costed.naive, nullptr)) : QJsonValue(QJsonValue::Null));
                doc.insert("saving_vs_naive", costed.naive ? QJsonValue(costed.savingVsNaive) : QJsonValue(QJsonValue::Null));
                doc.insert("saving_vs_given", base ? QJsonValue(costed.savingVsGiven) : QJsonValue(QJsonValue::Null));
            }
            printJson(QJsonDocument(doc));
            return kExitOk;
        }
        out << QString("%1: %2 plans considered, %3 valid and fitting, searched in %4 ms\n\n")
                   .arg(QString::fromStdString(s.name)).arg(r.considered()).arg(r.evaluated).arg(ms, 0, 'f', 1);
        const QString header = QString("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10    %11 %12\n")
                                   .arg("gpus", 6).arg("tp", 4).arg("pp", 4).arg("dp", 5).arg("cp", 3).arg("ep", 3)
                                   .arg("schedule", -15).arg("mb", 3).arg("z", 2).arg("recompute", -9).arg("step", 9).arg("MFU    time to train");
        if (r.offload)
            out << "  Nothing fits in GPU memory alone; the plans below offload " << QString::fromStdString(offloadText(*r.offload))
                << " (parallel.offload)\n\n";
        out << "  " << header;
        if (base)
            out << "  " << candidateLine(*base) << "   (your plan)\n";
        else
            out << "  your plan is not valid or does not fit in memory\n";
        int rank = 1;
        for (const PlanCandidate& c : r.top)
            out << QString("%1 ").arg(rank++, 2) << candidateLine(c)
                << (base ? QString("   %1x").arg(base->timeToTrain / c.timeToTrain, 0, 'f', 2) : QString()) << "\n";
        if (*objective == Objective::Cost) {
            if (costed.naive)
                out << "   " << candidateLine(*costed.naive) << "   (naive: largest DP that fits, no tuning)\n";
            if (r.top.empty())
                out << "\nNo plan both fits and finishes.\n";
            else
                out << QString("\nThe cheapest plan saves %1% against the naive plan and %2% against yours.\n")
                           .arg(100 * costed.savingVsNaive, 0, 'f', 1).arg(100 * costed.savingVsGiven, 0, 'f', 1);
        }
        out << "\nRejected:";
        for (auto it = rejected.begin(); it != rejected.end(); ++it)
            out << " " << it.key() << " " << it.value().toInteger();
        out << "\n";
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
