#include "cluster_sim.h"

#include "../random.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>

namespace dtsim {

void ClusterSim::GroupedWaits::reset(const std::vector<int>& groupOfJob, int groups)
{
    m_group = groupOfJob;
    m_local.assign(groupOfJob.size(), 0);
    m_jobs.assign(std::max(0, groups), {});
    for (int j = 0; j < int(groupOfJob.size()); ++j) {
        m_local[j] = int(m_jobs[groupOfJob[j]].size());
        m_jobs[groupOfJob[j]].push_back(j);
    }
    m_queues.assign(m_jobs.size(), WaitQueue {});
    for (std::size_t g = 0; g < m_jobs.size(); ++g)
        m_queues[g].reset(int(m_jobs[g].size()));
}

ClusterSim::ClusterSim(const Scenario& s, const Calibration& c, const FailureRates& rates, double gpuHourUsd)
    : m_workload(s.workload)
    , m_speed(s, c)
    , m_gpuHourUsd(gpuHourUsd)
{
    m_gpusPerNode = std::max(1, s.cluster.gpusPerNode);
    m_nodes = static_cast<int>(s.cluster.gpus / m_gpusPerNode);
    m_totalGpus = (long long)m_nodes * m_gpusPerNode;
    m_nodesPerPod = s.cluster.tierCount > 0 ? std::max(1, s.cluster.tiers[0].spanGpus / m_gpusPerNode) : m_nodes;
    m_nodesPerPod = std::clamp(m_nodesPerPod, 1, std::max(1, m_nodes));
    const FailureRates own = scenarioRates(rates, s.reliability);
    m_nodeFailureRate = nodeFailureRate(s.cluster, own);
    m_recovery = own.detect + own.drain + own.provisionSpare + own.reinit;
    m_rng.state = s.workload.generator.seed * 7919 + 17;
    m_refused = clusterIssue(s, rates);
}


void ClusterSim::push(double t, Event::Kind k, int job, int version)
{
    m_heap.push_back({ t, m_seq++, k, job, version });
    std::push_heap(m_heap.begin(), m_heap.end(), std::greater<>());
}

int ClusterSim::podsOf(const std::vector<int>& nodes) const
{
    int pods = 0, last = -1;
    for (int n : nodes) { // nodes are sorted
        const int pod = n / m_nodesPerPod;
        if (pod != last) {
            ++pods;
            last = pod;
        }
    }
    return std::max(1, pods);
}

void ClusterSim::takeNodes(int pod, int count, std::vector<int>& into)
{
    const int first = pod * m_nodesPerPod, last = std::min(m_nodes, first + m_nodesPerPod);
    m_pool.takeLowest(first, last, count, into); // the lowest-numbered free nodes of the pod
}

std::vector<int> ClusterSim::place(long long gpus, int* pods)
{
    const int need = static_cast<int>((gpus + m_gpusPerNode - 1) / m_gpusPerNode);
    std::vector<int> nodes;
    nodes.reserve(need);
    const int podCount = int(m_podFree.size());
    if (m_workload.topologyAware) {
        // Best fit: the fullest pod that still holds the whole job; else the emptiest
        // pods first, so the job spans as few pods as it can.
        int best = -1;
        for (int p = 0; p < podCount; ++p)
            if (m_podFree[p] >= need && (best < 0 || m_podFree[p] < m_podFree[best]))
                best = p;
        if (best >= 0) {
            takeNodes(best, need, nodes);
        } else {
            std::vector<int> order(podCount);
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return m_podFree[a] > m_podFree[b]; });
            for (int p : order) {
                if (int(nodes.size()) >= need)
                    break;
                takeNodes(p, std::min(m_podFree[p], need - int(nodes.size())), nodes);
            }
        }
    } else {
        for (int p = 0; p < podCount && int(nodes.size()) < need; ++p)
            takeNodes(p, need - int(nodes.size()), nodes);
    }
    // The nodes are taken from the pool here; assign() books the rest.
    std::sort(nodes.begin(), nodes.end());
    *pods = podsOf(nodes);
    return nodes;
}

