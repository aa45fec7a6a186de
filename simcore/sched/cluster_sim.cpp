#include "cluster_sim.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>

namespace dtsim {

namespace {

unsigned long long nextRandom(unsigned long long& state)
{
    unsigned long long z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
double uniform(unsigned long long& state) { return double(nextRandom(state) >> 11) * (1.0 / 9007199254740992.0); }

double pick(const std::vector<WeightedValue>& mix, unsigned long long& rng, double fallback)
{
    double total = 0;
    for (const WeightedValue& w : mix)
        total += w.weight;
    if (mix.empty() || total <= 0)
        return fallback;
    double u = uniform(rng) * total;
    for (const WeightedValue& w : mix) {
        if (u < w.weight)
            return w.value;
        u -= w.weight;
    }
    return mix.back().value;
}

} // namespace

std::vector<JobSpec> jobStream(const WorkloadSpec& w)
{
    std::vector<JobSpec> jobs = w.jobs;
    const JobGenerator& g = w.generator;
    unsigned long long rng = g.seed;
    double t = 0;
    const int projects = std::max<int>(1, int(w.projects.size()));
    std::vector<WeightedValue> projectMix;
    for (int p = 0; p < projects; ++p)
        projectMix.push_back({ double(p), p < int(g.projectWeights.size()) ? g.projectWeights[p] : 1.0 });
    for (int i = 0; i < g.count; ++i) {
        t += -std::log1p(-uniform(rng)) / (g.arrivalsPerHour / 3600.0);
        JobSpec j;
        j.id = "g" + std::to_string(i);
        j.arrival = t;
        j.gpus = static_cast<long long>(pick(g.sizes, rng, 8));
        j.duration = pick(g.durations, rng, 3600);
        j.project = static_cast<int>(pick(projectMix, rng, 0));
        if (uniform(rng) < g.elasticShare) {
            j.minGpus = std::max<long long>(1, j.gpus / 2);
            j.maxGpus = j.gpus * 2;
        }
        jobs.push_back(j);
    }
    std::stable_sort(jobs.begin(), jobs.end(), [](const JobSpec& a, const JobSpec& b) { return a.arrival < b.arrival; });
    return jobs;
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
    // Node failures: every component of every unit on the node (reliability model).
    const double levels = 1 + s.cluster.tierCount;
    for (int i = 0; i < kComponentCount; ++i) {
        if (rates.mtbf[i] <= 0)
            continue;
        const double units = rates.unit[i] == FailureRates::Unit::Node ? 1.0
            : rates.unit[i] == FailureRates::Unit::PortLevel            ? m_gpusPerNode * levels
                                                                        : double(m_gpusPerNode);
        m_nodeFailureRate += units / rates.mtbf[i];
    }
    m_recovery = rates.drain + rates.provisionSpare + rates.reinit;
    m_rng = s.workload.generator.seed * 7919 + 17;
}

long long ClusterSim::quotaGpus(int project) const
{
    const double q = project < int(m_workload.projects.size()) ? m_workload.projects[project].quota : 0.0;
    return static_cast<long long>(std::floor(q * m_totalGpus / m_gpusPerNode)) * m_gpusPerNode;
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

std::vector<int> ClusterSim::place(long long gpus, int* pods)
{
    const int need = static_cast<int>((gpus + m_gpusPerNode - 1) / m_gpusPerNode);
    std::vector<int> nodes;
    nodes.reserve(need);
    const int podCount = int(m_podFree.size());
    auto takeFromPod = [&](int pod, int count) {
        const int first = pod * m_nodesPerPod, last = std::min(m_nodes, first + m_nodesPerPod);
        for (int n = first; n < last && count > 0; ++n)
            if (!m_nodeBusy[n]) {
                nodes.push_back(n);
                --count;
            }
    };
    if (m_workload.topologyAware) {
        // Best fit: the fullest pod that still holds the whole job; else the emptiest
        // pods first, so the job spans as few pods as it can.
        int best = -1;
        for (int p = 0; p < podCount; ++p)
            if (m_podFree[p] >= need && (best < 0 || m_podFree[p] < m_podFree[best]))
                best = p;
        if (best >= 0) {
            takeFromPod(best, need);
        } else {
            std::vector<int> order(podCount);
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return m_podFree[a] > m_podFree[b]; });
            for (int p : order) {
                if (int(nodes.size()) >= need)
                    break;
                takeFromPod(p, std::min(m_podFree[p], need - int(nodes.size())));
            }
        }
    } else {
        for (int n = 0; n < m_nodes && int(nodes.size()) < need; ++n)
            if (!m_nodeBusy[n])
                nodes.push_back(n);
    }
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
}

void ClusterSim::assign(int job, long long gpus)
{
    SchedJob& j = m_jobs[job];
    int pods = 1;
    j.nodes = place(gpus, &pods);
    for (int n : j.nodes) {
        m_nodeBusy[n] = 1;
        --m_podFree[n / m_nodesPerPod];
    }
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
        m_nodeBusy[n] = 0;
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
    m_waiting.erase(std::find(m_waiting.begin(), m_waiting.end(), job));
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
        j.wastedGpuSeconds += double(j.gpus) * (progress(j, m_now) - saved) / j.rate;
    j.progressAtSegment = saved;
    release(job);
    j.state = SchedJob::State::Waiting;
    j.waitingSince = m_now;
    j.borrowed = false;
    ++j.preemptions;
    m_running.erase(std::find(m_running.begin(), m_running.end(), job));
    const auto at = std::lower_bound(m_waiting.begin(), m_waiting.end(), job,
        [&](int a, int b) { return m_jobs[a].spec.arrival < m_jobs[b].spec.arrival; });
    m_waiting.insert(at, job);
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
    if (!m_waiting.empty()) {
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
    std::vector<double> waitingDemand(m_projectGpus.size(), 0.0);
    for (int job : m_waiting) {
        const SchedJob& j = m_jobs[job];
        if (j.spec.gpus <= quotaGpus(j.spec.project))
            waitingDemand[j.spec.project] += double(j.spec.gpus);
    }
    for (std::size_t p = 0; p < m_projectGpus.size(); ++p) {
        const double held = double(m_projectGpus[p]);
        const double entitled = std::min(double(quotaGpus(int(p))), held + waitingDemand[p]);
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
    const int queued = int(m_waiting.size());
    if (m_queue.empty() || m_queue.back().second != queued) {
        if (!m_queue.empty() && m_queue.back().first == m_now)
            m_queue.back().second = queued;
        else
            m_queue.push_back({ m_now, queued });
    }
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
    m_waiting.clear();
    m_running.clear();
    m_nodeBusy.assign(m_nodes, 0);
    m_freeNodes = m_nodes;
    m_podFree.assign((m_nodes + m_nodesPerPod - 1) / m_nodesPerPod, 0);
    for (int n = 0; n < m_nodes; ++n)
        ++m_podFree[n / m_nodesPerPod];
    m_projectGpus.assign(std::max<std::size_t>(1, m_workload.projects.size()), 0);
    m_lastRecord = 0;
    m_demandSeconds.assign(m_projectGpus.size(), 0.0);
    m_satisfiedSeconds.assign(m_projectGpus.size(), 0.0);
    m_lastSatisfaction.assign(m_projectGpus.size(), 1.0);
    m_lastWaiting.assign(m_projectGpus.size(), 0);
    unsigned long long rng = m_rng;

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
    for (int i = 0; i < int(m_jobs.size()); ++i)
        if (m_jobs[i].state != SchedJob::State::Infeasible)
            push(m_jobs[i].spec.arrival, Event::Kind::Arrival, i);
    const double failureRate = m_nodeFailureRate * m_nodes;
    if (failureRate > 0)
        push(-std::log1p(-uniform(rng)) / failureRate, Event::Kind::Failure, -1);
    const double horizon = m_workload.horizon > 0 ? m_workload.horizon : INFINITY;
    int unfinished = 0;
    for (const SchedJob& j : m_jobs)
        unfinished += j.state != SchedJob::State::Infeasible;

    ClusterResult result;
    result.policy = policy.name();
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
            if (ev.kind == Event::Kind::Arrival) {
                m_jobs[ev.job].waitingSince = t;
                m_waiting.push_back(ev.job);
            } else if (ev.kind == Event::Kind::Completion) {
                SchedJob& j = m_jobs[ev.job];
                if (j.state != SchedJob::State::Running || ev.version != j.version)
                    continue; // the allocation changed since
                j.progressAtSegment = j.work;
                release(ev.job);
                j.state = SchedJob::State::Done;
                j.end = t;
                m_running.erase(std::find(m_running.begin(), m_running.end(), ev.job));
                --unfinished;
            } else {
                // A node fails; its job (if any) rolls back to its checkpoint and waits
                // for the node to be swapped and the job relaunched.
                const int node = std::min(m_nodes - 1, int(uniform(rng) * m_nodes));
                for (int job : m_running) {
                    SchedJob& j = m_jobs[job];
                    if (!std::binary_search(j.nodes.begin(), j.nodes.end(), node))
                        continue;
                    const double saved = checkpointed(j, t);
                    j.wastedGpuSeconds += double(j.gpus) * ((progress(j, t) - saved) / j.rate + m_recovery);
                    j.progressAtSegment = saved;
                    j.segmentStart = t + m_recovery;
                    ++j.failures;
                    scheduleCompletion(job);
                    break;
                }
                push(t - std::log1p(-uniform(rng)) / failureRate, Event::Kind::Failure, -1);
            }
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
    for (int job : m_waiting)
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
    r.jobs = m_jobs;
    r.allocations = m_allocations;
    r.utilization = m_utilization;
    r.queueLength = m_queue;
}

} // namespace dtsim
