#include "topology_loader.h"

#include "read_file.h"
#include "yaml_reader.h"

#include <algorithm>
#include <filesystem>

namespace dtsim {

namespace {

Topology loadTopologyFile(const std::string& path)
{
    YamlReader r(path);
    const YAML::Node root = r.parse(readTextFile(path, "topology file"));
    r.expectMap(root, "");
    r.checkKeys(root, "", { "id", "name", "source", "gpus_per_node", "scale_up_domain", "scale_up_bandwidth",
                              "scale_up_latency", "scale_out_bandwidth", "scale_out_latency",
                              "scale_up_in_network_reduction", "tiers" });
    if (!root["source"] || !root["source"].IsScalar() || root["source"].Scalar().empty())
        r.fail(root, "source", "every topology needs a source");
    Topology t;
    t.id = r.string(r.required(root, "", "id"), "id");
    t.name = r.string(r.required(root, "", "name"), "name");
    ClusterSpec& c = t.cluster;
    c.gpusPerNode = static_cast<int>(r.integer(r.required(root, "", "gpus_per_node"), "gpus_per_node", 1, 1 << 20));
    auto quantity = [&](const char* key, Dimension d, Bound b, double& out, bool& has) {
        if (const YAML::Node n = root[key]) {
            out = r.quantity(n, key, d, b);
            has = true;
        }
    };
    double domain = 0;
    quantity("scale_up_domain", Dimension::Count, Bound::Positive, domain, t.hasScaleUpDomain);
    c.scaleUpDomain = t.hasScaleUpDomain ? static_cast<int>(domain) : c.gpusPerNode;
    quantity("scale_up_bandwidth", Dimension::BytesPerSecond, Bound::Positive, c.scaleUpBandwidth, t.hasScaleUpBandwidth);
    quantity("scale_up_latency", Dimension::Seconds, Bound::NonNegative, c.scaleUpLatency, t.hasScaleUpLatency);
    quantity("scale_out_bandwidth", Dimension::BytesPerSecond, Bound::Positive, c.scaleOutBandwidth, t.hasScaleOutBandwidth);
    quantity("scale_out_latency", Dimension::Seconds, Bound::NonNegative, c.scaleOutLatency, t.hasScaleOutLatency);
    if (const YAML::Node n = root["scale_up_in_network_reduction"])
        c.scaleUpInNetworkReduction = r.boolean(n, "scale_up_in_network_reduction");
    if (const YAML::Node tiers = root["tiers"]) {
        if (!tiers.IsSequence() || tiers.size() > static_cast<std::size_t>(kMaxTiers))
            r.fail(tiers, "tiers", "expected a list of at most " + std::to_string(kMaxTiers) + " tiers");
        for (std::size_t i = 0; i < tiers.size(); ++i) {
            const std::string f = "tiers[" + std::to_string(i) + "]";
            const YAML::Node n = tiers[i];
            r.expectMap(n, f);
            r.checkKeys(n, f, { "name", "span_gpus", "oversubscription", "uplink_bandwidth", "latency", "rail_optimized",
                                  "in_network_reduction", "source" });
            if (!n["source"] || n["source"].Scalar().empty())
                r.fail(n, f + ".source", "every tier needs a source");
            NetworkTier& tier = c.tiers[i];
            if (n["name"])
                tier.setLabel(r.string(n["name"], f + ".name"));
            if (!n["span_gpus"])
                r.fail(n, f + ".span_gpus", "is required");
            tier.spanGpus = static_cast<int>(r.integer(n["span_gpus"], f + ".span_gpus", 1, 1LL << 30));
            if (n["oversubscription"])
                tier.oversubscription = r.quantity(n["oversubscription"], f + ".oversubscription", Dimension::Count, Bound::Positive);
            if (n["uplink_bandwidth"])
                tier.uplinkBandwidth = r.quantity(n["uplink_bandwidth"], f + ".uplink_bandwidth", Dimension::BytesPerSecond, Bound::Positive);
            if (n["latency"])
                tier.latency = r.quantity(n["latency"], f + ".latency", Dimension::Seconds, Bound::NonNegative);
            if (n["rail_optimized"])
                tier.railOptimized = r.boolean(n["rail_optimized"], f + ".rail_optimized");
            if (n["in_network_reduction"])
                tier.inNetworkReduction = r.boolean(n["in_network_reduction"], f + ".in_network_reduction");
        }
        c.tierCount = static_cast<int>(tiers.size());
    }
    return t;
}

} // namespace

std::vector<Topology> loadTopologyCatalog(const std::string& directory)
{
    namespace fs = std::filesystem;
    std::vector<Topology> out;
    std::error_code ec;
    if (!fs::is_directory(directory, ec))
        return out; // no shipped topologies: scenarios use the simple cluster form
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(directory, ec))
        if (e.path().extension() == ".yaml")
            files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    for (const std::string& f : files)
        out.push_back(loadTopologyFile(f));
    return out;
}

const Topology* findTopology(const std::vector<Topology>& catalog, const std::string& id)
{
    for (const Topology& t : catalog)
        if (t.id == id)
            return &t;
    return nullptr;
}

} // namespace dtsim