double ClusterSim::progress(const SchedJob& j, double t) const
{
    return j.progressAtSegment + j.rate * std::max(0.0, t - j.segmentStart);
}

double ClusterSim::checkpointed(const SchedJob& j, double t) const
{
    if (t <= j.segmentStart)
        return j.progressAtSegment;
    const double tau = std::max(1.0, m_workload.checkpointInterval);
    return j.progressAtSegment + j.rate * std::floor((t - j.segmentStart) / tau) * tau;
}

void ClusterSim::scheduleCompletion(int job)
{
    SchedJob& j = m_jobs[job];
    ++j.version;
    const double end = j.segmentStart + std::max(0.0, j.work - j.progressAtSegment) / j.rate;
    push(end, Event::Kind::Completion, job, j.version);
    // The next failure of one of its nodes (a Poisson process of rate nodes x node
    // rate, restarted with every allocation): failures cost events only while jobs run.
    // A failure due after the job would end changes nothing: not pushed, so it costs
    // neither an event nor a scheduling pass.
    const double rate = m_nodeFailureRate * double(j.nodes.size());
    if (rate > 0)
        if (const double failAt = m_now + m_runRng.exponential(rate); failAt < end)
            push(failAt, Event::Kind::Failure, job, j.version);
}

void ClusterSim::enqueue(int job)
{
    const SchedJob& j = m_jobs[job];
    WaitNeed need;
    need.gpus = j.spec.gpus;
    need.minStart = j.spec.minGpus > 0 ? std::min(j.spec.gpus, j.spec.minGpus) : j.spec.gpus;
    need.runtime = estimatedRuntime(job);
    m_waitAll.add(job, need); // always: waitingCount() and the queue length need it
    if (m_queries & SchedulingPolicy::ByProject)
        m_waitByProject.add(job, need);
    if (m_queries & SchedulingPolicy::ByLevel)
        m_waitByLevel.add(job, need);
    if (j.spec.gpus <= quotaGpus(j.spec.project))
        m_waitingDemand[j.spec.project] += double(j.spec.gpus);
}

void ClusterSim::dequeue(int job)
{
    const SchedJob& j = m_jobs[job];
    m_waitAll.remove(job);
    if (m_queries & SchedulingPolicy::ByProject)
        m_waitByProject.remove(job);
    if (m_queries & SchedulingPolicy::ByLevel)
        m_waitByLevel.remove(job);
    if (j.spec.gpus <= quotaGpus(j.spec.project))
        m_waitingDemand[j.spec.project] -= double(j.spec.gpus);
}

void ClusterSim::assign(int job, long long gpus)
{
    SchedJob& j = m_jobs[job];
    int pods = 1;
    j.nodes = place(gpus, &pods);
    for (int n : j.nodes)
        --m_podFree[n / m_nodesPerPod];
    m_freeNodes -= int(j.nodes.size());
    j.gpus = gpus;
    double rate = m_speed.tokensPerSecond(gpus, pods);
    if (rate <= 0)
        rate = m_speed.tokensPerSecond(gpus, 1); // the split network is not expressible: packed speed
    j.rate = rate;
    m_projectGpus[j.spec.project] += gpus;
    m_openAllocation[job] = int(m_allocations.size());
    m_allocations.push_back({ job, m_now, m_now, j.nodes });
}

void ClusterSim::release(int job)
{
    SchedJob& j = m_jobs[job];
    for (int n : j.nodes) {
        m_pool.give(n);
        ++m_podFree[n / m_nodesPerPod];
    }
    m_freeNodes += int(j.nodes.size());
    m_projectGpus[j.spec.project] -= j.gpus;
    if (m_openAllocation[job] >= 0) {
        Allocation& a = m_allocations[m_openAllocation[job]];
        a.end = m_now;
        j.gpuSeconds += double(j.gpus) * (a.end - a.start);
        m_openAllocation[job] = -1;
    }
    j.nodes.clear();
    j.gpus = 0;
    ++j.version;
}

