#pragma once
// The simple cluster form: nodes of GPUs inside scale-up domains (NVLink/NVSwitch,
// NVL72, or PCIe only), joined by a scale-out network made of tiers (leaf, spine, ...)
// that may be oversubscribed. A later topology model refines this.
#include <array>

namespace dtsim {

struct NetworkTier {
    int spanGpus = 0;             // GPUs below one switch of this tier (0 = whole cluster)
    double oversubscription = 1;  // downlink : uplink bandwidth ratio leaving this tier
    double latency = 0;           // extra one-way latency for traffic crossing it
};

inline constexpr int kMaxTiers = 4;

struct ClusterSpec {
    long long gpus = 0;
    int gpusPerNode = 8;
    int scaleUpDomain = 8; // GPUs joined by the scale-up fabric (>= gpusPerNode for NVL72)
    double scaleUpBandwidth = 0; // per GPU, per direction
    double scaleUpLatency = 0;
    double scaleOutBandwidth = 0; // per GPU, per direction (NIC share)
    double scaleOutLatency = 0;
    std::array<NetworkTier, kMaxTiers> tiers {};
    int tierCount = 0; // tiers[0] is the innermost (leaf)
};

// Where a communication group of `size` ranks, `stride` ranks apart, lands.
struct GroupSpan {
    int size = 1;
    int perDomain = 1; // members sharing one scale-up domain
    int domains = 1;   // scale-up domains the group spans
    // Per GPU scale-out bandwidth after oversubscription, for neighbour (ring) traffic,
    // where only the ring edges between switch units cross an uplink...
    double interBandwidth = 0;
    // ... and for uniform (all-to-all) traffic, where a share (u-1)/u of every GPU's
    // bytes leaves its unit.
    double spreadBandwidth = 0;
    double interLatency = 0; // scale-out latency plus crossed tiers' latencies
};

GroupSpan groupSpan(const ClusterSpec& c, int size, int stride);

} // namespace dtsim
