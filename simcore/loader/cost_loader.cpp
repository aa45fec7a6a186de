#include "cost_loader.h"

#include "../exact_number.h"
#include "read_file.h"
#include "sourced_value.h"

namespace dtsim {

CostRates loadCostRates(const std::string& path)
{
    YamlReader r(path);
    const YAML::Node root = r.parse(readTextFile(path, "cost file"));
    r.expectMap(root, "");
    r.checkKeys(root, "", { "version", "rent", "spot_preemption", "own", "power", "carbon" });
    if (r.integer(r.required(root, "", "version"), "version", 1, 1) != 1)
        r.fail(root, "version", "unsupported version");
    CostRates c;
    auto value = [&](const YAML::Node& map, const std::string& sec, const char* key, Dimension d, Bound b) {
        return sourcedQuantity(r, r.required(map, sec, key), sec + "." + key, d, b);
    };
    auto section = [&](const YAML::Node& parent, const std::string& parentName, const char* key,
                       std::initializer_list<std::string_view> keys) {
        const YAML::Node n = r.required(parent, parentName, key);
        const std::string name = YamlReader::join(parentName, key);
        r.expectMap(n, name);
        if (keys.size() > 0)
            r.checkKeys(n, name, keys);
        return n;
    };

    const YAML::Node rent = section(root, "", "rent", {});
    for (const auto& kv : rent) {
        const std::string id = kv.first.as<std::string>();
        const std::string sec = "rent." + id;
        r.expectMap(kv.second, sec);
        r.checkKeys(kv.second, sec, { "on_demand", "reserved", "spot" });
        RentPrices p;
        p.onDemand = value(kv.second, sec, "on_demand", Dimension::Count, Bound::Positive);
        p.reserved = value(kv.second, sec, "reserved", Dimension::Count, Bound::Positive);
        p.spot = value(kv.second, sec, "spot", Dimension::Count, Bound::Positive);
        c.rent[id] = p;
    }
    const YAML::Node spot = section(root, "", "spot_preemption", { "mtbf_per_node" });
    c.spotPreemptionMtbfPerNode = value(spot, "spot_preemption", "mtbf_per_node", Dimension::Seconds, Bound::Positive);

    const YAML::Node own = section(root, "", "own", { "lifetime", "server_cost_fraction", "network_port_usd",
                                                          "network_usd_per_gbps", "storage_usd_per_tb", "checkpoints_kept" });
    c.lifetime = value(own, "own", "lifetime", Dimension::Seconds, Bound::Positive);
    c.serverCostFraction = value(own, "own", "server_cost_fraction", Dimension::Count, Bound::NonNegative);
    c.networkPortUsd = value(own, "own", "network_port_usd", Dimension::Count, Bound::NonNegative);
    c.networkUsdPerGbps = value(own, "own", "network_usd_per_gbps", Dimension::Count, Bound::NonNegative);
    c.storageUsdPerTb = value(own, "own", "storage_usd_per_tb", Dimension::Count, Bound::NonNegative);
    c.checkpointsKept = value(own, "own", "checkpoints_kept", Dimension::Count, Bound::NonNegative);

    const YAML::Node power = section(root, "", "power", { "host_fraction_of_tdp", "network_watts_per_port", "pue",
                                                              "electricity_usd_per_kwh" });
    c.hostFractionOfTdp = value(power, "power", "host_fraction_of_tdp", Dimension::Count, Bound::NonNegative);
    c.networkWattsPerPort = value(power, "power", "network_watts_per_port", Dimension::Watts, Bound::NonNegative);
    c.pue = value(power, "power", "pue", Dimension::Count, Bound::Positive);
    if (c.pue < 1)
        r.fail(power["pue"], "power.pue.value", "a PUE is at least 1");
    c.electricityUsdPerKwh = value(power, "power", "electricity_usd_per_kwh", Dimension::Count, Bound::NonNegative);

    const YAML::Node carbon = section(root, "", "carbon", { "regions", "embodied_kg_per_gpu", "embodied_kg_per_node" });
    const YAML::Node regions = section(carbon, "carbon", "regions", {});
    for (const auto& kv : regions) {
        const std::string id = kv.first.as<std::string>();
        c.gridGramsPerKwh[id] = sourcedQuantity(r, kv.second, "carbon.regions." + id, Dimension::Count, Bound::NonNegative);
    }
    c.embodiedKgPerGpu = value(carbon, "carbon", "embodied_kg_per_gpu", Dimension::Count, Bound::NonNegative);
    c.embodiedKgPerNode = value(carbon, "carbon", "embodied_kg_per_node", Dimension::Count, Bound::NonNegative);
    return c;
}

} // namespace dtsim
