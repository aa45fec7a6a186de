#include "cluster.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace dtsim {

void NetworkTier::setLabel(std::string_view n)
{
    name.fill('\0');
    std::size_t size = std::min(n.size(), std::size_t(kLabelMax));
    // Not inside a UTF-8 character: half of one is no text (the drawing showed U+FFFD).
    while (size > 0 && size < n.size() && (static_cast<unsigned char>(n[size]) & 0xC0) == 0x80)
        --size;
    std::memcpy(name.data(), n.data(), size);
}

GroupSpan groupSpan(const ClusterSpec& c, int size, int stride)
{
    GroupSpan g;
    g.size = std::max(1, size);
    stride = std::max(1, stride);
    // Ranks are laid out consecutively, domain by domain: members at distance `stride`
    // share a domain while stride * k fits in it.
    const int domain = std::max(1, c.scaleUpDomain);
    g.perDomain = stride >= domain ? 1 : std::clamp(domain / stride, 1, g.size);
    g.domains = static_cast<int>((static_cast<long long>(g.size) + g.perDomain - 1) / g.perDomain);

    // Tiers the group crosses. A ring keeps members of one unit adjacent, so each group
    // sends one flow out of a unit; the unit's uplinks (span x per-GPU uplink share)
    // carry span / members-per-unit such flows, enough unless the members per unit times
    // the per-GPU uplink share falls below the NIC rate. All-to-all traffic leaves the
    // unit from every GPU and sees the per-GPU uplink share directly.
    // Rail-optimized leaves keep same-rank traffic (stride a multiple of the node size)
    // inside the rail; traffic between different ranks of different nodes climbs past
    // them.
    const double nic = c.scaleOutBandwidth;
    double ringFactor = 1.0, railFactor = 1.0, spreadFactor = 1.0;
    bool reduces = g.domains <= 1 ? c.scaleUpInNetworkReduction : true;
    g.interLatency = c.scaleOutLatency;
    const long long extent = static_cast<long long>(stride) * (g.size - 1) + 1;
    const bool sameRank = c.gpusPerNode > 0 && stride % c.gpusPerNode == 0;
    for (int i = 0; i < c.tierCount; ++i) {
        const NetworkTier& t = c.tiers[i];
        const long long span = (t.railOptimized && !sameRank) ? std::min<long long>(t.spanGpus, c.gpusPerNode) : t.spanGpus;
        if (span <= 0 || extent <= span)
            continue;
        const double membersPerUnit = std::clamp(double(span) / stride, 1.0, double(g.size));
        const double share = nic > 0 ? t.uplinkPerGpu(nic) / nic : 1.0;
        ringFactor = std::min(ringFactor, std::min(1.0, membersPerUnit * share));
        railFactor = std::min(railFactor, std::min(1.0, std::max(1.0, membersPerUnit / g.perDomain) * share));
        spreadFactor = std::min(spreadFactor, std::min(1.0, share));
        g.interLatency += t.latency;
        g.outermostTier = i;
        reduces = reduces && t.inNetworkReduction;
        // Ring: one member per unit sends out; all-to-all: (units-1)/units of each GPU's bytes.
        const double units = std::ceil(g.size / membersPerUnit);
        g.tierCrossShare[i] = units > 1 ? std::max(1.0 / membersPerUnit, (units - 1) / units / membersPerUnit) : 0.0;
    }
    g.inNetworkReduction = reduces && g.outermostTier >= 0;
    g.interBandwidth = nic * ringFactor;
    g.railBandwidth = nic * railFactor;
    g.spreadBandwidth = nic * spreadFactor;
    return g;
}

} // namespace dtsim
