#include "scenario_rules.h"

#include <limits>

#include <algorithm>

namespace dtsim {

Precision fallbackPrecision(const HardwareSpec& h, Precision wanted)
{
    if (h.supports(wanted))
        return wanted;
    for (Precision p : { Precision::BF16, Precision::FP16, Precision::TF32, Precision::FP32 })
        if (h.supports(p))
            return p;
    return Precision::FP32;
}

void setLinksFromGpu(ClusterSpec& c, const HardwareSpec& h)
{
    c.scaleUpDomain = std::max(1, h.scaleUpDomain);
    c.gpusPerNode = std::min(8, c.scaleUpDomain);
    c.scaleUpBandwidth = h.scaleUpBandwidth;
    c.scaleUpLatency = h.scaleUpLatency;
    c.scaleOutBandwidth = h.scaleOutBandwidth;
    c.scaleOutLatency = h.scaleOutLatency;
}

void switchGpu(Scenario& s, const HardwareSpec& h)
{
    s.hardware = h;
    setLinksFromGpu(s.cluster, h);
    s.cluster.scaleUpInNetworkReduction = false;
    s.cluster.topology.clear();
    setPrecision(s, fallbackPrecision(h, s.training.precision));
}

void setHidden(Scenario& s, int hidden)
{
    s.model.hidden = hidden;
    s.model.headDim = std::max(1, s.model.hidden / std::max(1, s.model.heads));
}

void setHeads(Scenario& s, int heads)
{
    s.model.heads = heads;
    s.model.headDim = std::max(1, s.model.hidden / std::max(1, s.model.heads));
    if (s.model.kvHeads < 1 || s.model.kvHeads > s.model.heads || s.model.heads % s.model.kvHeads != 0)
        s.model.kvHeads = s.model.heads;
}

void setExperts(Scenario& s, int experts)
{
    s.model.moe.experts = experts;
    if (experts > 0) {
        s.model.moe.topK = std::clamp(s.model.moe.topK, 1, experts);
        if (s.model.moe.expertFfnHidden == 0)
            s.model.moe.expertFfnHidden = s.model.ffnHidden;
    } else {
        s.plan.ep = 1;
    }
}

void setTopK(Scenario& s, int topK)
{
    if (s.model.moe.experts > 0)
        s.model.moe.topK = topK;
}

void setScaling(Scenario& s, ScalingRecipe r)
{
    if (isScaledLowPrecision(s.training.precision))
        s.training.scaling = r;
}

ScalingRecipe defaultScaling(Precision p) { return p == Precision::FP4 ? ScalingRecipe::Nvfp4 : ScalingRecipe::Tensorwise; }

void setPrecision(Scenario& s, Precision p)
{
    s.training.precision = p;
    if (isScaledLowPrecision(p) && recipePrecision(s.training.scaling) != p)
        s.training.scaling = defaultScaling(p);
}

void keepGpuCount(Scenario& s)
{
    const long long model = static_cast<long long>(s.plan.tp) * s.plan.pp * s.plan.cp;
    if (model > 0 && s.cluster.gpus % model == 0 && s.cluster.gpus / model <= std::numeric_limits<int>::max())
        s.plan.dp = static_cast<int>(s.cluster.gpus / model);
}

} // namespace dtsim
