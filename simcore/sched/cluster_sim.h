#pragma once
// A shared cluster over time: jobs arrive, wait, are placed on nodes by a scheduling
// policy, train at the speed the engine gives their allocation, checkpoint, fail,
// are preempted (losing the work since their last checkpoint), grow and shrink, and end.
// Discrete events ordered by (time, sequence number); seeded, so deterministic.
#include "../random.h"
#include "../calibration.h"
#include "../plan_check.h"
#include "../reliability/reliability.h"
#include "../scenario.h"
#include "job_speed.h"
#include "node_pool.h"
#include "wait_queue.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dtsim {

struct SchedJob {
    JobSpec spec;
    enum class State { Waiting, Running, Done, Infeasible } state = State::Waiting;
    double work = 0;              // tokens to train
    double progressAtSegment = 0; // tokens done when the current run segment began
    double segmentStart = 0;      // when it began training (after any recovery)
    double rate = 0;              // tokens per second now
    long long gpus = 0;           // held now
    std::vector<int> nodes;       // held now
    bool borrowed = false;        // fair share: running beyond its project's quota
    double firstStart = -1, end = -1, waitingSince = 0;
    double queueSeconds = 0;      // total time waiting (re-queues included)
    double gpuSeconds = 0, wastedGpuSeconds = 0;
    int preemptions = 0, failures = 0;
    int version = 0;              // invalidates scheduled completions when the allocation changes
};

// One span of one job on some nodes, for the cluster Gantt.
struct Allocation {
    int job = 0;
    double start = 0, end = 0;
    std::vector<int> nodes;
};

struct ProjectResult {
    std::string name;
    int jobs = 0, finished = 0;
    double meanQueueSeconds = 0, meanCompletionSeconds = 0, meanSlowdown = 0;
    double gpuHours = 0, wastedGpuHours = 0, costUsd = 0;
    double quota = 0;
    double entitlement = 1; // share of its due held while it was short (see jainFairness)
};

struct ClusterResult {
    std::string policy;
    long long totalGpus = 0;
    int nodes = 0, nodesPerPod = 0;
    std::vector<SchedJob> jobs;
    std::vector<Allocation> allocations;
    std::vector<std::pair<double, double>> utilization; // (time, busy share) at each change
    std::vector<std::pair<double, int>> queueLength;     // (time, waiting jobs) at each change
    std::vector<ProjectResult> projects;
    double makespan = 0;
    double meanUtilization = 0;  // GPU-seconds used / (GPUs x makespan)
    double meanQueueSeconds = 0;
    // Jain's index over projects of their entitlement: the share of what they were due,
    // min(quota, held + waiting jobs that fit the quota), that they held while due more
    // (a project never short counts 1). 1: every project got its due whenever it asked.
    double jainFairness = 0;
    int preemptions = 0, failures = 0, infeasible = 0;
    double wastedGpuHours = 0;
    bool cancelled = false;
    std::string refused; // why nothing was simulated (clusterIssue), or empty
};

// Past these a workload is not simulated but refused, naming the field to change: the
// simulation costs what its events cost, and each job's allocation must be able to
// reach its next checkpoint between failures.
inline constexpr long long kMaxClusterNodes = 1000000;
inline constexpr double kMaxClusterEvents = 1e6; // about a second and a half of simulation
inline constexpr int kMaxGeneratedJobs = 200000;
inline constexpr double kMaxJobRetryFactor = 20; // e^{tau / M}: expected tries of one checkpoint interval

// Failures a node sees a second: every component of every unit on it (reliability model).
double nodeFailureRate(const ClusterSpec& c, const FailureRates& rates);

// Why `s`'s workload cannot be simulated (too many nodes or events, or jobs whose
// allocation fails more often than they checkpoint), or nullopt. ClusterSim::run
// refuses the same workloads; callers ask first to name the field.
std::optional<PlanIssue> clusterIssue(const Scenario& s, const FailureRates& rates);

class ClusterSim;

// A scheduling policy: called whenever something changes; it starts, preempts and
// resizes jobs through the simulation's actions. New policies subclass this.
class SchedulingPolicy {
public:
    // The queue queries a policy uses; the simulation keeps only those up to date (each
    // costs O(log n) a queue change). A policy that does not say gets them all.
    enum Queries : unsigned { Arrival = 1, ByProject = 2, ByLevel = 4, All = 7 };
    virtual ~SchedulingPolicy() = default;
    virtual const char* name() const = 0;
    virtual void schedule(ClusterSim& sim) = 0;
    virtual unsigned queries() const { return All; }
};

std::unique_ptr<SchedulingPolicy> makePolicy(const std::string& name); // null when unknown
std::vector<std::string> policyNames();

class ClusterSim {
public:
    ClusterSim(const Scenario& s, const Calibration& c, const FailureRates& rates, double gpuHourUsd);

    ClusterResult run(SchedulingPolicy& policy, const std::atomic<bool>* cancel = nullptr);

