// The `workload` section: a shared cluster's projects, its listed jobs and a generated
// job stream (docs/cluster.md explains the scheduler). Its sections are declared in
// scenario_fields.cpp with the rules across entries (quotas, one weight per project).
#include "field_builder.h"
#include "field_tables.h"

#include "../exact_number.h"
#include "../sched/cluster_sim.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dtsim::fields {

namespace {

std::vector<ChoiceName> namesOf(const std::vector<std::string>& names)
{
    std::vector<ChoiceName> out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out.push_back({ names[i], int(i) });
    return out;
}

template <typename T>
Field& bindProject(Field& f, T ProjectSpec::*member)
{
    return f.access([member](const Scenario& s, int i) { return static_cast<double>(s.workload.projects[std::size_t(i)].*member); },
        [member](Scenario& s, double v, int i) { s.workload.projects[std::size_t(i)].*member = fromDouble<T>(v); });
}

template <typename T>
Field& bindJob(Field& f, T JobSpec::*member)
{
    return f.access([member](const Scenario& s, int i) { return static_cast<double>(s.workload.jobs[std::size_t(i)].*member); },
        [member](Scenario& s, double v, int i) { s.workload.jobs[std::size_t(i)].*member = fromDouble<T>(v); });
}

// An entry of a {value, weight} mix of the generator.
using Mix = std::vector<WeightedValue> JobGenerator::*;
Field& bindMix(Field& f, Mix mix, double WeightedValue::*member)
{
    return f.access([mix, member](const Scenario& s, int i) { return (s.workload.generator.*mix)[std::size_t(i)].*member; },
        [mix, member](Scenario& s, double v, int i) { (s.workload.generator.*mix)[std::size_t(i)].*member = v; });
}

int projectIndex(const Scenario& s, const std::string& name)
{
    for (std::size_t p = 0; p < s.workload.projects.size(); ++p)
        if (s.workload.projects[p].name == name)
            return int(p);
    return -1;
}

const JobSpec& job(const Scenario& s, int i) { return s.workload.jobs[std::size_t(i)]; }

} // namespace

