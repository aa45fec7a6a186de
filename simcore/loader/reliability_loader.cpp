#include "reliability_loader.h"

#include "exact_number.h"
#include "read_file.h"
#include "sourced_value.h"

namespace dtsim {

FailureRates loadFailureRates(const std::string& path)
{
    YamlReader r(path);
    const YAML::Node root = r.parse(readTextFile(path, "reliability file"));
    r.expectMap(root, "");
    r.checkKeys(root, "", { "version", "components", "recovery", "mitigation", "storage" });
    if (r.integer(r.required(root, "", "version"), "version", 1, 1) != 1)
        r.fail(root, "version", "unsupported version");
    FailureRates f;

    const YAML::Node components = r.required(root, "", "components");
    r.expectMap(components, "components");
    r.checkKeys(components, "components", { "gpu", "host", "nic", "switch_or_cable", "software" });
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
        else
            r.fail(c["per"], field + ".per", "\"" + per + "\" is not one of: gpu, node, gpu_port_per_level");
        f.mtbf[i] = sourcedQuantity(r, r.required(c, field, "mtbf"), field + ".mtbf", Dimension::Seconds, Bound::Positive);
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
    const YAML::Node recovery = section("recovery", { "drain", "provision_spare", "provision_wait", "reinit" });
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

namespace {

double fraction(YamlReader& r, const YAML::Node& n, const std::string& field, bool allowZero)
{
    const double v = r.quantity(n, field, Dimension::Count, allowZero ? Bound::NonNegative : Bound::Positive);
    if (v > 1)
        r.fail(n, field, "a fraction must be at most 1 (write 0.15 for 15%)");
    return v;
}

ChaosEvent readChaosEvent(YamlReader& r, const YAML::Node& n, const std::string& field)
{
    r.expectMap(n, field);
    r.checkKeys(n, field, { "at", "event", "target", "slowdown" });
    ChaosEvent e;
    e.atSeconds = r.quantity(r.required(n, field, "at"), field + ".at", Dimension::Seconds, Bound::NonNegative);
    const YAML::Node kind = r.required(n, field, "event");
    const std::string k = r.string(kind, field + ".event");
    if (k == "failure")
        e.kind = ChaosEvent::Kind::Failure;
    else if (k == "straggler")
        e.kind = ChaosEvent::Kind::Straggler;
    else if (k == "corrupt_checkpoint")
        e.kind = ChaosEvent::Kind::CorruptCheckpoint;
    else
        r.fail(kind, field + ".event", "\"" + k + "\" is not one of: failure, straggler, corrupt_checkpoint");
    if (const YAML::Node t = r.child(n, field, "target"))
        e.target = r.string(t, field + ".target");
    const YAML::Node slow = r.child(n, field, "slowdown");
    if (e.kind == ChaosEvent::Kind::Straggler) {
        if (!slow)
            r.fail(n, field + ".slowdown", "a straggler needs its slowdown (0.15 for 15% slower)");
        e.slowdown = r.quantity(slow, field + ".slowdown", Dimension::Count, Bound::Positive);
    } else if (slow) {
        r.fail(slow, field + ".slowdown", "only a straggler event has a slowdown");
    }
    return e;
}

} // namespace

void readReliabilitySection(YamlReader& r, const YAML::Node& n, ReliabilitySpec& spec)
{
    const std::string sec = "reliability";
    r.expectMap(n, sec);
    r.checkKeys(n, sec, { "storage_write_bandwidth", "storage_read_bandwidth", "async_checkpoint", "staging_bandwidth",
                            "checkpoint_interval", "spares", "straggler_slowdown", "backup_workers", "degraded_link",
                            "chaos" });
    auto quantity = [&](const char* key, Dimension d, double fallback) {
        const YAML::Node v = r.child(n, sec, key);
        return v ? r.quantity(v, sec + "." + key, d, Bound::Positive) : fallback;
    };
    auto flag = [&](const char* key, bool fallback) {
        const YAML::Node v = r.child(n, sec, key);
        return v ? r.boolean(v, sec + "." + key) : fallback;
    };
    spec = ReliabilitySpec {};
    spec.storageWriteBandwidth = quantity("storage_write_bandwidth", Dimension::BytesPerSecond, 0);
    spec.storageReadBandwidth = quantity("storage_read_bandwidth", Dimension::BytesPerSecond, 0);
    spec.stagingBandwidth = quantity("staging_bandwidth", Dimension::BytesPerSecond, 0);
    spec.checkpointInterval = quantity("checkpoint_interval", Dimension::Seconds, 0);
    spec.asyncCheckpoint = flag("async_checkpoint", false);
    spec.spares = flag("spares", true);
    spec.backupWorkers = flag("backup_workers", false);
    if (const YAML::Node v = r.child(n, sec, "straggler_slowdown"))
        spec.stragglerSlowdown = r.quantity(v, sec + ".straggler_slowdown", Dimension::Count, Bound::NonNegative);
    if (const YAML::Node link = r.child(n, sec, "degraded_link")) {
        const std::string ls = sec + ".degraded_link";
        r.expectMap(link, ls);
        r.checkKeys(link, ls, { "level", "bandwidth_fraction" });
        if (const YAML::Node level = r.child(link, ls, "level")) {
            const std::string l = r.string(level, ls + ".level");
            if (l == "scale_up")
                spec.degradedLinkLevel = LinkLevel::ScaleUp;
            else if (l == "scale_out")
                spec.degradedLinkLevel = LinkLevel::ScaleOut;
            else
                r.fail(level, ls + ".level", "\"" + l + "\" is not one of: scale_up, scale_out");
        }
        spec.degradedLinkFraction = fraction(r, r.required(link, ls, "bandwidth_fraction"), ls + ".bandwidth_fraction", false);
    }
    if (const YAML::Node chaos = r.child(n, sec, "chaos")) {
        if (!chaos.IsSequence())
            r.fail(chaos, sec + ".chaos", "expected a list of events");
        for (std::size_t i = 0; i < chaos.size(); ++i)
            spec.chaos.push_back(readChaosEvent(r, chaos[i], sec + ".chaos[" + std::to_string(i) + "]"));
    }
}

void writeReliabilitySection(YAML::Emitter& y, const ReliabilitySpec& spec)
{
    const ReliabilitySpec defaults;
    if (spec == defaults)
        return;
    y << YAML::Key << "reliability" << YAML::Value << YAML::BeginMap;
    auto bandwidth = [&](const char* key, double v) {
        if (v > 0)
            y << YAML::Key << key << YAML::Value << exactWithUnit(v, "B/s");
    };
    bandwidth("storage_write_bandwidth", spec.storageWriteBandwidth);
    bandwidth("storage_read_bandwidth", spec.storageReadBandwidth);
    y << YAML::Key << "async_checkpoint" << YAML::Value << spec.asyncCheckpoint;
    bandwidth("staging_bandwidth", spec.stagingBandwidth);
    if (spec.checkpointInterval > 0)
        y << YAML::Key << "checkpoint_interval" << YAML::Value << exactWithUnit(spec.checkpointInterval, "s");
    y << YAML::Key << "spares" << YAML::Value << spec.spares;
    y << YAML::Key << "straggler_slowdown" << YAML::Value << exactNumber(spec.stragglerSlowdown);
    y << YAML::Key << "backup_workers" << YAML::Value << spec.backupWorkers;
    if (spec.degradedLinkFraction < 1) {
        y << YAML::Key << "degraded_link" << YAML::Value << YAML::Flow << YAML::BeginMap;
        y << YAML::Key << "level" << YAML::Value << (spec.degradedLinkLevel == LinkLevel::ScaleUp ? "scale_up" : "scale_out");
        y << YAML::Key << "bandwidth_fraction" << YAML::Value << exactNumber(spec.degradedLinkFraction);
        y << YAML::EndMap;
    }
    if (!spec.chaos.empty()) {
        y << YAML::Key << "chaos" << YAML::Value << YAML::BeginSeq;
        for (const ChaosEvent& e : spec.chaos) {
            y << YAML::Flow << YAML::BeginMap;
            y << YAML::Key << "at" << YAML::Value << exactWithUnit(e.atSeconds, "s");
            y << YAML::Key << "event" << YAML::Value << chaosKindName(e.kind);
            if (!e.target.empty())
                y << YAML::Key << "target" << YAML::Value << e.target;
            if (e.kind == ChaosEvent::Kind::Straggler)
                y << YAML::Key << "slowdown" << YAML::Value << exactNumber(e.slowdown);
            y << YAML::EndMap;
        }
        y << YAML::EndSeq;
    }
    y << YAML::EndMap;
}

} // namespace dtsim
