#include "reliability_loader.h"

#include "../exact_number.h"
#include "read_file.h"
#include "sourced_value.h"

namespace dtsim {

FailureRates loadFailureRates(const std::string& path)
{
    YamlReader r(path);
    const YAML::Node root = r.parse(readTextFile(path, "reliability file"));
    r.expectMap(root, "");
    r.checkKeys(root, "", { "version", "components", "rate_sets", "recovery", "mitigation", "storage" });
    if (r.integer(r.required(root, "", "version"), "version", 1, 1) != 1)
        r.fail(root, "version", "unsupported version");
    FailureRates f;

    const YAML::Node components = r.required(root, "", "components");
    r.expectMap(components, "components");
    r.checkKeys(components, "components", { "gpu", "host", "nic", "switch_or_cable", "software", "rack", "pod" });
    // Preemption is not a hardware fault: it stays off unless spot pricing sets it.
    f.mtbf[int(FailureCause::Preemption)] = 0;
    f.unit[int(FailureCause::Preemption)] = FailureRates::Unit::Node;
    for (int i = 0; i < int(FailureCause::Preemption); ++i) {
        const char* name = failureCauseName(FailureCause(i));
        const std::string field = std::string("components.") + name;
        const YAML::Node c = r.required(components, "components", name);
        r.expectMap(c, field);
        r.checkKeys(c, field, { "per", "mtbf" });
        const std::string per = r.string(r.required(c, field, "per"), field + ".per");
        if (per == "gpu")
            f.unit[i] = FailureRates::Unit::Gpu;
        else if (per == "node")
            f.unit[i] = FailureRates::Unit::Node;
        else if (per == "gpu_port_per_level")
            f.unit[i] = FailureRates::Unit::PortLevel;
        else if (per == "rack")
            f.unit[i] = FailureRates::Unit::Rack;
        else if (per == "pod")
            f.unit[i] = FailureRates::Unit::Pod;
        else
            r.fail(c["per"], field + ".per", "\"" + per + "\" is not one of: gpu, node, gpu_port_per_level, rack, pod");
        // Correlated events may be absent from a census (0: none); a unit that fails
        // never is written as such, not as an infinite MTBF.
        const bool correlated = FailureCause(i) == FailureCause::Rack || FailureCause(i) == FailureCause::Pod;
        f.mtbf[i] = sourcedQuantity(r, r.required(c, field, "mtbf"), field + ".mtbf", Dimension::Seconds,
            correlated ? Bound::NonNegative : Bound::Positive);
    }

    // Other fleets' totals, one per RateSet but the census itself.
    const YAML::Node sets = r.required(root, "", "rate_sets");
    r.expectMap(sets, "rate_sets");
    std::vector<std::string> names;
    for (int i = 1; i < kRateSetCount; ++i)
        names.push_back(rateSetName(RateSet(i)));
    r.checkKeys(sets, "rate_sets", std::vector<std::string_view>(names.begin(), names.end()));
    f.failuresPerNodeDay[0] = censusNodeFailuresPerDay(f);
    for (int i = 1; i < kRateSetCount; ++i) {
        const std::string field = "rate_sets." + names[std::size_t(i - 1)];
        const YAML::Node set = r.required(sets, "rate_sets", names[std::size_t(i - 1)].c_str());
        r.expectMap(set, field);
        r.checkKeys(set, field, { "failures_per_node_day", "gpu_failures_per_node_day" });
        // A fleet that counted only its GPU failures: all causes in the census's
        // proportion to them.
        const bool gpuOnly = set["gpu_failures_per_node_day"].IsDefined();
        if (gpuOnly == set["failures_per_node_day"].IsDefined())
            r.fail(set, field, "give failures_per_node_day or gpu_failures_per_node_day, one of them");
        const char* key = gpuOnly ? "gpu_failures_per_node_day" : "failures_per_node_day";
        const double value = sourcedQuantity(r, set[key], field + "." + key, Dimension::Count, Bound::Positive);
        const double gpuShare = 8 / f.mtbf[int(FailureCause::Gpu)] * 86400 / f.failuresPerNodeDay[0];
        f.failuresPerNodeDay[std::size_t(i)] = gpuOnly ? value / gpuShare : value;
    }

    auto section = [&](const char* name, std::initializer_list<std::string_view> keys) {
        const YAML::Node n = r.required(root, "", name);
        r.expectMap(n, name);
        r.checkKeys(n, name, keys);
        return n;
    };
    auto value = [&](const YAML::Node& sec, const char* secName, const char* key, Dimension d, Bound b) {
        return sourcedQuantity(r, r.required(sec, secName, key), std::string(secName) + "." + key, d, b);
    };
    const YAML::Node recovery = section("recovery", { "detect", "drain", "provision_spare", "provision_wait", "reinit" });
    f.detect = value(recovery, "recovery", "detect", Dimension::Seconds, Bound::NonNegative);
    f.drain = value(recovery, "recovery", "drain", Dimension::Seconds, Bound::NonNegative);
    f.provisionSpare = value(recovery, "recovery", "provision_spare", Dimension::Seconds, Bound::NonNegative);
    f.provisionWait = value(recovery, "recovery", "provision_wait", Dimension::Seconds, Bound::NonNegative);
    f.reinit = value(recovery, "recovery", "reinit", Dimension::Seconds, Bound::NonNegative);
    const YAML::Node mitigation = section("mitigation", { "spare_fraction", "backup_worker_fraction" });
    f.spareFraction = value(mitigation, "mitigation", "spare_fraction", Dimension::Count, Bound::NonNegative);
    f.backupWorkerFraction = value(mitigation, "mitigation", "backup_worker_fraction", Dimension::Count, Bound::NonNegative);
    const YAML::Node storage = section("storage", { "write_bandwidth_per_gpu", "read_bandwidth_per_gpu", "staging_bandwidth_per_gpu" });
    f.writeBandwidthPerGpu = value(storage, "storage", "write_bandwidth_per_gpu", Dimension::BytesPerSecond, Bound::Positive);
    f.readBandwidthPerGpu = value(storage, "storage", "read_bandwidth_per_gpu", Dimension::BytesPerSecond, Bound::Positive);
    f.stagingBandwidthPerGpu = value(storage, "storage", "staging_bandwidth_per_gpu", Dimension::BytesPerSecond, Bound::Positive);
    return f;
}

} // namespace dtsim
