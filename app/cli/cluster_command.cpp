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

#include "simcore/report_check.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace dtsim::cli {

namespace {

QJsonObject resultJson(const ClusterResult& r)
{
    QJsonArray projects;
    for (const ProjectResult& p : r.projects)
        projects.append(QJsonObject { { "name", QString::fromStdString(p.name) }, { "quota", p.quota }, { "jobs", p.jobs },
            { "finished", p.finished }, { "mean_queue_s", p.meanQueueSeconds }, { "mean_completion_s", p.meanCompletionSeconds },
            { "mean_slowdown", p.meanSlowdown }, { "entitlement", p.entitlement }, { "gpu_hours", p.gpuHours }, { "wasted_gpu_hours", p.wastedGpuHours },
            { "cost_usd", p.costUsd } });
    return QJsonObject { { "policy", QString::fromStdString(r.policy) }, { "utilization", r.meanUtilization },
        { "mean_queue_s", r.meanQueueSeconds }, { "jain_fairness", r.jainFairness }, { "preemptions", r.preemptions },
        { "failures", r.failures }, { "wasted_gpu_hours", r.wastedGpuHours }, { "makespan_s", r.makespan },
        { "infeasible_jobs", r.infeasible }, { "projects", projects } };
}

// The jobs, one a line, written directly: a QJsonObject per job costs a kilobyte and
// microseconds each, too much for the 200,000 jobs a workload may have.
std::string jobsJson(const ClusterResult& r)
{
    auto text = [](std::string& out, const std::string& s) {
        out += '"';
        for (unsigned char c : s) {
            if (c == '"' || c == '\\')
                out += '\\', out += char(c);
            else if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else
                out += char(c);
        }
        out += '"';
    };
    auto number = [](std::string& out, const char* key, double v) {
        if (!std::isfinite(v))
            throw InputError("dtsim-cli", 0, std::string("jobs.") + key, badQuantityMessage(std::string("jobs.") + key));
        char buf[32];
        const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
        out += ", \"";
        out += key;
        out += "\": ";
        out.append(buf, end);
    };
    std::string out = "[";
    for (std::size_t i = 0; i < r.jobs.size(); ++i) {
        const SchedJob& j = r.jobs[i];
        out += i ? ",\n    {\"id\": " : "\n    {\"id\": ";
        text(out, j.spec.id);
        out += ", \"project\": ";
        text(out, r.projects[j.spec.project].name);
        number(out, "gpus", double(j.spec.gpus));
        number(out, "arrival_s", j.spec.arrival);
        if (j.firstStart >= 0) // a job that never started (or never ended) has no time for it
            number(out, "start_s", j.firstStart);
        if (j.end >= 0)
            number(out, "end_s", j.end);
        number(out, "queue_s", j.queueSeconds);
        number(out, "preemptions", j.preemptions);
        number(out, "failures", j.failures);
        number(out, "gpu_hours", j.gpuSeconds / 3600);
        number(out, "wasted_gpu_hours", j.wastedGpuSeconds / 3600);
        out += ", \"state\": ";
        out += j.state == SchedJob::State::Done ? "\"done\"" : j.state == SchedJob::State::Infeasible ? "\"infeasible\"" : "\"unfinished\"";
        out += '}';
    }
    out += r.jobs.empty() ? "]" : "\n  ]";
    return out;
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
        FieldLocator where;
        const Scenario s = loadScenarioArgument(p, d, &where);
        if (s.workload.empty())
            where.fail("workload", "the scenario has no workload section (projects and jobs); see docs/scenario.md");
        // Too large to simulate, or jobs that could never finish: refused before any work.
        if (const auto issue = clusterIssue(s, d.failureRates))
            where.fail(issue->field, issue->reason);
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
        std::string jobs;
        QTextStream out(stdout);
        for (const std::string& name : policies) {
            QElapsedTimer timer;
            timer.start();
            const ClusterResult r = sim.run(*makePolicy(name));
            const double ms = timer.nsecsElapsed() / 1e6;
            if (!r.refused.empty())
                throw InputError(where.file(), 0, "workload", r.refused); // clusterIssue said it first; a safety net
            if (p.isSet("json"))
                results.append(resultJson(r));
            else
                printResult(out, r, ms);
            if (p.isSet("json") && !p.isSet("compare"))
                jobs = jobsJson(r);
        }
        if (p.isSet("json") && p.isSet("compare"))
            printJson(QJsonDocument(QJsonObject { { "policies", results } }));
        else if (p.isSet("json")) {
            // One policy: its figures, then "jobs" spliced in before the closing brace.
            QJsonObject o = results.first().toObject();
            const QString slot = "\x01jobs\x01"; // a string no project name holds
            o["jobs"] = slot;
            const QString head = jsonText(QJsonDocument(o)); // checked for non-finite numbers
            const qsizetype at = head.indexOf("\"\\u0001jobs\\u0001\"");
            out << head.left(at);
            out.flush();
            std::fwrite(jobs.data(), 1, jobs.size(), stdout); // as it is: no second copy as a QString
            std::fflush(stdout);
            out << head.mid(at + int(qstrlen("\"\\u0001jobs\\u0001\"")));
        }
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
