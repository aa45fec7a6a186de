#include "cluster.h"

#include <algorithm>

namespace dtsim {

GroupSpan groupSpan(const ClusterSpec& c, int size, int stride)
{
    GroupSpan g;
    g.size = std::max(1, size);
    stride = std::max(1, stride);
    // Ranks are laid out consecutively, domain by domain: members at distance `stride`
    // share a domain while stride * k fits in it.
    const int domain = std::max(1, c.scaleUpDomain);
    g.perDomain = stride >= domain ? 1 : std::clamp(domain / stride, 1, g.size);
    g.domains = (g.size + g.perDomain - 1) / g.perDomain;

    // Tiers the group crosses. A ring keeps members of one switch unit adjacent, so each
    // group sends one flow out of a unit; the unit's uplinks (span * NIC / oversub) carry
    // span / members-per-unit such flows, enough unless members-per-unit < oversub.
    // All-to-all traffic leaves the unit from every GPU and sees the full oversubscription.
    double ringFactor = 1.0, spreadFactor = 1.0;
    g.interLatency = c.scaleOutLatency;
    for (int i = 0; i < c.tierCount; ++i) {
        const NetworkTier& t = c.tiers[i];
        const long long extent = static_cast<long long>(stride) * (g.size - 1) + 1;
        if (t.spanGpus <= 0 || extent <= t.spanGpus)
            continue;
        const double membersPerUnit = std::clamp(double(t.spanGpus) / stride, 1.0, double(g.size));
        ringFactor = std::min(ringFactor, std::min(1.0, membersPerUnit / t.oversubscription));
        spreadFactor = std::min(spreadFactor, 1.0 / t.oversubscription);
        g.interLatency += t.latency;
    }
    g.interBandwidth = c.scaleOutBandwidth * ringFactor;
    g.spreadBandwidth = c.scaleOutBandwidth * spreadFactor;
    return g;
}

} // namespace dtsim