bool ClusterSim::start(int job)
{
    SchedJob& j = m_jobs[job];
    if (j.state != SchedJob::State::Waiting)
        return false;
    long long gpus = j.spec.gpus;
    if (gpus > freeGpus()) {
        if (j.spec.minGpus <= 0)
            return false; // gang: all or nothing
        const long long step = m_speed.granularity();
        gpus = freeGpus() / step * step;
        if (gpus < j.spec.minGpus || m_speed.tokensPerSecond(gpus, 1) <= 0)
            return false;
    }
    dequeue(job);
    m_running.push_back(job);
    j.state = SchedJob::State::Running;
    j.queueSeconds += m_now - j.waitingSince;
    if (j.firstStart < 0)
        j.firstStart = m_now;
    j.segmentStart = m_now;
    assign(job, gpus);
    scheduleCompletion(job);
    return true;
}

void ClusterSim::preempt(int job)
{
    SchedJob& j = m_jobs[job];
    if (j.state != SchedJob::State::Running)
        return;
    // Everything since the last checkpoint is lost.
    const double saved = checkpointed(j, m_now);
    if (j.rate > 0)
        j.wastedGpuSeconds += double(j.gpus) * std::max(0.0, progress(j, m_now) - saved) / j.rate; // rounding can give -1e-11
    j.progressAtSegment = saved;
    release(job);
    j.state = SchedJob::State::Waiting;
    j.waitingSince = m_now;
    j.borrowed = false;
    ++j.preemptions;
    m_running.erase(std::find(m_running.begin(), m_running.end(), job));
    enqueue(job); // back in its arrival place
}

void ClusterSim::resize(int job, long long gpus)
{
    SchedJob& j = m_jobs[job];
    // Elastic jobs reshard at the new size without losing work (the resize waits for a
    // step boundary); the time to reshard is not modelled.
    j.progressAtSegment = progress(j, m_now);
    const bool borrowed = j.borrowed;
    release(job);
    j.segmentStart = std::max(m_now, j.segmentStart);
    assign(job, gpus);
    j.borrowed = borrowed;
    scheduleCompletion(job);
}

double ClusterSim::predictedEnd(int job) const
{
    const SchedJob& j = m_jobs[job];
    if (j.state != SchedJob::State::Running || j.rate <= 0)
        return m_now;
    return j.segmentStart + std::max(0.0, j.work - j.progressAtSegment) / j.rate;
}

double ClusterSim::estimatedRuntime(int job) const
{
    return m_jobs[job].spec.duration;
}

void ClusterSim::elasticPass()
{
    const long long step = m_speed.granularity();
    if (waitingCount() > 0) {
        // Others wait: give back what was grown into idle capacity.
        for (int job : std::vector<int>(m_running))
            if (m_jobs[job].spec.maxGpus > 0 && m_jobs[job].gpus > m_jobs[job].spec.gpus)
                resize(job, m_jobs[job].spec.gpus);
        return;
    }
    for (int job : std::vector<int>(m_running)) {
        const SchedJob& j = m_jobs[job];
        if (j.spec.maxGpus <= j.gpus || freeGpus() < step)
            continue;
        long long target = std::min(j.spec.maxGpus, j.gpus + freeGpus() / step * step);
        while (target > j.gpus && m_speed.tokensPerSecond(target, 1) <= 0)
            target -= step;
        if (target > j.gpus)
            resize(job, target);
    }
}

