// dtsim-cli cluster: a shared cluster's job stream under a scheduling policy.
#include "cli_common.h"
#include "commands.h"

#include "simcore/cost/cost.h"
#include "simcore/sched/cluster_sim.h"
#include "simcore/units.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QTextStream>

namespace dtsim::cli {

namespace {

QJsonObject resultJson(const ClusterResult& r, bool withJobs)
{
    QJsonArray projects, jobs;
    for (const ProjectResult& p : r.projects)
        projects.append(QJsonObject { { "name", QString::fromStdString(p.name) }, { "quota", p.quota }, { "jobs", p.jobs },
            { "finished", p.finished }, { "mean_queue_s", p.meanQueueSeconds }, { "mean_completion_s", p.meanCompletionSeconds },
            { "mean_slowdown", p.meanSlowdown }, { "entitlement", p.entitlement }, { "gpu_hours", p.gpuHours }, { "wasted_gpu_hours", p.wastedGpuHours },
            { "cost_usd", p.costUsd } });
    if (withJobs)
        for (const SchedJob& j : r.jobs)
            jobs.append(QJsonObject { { "id", QString::fromStdString(j.spec.id) },
                { "project", QString::fromStdString(r.projects[j.spec.project].name) }, { "gpus", double(j.spec.gpus) },
                { "arrival_s", j.spec.arrival }, { "start_s", j.firstStart }, { "end_s", j.end }, { "queue_s", j.queueSeconds },
                { "preemptions", j.preemptions }, { "failures", j.failures }, { "gpu_hours", j.gpuSeconds / 3600 },
                { "wasted_gpu_hours", j.wastedGpuSeconds / 3600 },
                { "state", j.state == SchedJob::State::Done ? "done" : j.state == SchedJob::State::Infeasible ? "infeasible"
                                                                                                            : "unfinished" } });
    QJsonObject o { { "policy", QString::fromStdString(r.policy) }, { "utilization", r.meanUtilization },
        { "mean_queue_s", r.meanQueueSeconds }, { "jain_fairness", r.jainFairness }, { "preemptions", r.preemptions },
        { "failures", r.failures }, { "wasted_gpu_hours", r.wastedGpuHours }, { "makespan_s", r.makespan },
        { "infeasible_jobs", r.infeasible }, { "projects", projects } };
    if (withJobs)
        o["jobs"] = jobs;
    return o;
}

void printResult(QTextStream& out, const ClusterResult& r, double ms)
{
    out << QString("%1: utilization %2%, mean queue %3, Jain fairness %4, %5 preemptions, %6 failures, "
                   "%7 GPU-hours wasted, makespan %8 (%9 ms)\n")
               .arg(QString::fromStdString(r.policy), -10).arg(100 * r.meanUtilization, 0, 'f', 1)
               .arg(QString::fromStdString(formatDuration(r.meanQueueSeconds))).arg(r.jainFairness, 0, 'f', 3)
               .arg(r.preemptions).arg(r.failures).arg(r.wastedGpuHours, 0, 'f', 0)
               .arg(QString::fromStdString(formatDuration(r.makespan))).arg(ms, 0, 'f', 0);
    for (const ProjectResult& p : r.projects)
        out << QString("    %1 quota %2%: %3/%4 jobs done, queue %5, completion %6, slowdown %7, %8 GPU-h, $%9, "
                       "held %10% of its due while short\n")
                   .arg(QString::fromStdString(p.name), -10).arg(100 * p.quota, 0, 'f', 0).arg(p.finished).arg(p.jobs)
                   .arg(QString::fromStdString(formatDuration(p.meanQueueSeconds)))
                   .arg(QString::fromStdString(formatDuration(p.meanCompletionSeconds))).arg(p.meanSlowdown, 0, 'f', 2)
                   .arg(p.gpuHours, 0, 'f', 0).arg(QString::fromStdString(formatCount(p.costUsd)))
                   .arg(100 * p.entitlement, 0, 'f', 0);
}

} // namespace

int runCluster(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "Scenario YAML file with a workload section, or the name of a preset.");
    p.addOption({ "policy", "fifo, backfill, priority or fair-share (default: the scenario's).", "NAME" });
    p.addOption({ "compare", "Run every policy on the same job stream." });
    p.addOption({ "set", "Override a scenario field (repeatable).", "path=value" });
    p.addOption({ "json", "Print JSON." });
    if (!parseCommand(p, "cluster", args, 1))
        return kExitBadInput;
    try {
        const EngineData d = loadEngineData(p);
        const Scenario s = loadScenarioArgument(p, d);
        const std::string where = p.positionalArguments().first().toStdString();
        if (s.workload.empty())
            throw InputError(where, 0, "workload", "the scenario has no workload section (projects and jobs); see docs/scenario.md");
        std::vector<std::string> policies { s.workload.policy };
        if (p.isSet("policy")) {
            const std::string name = p.value("policy").toStdString();
            if (!makePolicy(name))
                throw InputError("--policy", 0, "", "\"" + name + "\" is not one of: fifo, backfill, priority, fair-share");
            policies = { name };
        }
        if (p.isSet("compare"))
            policies = policyNames();
        ClusterSim sim(s, d.calibration, d.failureRates, gpuHourUsd(s, d.costRates));
        QJsonArray results;
        QTextStream out(stdout);
        for (const std::string& name : policies) {
            QElapsedTimer timer;
            timer.start();
            const ClusterResult r = sim.run(*makePolicy(name));
            const double ms = timer.nsecsElapsed() / 1e6;
            if (p.isSet("json"))
                results.append(resultJson(r, !p.isSet("compare")));
            else
                printResult(out, r, ms);
        }
        if (p.isSet("json"))
            printJson(QJsonDocument(p.isSet("compare") ? QJsonObject { { "policies", results } } : results.first().toObject()));
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
