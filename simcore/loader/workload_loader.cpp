#include "workload_loader.h"

#include "../sched/cluster_sim.h"
#include "exact_number.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dtsim {

namespace {

std::vector<WeightedValue> readMix(YamlReader& r, const YAML::Node& n, const std::string& field, Dimension d,
    bool wholeGpus = false)
{
    if (!n.IsSequence() || n.size() == 0)
        r.fail(n, field, "expected a list of {value, weight}");
    std::vector<WeightedValue> mix;
    for (std::size_t i = 0; i < n.size(); ++i) {
        const std::string f = field + "[" + std::to_string(i) + "]";
        r.expectMap(n[i], f);
        r.checkKeys(n[i], f, { "value", "weight" });
        WeightedValue w;
        const YAML::Node value = r.required(n[i], f, "value");
        w.value = r.quantity(value, f + ".value", d, Bound::Positive);
        // A job's size is a whole number of GPUs that a cluster can have (cluster.gpus is
        // an int); 1e20 was cast to an integer and ran as an 8-GPU job.
        if (wholeGpus && (w.value != std::floor(w.value) || w.value > std::numeric_limits<int>::max()))
            r.fail(value, f + ".value", "a job's GPUs are a whole number from 1 to " + std::to_string(std::numeric_limits<int>::max())
                    + " (got " + exactNumber(w.value) + ")");
        if (const YAML::Node wt = r.child(n[i], f, "weight"))
            w.weight = r.quantity(wt, f + ".weight", Dimension::Count, Bound::Positive);
        mix.push_back(w);
    }
    return mix;
}

} // namespace