void ClusterSim::record()
{
    // Entitlement over the span since the last record, in the state it had.
    const double dt = m_now - m_lastRecord;
    for (std::size_t p = 0; p < m_projectGpus.size(); ++p)
        if (m_lastWaiting[p]) {
            m_demandSeconds[p] += dt;
            m_satisfiedSeconds[p] += dt * m_lastSatisfaction[p];
        }
    // A project is entitled to min(quota, held + what it waits for); a waiting job
    // larger than the whole quota can only borrow, so it entitles nothing.
    // (m_waitingDemand is kept as jobs enter and leave the queue: no walk of the queue.)
    for (std::size_t p = 0; p < m_projectGpus.size(); ++p) {
        const double held = double(m_projectGpus[p]);
        const double entitled = std::min(double(quotaGpus(int(p))), held + m_waitingDemand[p]);
        m_lastWaiting[p] = entitled > held;
        m_lastSatisfaction[p] = entitled > 0 ? std::min(1.0, held / entitled) : 1.0;
    }
    m_lastRecord = m_now;

    const double busy = 1.0 - double(freeGpus()) / std::max<long long>(1, m_totalGpus);
    if (m_utilization.empty() || m_utilization.back().second != busy) {
        if (!m_utilization.empty() && m_utilization.back().first == m_now)
            m_utilization.back().second = busy;
        else
            m_utilization.push_back({ m_now, busy });
    }
    const int queued = waitingCount();
    if (m_queue.empty() || m_queue.back().second != queued) {
        if (!m_queue.empty() && m_queue.back().first == m_now)
            m_queue.back().second = queued;
        else
            m_queue.push_back({ m_now, queued });
    }
}

// The pools, quotas and fairness tallies of a fresh run, for `policy`.
void ClusterSim::resetPools(const SchedulingPolicy& policy)
{
    m_freeNodes = m_nodes;
    m_podFree.assign((m_nodes + m_nodesPerPod - 1) / m_nodesPerPod, 0);
    m_pool.reset(m_nodes);
    for (int n = 0; n < m_nodes; ++n)
        ++m_podFree[n / m_nodesPerPod];
    m_projectGpus.assign(std::max<std::size_t>(1, m_workload.projects.size()), 0);
    m_waitingDemand.assign(m_projectGpus.size(), 0.0);
    m_quota.assign(m_projectGpus.size(), 0);
    for (std::size_t p = 0; p < m_quota.size(); ++p) {
        const double q = p < m_workload.projects.size() ? m_workload.projects[p].quota : 0.0;
        m_quota[p] = static_cast<long long>(std::floor(q * m_totalGpus / m_gpusPerNode)) * m_gpusPerNode;
    }
    m_queries = policy.queries();
    m_lastRecord = 0;
    m_demandSeconds.assign(m_projectGpus.size(), 0.0);
    m_satisfiedSeconds.assign(m_projectGpus.size(), 0.0);
    m_lastSatisfaction.assign(m_projectGpus.size(), 1.0);
    m_lastWaiting.assign(m_projectGpus.size(), 0);
    m_runRng = m_rng;
}

// The workload's jobs, each rounded up to whole nodes; those no GPU count here can run
// are marked infeasible.
void ClusterSim::loadJobs()
{
    m_jobs.clear();
    for (const JobSpec& spec : jobStream(m_workload)) {
        SchedJob j;
        j.spec = spec;
        j.spec.project = std::clamp(spec.project, 0, int(m_projectGpus.size()) - 1);
        // Whole nodes, at least one.
        const long long node = m_gpusPerNode;
        j.spec.gpus = std::max(node, (spec.gpus + node - 1) / node * node);
        const double speed = j.spec.gpus <= m_totalGpus ? m_speed.tokensPerSecond(j.spec.gpus, 1) : 0.0;
        j.work = spec.duration * speed;
        if (speed <= 0)
            j.state = SchedJob::State::Infeasible;
        m_jobs.push_back(j);
    }
    m_openAllocation.assign(m_jobs.size(), -1);
}

