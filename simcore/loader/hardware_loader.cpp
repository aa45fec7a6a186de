#include "hardware_loader.h"

#include "read_file.h"
#include "sourced_value.h"

#include <algorithm>
#include <filesystem>

namespace dtsim {

namespace {

// The optional `host:` section: the server's CPU memory, GPU-host link and NVMe, per GPU.
void readHost(YamlReader& r, const YAML::Node& host, HardwareSpec& h)
{
    r.expectMap(host, "host");
    r.checkKeys(host, "host", { "server", "memory", "memory_bandwidth", "link_bandwidth", "nvme_capacity", "nvme_bandwidth" });
    h.hostServer = r.string(r.required(host, "host", "server"), "host.server");
    h.hostMemoryBytes = sourcedQuantity(r, r.required(host, "host", "memory"), "host.memory", Dimension::Bytes, Bound::Positive);
    h.hostMemoryBandwidth = sourcedQuantity(r, r.required(host, "host", "memory_bandwidth"), "host.memory_bandwidth",
        Dimension::BytesPerSecond, Bound::Positive);
    h.hostLinkBandwidth = sourcedQuantity(r, r.required(host, "host", "link_bandwidth"), "host.link_bandwidth",
        Dimension::BytesPerSecond, Bound::Positive);
    h.nvmeBytes = sourcedQuantity(r, r.required(host, "host", "nvme_capacity"), "host.nvme_capacity", Dimension::Bytes, Bound::Positive);
    h.nvmeBandwidth = sourcedQuantity(r, r.required(host, "host", "nvme_bandwidth"), "host.nvme_bandwidth",
        Dimension::BytesPerSecond, Bound::Positive);
}

} // namespace

HardwareSpec loadHardwareFile(const std::string& path)
{
    YamlReader r(path);
    const YAML::Node root = r.parse(readTextFile(path, "hardware file"));
    r.expectMap(root, "");
    r.checkKeys(root, "", { "id", "name", "vendor", "generation", "launch_year", "peak_dense_flops",
                              "memory", "scale_up", "scale_out", "power", "price", "host" });
    HardwareSpec h;
    h.id = r.string(r.required(root, "", "id"), "id");
    h.name = r.string(r.required(root, "", "name"), "name");
    h.vendor = r.string(r.required(root, "", "vendor"), "vendor");
    h.generation = r.string(r.required(root, "", "generation"), "generation");
    h.launchYear = static_cast<int>(
        sourcedQuantity(r, r.required(root, "", "launch_year"), "launch_year", Dimension::Count, Bound::Positive));

    const YAML::Node flops = r.required(root, "", "peak_dense_flops");
    r.expectMap(flops, "peak_dense_flops");
    r.checkKeys(flops, "peak_dense_flops", { "fp32", "tf32", "bf16", "fp16", "fp8", "fp4" });
    for (Precision p : kAllPrecisions) {
        const std::string key(precisionName(p));
        if (const YAML::Node n = flops[key])
            h.peakDenseFlops[precisionIndex(p)] = sourcedQuantity(r, n, "peak_dense_flops." + key,
                Dimension::FlopPerSecond, Bound::Positive);
    }

    const YAML::Node mem = r.required(root, "", "memory");
    r.expectMap(mem, "memory");
    r.checkKeys(mem, "memory", { "capacity", "bandwidth" });
    h.memoryBytes = sourcedQuantity(r, r.required(mem, "memory", "capacity"), "memory.capacity", Dimension::Bytes, Bound::Positive);
    h.memoryBandwidth = sourcedQuantity(r, r.required(mem, "memory", "bandwidth"), "memory.bandwidth",
        Dimension::BytesPerSecond, Bound::Positive);

    const YAML::Node up = r.required(root, "", "scale_up");
    r.expectMap(up, "scale_up");
    r.checkKeys(up, "scale_up", { "technology", "bandwidth", "domain_size", "latency" });
    h.scaleUpTechnology = r.string(r.required(up, "scale_up", "technology"), "scale_up.technology");
    h.scaleUpBandwidth = sourcedQuantity(r, r.required(up, "scale_up", "bandwidth"), "scale_up.bandwidth",
        Dimension::BytesPerSecond, Bound::Positive);
    h.scaleUpDomain = static_cast<int>(sourcedQuantity(r, r.required(up, "scale_up", "domain_size"),
        "scale_up.domain_size", Dimension::Count, Bound::Positive));
    h.scaleUpLatency = sourcedQuantity(r, r.required(up, "scale_up", "latency"), "scale_up.latency",
        Dimension::Seconds, Bound::NonNegative);

    const YAML::Node out = r.required(root, "", "scale_out");
    r.expectMap(out, "scale_out");
    r.checkKeys(out, "scale_out", { "bandwidth", "latency" });
    h.scaleOutBandwidth = sourcedQuantity(r, r.required(out, "scale_out", "bandwidth"), "scale_out.bandwidth",
        Dimension::BytesPerSecond, Bound::Positive);
    h.scaleOutLatency = sourcedQuantity(r, r.required(out, "scale_out", "latency"), "scale_out.latency",
        Dimension::Seconds, Bound::NonNegative);

    const YAML::Node power = r.required(root, "", "power");
    r.expectMap(power, "power");
    r.checkKeys(power, "power", { "tdp", "idle" });
    h.tdpWatts = sourcedQuantity(r, r.required(power, "power", "tdp"), "power.tdp", Dimension::Watts, Bound::Positive);
    if (const YAML::Node idle = power["idle"])
        h.idleWatts = sourcedQuantity(r, idle, "power.idle", Dimension::Watts, Bound::NonNegative);

    if (const YAML::Node host = root["host"])
        readHost(r, host, h);

    const YAML::Node price = r.required(root, "", "price");
    r.expectMap(price, "price");
    r.checkKeys(price, "price", { "launch_usd" });
    h.launchPriceUsd = sourcedQuantity(r, r.required(price, "price", "launch_usd"), "price.launch_usd",
        Dimension::Count, Bound::Positive);
    return h;
}

std::vector<HardwareSpec> loadHardwareCatalog(const std::string& directory)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(directory, ec))
        throw InputError(directory, 0, "", "hardware catalogue folder not found");
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(directory, ec))
        if (entry.path().extension() == ".yaml")
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    std::vector<HardwareSpec> out;
    for (const std::string& f : files) {
        HardwareSpec h = loadHardwareFile(f);
        if (findHardware(out, h.id))
            throw InputError(f, 0, "id", "duplicate hardware id \"" + h.id + "\"");
        out.push_back(std::move(h));
    }
    std::stable_sort(out.begin(), out.end(), [](const HardwareSpec& a, const HardwareSpec& b) {
        return a.launchYear != b.launchYear ? a.launchYear < b.launchYear : a.id < b.id;
    });
    return out;
}

const HardwareSpec* findHardware(const std::vector<HardwareSpec>& catalog, const std::string& id)
{
    for (const HardwareSpec& h : catalog)
        if (h.id == id)
            return &h;
    return nullptr;
}

} // namespace dtsim
