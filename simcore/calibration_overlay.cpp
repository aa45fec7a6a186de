#include "calibration_overlay.h"

#include <algorithm>
#include <limits>

namespace dtsim {

const char* measuredTierName(MeasuredTier t) { return t == MeasuredTier::ScaleUp ? "scale_up" : "scale_out"; }

const MeasuredCollective* CalibrationOverlay::forTier(MeasuredTier tier, const std::string& collective) const
{
    const MeasuredCollective* any = nullptr;
    for (const MeasuredCollective& m : collectives)
        if (m.tier == tier) {
            if (m.collective == collective)
                return &m;
            if (!any)
                any = &m;
        }
    return any;
}

void CalibrationOverlay::put(MeasuredCollective m)
{
    std::erase_if(collectives, [&](const MeasuredCollective& x) { return x.tier == m.tier && x.collective == m.collective; });
    collectives.push_back(std::move(m));
}

MeasuredLink measuredLink(const MeasuredCollective& m, double bytes)
{
    if (m.segments.empty())
        return {};
    const MeasuredSegment* s = &m.segments.front();
    for (const MeasuredSegment& seg : m.segments)
        if (bytes >= seg.fromBytes)
            s = &seg;
    const double n = std::max(2, m.ranks);
    const double steps = m.collective == "allreduce" ? 2 * (n - 1) : m.collective == "sendrecv" ? 1 : n - 1;
    if (s->busBandwidth > 0)
        return { s->latency / steps, s->busBandwidth };
    // A latency-bound regime has no bandwidth term: an unbounded link inside its sizes.
    // Past them the measurement says only that the link moved its largest size in the
    // latency: the slowest bandwidth it allows, so a larger message is never free.
    if (bytes <= s->toBytes || s->latency <= 0)
        return { s->latency / steps, std::numeric_limits<double>::max() };
    const double factor = m.collective == "allreduce" ? 2 * (n - 1) / n : m.collective == "sendrecv" ? 1 : (n - 1) / n;
    return { s->latency / steps, factor * s->toBytes / s->latency };
}

} // namespace dtsim
