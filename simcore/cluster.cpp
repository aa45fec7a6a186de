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

    // The rank extent the group covers decides which tiers its traffic crosses; the
    // narrowest crossed uplink (largest oversubscription) bounds its bandwidth.
    const long long extent = static_cast<long long>(stride) * (g.size - 1) + 1;
    double worstOversub = 1.0;
    g.interLatency = c.scaleOutLatency;
    for (int i = 0; i < c.tierCount; ++i) {
        const NetworkTier& t = c.tiers[i];
        if (t.spanGpus > 0 && extent > t.spanGpus) {
            worstOversub = std::max(worstOversub, t.oversubscription);
            g.interLatency += t.latency;
        }
    }
    g.interBandwidth = c.scaleOutBandwidth / worstOversub;
    return g;
}

} // namespace dtsim
