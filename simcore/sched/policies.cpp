// The scheduling policies. Each is a few lines over the simulation's actions (start,
// preempt, predictedEnd); add one by subclassing SchedulingPolicy and naming it below.
#include "cluster_sim.h"

#include <algorithm>

namespace dtsim {

namespace {

// First come, first served: the head of the queue blocks everything behind it.
class FifoPolicy : public SchedulingPolicy {
public:
    const char* name() const override { return "fifo"; }
    void schedule(ClusterSim& sim) override
    {
        while (!sim.waiting().empty() && sim.start(sim.waiting().front())) {
        }
    }
};

// EASY backfilling: the head gets a reservation at the earliest time enough GPUs free
// up; later jobs may jump ahead if they fit now and do not delay that reservation.
class BackfillPolicy : public SchedulingPolicy {
public:
    const char* name() const override { return "backfill"; }
    void schedule(ClusterSim& sim) override
    {
        while (!sim.waiting().empty() && sim.start(sim.waiting().front())) {
        }
        if (sim.waiting().empty())
            return;
        const SchedJob& head = sim.jobs()[sim.waiting().front()];
        std::vector<std::pair<double, long long>> ends;
        for (int job : sim.running())
            ends.push_back({ sim.predictedEnd(job), sim.jobs()[job].gpus });
        std::sort(ends.begin(), ends.end());
        long long free = sim.freeGpus();
        double shadow = sim.now();
        for (const auto& [t, gpus] : ends) {
            if (free >= head.spec.gpus)
                break;
            free += gpus;
            shadow = t;
        }
        long long spare = free - head.spec.gpus; // GPUs the head will not need at the shadow time
        for (int job : std::vector<int>(sim.waiting().begin() + 1, sim.waiting().end())) {
            const SchedJob& j = sim.jobs()[job];
            if (j.spec.gpus > sim.freeGpus())
                continue;
            const bool endsInTime = sim.now() + sim.estimatedRuntime(job) <= shadow;
            if (!endsInTime && j.spec.gpus > spare)
                continue;
            if (sim.start(job) && !endsInTime)
                spare -= j.spec.gpus;
        }
    }
};

// Strict priority by project: a waiting job preempts lower-priority jobs (newest first)
// when that makes room for it.
class PriorityPolicy : public SchedulingPolicy {
public:
    const char* name() const override { return "priority"; }
    void schedule(ClusterSim& sim) override
    {
        auto priority = [&](int job) {
            const int p = sim.jobs()[job].spec.project;
            return p < int(sim.workload().projects.size()) ? sim.workload().projects[p].priority : 0;
        };
        std::vector<int> order = sim.waiting();
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return priority(a) > priority(b); });
        for (int job : order) {
            if (sim.start(job))
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
            for (int v : victims)
                sim.preempt(v);
            sim.start(job);
        }
    }
};

// Fair share with quotas: the least-served project (GPUs held / quota) goes first.
// Within its quota a job may reclaim GPUs lent to over-quota projects by preempting
// them; beyond its quota a job only borrows idle GPUs, and is the first reclaimed.
class FairSharePolicy : public SchedulingPolicy {
public:
    const char* name() const override { return "fair-share"; }
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
        std::vector<std::vector<int>> queues(projects);
        for (int job : sim.waiting())
            queues[sim.jobs()[job].spec.project].push_back(job);
        std::vector<std::size_t> next(projects, 0);
        for (;;) {
            int p = -1;
            for (int q = 0; q < projects; ++q)
                if (next[q] < queues[q].size() && (p < 0 || share(q) < share(p)))
                    p = q;
            if (p < 0)
                return;
            const int job = queues[p][next[p]++];
            const long long gpus = sim.jobs()[job].spec.gpus;
            const bool withinQuota = sim.projectGpus(p) + gpus <= sim.quotaGpus(p);
            if (sim.start(job) || (withinQuota && reclaim(sim, gpus) && sim.start(job)))
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
    static bool reclaim(ClusterSim& sim, long long need)
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
        for (int v : victims)
            sim.preempt(v);
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
