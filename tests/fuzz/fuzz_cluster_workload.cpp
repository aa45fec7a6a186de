// libFuzzer target: arbitrary bytes as the `workload:` section of the shipped
// shared-cluster preset. A workload is refused with an InputError, or refused by
// clusterIssue with a field, or simulated under every policy to results with no NaN,
// infinity or negative figure; never a crash, a hang or a sanitizer report.
#include "fuzz_common.h"

#include "simcore/loader/read_file.h"
#include "simcore/sched/cluster_sim.h"

namespace {

bool finite(double v) { return std::isfinite(v) && v >= 0; }

void check(const dtsim::ClusterResult& r)
{
    bool ok = finite(r.makespan) && finite(r.meanUtilization) && r.meanUtilization <= 1 + 1e-9 && finite(r.meanQueueSeconds)
        && finite(r.jainFairness) && finite(r.wastedGpuHours);
    for (const dtsim::ProjectResult& p : r.projects)
        ok = ok && finite(p.meanQueueSeconds) && finite(p.meanCompletionSeconds) && finite(p.meanSlowdown) && finite(p.gpuHours)
            && finite(p.costUsd) && finite(p.entitlement);
    for (const dtsim::SchedJob& j : r.jobs)
        ok = ok && finite(j.queueSeconds) && finite(j.gpuSeconds) && finite(j.wastedGpuSeconds);
    if (!ok) {
        std::fprintf(stderr, "%s: a result that is not a finite, non-negative number\n", r.policy.c_str());
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* bytes, std::size_t size)
{
    using namespace dtsim;
    static const std::string preset = readTextFile(std::string(DTSIM_SOURCE_DATA_DIR) + "/presets/shared-cluster.yaml", "preset");
    static const std::string head = preset.substr(0, preset.find("\nworkload:") + 1);
    const FailureRates& rates = fuzz::data().rates;
    const std::string text = head + "workload:\n" + std::string(reinterpret_cast<const char*>(bytes), size);
    fuzz::refusalsOnly([&] {
        const Scenario s = loadScenarioText(text, "fuzz.yaml", fuzz::data().catalog, {}, fuzz::data().topologies);
        if (s.workload.empty() || clusterIssue(s, rates))
            return;
        // Small streams only: a fuzzer wants many inputs a second; size is tested elsewhere.
        if (s.workload.generator.count + s.workload.jobs.size() > 5000)
            return;
        for (const std::string& name : policyNames()) {
            ClusterSim sim(s, fuzz::data().calibration, rates, 2.0);
            check(sim.run(*makePolicy(name)));
        }
    });
    return 0;
}