// The waiting queues: all jobs, each project's, each priority level's (jobs are in
// arrival order, so a job's index is its place in every queue).
void ClusterSim::buildWaitQueues()
{
    const int projects = int(m_projectGpus.size());
    std::vector<int> priorities;
    for (int p = 0; p < projects; ++p)
        priorities.push_back(p < int(m_workload.projects.size()) ? m_workload.projects[p].priority : 0);
    m_levels = priorities;
    std::sort(m_levels.begin(), m_levels.end(), std::greater<>());
    m_levels.erase(std::unique(m_levels.begin(), m_levels.end()), m_levels.end());
    m_levelOfProject.assign(projects, 0);
    for (int p = 0; p < projects; ++p)
        m_levelOfProject[p] = int(std::find(m_levels.begin(), m_levels.end(), priorities[p]) - m_levels.begin());
    std::vector<int> all(m_jobs.size(), 0), byProject(m_jobs.size()), byLevel(m_jobs.size());
    for (std::size_t i = 0; i < m_jobs.size(); ++i) {
        byProject[i] = m_jobs[i].spec.project;
        byLevel[i] = m_levelOfProject[m_jobs[i].spec.project];
    }
    m_waitAll.reset(all, 1);
    m_waitByProject.reset(m_queries & SchedulingPolicy::ByProject ? byProject : std::vector<int> {}, projects);
    m_waitByLevel.reset(m_queries & SchedulingPolicy::ByLevel ? byLevel : std::vector<int> {}, int(m_levels.size()));
}

// One event at time `t`. Returns whether a job finished.
bool ClusterSim::handle(const Event& ev, double t)
{
    if (ev.kind == Event::Kind::Arrival) {
        m_jobs[ev.job].waitingSince = t;
        enqueue(ev.job);
        return false;
    }
    SchedJob& j = m_jobs[ev.job];
    if (j.state != SchedJob::State::Running || ev.version != j.version)
        return false; // the allocation changed since (a failed job's own failures were rescheduled)
    if (ev.kind == Event::Kind::Completion) {
        j.progressAtSegment = j.work;
        release(ev.job);
        j.state = SchedJob::State::Done;
        j.end = t;
        m_running.erase(std::find(m_running.begin(), m_running.end(), ev.job));
        return true;
    }
    // One of the job's nodes fails: it rolls back to its checkpoint and waits
    // for the node to be swapped and the job relaunched.
    const double saved = checkpointed(j, t);
    j.wastedGpuSeconds += double(j.gpus) * (std::max(0.0, progress(j, t) - saved) / j.rate + m_recovery);
    j.progressAtSegment = saved;
    j.segmentStart = t + m_recovery;
    ++j.failures;
    scheduleCompletion(ev.job); // and its next failure
    return false;
}

ClusterResult ClusterSim::run(SchedulingPolicy& policy, const std::atomic<bool>* cancel)
{
    // Fresh state, so one simulation can run several policies.
    m_now = 0;
    m_seq = 0;
    m_heap.clear();
    m_allocations.clear();
    m_utilization.clear();
    m_queue.clear();
    m_running.clear();
    ClusterResult result;
    result.policy = policy.name();
    if (m_refused) {
        // Too large to simulate, or jobs that could never finish: say why, do nothing.
        result.refused = m_refused->field + ": " + m_refused->reason;
        result.totalGpus = m_totalGpus;
        result.nodes = m_nodes;
        result.nodesPerPod = m_nodesPerPod;
        result.jainFairness = 1;
        return result;
    }
    resetPools(policy);
    loadJobs();
    buildWaitQueues();
    for (int i = 0; i < int(m_jobs.size()); ++i)
        if (m_jobs[i].state != SchedJob::State::Infeasible)
            push(m_jobs[i].spec.arrival, Event::Kind::Arrival, i);
    const double horizon = m_workload.horizon > 0 ? m_workload.horizon : INFINITY;
    int unfinished = 0;
    for (const SchedJob& j : m_jobs)
        unfinished += j.state != SchedJob::State::Infeasible;

    record();
    long long steps = 0;
    while (!m_heap.empty() && unfinished > 0) {
        if (cancel && (++steps & 1023) == 0 && cancel->load(std::memory_order_relaxed)) {
            result.cancelled = true;
            break;
        }
        const double t = m_heap.front().time;
        if (t > horizon)
            break;
        m_now = t;
        // Every event at this instant, then one scheduling pass.
        while (!m_heap.empty() && m_heap.front().time == t) {
            std::pop_heap(m_heap.begin(), m_heap.end(), std::greater<>());
            const Event ev = m_heap.back();
            m_heap.pop_back();
            if (handle(ev, t))
                --unfinished;
        }
        elasticPass();
        policy.schedule(*this);
        elasticPass();
        record();
    }
    finish(result);
    return result;
}

