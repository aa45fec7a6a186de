// The `hardware` and `cluster` sections, with `cluster.tiers[]`.
#include "field_builder.h"
#include "field_tables.h"

#include "../scenario_rules.h"

namespace dtsim::fields {

namespace {

// A tier field bound to entry `i` of the scenario's tiers.
template <typename T>
Field& bindTier(Field& f, T NetworkTier::*member)
{
    return f.access([member](const Scenario& s, int i) { return static_cast<double>(s.cluster.tiers[std::size_t(i)].*member); },
        [member](Scenario& s, double v, int i) { s.cluster.tiers[std::size_t(i)].*member = fromDouble<T>(v); });
}

} // namespace

void addHardwareFields(std::vector<FieldDef>& f)
{
    // The GPU's catalogue entry fills the hardware and the cluster's links; the loader
    // and the panel look the id up in the catalogue they hold and call switchGpu.
    f.push_back(Field("hardware.gpu", FieldType::Gpu).required().typeText("catalogue id").byDefault("required")
            .help("see `dtsim-cli hardware`")
            .text([](const Scenario& s, int) { return s.hardware.id; }, nullptr)
            .panel("Hardware", "GPU", 0, 0, SliderScale::Linear, "Accelerator from the catalogue (resources/hardware)."));
    f.push_back(quantity("hardware.memory", Dimension::Bytes, "B").typeText("bytes").byDefault("catalogue")
            .help("override capacity (e.g. a 64 GB part)").bind(&Scenario::hardware, &HardwareSpec::memoryBytes));
    f.push_back(quantity("hardware.memory_bandwidth", Dimension::BytesPerSecond, "B/s").typeText("bytes/s").byDefault("catalogue")
            .help("override HBM bandwidth").bind(&Scenario::hardware, &HardwareSpec::memoryBandwidth));
    f.push_back(quantity("hardware.power_limit", Dimension::Watts, "W").typeText("watts").byDefault("none (TDP)")
            .help("board power cap; compute clocks scale as the cube root of the power above idle")
            .bind(&Scenario::hardware, &HardwareSpec::powerLimitWatts)
            .writtenWhen([](const Scenario& s, int) { return s.hardware.powerLimitWatts > 0; }));
    // The host's share per GPU, which offload (parallel.offload) moves state to.
    f.push_back(quantity("hardware.host_memory", Dimension::Bytes, "B", Bound::NonNegative).typeText("bytes").byDefault("catalogue (`host.memory`)")
            .help("CPU memory per GPU (the node's over its GPUs) for offloaded state")
            .bind(&Scenario::hardware, &HardwareSpec::hostMemoryBytes));
    f.push_back(quantity("hardware.host_memory_bandwidth", Dimension::BytesPerSecond, "B/s", Bound::NonNegative).typeText("bytes/s")
            .byDefault("catalogue").help("CPU memory bandwidth per GPU (peak); paces the optimizer step on the CPU")
            .bind(&Scenario::hardware, &HardwareSpec::hostMemoryBandwidth));
    f.push_back(quantity("hardware.host_link_bandwidth", Dimension::BytesPerSecond, "B/s", Bound::NonNegative).typeText("bytes/s")
            .byDefault("catalogue").help("GPU-host copies per GPU and direction while every GPU of the node copies (PCIe, NVLink-C2C)")
            .bind(&Scenario::hardware, &HardwareSpec::hostLinkBandwidth));
    f.push_back(quantity("hardware.nvme_capacity", Dimension::Bytes, "B", Bound::NonNegative).typeText("bytes").byDefault("catalogue")
            .help("local NVMe per GPU for offloaded state").bind(&Scenario::hardware, &HardwareSpec::nvmeBytes));
    f.push_back(quantity("hardware.nvme_bandwidth", Dimension::BytesPerSecond, "B/s", Bound::NonNegative).typeText("bytes/s").byDefault("catalogue")
            .help("local NVMe per GPU while every GPU of the node reads or writes")
            .bind(&Scenario::hardware, &HardwareSpec::nvmeBandwidth));
}

void addClusterFields(std::vector<FieldDef>& f)
{
    // A named topology supplies the link defaults (the loader applies it before the
    // fields below); without one they come from the GPU's catalogue entry.
    f.push_back(Field("cluster.topology", FieldType::Topology).typeText("id").byDefault("none")
            .help("a shipped topology (`resources/topologies`: `dgx-h100-superpod`, `gb200-nvl72`, `a100-200g`, "
                  "`pcie-gtx580-10gbe`, `two-datacenter-h100`) supplying the fields below as defaults")
            .text([](const Scenario& s, int) { return s.cluster.topology; }, nullptr)
            .writtenWhen([](const Scenario& s, int) { return !s.cluster.topology.empty(); }));
    f.push_back(integer("cluster.gpus").required().byDefault("required").help("must equal `dp * tp * pp * cp`")
            .bind(&Scenario::cluster, &ClusterSpec::gpus)
            .panel("Hardware", "GPUs", 1, 1 << 24, SliderScale::Log, "GPUs in the job; must equal TP x PP x DP x CP.")
            .sliderStep(8));
    f.push_back(integer("cluster.scale_up_domain").byDefault("catalogue")
            .help("GPUs on one NVLink/NVSwitch/PCIe fabric (72 for NVL72)")
            .bind(&Scenario::cluster, &ClusterSpec::scaleUpDomain)
            // Up to the widest domain in the catalogue, a TPU v5p pod's 8,960 chips on one ICI
            // torus (576 cut it off, and the Topology tab's own 4,096 clamped it on edit); NVLink
            // domains end at NVL576.
            .panel("Network", "Scale-up domain", 1, 8960, SliderScale::Log,
                "GPUs on one NVLink/NVSwitch (or PCIe, or TPU ICI) fabric: 8 for HGX, 72 for NVL72, 8,960 for a TPU v5p pod."));
    f.push_back(integer("cluster.gpus_per_node").byDefault("`min(8, scale_up_domain)`")
            .bind(&Scenario::cluster, &ClusterSpec::gpusPerNode)
            // A topology names its server; without one, the standard 8-GPU server or the domain.
            .derived([](const Scenario& s, int) {
                return DerivedDefault::of(double(s.cluster.topology.empty() ? std::min(8, s.cluster.scaleUpDomain) : s.cluster.gpusPerNode));
            })
            // Servers hold 2 to 16 GPUs (a DGX-2 16); an NVL72 rack counted as one node is the
            // widest (the Topology tab's own 576 allowed nodes nobody builds).
            .panel("Hardware", "GPUs per node", 1, 72, SliderScale::Linear, "GPUs in one server."));
    f.push_back(quantity("cluster.jitter", Dimension::Count, "", Bound::NonNegative).typeText("0-0.5").byDefault("`0` (no jitter)")
            .help("coefficient of variation of one rank's compute time from step to step; a synchronous step waits for the "
                  "slowest of the job's ranks, cv x E[max of n normals] longer (`0.03`; docs/convergence.md cites the measurements)")
            .bind(&Scenario::cluster, &ClusterSpec::jitter)
            .check([](const Scenario&, double v, int) -> std::string {
                return v <= 0.5 ? std::string() : "a step-to-step spread above 50% of the step is a broken node, not jitter "
                                                   "(reliability.straggler_slowdown models one)";
            })
            .writtenWhen([](const Scenario& s, int) { return s.cluster.jitter > 0; })
            .panel("Network", "Per-step jitter (CV)", 0, 0.2, SliderScale::Linear,
                "Each rank's compute varies step to step by this share; the step waits for the slowest of all ranks."));
    f.push_back(quantity("cluster.scale_up_bandwidth", Dimension::BytesPerSecond, "B/s").typeText("bytes/s").byDefault("catalogue")
            .help("per GPU, per direction").bind(&Scenario::cluster, &ClusterSpec::scaleUpBandwidth)
            .panel("Network", "Scale-up bandwidth", 1, 10000, SliderScale::Log,
                "Per GPU, per direction. Collectives inside a domain run at this rate times the bus efficiency.")
            .shown("GB/s", 1e9));
    f.push_back(quantity("cluster.scale_up_latency", Dimension::Seconds, "s", Bound::NonNegative).typeText("seconds").byDefault("catalogue")
            .bind(&Scenario::cluster, &ClusterSpec::scaleUpLatency)
            .panel("Network", "Scale-up latency", 0.1, 1000, SliderScale::Log, "The alpha of every message step inside a domain.")
            .shown("us", 1e-6));
    f.push_back(quantity("cluster.scale_out_bandwidth", Dimension::BytesPerSecond, "B/s").typeText("bytes/s").byDefault("catalogue")
            .help("per GPU (its NIC share), per direction").bind(&Scenario::cluster, &ClusterSpec::scaleOutBandwidth)
            .panel("Network", "Scale-out bandwidth", 1, 10000, SliderScale::Log,
                "Per GPU (its NIC share), per direction. Used by collectives that leave the scale-up domain.")
            .shown("Gb/s", 1e9 / 8));
    f.push_back(quantity("cluster.scale_out_latency", Dimension::Seconds, "s", Bound::NonNegative).typeText("seconds").byDefault("catalogue")
            .bind(&Scenario::cluster, &ClusterSpec::scaleOutLatency)
            .panel("Network", "Scale-out latency", 0.1, 10000, SliderScale::Log,
                "The alpha of every message step across the network; it sets the latency wall.")
            .shown("us", 1e-6));
    f.push_back(flag("cluster.scale_up_in_network_reduction").byDefault("`false`")
            .help("NVLink SHARP (NVLS): all-reduce inside a domain in one pass")
            .bind(&Scenario::cluster, &ClusterSpec::scaleUpInNetworkReduction)
            .form("In-switch reduction (NVLS)", 0, 1, SliderScale::Linear,
                "NVLink SHARP (NVLS): the NVSwitches reduce, so an all-reduce inside a domain moves the data once."));

    // --- cluster.tiers[] ----------------------------------------------------------
    f.push_back(text("cluster.tiers[].name").byDefault("empty").help("label")
            .text([](const Scenario& s, int i) { return std::string(s.cluster.tiers[std::size_t(i)].label()); },
                [](Scenario& s, const std::string& v, int i) { s.cluster.tiers[std::size_t(i)].setLabel(v); })
            .writtenWhen([](const Scenario& s, int i) { return !s.cluster.tiers[std::size_t(i)].label().empty(); })
            // A text's range is its length, in bytes.
            .form("Name", 0, NetworkTier::kLabelMax, SliderScale::Linear,
                "The tier's label in the drawing and the reports (leaf, spine, ...)."));
    {
        Field span = integer("cluster.tiers[].span_gpus");
        bindTier(span, &NetworkTier::spanGpus);
        f.push_back(std::move(span.required().byDefault("required").help("GPUs below one switch of this tier; must grow outward")
                .check([](const Scenario& s, double v, int i) {
                    return i > 0 && v <= s.cluster.tiers[std::size_t(i - 1)].spanGpus
                        ? "tiers must grow outward (span larger than the tier inside)" : "";
                })
                // A unit spans at most the cluster, whose own range ends at 2^24 GPUs.
                .form("GPUs per unit", 1, 1 << 24, SliderScale::Log,
                    "GPUs below one switch (or site) of this tier; larger than the tier inside it.")));
    }
    {
        Field over = quantity("cluster.tiers[].oversubscription", Dimension::Count, "");
        bindTier(over, &NetworkTier::oversubscription);
        f.push_back(std::move(over.typeText("number >= 1").byDefault("`1`").help("downlink : uplink ratio for traffic leaving a unit")
                .check([](const Scenario&, double v, int) { return v < 1.0 ? "must be at least 1 (1 = non-blocking)" : ""; })
                // 1:1 (non-blocking) to 1000:1: a 2012 aggregation layer ran up to 8:1 (Al-Fares
                // et al. 2008), and a site's long-haul link is 64:1 (two-datacenter-h100).
                .form("Oversubscription", 1, 1000, SliderScale::Log,
                    "Downlink : uplink of one unit; traffic leaving it shares 1/oversubscription of its GPUs' NIC bandwidth.")
                .shown(": 1", 1)));
    }
    {
        Field up = quantity("cluster.tiers[].uplink_bandwidth", Dimension::BytesPerSecond, "B/s");
        bindTier(up, &NetworkTier::uplinkBandwidth);
        f.push_back(std::move(up.typeText("bytes/s").byDefault("span x NIC / oversubscription")
                .help("total capacity leaving one unit (e.g. a site's long-haul link)")
                .writtenWhen([](const Scenario& s, int i) { return s.cluster.tiers[std::size_t(i)].uplinkBandwidth > 0; })
                // Up to 10 PB/s: a 9,216-GPU unit's NICs at 800 Gb/s add up to about 1 PB/s.
                .form("Uplink total", 0, 10000, SliderScale::Linear,
                    "Total capacity leaving one unit (a site's long-haul link: 3.2 TB/s for 64 x 400G waves). "
                    "0: the unit's GPUs x their NIC bandwidth / oversubscription.")
                .shown("TB/s", 1e12)
                .zeroMeans("auto")));
    }
    {
        Field lat = quantity("cluster.tiers[].latency", Dimension::Seconds, "s", Bound::NonNegative);
        bindTier(lat, &NetworkTier::latency);
        // 0 to 100 ms: a switch hop is under a microsecond, 1 ms is 200 km of fibre, 100 ms
        // a link half-way round the world.
        f.push_back(std::move(lat.typeText("seconds").byDefault("`0`").help("extra latency for traffic crossing it")
                .form("Latency", 0, 100000, SliderScale::Linear, "Added to every message step that crosses this tier.")
                .shown("us", 1e-6)));
    }
    {
        Field rail = flag("cluster.tiers[].rail_optimized");
        bindTier(rail, &NetworkTier::railOptimized);
        f.push_back(std::move(rail.byDefault("`false`").help("NIC i of every node on rail i: same-rank groups stay inside the rail")
                .form("Rail-optimized", 0, 1)));
    }
    {
        Field sharp = flag("cluster.tiers[].in_network_reduction");
        bindTier(sharp, &NetworkTier::inNetworkReduction);
        f.push_back(std::move(sharp.byDefault("`false`").help("switches reduce (SHARP): all-reduces crossing it move half the data")
                .form("In-network reduction (SHARP)", 0, 1)));
    }
}

} // namespace dtsim::fields
