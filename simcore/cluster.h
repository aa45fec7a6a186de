#pragma once
// The cluster as a tree of levels: GPUs in scale-up domains (NVLink/NVSwitch, NVL72,
// or PCIe only) with one NIC share each, then switch tiers outward (leaf, spine, core,
// datacenter, long-haul), each with the GPUs it spans, its uplink capacity or
// oversubscription, its latency, and options: rail-optimized leaves, in-network
// reduction (SHARP). Fixed-size, so copying a scenario allocates nothing.
#include <array>
#include <string>
#include <string_view>

namespace dtsim {

struct NetworkTier {
    // "leaf", "spine", "datacenter (long-haul out)" ... (NUL-terminated; 24 bytes cut the
    // Topology tab's own "datacenter (long-haul out)" short).
    std::array<char, 32> name {};
    static constexpr int kLabelMax = 31; // bytes; longer labels are cut, at a whole character
    int spanGpus = 0;             // GPUs below one unit (switch group) of this tier
    double oversubscription = 1;  // downlink : uplink ratio leaving a unit
    double uplinkBandwidth = 0;   // total bytes/s leaving one unit; 0 = span x NIC / oversubscription
    double latency = 0;           // extra one-way latency for traffic crossing it
    bool railOptimized = false;   // NIC i of every node on rail i: same-rank traffic stays on the rail
    bool inNetworkReduction = false; // switches reduce (SHARP): all-reduce crosses with half the data

    std::string_view label() const { return std::string_view(name.data()); }
    void setLabel(std::string_view n);
    // Bandwidth leaving a unit, per GPU below it, with `nic` bytes/s per GPU.
    double uplinkPerGpu(double nic) const
    {
        return uplinkBandwidth > 0 ? uplinkBandwidth / spanGpus : nic / oversubscription;
    }
    bool operator==(const NetworkTier&) const = default;
};

inline constexpr int kMaxTiers = 6;

struct ClusterSpec {
    long long gpus = 0;
    int gpusPerNode = 8;
    int scaleUpDomain = 8; // GPUs joined by the scale-up fabric (>= gpusPerNode for NVL72)
    double scaleUpBandwidth = 0; // per GPU, per direction
    double scaleUpLatency = 0;
    double scaleOutBandwidth = 0; // per GPU, per direction (NIC share)
    double scaleOutLatency = 0;
    bool scaleUpInNetworkReduction = false; // NVLink SHARP (NVLS) in the scale-up switches
    std::array<NetworkTier, kMaxTiers> tiers {};
    int tierCount = 0; // tiers[0] is the innermost (leaf)
    std::string topology; // the shipped topology it came from, "" for a hand-made one
    // Coefficient of variation of one rank's compute time from step to step (stragglers.h);
    // 0: every rank takes the same time.
    double jitter = 0;
    bool operator==(const ClusterSpec&) const = default;
};

// Where a communication group of `size` ranks, `stride` ranks apart, lands.
struct GroupSpan {
    int size = 1;
    int perDomain = 1; // members sharing one scale-up domain
    int domains = 1;   // scale-up domains the group spans
    // Per GPU scale-out bandwidth after oversubscription, for neighbour (ring) traffic,
    // where only the ring edges between switch units cross an uplink...
    double interBandwidth = 0;
    // ... for the inter-domain phase of a hierarchical collective, where every one of the
    // perDomain ranks of a domain drives its own ring (one per rail) concurrently, so a
    // unit's uplinks carry perDomain times the flows of one ring...
    double railBandwidth = 0;
    // ... and for uniform (all-to-all) traffic, where a share (u-1)/u of every GPU's
    // bytes leaves its unit.
    double spreadBandwidth = 0;
    double interLatency = 0; // scale-out latency plus crossed tiers' latencies
    int outermostTier = -1;  // the outermost tier the group crosses (-1: none)
    bool inNetworkReduction = false; // every crossed tier (or the domain) reduces in-switch
    std::array<double, kMaxTiers> tierCrossShare {}; // share of a GPU's scale-out bytes leaving its unit
};

GroupSpan groupSpan(const ClusterSpec& c, int size, int stride);

} // namespace dtsim