void readWorkloadSection(YamlReader& r, const YAML::Node& n, WorkloadSpec& w)
{
    const std::string sec = "workload";
    r.expectMap(n, sec);
    r.checkKeys(n, sec, { "policy", "topology_aware", "checkpoint_interval", "horizon", "projects", "jobs", "generate" });
    w = WorkloadSpec {};
    if (const YAML::Node v = r.child(n, sec, "policy")) {
        w.policy = r.string(v, "workload.policy");
        const auto names = policyNames();
        if (std::find(names.begin(), names.end(), w.policy) == names.end())
            r.fail(v, "workload.policy", "\"" + w.policy + "\" is not one of: fifo, backfill, priority, fair-share");
    }
    if (const YAML::Node v = r.child(n, sec, "topology_aware"))
        w.topologyAware = r.boolean(v, "workload.topology_aware");
    if (const YAML::Node v = r.child(n, sec, "checkpoint_interval"))
        w.checkpointInterval = r.quantity(v, "workload.checkpoint_interval", Dimension::Seconds, Bound::Positive);
    if (const YAML::Node v = r.child(n, sec, "horizon"))
        w.horizon = r.quantity(v, "workload.horizon", Dimension::Seconds, Bound::Positive);

    const YAML::Node projects = r.required(n, sec, "projects");
    if (!projects.IsSequence() || projects.size() == 0)
        r.fail(projects, "workload.projects", "expected a list of projects");
    double quotas = 0;
    for (std::size_t i = 0; i < projects.size(); ++i) {
        const std::string f = "workload.projects[" + std::to_string(i) + "]";
        r.expectMap(projects[i], f);
        r.checkKeys(projects[i], f, { "name", "quota", "priority" });
        ProjectSpec p;
        p.name = r.string(r.required(projects[i], f, "name"), f + ".name");
        for (const ProjectSpec& q : w.projects)
            if (q.name == p.name)
                r.fail(projects[i]["name"], f + ".name", "project \"" + p.name + "\" is listed twice");
        if (const YAML::Node q = r.child(projects[i], f, "quota")) {
            p.quota = r.quantity(q, f + ".quota", Dimension::Count, Bound::NonNegative);
            if (p.quota > 1)
                r.fail(q, f + ".quota", "a quota is a share of the cluster, at most 1");
        }
        if (const YAML::Node q = r.child(projects[i], f, "priority"))
            p.priority = static_cast<int>(r.integer(q, f + ".priority", -1000, 1000));
        quotas += p.quota;
        w.projects.push_back(p);
    }
    if (quotas > 1 + 1e-9)
        r.fail(projects, "workload.projects", "the quotas add up to " + exactNumber(quotas) + ", more than the whole cluster");
    auto projectIndex = [&](const YAML::Node& v, const std::string& f) {
        const std::string name = r.string(v, f);
        for (std::size_t p = 0; p < w.projects.size(); ++p)
            if (w.projects[p].name == name)
                return int(p);
        r.fail(v, f, "no project named \"" + name + "\"");
    };

    if (const YAML::Node jobs = r.child(n, sec, "jobs")) {
        if (!jobs.IsSequence())
            r.fail(jobs, "workload.jobs", "expected a list of jobs");
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const std::string f = "workload.jobs[" + std::to_string(i) + "]";
            r.expectMap(jobs[i], f);
            r.checkKeys(jobs[i], f, { "id", "project", "gpus", "arrival", "duration", "min_gpus", "max_gpus" });
            JobSpec j;
            j.id = r.child(jobs[i], f, "id") ? r.string(jobs[i]["id"], f + ".id") : "j" + std::to_string(i);
            j.project = projectIndex(r.required(jobs[i], f, "project"), f + ".project");
            j.gpus = r.integer(r.required(jobs[i], f, "gpus"), f + ".gpus", 1, std::numeric_limits<int>::max());
            j.arrival = r.child(jobs[i], f, "arrival") ? r.quantity(jobs[i]["arrival"], f + ".arrival", Dimension::Seconds, Bound::NonNegative) : 0.0;
            j.duration = r.quantity(r.required(jobs[i], f, "duration"), f + ".duration", Dimension::Seconds, Bound::Positive);
            if (const YAML::Node v = r.child(jobs[i], f, "min_gpus"))
                j.minGpus = r.integer(v, f + ".min_gpus", 1, j.gpus);
            if (const YAML::Node v = r.child(jobs[i], f, "max_gpus"))
                j.maxGpus = r.integer(v, f + ".max_gpus", j.gpus, std::numeric_limits<int>::max());
            w.jobs.push_back(j);
        }
    }
    if (const YAML::Node g = r.child(n, sec, "generate")) {
        const std::string gs = "workload.generate";
        r.expectMap(g, gs);
        r.checkKeys(g, gs, { "count", "arrivals_per_hour", "sizes", "durations", "project_weights", "elastic_share", "seed" });
        JobGenerator& gen = w.generator;
        // 200,000 jobs simulate in about a second under any policy (dtsim-cli bench); the
        // event budget (cluster_sim.h) bounds the rest.
        gen.count = static_cast<int>(r.integer(r.required(g, gs, "count"), gs + ".count", 0, kMaxGeneratedJobs));
        gen.arrivalsPerHour = r.quantity(r.required(g, gs, "arrivals_per_hour"), gs + ".arrivals_per_hour", Dimension::Count, Bound::Positive);
        gen.sizes = readMix(r, r.required(g, gs, "sizes"), gs + ".sizes", Dimension::Count, true);
        gen.durations = readMix(r, r.required(g, gs, "durations"), gs + ".durations", Dimension::Seconds);
        if (const YAML::Node pw = r.child(g, gs, "project_weights")) {
            if (!pw.IsSequence() || pw.size() != w.projects.size())
                r.fail(pw, gs + ".project_weights", "expected one weight per project (" + std::to_string(w.projects.size()) + ")");
            double total = 0;
            for (std::size_t i = 0; i < pw.size(); ++i) {
                gen.projectWeights.push_back(r.quantity(pw[i], gs + ".project_weights[" + std::to_string(i) + "]", Dimension::Count, Bound::NonNegative));
                total += gen.projectWeights.back();
            }
            // All zero sent every job to the first project: no project would get any.
            if (!(total > 0))
                r.fail(pw, gs + ".project_weights", "the weights are all zero, so no project would get a job; give at least one a weight");
        }
        if (const YAML::Node v = r.child(g, gs, "elastic_share")) {
            gen.elasticShare = r.quantity(v, gs + ".elastic_share", Dimension::Count, Bound::NonNegative);
            if (gen.elasticShare > 1)
                r.fail(v, gs + ".elastic_share", "a share is at most 1");
        }
        if (const YAML::Node v = r.child(g, gs, "seed"))
            gen.seed = static_cast<unsigned long long>(r.integer(v, gs + ".seed", 0, std::numeric_limits<long long>::max()));
    }
}

