#pragma once
// A shared cluster over time: jobs arrive, wait, are placed on nodes by a scheduling
// policy, train at the speed the engine gives their allocation, checkpoint, fail,
// are preempted (losing the work since their last checkpoint), grow and shrink, and end.
// Discrete events ordered by (time, sequence number); seeded, so deterministic.
#include "../calibration.h"
#include "../reliability/reliability.h"
#include "../scenario.h"
#include "job_speed.h"

#include <atomic>
#include <memory>
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
};

class ClusterSim;

// A scheduling policy: called whenever something changes; it starts, preempts and
// resizes jobs through the simulation's actions. New policies subclass this.
class SchedulingPolicy {
public:
    virtual ~SchedulingPolicy() = default;
    virtual const char* name() const = 0;
    virtual void schedule(ClusterSim& sim) = 0;
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
    const std::vector<int>& waiting() const { return m_waiting; } // by arrival
    const std::vector<int>& running() const { return m_running; }
    const WorkloadSpec& workload() const { return m_workload; }
    long long projectGpus(int project) const { return m_projectGpus[project]; }
    long long quotaGpus(int project) const;
    // Gang start: all the job's GPUs or nothing; an elastic job may start smaller (down
    // to its minimum) when its request does not fit.
    bool start(int job);
    void preempt(int job);
    void setBorrowed(int job, bool borrowed) { m_jobs[job].borrowed = borrowed; } // fair share's lending mark
    // When a running job would end on its current allocation (backfill's estimate).
    double predictedEnd(int job) const;
    double estimatedRuntime(int job) const; // waiting job at its request, packed

private:
    struct Event {
        double time;
        long long seq;
        enum class Kind { Arrival, Completion, Failure } kind;
        int job;
        int version;
        bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
    };
    void push(double t, Event::Kind k, int job, int version = 0);
    std::vector<int> place(long long gpus, int* pods);
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
    std::vector<char> m_nodeBusy;
    std::vector<int> m_podFree;
    double m_nodeFailureRate = 0; // per node per second
    double m_recovery = 0;
    double m_now = 0;
    long long m_seq = 0;
    unsigned long long m_rng = 1;
    std::vector<SchedJob> m_jobs;
    std::vector<int> m_waiting, m_running;
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
};

// The job stream of a workload: its listed jobs plus the generated ones, by arrival.
std::vector<JobSpec> jobStream(const WorkloadSpec& w);

} // namespace dtsim
