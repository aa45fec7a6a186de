// The scheduling policies. Each is a few lines over the simulation's actions (start,
// preempt, predictedEnd) and its queue queries; add one by subclassing
// SchedulingPolicy and naming it below. A pass visits only the waiting jobs that could
// start (the queries skip the rest whole), so it costs what it starts, not the queue.
#include "cluster_sim.h"

#include <algorithm>

namespace dtsim {

namespace {

// First come, first served: the head of the queue blocks everything behind it.
class FifoPolicy : public SchedulingPolicy {
public:
    const char* name() const override { return "fifo"; }
    unsigned queries() const override { return Arrival; }
    void schedule(ClusterSim& sim) override
    {
        for (int head = sim.firstWaiting(); head >= 0 && sim.start(head); head = sim.firstWaiting()) {
        }
    }
};

// EASY backfilling: the head gets a reservation at the earliest time enough GPUs free
// up; later jobs may jump ahead if they fit now and do not delay that reservation.
class BackfillPolicy : public SchedulingPolicy {
public:
    const char* name() const override { return "backfill"; }
    unsigned queries() const override { return Arrival; }
    void schedule(ClusterSim& sim) override
    {
        int head = sim.firstWaiting();
        for (; head >= 0 && sim.start(head); head = sim.firstWaiting()) {
        }
        if (head < 0)
            return;
        const long long need = sim.jobs()[head].spec.gpus;
        std::vector<std::pair<double, long long>> ends;
        for (int job : sim.running())
            ends.push_back({ sim.predictedEnd(job), sim.jobs()[job].gpus });
        std::sort(ends.begin(), ends.end());
        long long free = sim.freeGpus();
        double shadow = sim.now();
        for (const auto& [t, gpus] : ends) {
            if (free >= need)
                break;
            free += gpus;
            shadow = t;
        }
        long long spare = free - need; // GPUs the head will not need at the shadow time
        // A later job may start if it fits now and either ends before the shadow time or
        // uses only spare GPUs.
        for (int job = head;;) {
            const long long free = sim.freeGpus();
            // (On a range of jobs, its smallest request and shortest runtime: a necessary test.)
            auto fits = [&](const WaitNeed& n) { return n.gpus <= free && (n.gpus <= spare || sim.now() + n.runtime <= shadow); };
            job = sim.nextWaiting(job, fits, fits);
            if (job < 0)
                return;
            const bool endsInTime = sim.now() + sim.estimatedRuntime(job) <= shadow;
            if (sim.start(job) && !endsInTime)
                spare -= sim.jobs()[job].spec.gpus;
        }
    }
};

// Strict priority by project: a waiting job preempts lower-priority jobs (newest first)
// when that makes room for it.
class PriorityPolicy : public SchedulingPolicy {
public:
    const char* name() const override { return "priority"; }
    unsigned queries() const override { return ByLevel; }
    void schedule(ClusterSim& sim) override
    {
        auto priority = [&](int job) {
            const int p = sim.jobs()[job].spec.project;
            return p < int(sim.workload().projects.size()) ? sim.workload().projects[p].priority : 0;
        };
        // Jobs preempted in this pass wait for the next one.
        std::vector<int> preempted;
        auto wasPreempted = [&](int job) { return std::find(preempted.begin(), preempted.end(), job) != preempted.end(); };
        const std::vector<int>& levels = sim.priorityLevels();
        for (int level = 0; level < int(levels.size()); ++level) {
            for (int job = -1;;) {
                // Startable: on the free GPUs, or on those plus what lower levels hold.
                long long lower = 0;
                for (int r : sim.running())
                    if (priority(r) < levels[level])
                        lower += sim.jobs()[r].gpus;
                const long long free = sim.freeGpus();
                job = sim.nextWaitingAtLevel(level, job,
                    [&](const WaitNeed& n) { return n.minStart <= free || n.gpus <= free + lower; },
                    [&](const WaitNeed& n) { return n.minStart <= free || n.gpus <= free + lower; });
                if (job < 0)
                    break;
                if (wasPreempted(job) || sim.start(job))
                    continue;
                const long long need = sim.jobs()[job].spec.gpus;
                std::vector<int> victims;
                long long freeable = sim.freeGpus();
                std::vector<int> running = sim.running();
                std::stable_sort(running.begin(), running.end(), [&](int a, int b) {
                    if (priority(a) != priority(b))
                        return priority(a) < priority(b);
                    return sim.jobs()[a].firstStart > sim.jobs()[b].firstStart;
                });
                for (int r : running) {
                    if (freeable >= need || priority(r) >= priority(job))
                        break;
                    victims.push_back(r);
                    freeable += sim.jobs()[r].gpus;
                }
                if (freeable < need)
                    continue;
                for (int v : victims) {
                    sim.preempt(v);
                    preempted.push_back(v);
                }
                sim.start(job);
            }
        }
    }
};

// Fair share with quotas: the least-served project (GPUs held / quota) goes first.
// Within its quota a job may reclaim GPUs lent to over-quota projects by preempting
// them; beyond its quota a job only borrows idle GPUs, and is the first reclaimed.
class FairSharePolicy : public SchedulingPolicy {
public:
    const char* name() const override { return "fair-share"; }
    unsigned queries() const override { return ByProject; }
    void schedule(ClusterSim& sim) override
    {
        const int projects = std::max<int>(1, int(sim.workload().projects.size()));
        auto share = [&](int p) {
            const double quota = std::max(1.0, double(sim.quotaGpus(p)));
            return double(sim.projectGpus(p)) / quota;
        };
        markBorrowed(sim);
        // Each project's waiting jobs by arrival; a job that cannot start now is passed
        // over (not its whole project), so small jobs fill what the big ones cannot use.
        // The queue queries skip the jobs that could not start at all.
        std::vector<int> cursor(projects, -1);
        std::vector<char> done(projects, 0);
        std::vector<int> preempted; // wait for the next pass
        for (;;) {
            int p = -1;
            for (int q = 0; q < projects; ++q)
                if (!done[q] && (p < 0 || share(q) < share(p)))
                    p = q;
            if (p < 0)
                return;
            long long lent = 0;
            for (int r : sim.running())
                if (sim.jobs()[r].borrowed)
                    lent += sim.jobs()[r].gpus;
            const long long free = sim.freeGpus();
            const long long room = sim.quotaGpus(p) - sim.projectGpus(p); // within quota
            auto could = [&](const WaitNeed& n) { return n.minStart <= free || (n.gpus <= room && n.gpus <= free + lent); };
            const int job = sim.nextWaitingOfProject(p, cursor[p], could, could);
            if (job < 0) {
                done[p] = 1;
                continue;
            }
            cursor[p] = job;
            if (std::find(preempted.begin(), preempted.end(), job) != preempted.end())
                continue;
            const long long gpus = sim.jobs()[job].spec.gpus;
            const bool withinQuota = sim.projectGpus(p) + gpus <= sim.quotaGpus(p);
            if (sim.start(job) || (withinQuota && reclaim(sim, gpus, preempted) && sim.start(job)))
                markBorrowed(sim);
        }
    }

private:
    // Within each project, the jobs running longest hold its quota; the GPUs beyond it,
    // on the most recently started jobs, are borrowed (and reclaimable). Redone after
    // every start, so a job becomes the project's own once older ones end.
    static void markBorrowed(ClusterSim& sim)
    {
        std::vector<int> running = sim.running();
        std::stable_sort(running.begin(), running.end(),
            [&](int a, int b) { return sim.jobs()[a].segmentStart < sim.jobs()[b].segmentStart; });
        std::vector<long long> held(std::max<std::size_t>(1, sim.workload().projects.size()), 0);
        for (int job : running) {
            const SchedJob& j = sim.jobs()[job];
            held[j.spec.project] += j.gpus;
            sim.setBorrowed(job, held[j.spec.project] > sim.quotaGpus(j.spec.project));
        }
    }

