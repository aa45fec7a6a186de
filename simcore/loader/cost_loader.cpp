#include "cost_loader.h"

#include "exact_number.h"
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

void readCostSection(YamlReader& r, const YAML::Node& n, CostSpec& spec)
{
    const std::string sec = "cost";
    r.expectMap(n, sec);
    r.checkKeys(n, sec, { "ownership", "pricing", "region", "gpu_hour_usd", "gpu_price_usd", "electricity_usd_per_kwh",
                            "pue", "grid_g_per_kwh", "carbon_cap_tonnes" });
    spec = CostSpec {};
    if (const YAML::Node v = r.child(n, sec, "ownership")) {
        const std::string t = r.string(v, "cost.ownership");
        if (t == "rent")
            spec.ownership = Ownership::Rent;
        else if (t == "own")
            spec.ownership = Ownership::Own;
        else
            r.fail(v, "cost.ownership", "\"" + t + "\" is not one of: rent, own");
    }
    if (const YAML::Node v = r.child(n, sec, "pricing")) {
        const std::string t = r.string(v, "cost.pricing");
        if (t == "on_demand")
            spec.pricing = Pricing::OnDemand;
        else if (t == "reserved")
            spec.pricing = Pricing::Reserved;
        else if (t == "spot")
            spec.pricing = Pricing::Spot;
        else
            r.fail(v, "cost.pricing", "\"" + t + "\" is not one of: on_demand, reserved, spot");
    }
    if (const YAML::Node v = r.child(n, sec, "region"))
        spec.region = r.string(v, "cost.region");
    auto positive = [&](const char* key) {
        const YAML::Node v = r.child(n, sec, key);
        return v ? r.quantity(v, sec + "." + key, Dimension::Count, Bound::Positive) : 0.0;
    };
    spec.gpuHourUsd = positive("gpu_hour_usd");
    spec.gpuPriceUsd = positive("gpu_price_usd");
    spec.electricityUsdPerKwh = positive("electricity_usd_per_kwh");
    spec.pue = positive("pue");
    if (spec.pue > 0 && spec.pue < 1)
        r.fail(n["pue"], "cost.pue", "a PUE is at least 1 (all the power reaches the IT equipment at best)");
    spec.gridGramsPerKwh = positive("grid_g_per_kwh");
    spec.carbonCapTonnes = positive("carbon_cap_tonnes");
}

void writeCostSection(YAML::Emitter& y, const CostSpec& spec)
{
    if (spec == CostSpec {})
        return;
    y << YAML::Key << "cost" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "ownership" << YAML::Value << ownershipName(spec.ownership);
    y << YAML::Key << "pricing" << YAML::Value << pricingName(spec.pricing);
    y << YAML::Key << "region" << YAML::Value << spec.region;
    auto number = [&](const char* key, double v) {
        if (v > 0)
            y << YAML::Key << key << YAML::Value << exactNumber(v);
    };
    number("gpu_hour_usd", spec.gpuHourUsd);
    number("gpu_price_usd", spec.gpuPriceUsd);
    number("electricity_usd_per_kwh", spec.electricityUsdPerKwh);
    number("pue", spec.pue);
    number("grid_g_per_kwh", spec.gridGramsPerKwh);
    number("carbon_cap_tonnes", spec.carbonCapTonnes);
    y << YAML::EndMap;
}

} // namespace dtsim