void writeWorkloadSection(YAML::Emitter& y, const WorkloadSpec& w)
{
    if (w.empty())
        return;
    y << YAML::Key << "workload" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "policy" << YAML::Value << w.policy;
    y << YAML::Key << "topology_aware" << YAML::Value << w.topologyAware;
    y << YAML::Key << "checkpoint_interval" << YAML::Value << exactWithUnit(w.checkpointInterval, "s");
    if (w.horizon > 0)
        y << YAML::Key << "horizon" << YAML::Value << exactWithUnit(w.horizon, "s");
    y << YAML::Key << "projects" << YAML::Value << YAML::BeginSeq;
    for (const ProjectSpec& p : w.projects) {
        y << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << p.name;
        y << YAML::Key << "quota" << YAML::Value << exactNumber(p.quota);
        y << YAML::Key << "priority" << YAML::Value << p.priority << YAML::EndMap;
    }
    y << YAML::EndSeq;
    if (!w.jobs.empty()) {
        y << YAML::Key << "jobs" << YAML::Value << YAML::BeginSeq;
        for (const JobSpec& j : w.jobs) {
            y << YAML::Flow << YAML::BeginMap << YAML::Key << "id" << YAML::Value << j.id;
            y << YAML::Key << "project" << YAML::Value << w.projects[j.project].name;
            y << YAML::Key << "gpus" << YAML::Value << j.gpus;
            y << YAML::Key << "arrival" << YAML::Value << exactWithUnit(j.arrival, "s");
            y << YAML::Key << "duration" << YAML::Value << exactWithUnit(j.duration, "s");
            if (j.minGpus > 0)
                y << YAML::Key << "min_gpus" << YAML::Value << j.minGpus;
            if (j.maxGpus > 0)
                y << YAML::Key << "max_gpus" << YAML::Value << j.maxGpus;
            y << YAML::EndMap;
        }
        y << YAML::EndSeq;
    }
    const JobGenerator& g = w.generator;
    if (g.count > 0) {
        y << YAML::Key << "generate" << YAML::Value << YAML::BeginMap;
        y << YAML::Key << "count" << YAML::Value << g.count;
        y << YAML::Key << "arrivals_per_hour" << YAML::Value << exactNumber(g.arrivalsPerHour);
        auto mix = [&](const char* key, const std::vector<WeightedValue>& m, const char* unit) {
            y << YAML::Key << key << YAML::Value << YAML::BeginSeq;
            for (const WeightedValue& v : m)
                y << YAML::Flow << YAML::BeginMap << YAML::Key << "value" << YAML::Value
                  << (unit ? exactWithUnit(v.value, unit) : exactNumber(v.value)) << YAML::Key << "weight" << YAML::Value
                  << exactNumber(v.weight) << YAML::EndMap;
            y << YAML::EndSeq;
        };
        mix("sizes", g.sizes, nullptr);
        mix("durations", g.durations, "s");
        if (!g.projectWeights.empty()) {
            y << YAML::Key << "project_weights" << YAML::Value << YAML::Flow << YAML::BeginSeq;
            for (double v : g.projectWeights)
                y << exactNumber(v);
            y << YAML::EndSeq;
        }
        y << YAML::Key << "elastic_share" << YAML::Value << exactNumber(g.elasticShare);
        y << YAML::Key << "seed" << YAML::Value << g.seed;
        y << YAML::EndMap;
    }
    y << YAML::EndMap;
}

} // namespace dtsim
