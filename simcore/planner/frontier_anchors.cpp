#include "frontier_anchors.h"

#include <cmath>

namespace dtsim {

const char* anchorReadingText(FrontierAnchor::Reading r)
{
    return r == FrontierAnchor::Reading::At80 ? "largest run at >= 80% utilization" : "largest feasible run";
}

std::vector<FrontierAnchor> anchorsFor(const std::vector<FrontierAnchor>& all, const std::string& gpu, double months)
{
    std::vector<FrontierAnchor> out;
    for (const FrontierAnchor& a : all)
        if (a.gpu == gpu && std::abs(months - a.months) <= 0.1 * a.months)
            out.push_back(a);
    return out;
}

} // namespace dtsim