void addWorkloadFields(std::vector<FieldDef>& f)
{
    const std::vector<std::string> policies = policyNames();
    f.push_back(choice("workload.policy", namesOf(policies)).byDefault("`fifo`").help("the scheduler: fifo, backfill, priority or fair-share")
            .access(
                [policies](const Scenario& s, int) {
                    const auto it = std::find(policies.begin(), policies.end(), s.workload.policy);
                    return it == policies.end() ? 0.0 : double(it - policies.begin());
                },
                [policies](Scenario& s, double v, int) { s.workload.policy = policies[std::size_t(std::clamp<long>(std::lround(v), 0, long(policies.size()) - 1))]; })
            .panel("Shared cluster", "Scheduling policy", 0, double(policies.size()) - 1, SliderScale::Linear,
                "The scenario's own policy; the Cluster tab compares it with another."));
    f.push_back(flag("workload.topology_aware").bind(&Scenario::workload, &WorkloadSpec::topologyAware).byDefault("`true`")
            .help("place each job in as few pods as possible")
            .panel("Shared cluster", "Topology-aware placement", 0, 1, SliderScale::Linear,
                "Place each job in as few pods as possible (best fit), instead of the first free nodes."));
    f.push_back(quantity("workload.checkpoint_interval", Dimension::Seconds, "s").bind(&Scenario::workload, &WorkloadSpec::checkpointInterval)
            .typeText("time").byDefault("`30 min`").help("every job checkpoints this often")
            .panel("Shared cluster", "Job checkpoint interval", 1, 24 * 60, SliderScale::Log,
                "Every job checkpoints this often; a preemption or failure loses the work since the last one.")
            .shown("min", 60));
    f.push_back(quantity("workload.horizon", Dimension::Seconds, "s").bind(&Scenario::workload, &WorkloadSpec::horizon)
            .typeText("time").byDefault("until every job ends").help("stop the simulation here")
            .writtenWhen([](const Scenario& s, int) { return s.workload.horizon > 0; }));

    // --- workload.projects[] -----------------------------------------------------------
    f.push_back(text("workload.projects[].name").required().byDefault("required").help("unique")
            .text([](const Scenario& s, int i) { return s.workload.projects[std::size_t(i)].name; },
                [](Scenario& s, const std::string& v, int i) { s.workload.projects[std::size_t(i)].name = v; })
            .checkText([](const Scenario& s, const std::string& v, int i) {
                const int first = projectIndex(s, v);
                return first >= 0 && first < i ? "project \"" + v + "\" is listed twice" : std::string();
            }));
    {
        Field quota = quantity("workload.projects[].quota", Dimension::Count, "", Bound::NonNegative);
        bindProject(quota, &ProjectSpec::quota);
        f.push_back(std::move(quota.typeText("0-1").byDefault("`0`").help("share of the cluster's GPUs (fair share)")
                .check([](const Scenario&, double v, int) { return v > 1 ? "a quota is a share of the cluster, at most 1" : ""; })));
    }
    {
        Field priority = integer("workload.projects[].priority").min(-1000).max(1000);
        bindProject(priority, &ProjectSpec::priority);
        f.push_back(std::move(priority.typeText("integer, -1000 to 1000").byDefault("`0`").help("higher runs first (priority policy)")));
    }

    // --- workload.jobs[] ---------------------------------------------------------------
    f.push_back(text("workload.jobs[].id").byDefault("`j` and its index").help("a label")
            .text([](const Scenario& s, int i) { return job(s, i).id; }, [](Scenario& s, const std::string& v, int i) { s.workload.jobs[std::size_t(i)].id = v; })
            .derivedText([](const Scenario&, int i) { return "j" + std::to_string(i); }));
    f.push_back(text("workload.jobs[].project").required().byDefault("required").help("a project's name")
            .text([](const Scenario& s, int i) {
                const int p = job(s, i).project;
                return p >= 0 && p < int(s.workload.projects.size()) ? s.workload.projects[std::size_t(p)].name : std::string();
            },
                [](Scenario& s, const std::string& v, int i) { s.workload.jobs[std::size_t(i)].project = std::max(0, projectIndex(s, v)); })
            .checkText([](const Scenario& s, const std::string& v, int) {
                return projectIndex(s, v) < 0 ? "no project named \"" + v + "\"" : std::string();
            }));
    {
        Field gpus = integer("workload.jobs[].gpus").min(1);
        bindJob(gpus, &JobSpec::gpus);
        f.push_back(std::move(gpus.required().byDefault("required").help("GPUs requested")));
    }
    {
        Field arrival = quantity("workload.jobs[].arrival", Dimension::Seconds, "s", Bound::NonNegative);
        bindJob(arrival, &JobSpec::arrival);
        f.push_back(std::move(arrival.typeText("time").byDefault("`0 s`").help("when it is submitted")));
    }
    {
        Field duration = quantity("workload.jobs[].duration", Dimension::Seconds, "s");
        bindJob(duration, &JobSpec::duration);
        f.push_back(std::move(duration.required().typeText("time").byDefault("required").help("run time at its requested size, in one pod")));
    }
    {
        Field least = integer("workload.jobs[].min_gpus").min(1);
        bindJob(least, &JobSpec::minGpus);
        f.push_back(std::move(least.byDefault("rigid").help("elastic: may run on as few")
                .check([](const Scenario& s, double v, int i) {
                    return v > double(job(s, i).gpus) ? "at most the job's gpus (" + std::to_string(job(s, i).gpus) + ")" : std::string();
                })
                .writtenWhen([](const Scenario& s, int i) { return job(s, i).minGpus > 0; })));
    }
    {
        Field most = integer("workload.jobs[].max_gpus").min(1);
        bindJob(most, &JobSpec::maxGpus);
        f.push_back(std::move(most.byDefault("rigid").help("elastic: may grow to as many")
                .check([](const Scenario& s, double v, int i) {
                    return v < double(job(s, i).gpus) ? "at least the job's gpus (" + std::to_string(job(s, i).gpus) + ")" : std::string();
                })
                .writtenWhen([](const Scenario& s, int i) { return job(s, i).maxGpus > 0; })));
    }

    // --- workload.generate: a job stream drawn at random ---------------------------------
    // 200,000 jobs simulate in about a second under any policy (dtsim-cli bench); the
    // event budget (cluster_sim.h) bounds the rest.
    f.push_back(integer("workload.generate.count").min(0).max(kMaxGeneratedJobs).required().byDefault("required")
            .help("how many jobs to draw").bind(&Scenario::workload, &WorkloadSpec::generator, &JobGenerator::count)
            .panel("Shared cluster", "Generated jobs", 0, 20000, SliderScale::Linear, "How many jobs the generator draws (listed jobs come on top)."));
    f.push_back(quantity("workload.generate.arrivals_per_hour", Dimension::Count, "").required().byDefault("required")
            .help("mean arrival rate (Poisson)").bind(&Scenario::workload, &WorkloadSpec::generator, &JobGenerator::arrivalsPerHour)
            .panel("Shared cluster", "Job arrivals", 0.1, 1000, SliderScale::Log, "Mean arrival rate of the generated jobs (Poisson).")
            .shown("per hour", 1));
    f.push_back(quantity("workload.generate.elastic_share", Dimension::Count, "", Bound::NonNegative).typeText("0-1").byDefault("`0`")
            .help("share of jobs that are elastic (half to double their size)")
            .bind(&Scenario::workload, &WorkloadSpec::generator, &JobGenerator::elasticShare)
            .check([](const Scenario&, double v, int) { return v > 1 ? "a share is at most 1" : ""; }));
    // Read and written through a double: whole numbers are exact up to 2^53.
    f.push_back(integer("workload.generate.seed").min(0).max(1LL << 53).byDefault("`1`").help("the random stream; the same seed draws the same jobs")
            .bind(&Scenario::workload, &WorkloadSpec::generator, &JobGenerator::seed));
    {
        Field size = quantity("workload.generate.sizes[].value", Dimension::Count, "");
        bindMix(size, &JobGenerator::sizes, &WeightedValue::value);
        // A job's size is a whole number of GPUs that a cluster can have (cluster.gpus is
        // an int); 1e20 was cast to an integer and ran as an 8-GPU job.
        f.push_back(std::move(size.required().typeText("whole GPUs").byDefault("required").help("GPUs")
                .check([](const Scenario&, double v, int) {
                    return v != std::floor(v) || v > std::numeric_limits<int>::max()
                        ? "a job's GPUs are a whole number from 1 to " + std::to_string(std::numeric_limits<int>::max()) + " (got " + exactNumber(v) + ")"
                        : std::string();
                })));
    }
    {
        Field weight = quantity("workload.generate.sizes[].weight", Dimension::Count, "");
        bindMix(weight, &JobGenerator::sizes, &WeightedValue::weight);
        f.push_back(std::move(weight.byDefault("`1`").help("relative frequency")));
    }
    {
        Field duration = quantity("workload.generate.durations[].value", Dimension::Seconds, "s");
        bindMix(duration, &JobGenerator::durations, &WeightedValue::value);
        f.push_back(std::move(duration.required().typeText("time").byDefault("required").help("run time")));
    }
    {
        Field weight = quantity("workload.generate.durations[].weight", Dimension::Count, "");
        bindMix(weight, &JobGenerator::durations, &WeightedValue::weight);
        f.push_back(std::move(weight.byDefault("`1`").help("relative frequency")));
    }
    f.push_back(quantity("workload.generate.project_weights[].weight", Dimension::Count, "", Bound::NonNegative).typeText("number >= 0")
            .byDefault("required").help("one per project, in the projects' order")
            .access([](const Scenario& s, int i) { return s.workload.generator.projectWeights[std::size_t(i)]; },
                [](Scenario& s, double v, int i) { s.workload.generator.projectWeights[std::size_t(i)] = v; }));
}

} // namespace dtsim::fields
