#include "nccl_default.h"

#include "../collectives.h"

#include <algorithm>

namespace dtsim {

namespace {

CollectiveKind kindOf(const std::string& collective)
{
    for (CollectiveKind k : { CollectiveKind::AllReduce, CollectiveKind::ReduceScatter, CollectiveKind::AllGather, CollectiveKind::AllToAll,
             CollectiveKind::Broadcast, CollectiveKind::SendRecv })
        if (ncclTestsName(k) == collective)
            return k;
    return CollectiveKind::AllReduce;
}

} // namespace

std::vector<double> defaultBusBandwidths(const NcclTestsLog& log, MeasuredTier tier, const Scenario& s, const Calibration& c)
{
    const int n = std::max(2, log.ranks);
    GroupSpan g;
    g.size = n;
    if (tier == MeasuredTier::ScaleUp) {
        g.perDomain = n;
        g.domains = 1;
    } else {
        g.perDomain = 1;
        g.domains = n;
        g.interBandwidth = g.railBandwidth = g.spreadBandwidth = s.cluster.scaleOutBandwidth;
        g.interLatency = s.cluster.scaleOutLatency;
    }
    const CommEfficiency shipped { c.scaleUpBusEfficiency, c.scaleOutBusEfficiency, nullptr };
    std::vector<double> out;
    for (const NcclTestsRow& r : log.rows) {
        const double t = collectiveCost(kindOf(log.collective), r.bytes, g, s.cluster, shipped).seconds;
        out.push_back(t > 0 ? log.factor * r.bytes / t : 0);
    }
    return out;
}

} // namespace dtsim
