// dtsim-cli run: the whole run with failures, checkpoints and stragglers, analytically
// and as a seeded Monte Carlo; with chaos events, against the clean run.
#include "cli_common.h"

#include "simcore/report_check.h"
#include "commands.h"

#include "simcore/analysis/run_outlook.h"
#include "simcore/units.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTextStream>

#include <cstdio>

namespace dtsim::cli {

namespace {

QJsonObject lostByCause(const MonteCarloResult& m)
{
    QJsonObject o;
    for (int i = 0; i < kFailureCauseCount; ++i)
        o[failureCauseName(FailureCause(i))] = m.lostGpuHoursByCause[i];
    o["checkpoints"] = m.checkpointGpuHours;
    return o;
}

QString days(double s) { return QString::fromStdString(formatDuration(s)); }
QString secs(double s) { return QString::fromStdString(formatSeconds(s)); }

// Each recovery strategy on this run: how it checkpoints, what it survives, what it costs.
QJsonArray strategiesJson(const ReliabilityReport& r)
{
    QJsonArray a;
    for (const RecoveryPlan& p : r.strategies) {
        double covered = 0, uncovered = 0;
        for (int i = 0; i < kComponentCount; ++i)
            (p.covered[std::size_t(i)] ? covered : uncovered) += r.failuresPerDayByCause[std::size_t(i)];
        QJsonObject o {
            { "name", p.name },
            { "chosen", std::string_view(p.name) == r.plan.name },
            { "segment_s", p.fastInterval },
            { "segment_stall_s", p.fastStall },
            { "storage_interval_s", std::isfinite(p.storageInterval()) ? QJsonValue(p.storageInterval()) : QJsonValue() },
            { "storage_stall_s", p.storageStall },
            { "storage_flush_s", p.storageFlush },
            { "covered_failures_per_day", covered },
            { "storage_failures_per_day", uncovered },
            { "checkpoint_overhead", p.checkpointOverhead },
            { "lost_work_overhead", p.lostWorkOverhead },
            { "recovery_overhead", p.recoveryOverhead },
            { "expected_time_to_train_s", std::isfinite(p.expectedTime) ? QJsonValue(p.expectedTime) : QJsonValue() },
        };
        if (!p.unavailable.empty())
            o["unavailable"] = QString::fromStdString(p.unavailable);
        a.append(o);
    }
    return a;
}

void printStrategies(QTextStream& out, const ReliabilityReport& r)
{
    const RecoveryPlan& p = r.plan;
    if (p.strategy != RecoveryStrategy::Storage)
        out << QString("strategy            %1: a segment of %2 (stall %3), storage checkpoint every %4\n")
                   .arg(p.name, secs(p.fastInterval), secs(p.fastStall), std::isfinite(p.storageInterval()) ? secs(p.storageInterval()) : "never");
    out << "strategies          expected time to train (overhead from checkpoints + lost work + recovery)\n";
    // Printed apart, so that strategies a fraction of a day apart read differently.
    std::vector<double> times;
    for (const RecoveryPlan& q : r.strategies)
        times.push_back(std::isfinite(q.expectedTime) ? q.expectedTime : 0.0);
    const DurationsApart apart = formatDurationsApart(times);
    std::size_t row = 0;
    for (const RecoveryPlan& q : r.strategies) {
        const QString time = QString::fromStdString(apart.values[row++] + " " + apart.unit);
        out << QString("  %1%2 ").arg(std::string_view(q.name) == p.name ? "* " : "  ").arg(q.name, -15);
        if (!q.unavailable.empty()) {
            out << "unavailable: " << QString::fromStdString(q.unavailable) << "\n";
            continue;
        }
        out << QString("%1 (+%2% + %3% + %4%)\n")
                   .arg(std::isfinite(q.expectedTime) ? time : QString("never"))
                   .arg(100 * q.checkpointOverhead, 0, 'f', 2)
                   .arg(100 * q.lostWorkOverhead, 0, 'f', 2)
                   .arg(100 * q.recoveryOverhead, 0, 'f', 2);
    }
}

// Each chaos event with what it does on this run, or why it does nothing here (a host
// OOM with nothing in host memory is said, not silently ignored).
void printChaosEvents(QTextStream& out, const Scenario& s, const ReliabilityReport& r)
{
    const std::vector<ChaosEvent>& events = s.reliability.chaos;
    for (std::size_t i = 0; i < events.size() && i < r.chaos.size(); ++i) {
        const ChaosEvent& e = events[i];
        out << QString("  %1 at %2%3: %4\n")
                   .arg(QString::fromLatin1(chaosKindName(e.kind)), QString::fromStdString(formatDuration(e.atSeconds)),
                       e.target.empty() ? QString() : QString(" (%1)").arg(QString::fromStdString(e.target)),
                       QString::fromStdString(describeChaosEffect(e, r.chaos[i])));
    }
}

void printText(const Scenario& s, const ReliabilityReport& r, const MonteCarloResult& m,
    const MonteCarloResult* clean, int trials, unsigned long long seed)
{
    QTextStream out(stdout);
    out << QString("%1: %2 GPUs\n").arg(QString::fromStdString(s.name)).arg(r.gpus);
    QString causes;
    for (int i = 0; i < kComponentCount; ++i)
        causes += QString("%1%2 %3").arg(i ? ", " : "").arg(failureCauseName(FailureCause(i))).arg(r.failuresPerDayByCause[i], 0, 'f', 2);
    out << QString("cluster MTBF        %1 (failures a day: %2)\n").arg(secs(r.clusterMtbf), causes);
    out << QString("checkpoint          %1, stalls %2").arg(QString::fromStdString(formatBytes(r.checkpointBytes)), secs(r.checkpointWrite));
    if (s.reliability.asyncCheckpoint)
        out << QString(" (async; background flush %1)").arg(secs(r.checkpointFlush));
    out << QString(", reload %1\n").arg(secs(r.checkpointLoad));
    out << QString("interval            %1, %2 steps (Young %3, Daly %4)\n").arg(secs(r.interval)).arg(r.intervalSteps).arg(secs(r.youngInterval), secs(r.dalyInterval));
    out << QString("recovery            %1 = detect %2 + drain %3 + provision %4 + load %5 + reinit %6, plus the lost work\n")
               .arg(secs(r.recovery), secs(r.detect), secs(r.drain), secs(r.provision), secs(r.checkpointLoad), secs(r.reinit));
    printStrategies(out, r);
    if (r.stepSlowdown > 0)
        out << QString("stragglers          every step %1% slower\n").arg(100 * r.stepSlowdown, 0, 'f', 1);
    out << QString("time to train       failure-free %1; expected %2 (+%3%; first order +%4%)\n")
               .arg(days(r.failureFreeTime), days(r.expectedTime))
               .arg(100 * r.overheadFraction, 0, 'f', 2).arg(100 * r.firstOrderOverhead, 0, 'f', 2);
    const DurationsApart pct = formatDurationsApart({ m.p50, m.p90, m.p99 });
    out << QString("Monte Carlo         %1 trials, seed %2: mean %3, P50 %4, P90 %5, P99 %6 %7\n")
               .arg(trials).arg(seed).arg(days(m.mean))
               .arg(QString::fromStdString(pct.values[0]), QString::fromStdString(pct.values[1]), QString::fromStdString(pct.values[2]),
                   QString::fromStdString(pct.unit));
    // The odds of the deadline, to a precision that tells P90 from P99.
    if (s.training.deadline > 0) {
        const DurationsApart odds = formatDurationsApart({ deadlineAtOdds(m, 0.9), deadlineAtOdds(m, 0.99) });
        out << QString("deadline            %1: met in %2% of the trials; met with 90% odds by %3, with 99% by %4 %5\n")
                   .arg(QString::fromStdString(formatDuration(s.training.deadline)))
                   .arg(100 * deadlineProbability(m, s.training.deadline), 0, 'f', 1)
                   .arg(QString::fromStdString(odds.values[0]), QString::fromStdString(odds.values[1]), QString::fromStdString(odds.unit));
    }
    out << QString("goodput             %1% (%2 failures per run)\n").arg(100 * m.goodput, 0, 'f', 1).arg(m.failuresMean, 0, 'f', 1);
    if (m.cappedTrials > 0)
        out << QString("capped trials       %1 of %2 stopped after 50x the expected failures (their times are lower bounds)\n")
                   .arg(m.cappedTrials).arg(trials);
    out << "GPU-hours lost      ";
    for (int i = 0; i < kFailureCauseCount; ++i)
        out << QString("%1 %2, ").arg(failureCauseName(FailureCause(i))).arg(QString::fromStdString(formatCount(m.lostGpuHoursByCause[i])));
    out << QString("checkpoints %1\n").arg(QString::fromStdString(formatCount(m.checkpointGpuHours)));
    if (r.mitigationGpuHours > 0)
        out << QString("mitigation          %1 GPU-hours of idle spares and backup workers\n").arg(QString::fromStdString(formatCount(r.mitigationGpuHours)));
    if (clean)
        out << QString("chaos events        P50 %1 against %2 without them (%3)\n")
                   .arg(days(m.p50), days(clean->p50)).arg(days(m.p50 - clean->p50));
    printChaosEvents(out, s, r);
}

// The events that do nothing on this run, and why; JSON's `chaos_no_effect` (present
// only when there are such, so that other outputs keep their keys).
QJsonArray chaosWithoutEffect(const Scenario& s, const ReliabilityReport& r)
{
    QJsonArray a;
    for (std::size_t i = 0; i < s.reliability.chaos.size() && i < r.chaos.size(); ++i)
        if (!r.chaos[i].noEffect.empty())
            a.append(QJsonObject { { "index", int(i) }, { "event", chaosKindName(s.reliability.chaos[i].kind) },
                { "reason", QString::fromStdString(r.chaos[i].noEffect) } });
    return a;
}

} // namespace

int runReliability(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "Scenario YAML file, or the name of a preset.");
    p.addOption({ "trials", "Monte Carlo trials (default 1000).", "N", "1000" });
    p.addOption({ "seed", "Random seed (default 1).", "S", "1" });
    p.addOption({ "set", "Override a scenario field (repeatable).", "path=value" });
    p.addOption({ "json", "Print JSON." });
    if (!parseCommand(p, "run", args, 1))
        return kExitBadInput;
    try {
        const EngineData d = loadEngineData(p);
        FieldLocator where;
        const Scenario s = loadScenarioArgument(p, d, &where);
        bool ok = false;
        int trials = p.value("trials").toInt(&ok);
        if (!ok || trials < 1 || trials > 1000000)
            throw InputError("--trials", 0, "", "expected a whole number from 1 to 1000000");
        const unsigned long long seed = p.value("seed").toULongLong(&ok);
        if (!ok)
            throw InputError("--seed", 0, "", "expected a non-negative whole number");

        // The Monte Carlo follows every failure: a long, failure-prone run affords fewer
        // trials. Asked for explicitly, too many is refused; by default, fewer are run.
        RunOutlookOptions options;
        options.trials = trials;
        options.seed = seed;
        options.strictTrials = p.isSet("trials");
        const RunOutlook outlook = runOutlook(s, d.calibration, d.failureRates, options);
        if (outlook.badFigure)
            throw InputError("dtsim-cli", 0, *outlook.badFigure, badQuantityMessage(*outlook.badFigure));
        if (outlook.problem)
            where.fail(outlook.problem->field, outlook.problem->reason);
        const ReliabilityReport& r = outlook.report;
        if (outlook.tooManyTrials)
            throw InputError("--trials", 0, "", "at most " + std::to_string(outlook.trials) + " trials for this run ("
                    + formatCount(r.expectedFailures) + " expected failures each" + (outlook.hasChaos ? ", run with and without the chaos events" : "") + "); dtsim follows "
                    + formatCount(kMonteCarloFailureBudget) + " failures in all");
        if (outlook.trials < trials)
            std::fprintf(stderr, "note: %d trials instead of %d: the run expects %s failures, and the Monte Carlo follows each\n",
                outlook.trials, trials, formatCount(r.expectedFailures).c_str());
        trials = outlook.trials;
        const MonteCarloResult& m = outlook.run;
        const MonteCarloResult& clean = outlook.clean;
        const bool chaos = outlook.hasChaos;
        if (!p.isSet("json")) {
            printText(s, r, m, chaos ? &clean : nullptr, trials, seed);
            return kExitOk;
        }
        QJsonObject perDay;
        for (int i = 0; i < kComponentCount; ++i)
            perDay[failureCauseName(FailureCause(i))] = r.failuresPerDayByCause[i];
        QJsonObject o {
            { "scenario", QString::fromStdString(s.name) },
            { "gpus", double(r.gpus) },
            { "cluster_mtbf_s", r.clusterMtbf },
            { "failures_per_day", perDay },
            { "checkpoint_bytes", r.checkpointBytes },
            { "checkpoint_write_s", r.checkpointWrite },
            { "checkpoint_flush_s", r.checkpointFlush },
            { "checkpoint_load_s", r.checkpointLoad },
            { "checkpoint_interval_s", r.interval },
            { "checkpoint_interval_steps", r.intervalSteps },
            { "young_interval_s", r.youngInterval },
            { "daly_interval_s", r.dalyInterval },
            { "recovery_s", r.recovery },
            { "strategy", r.plan.name },
            { "strategies", strategiesJson(r) },
            { "step_slowdown", r.stepSlowdown },
            { "failure_free_time_s", r.failureFreeTime },
            { "expected_time_to_train_s", r.expectedTime },
            { "overhead_fraction", r.overheadFraction },
            { "first_order_overhead_fraction", r.firstOrderOverhead },
            { "trials", trials },
            { "seed", QString::number(seed) },
            { "mean_s", m.mean },
            { "p50_s", m.p50 },
            { "p90_s", m.p90 },
            { "p99_s", m.p99 },
            { "goodput", m.goodput },
            { "failures_per_run", m.failuresMean },
            { "capped_trials", m.cappedTrials },
            { "lost_gpu_hours", lostByCause(m) },
            { "mitigation_gpu_hours", r.mitigationGpuHours },
        };
        o["deadline_met_90_s"] = deadlineAtOdds(m, 0.9);
        o["deadline_met_99_s"] = deadlineAtOdds(m, 0.99);
        if (s.training.deadline > 0) {
            o["deadline_s"] = s.training.deadline;
            o["deadline_probability"] = deadlineProbability(m, s.training.deadline);
        }
        if (chaos)
            o["clean"] = QJsonObject { { "mean_s", clean.mean }, { "p50_s", clean.p50 }, { "p90_s", clean.p90 },
                { "p99_s", clean.p99 }, { "goodput", clean.goodput }, { "lost_gpu_hours", lostByCause(clean) } };
        if (const QJsonArray none = chaosWithoutEffect(s, r); !none.isEmpty())
            o["chaos_no_effect"] = none;
        printJson(QJsonDocument(o));
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
