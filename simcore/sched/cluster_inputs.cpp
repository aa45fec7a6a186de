// The shared cluster's inputs: the job stream a workload generator draws (seeded), and
// the checks a cluster scenario must pass before it is simulated.
#include "cluster_sim.h"

#include "../random.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

namespace {

double pick(const std::vector<WeightedValue>& mix, SplitMix64& rng, double fallback)
{
    double total = 0;
    for (const WeightedValue& w : mix)
        total += w.weight;
    if (mix.empty() || total <= 0)
        return fallback;
    double u = rng.uniform() * total;
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
    SplitMix64 rng { g.seed };
    double t = 0;
    const int projects = std::max<int>(1, int(w.projects.size()));
    std::vector<WeightedValue> projectMix;
    for (int p = 0; p < projects; ++p)
        projectMix.push_back({ double(p), p < int(g.projectWeights.size()) ? g.projectWeights[p] : 1.0 });
    for (int i = 0; i < g.count; ++i) {
        t += rng.exponential(g.arrivalsPerHour / 3600.0);
        JobSpec j;
        j.id = "g" + std::to_string(i);
        j.arrival = t;
        j.gpus = static_cast<long long>(pick(g.sizes, rng, 8));
        j.duration = pick(g.durations, rng, 3600);
        j.project = static_cast<int>(pick(projectMix, rng, 0));
        if (rng.uniform() < g.elasticShare) {
            j.minGpus = std::max<long long>(1, j.gpus / 2);
            j.maxGpus = j.gpus * 2;
        }
        jobs.push_back(j);
    }
    std::stable_sort(jobs.begin(), jobs.end(), [](const JobSpec& a, const JobSpec& b) { return a.arrival < b.arrival; });
    return jobs;
}


// Failures a node sees a second: every component of every unit on it (reliability model);
// a rack or pod event counts once for the nodes below it, shared among them, so a job on
// whole racks sees each of its racks' events once.
double nodeFailureRate(const ClusterSpec& c, const FailureRates& rates)
{
    const double levels = 1 + c.tierCount;
    const double perNode = std::max(1, c.gpusPerNode);
    const FailureDomains domains = failureDomains(c);
    double rate = 0;
    for (int i = 0; i < kComponentCount; ++i) {
        if (rates.mtbf[i] <= 0)
            continue;
        double units = perNode;
        switch (rates.unit[i]) {
        case FailureRates::Unit::Gpu: units = perNode; break;
        case FailureRates::Unit::Node: units = 1.0; break;
        case FailureRates::Unit::PortLevel: units = perNode * levels; break;
        case FailureRates::Unit::Rack: units = perNode / domains.rack; break;
        case FailureRates::Unit::Pod: units = perNode / domains.pod; break;
        }
        rate += units / rates.mtbf[i];
    }
    return rate;
}


std::optional<PlanIssue> clusterIssue(const Scenario& s, const FailureRates& rates)
{
    const WorkloadSpec& w = s.workload;
    const long long perNode = std::max(1, s.cluster.gpusPerNode);
    const long long nodes = s.cluster.gpus / perNode;
    if (nodes > kMaxClusterNodes)
        return PlanIssue { "cluster.gpus", "the shared-cluster simulation places jobs on up to " + std::to_string(kMaxClusterNodes)
                + " nodes; " + std::to_string(s.cluster.gpus) + " GPUs at " + std::to_string(perNode) + " a node are "
                + std::to_string(nodes) };
    // Events: an arrival, a start and an end a job, and its failures, each of which
    // repeats the work since the last checkpoint: a job of M seconds between failures
    // tries each checkpoint interval tau about e^{tau / M} times.
    const double lambda = nodeFailureRate(s.cluster, scenarioRates(rates, s.reliability));
    const double tau = std::max(1.0, w.checkpointInterval);
    const std::string countField = w.generator.count > 0 ? "workload.generate.count" : "workload.jobs";
    const std::string tooMany = "this job stream would take more than " + std::to_string(static_cast<long long>(kMaxClusterEvents))
        + " events to simulate";
    // Three events a job at least: refused from the count alone, before generating it.
    if (3.0 * (double(w.generator.count) + double(w.jobs.size())) > kMaxClusterEvents)
        return PlanIssue { countField, tooMany + " (three a job: arrival, start, end); simulate fewer jobs" };
    double events = 0;
    for (const JobSpec& j : jobStream(w)) {
        const double jobNodes = std::ceil(double(std::max<long long>(1, j.gpus)) / perNode);
        if (jobNodes > double(nodes))
            continue; // infeasible: never runs
        const double rate = lambda * jobNodes;
        const double span = w.horizon > 0 ? std::min(j.duration, w.horizon) : j.duration;
        const double retries = std::exp(std::min(700.0, tau * rate));
        if (rate > 0 && retries > kMaxJobRetryFactor)
            return PlanIssue { "workload.checkpoint_interval",
                "a job on " + std::to_string(static_cast<long long>(jobNodes)) + " nodes fails every "
                    + std::to_string(static_cast<long long>(1 / rate)) + " s, so a checkpoint every "
                    + std::to_string(static_cast<long long>(tau)) + " s is rarely reached (each interval tried about "
                    + std::to_string(static_cast<long long>(std::min(retries, 1e18))) + " times); checkpoint more often" };
        const double failures = span * rate * retries;
        events += 3 + failures;
        if (events > kMaxClusterEvents) {
            // Blame the long jobs' failures when they are what fills the budget.
            const bool generated = w.generator.count > 0 && j.id.rfind('g', 0) == 0;
            if (failures > 3)
                return PlanIssue { generated ? "workload.generate.durations" : "workload.jobs",
                    tooMany + ": a job of " + std::to_string(static_cast<long long>(j.duration)) + " s on "
                        + std::to_string(static_cast<long long>(jobNodes)) + " nodes alone fails about "
                        + std::to_string(static_cast<long long>(std::min(failures, 1e18))) + " times; use shorter jobs or a workload.horizon" };
            return PlanIssue { countField, tooMany + "; simulate fewer jobs" };
        }
    }
    return std::nullopt;
}

} // namespace dtsim
