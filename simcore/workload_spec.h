#pragma once
// A shared cluster's workload: projects with quotas and a stream of training jobs,
// listed or generated. Plain values, read from a scenario's optional `workload:`
// section. The scenario's cluster is the shared cluster; its model, training and plan
// shape (TP, PP) are the job class whose speed the engine gives at each allocation.
#include <string>
#include <vector>

namespace dtsim {

struct ProjectSpec {
    std::string name;
    double quota = 0;   // share of the cluster's GPUs (fair share); quotas sum to <= 1
    int priority = 0;   // higher runs first under the priority policy

    bool operator==(const ProjectSpec&) const = default;
};

struct JobSpec {
    std::string id;
    int project = 0;       // index into projects
    long long gpus = 8;    // requested (whole nodes)
    double arrival = 0;    // seconds
    double duration = 0;   // seconds at the requested size, packed in one pod
    long long minGpus = 0; // elastic: may run on fewer (0: rigid)
    long long maxGpus = 0; // elastic: may grow to (0: rigid)

    bool operator==(const JobSpec&) const = default;
};

struct WeightedValue {
    double value = 0;
    double weight = 1;
    bool operator==(const WeightedValue&) const = default;
};

// A generated stream: Poisson arrivals, sizes and durations drawn from weighted mixes.
struct JobGenerator {
    int count = 0;
    double arrivalsPerHour = 10;
    std::vector<WeightedValue> sizes;      // GPUs
    std::vector<WeightedValue> durations;  // seconds
    std::vector<double> projectWeights;    // by project; empty: equal
    double elasticShare = 0;               // share of jobs that are elastic (half to double)
    unsigned long long seed = 1;

    bool operator==(const JobGenerator&) const = default;
};

struct WorkloadSpec {
    std::vector<ProjectSpec> projects;
    std::vector<JobSpec> jobs;
    JobGenerator generator;
    std::string policy = "fifo";           // fifo, backfill, priority, fair-share
    bool topologyAware = true;             // place jobs in as few pods as possible
    double checkpointInterval = 1800;      // seconds, every job
    double horizon = 0;                    // seconds; 0: until every job ends

    bool empty() const { return projects.empty() && jobs.empty() && generator.count == 0; }
    bool operator==(const WorkloadSpec&) const = default;
};

} // namespace dtsim