    // --- What policies see and do -------------------------------------------------
    double now() const { return m_now; }
    long long totalGpus() const { return m_totalGpus; }
    long long freeGpus() const { return m_freeNodes * m_gpusPerNode; }
    const std::vector<SchedJob>& jobs() const { return m_jobs; }
    // The waiting jobs by arrival (jobs are indexed in arrival order). Policies search
    // them with the queries below, which cost O(log n) a hit, not a walk of the queue.
    std::vector<int> waiting() const { return m_waitAll.queue(0).positions(); } // O(waiting): for observers
    int waitingCount() const { return m_waitAll.queue(0).size(); }
    int firstWaiting() const { return m_waitAll.queue(0).first(); }
    // The first waiting job after job `after` (-1: from the start) that passes `leaf`;
    // `node` is a necessary condition on a range's minimum needs, to skip it whole.
    template <typename NodeTest, typename LeafTest>
    int nextWaiting(int after, NodeTest node, LeafTest leaf) const { return m_waitAll.next(0, after, node, leaf); }
    // The same among one project's jobs, or among the jobs of one priority level.
    template <typename NodeTest, typename LeafTest>
    int nextWaitingOfProject(int project, int after, NodeTest node, LeafTest leaf) const
    {
        return m_waitByProject.next(project, after, node, leaf);
    }
    template <typename NodeTest, typename LeafTest>
    int nextWaitingAtLevel(int level, int after, NodeTest node, LeafTest leaf) const
    {
        return m_waitByLevel.next(level, after, node, leaf);
    }
    // Priority levels, highest first, and the level of a project.
    const std::vector<int>& priorityLevels() const { return m_levels; }
    int levelOf(int project) const { return m_levelOfProject[project]; }
    const std::vector<int>& running() const { return m_running; }
    const WorkloadSpec& workload() const { return m_workload; }
    long long projectGpus(int project) const { return m_projectGpus[project]; }
    long long quotaGpus(int project) const { return m_quota[project]; }
    // Gang start: all the job's GPUs or nothing; an elastic job may start smaller (down
    // to its minimum) when its request does not fit.
    bool start(int job);
    void preempt(int job);
    void setBorrowed(int job, bool borrowed) { m_jobs[job].borrowed = borrowed; } // fair share's lending mark
    // When a running job would end on its current allocation (backfill's estimate).
    double predictedEnd(int job) const;
    double estimatedRuntime(int job) const; // waiting job at its request, packed

private:
    // Waiting jobs split into groups (all, by project, by priority level), each an
    // arrival-ordered WaitQueue over its own jobs.
    class GroupedWaits {
    public:
        void reset(const std::vector<int>& groupOfJob, int groups);
        void add(int job, const WaitNeed& need) { m_queues[m_group[job]].add(m_local[job], need); }
        void remove(int job) { m_queues[m_group[job]].remove(m_local[job]); }
        const WaitQueue& queue(int group) const
        {
            static const WaitQueue none;
            return group >= 0 && group < int(m_queues.size()) ? m_queues[group] : none;
        }
        template <typename NodeTest, typename LeafTest>
        int next(int group, int afterJob, NodeTest node, LeafTest leaf) const
        {
            if (group < 0 || group >= int(m_queues.size()))
                return -1;
            // Jobs after `afterJob` in arrival order are those of higher local index.
            const std::vector<int>& jobs = m_jobs[group];
            const int after = afterJob < 0 ? -1
                : int(std::upper_bound(jobs.begin(), jobs.end(), afterJob) - jobs.begin()) - 1;
            const int local = m_queues[group].firstAfter(after, node, leaf);
            return local < 0 ? -1 : jobs[local];
        }

    private:
        std::vector<WaitQueue> m_queues;
        std::vector<int> m_group, m_local;
        std::vector<std::vector<int>> m_jobs; // per group: its jobs, ascending
    };

    struct Event {
        double time;
        long long seq;
        enum class Kind { Arrival, Completion, Failure } kind;
        int job;
        int version;
        bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
    };
    void resetPools(const SchedulingPolicy& policy);
    void loadJobs();
    void buildWaitQueues();
    bool handle(const Event& ev, double t);
    void push(double t, Event::Kind k, int job, int version = 0);
    void enqueue(int job);
    void dequeue(int job);
    std::vector<int> place(long long gpus, int* pods);
    void takeNodes(int pod, int count, std::vector<int>& into);
    void assign(int job, long long gpus);
    void release(int job);
    double progress(const SchedJob& j, double t) const;
    double checkpointed(const SchedJob& j, double t) const;
    void scheduleCompletion(int job);
    void resize(int job, long long gpus);
    void elasticPass();
    void record();
    void finish(ClusterResult& r);
    int podsOf(const std::vector<int>& nodes) const;

    WorkloadSpec m_workload;
    JobSpeed m_speed;
    double m_gpuHourUsd = 0;
    int m_gpusPerNode = 8, m_nodes = 0, m_nodesPerPod = 0;
    long long m_totalGpus = 0;
    int m_freeNodes = 0;
    NodePool m_pool; // which nodes are free
    std::vector<int> m_podFree;
    double m_nodeFailureRate = 0; // per node per second
    double m_recovery = 0;
    double m_now = 0;
    long long m_seq = 0;
    SplitMix64 m_rng;
    SplitMix64 m_runRng;
    std::vector<SchedJob> m_jobs;
    GroupedWaits m_waitAll, m_waitByProject, m_waitByLevel;
    std::vector<int> m_levels, m_levelOfProject;
    std::vector<int> m_running;
    std::vector<long long> m_projectGpus;
    std::vector<Event> m_heap;
    std::vector<Allocation> m_allocations;
    std::vector<int> m_openAllocation; // per job: index into m_allocations, -1 when none
    std::vector<std::pair<double, double>> m_utilization;
    std::vector<std::pair<double, int>> m_queue;
    // Entitlement bookkeeping since the last record(): per project.
    double m_lastRecord = 0;
    std::vector<double> m_demandSeconds, m_satisfiedSeconds, m_lastSatisfaction;
    std::vector<char> m_lastWaiting;
    std::vector<double> m_waitingDemand; // per project: GPUs its waiting jobs within quota ask for
    std::optional<PlanIssue> m_refused;  // clusterIssue(): nothing is simulated
    std::vector<long long> m_quota;      // per project, whole nodes of GPUs
    unsigned m_queries = SchedulingPolicy::All;
};

// The job stream of a workload: its listed jobs plus the generated ones, by arrival.
std::vector<JobSpec> jobStream(const WorkloadSpec& w);

} // namespace dtsim