    // Preempts borrowed jobs (newest first) until `need` GPUs are free; false, and
    // nothing preempted, when all the borrowed GPUs would not be enough.
    static bool reclaim(ClusterSim& sim, long long need, std::vector<int>& preempted)
    {
        std::vector<int> lent;
        long long freeable = sim.freeGpus();
        for (int r : sim.running())
            if (sim.jobs()[r].borrowed)
                lent.push_back(r);
        std::stable_sort(lent.begin(), lent.end(), [&](int a, int b) { return sim.jobs()[a].firstStart > sim.jobs()[b].firstStart; });
        std::vector<int> victims;
        for (int r : lent) {
            if (freeable >= need)
                break;
            victims.push_back(r);
            freeable += sim.jobs()[r].gpus;
        }
        if (freeable < need)
            return false;
        for (int v : victims) {
            sim.preempt(v);
            preempted.push_back(v);
        }
        return true;
    }
};

} // namespace

std::unique_ptr<SchedulingPolicy> makePolicy(const std::string& name)
{
    if (name == "fifo")
        return std::make_unique<FifoPolicy>();
    if (name == "backfill")
        return std::make_unique<BackfillPolicy>();
    if (name == "priority")
        return std::make_unique<PriorityPolicy>();
    if (name == "fair-share")
        return std::make_unique<FairSharePolicy>();
    return nullptr;
}

std::vector<std::string> policyNames() { return { "fifo", "backfill", "priority", "fair-share" }; }

} // namespace dtsim