void ClusterSim::finish(ClusterResult& r)
{
    // Close what still runs at the end of the simulated window.
    for (int job : std::vector<int>(m_running)) {
        SchedJob& j = m_jobs[job];
        if (m_openAllocation[job] >= 0) {
            Allocation& a = m_allocations[m_openAllocation[job]];
            a.end = m_now;
            j.gpuSeconds += double(j.gpus) * (a.end - a.start);
            m_openAllocation[job] = -1;
        }
    }
    for (int job : waiting())
        m_jobs[job].queueSeconds += m_now - m_jobs[job].waitingSince;

    r.totalGpus = m_totalGpus;
    r.nodes = m_nodes;
    r.nodesPerPod = m_nodesPerPod;
    r.makespan = m_now;
    double gpuSeconds = 0, queue = 0;
    int counted = 0;
    r.projects.resize(m_projectGpus.size());
    for (std::size_t p = 0; p < r.projects.size(); ++p) {
        r.projects[p].name = p < m_workload.projects.size() ? m_workload.projects[p].name : "default";
        r.projects[p].quota = p < m_workload.projects.size() ? m_workload.projects[p].quota : 1.0;
    }
    std::vector<double> slowdownSum(r.projects.size(), 0.0), queueSum(r.projects.size(), 0.0), jctSum(r.projects.size(), 0.0);
    for (const SchedJob& j : m_jobs) {
        if (j.state == SchedJob::State::Infeasible) {
            ++r.infeasible;
            continue;
        }
        ProjectResult& pr = r.projects[j.spec.project];
        ++pr.jobs;
        gpuSeconds += j.gpuSeconds;
        pr.gpuHours += j.gpuSeconds / 3600;
        pr.wastedGpuHours += j.wastedGpuSeconds / 3600;
        queueSum[j.spec.project] += j.queueSeconds;
        queue += j.queueSeconds;
        ++counted;
        r.preemptions += j.preemptions;
        r.failures += j.failures;
        r.wastedGpuHours += j.wastedGpuSeconds / 3600;
        if (j.state == SchedJob::State::Done) {
            ++pr.finished;
            jctSum[j.spec.project] += j.end - j.spec.arrival;
            slowdownSum[j.spec.project] += (j.end - j.spec.arrival) / std::max(1.0, j.spec.duration);
        }
    }
    record(); // close the last span of the entitlement bookkeeping
    double sum = 0, sumSq = 0;
    int n = 0;
    for (std::size_t p = 0; p < r.projects.size(); ++p) {
        ProjectResult& pr = r.projects[p];
        pr.meanQueueSeconds = pr.jobs ? queueSum[p] / pr.jobs : 0.0;
        pr.meanCompletionSeconds = pr.finished ? jctSum[p] / pr.finished : 0.0;
        pr.meanSlowdown = pr.finished ? slowdownSum[p] / pr.finished : 0.0;
        pr.costUsd = pr.gpuHours * m_gpuHourUsd;
        pr.entitlement = m_demandSeconds[p] > 0 ? m_satisfiedSeconds[p] / m_demandSeconds[p] : 1.0;
        if (pr.quota > 0 && pr.jobs > 0) {
            sum += pr.entitlement;
            sumSq += pr.entitlement * pr.entitlement;
            ++n;
        }
    }
    r.jainFairness = n > 0 && sumSq > 0 ? sum * sum / (n * sumSq) : 1.0;
    r.meanUtilization = r.makespan > 0 ? gpuSeconds / (double(m_totalGpus) * r.makespan) : 0.0;
    r.meanQueueSeconds = counted ? queue / counted : 0.0;
    // Handed over, not copied: a million jobs' records are a few hundred MB. A next
    // run() rebuilds them from the job stream.
    r.jobs = std::move(m_jobs);
    r.allocations = std::move(m_allocations);
    r.utilization = std::move(m_utilization);
    r.queueLength = std::move(m_queue);
    m_jobs.clear();
    m_allocations.clear();
    m_utilization.clear();
    m_queue.clear();
}

} // namespace dtsim
