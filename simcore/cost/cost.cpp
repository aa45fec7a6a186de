#include "cost.h"

#include "../step.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

const char* ownershipName(Ownership o) { return o == Ownership::Own ? "own" : "rent"; }

const char* pricingName(Pricing p)
{
    switch (p) {
    case Pricing::OnDemand: return "on_demand";
    case Pricing::Reserved: return "reserved";
    case Pricing::Spot: return "spot";
    }
    return "?";
}

FailureRates ratesForPricing(const FailureRates& rates, const CostRates& cost, const CostSpec& spec)
{
    FailureRates r = rates;
    const int i = int(FailureCause::Preemption);
    r.unit[i] = FailureRates::Unit::Node;
    r.mtbf[i] = spec.ownership == Ownership::Rent && spec.pricing == Pricing::Spot ? cost.spotPreemptionMtbfPerNode : 0.0;
    return r;
}

double gridIntensity(const CostSpec& spec, const CostRates& cost)
{
    if (spec.gridGramsPerKwh > 0)
        return spec.gridGramsPerKwh;
    const auto it = cost.gridGramsPerKwh.find(spec.region);
    return it == cost.gridGramsPerKwh.end() ? -1.0 : it->second;
}

HardwareBill hardwareBill(const Scenario& s, const CostRates& cost, double gpusHeld, double checkpointBytes)
{
    HardwareBill b;
    const double gpuPrice = s.cost.gpuPriceUsd > 0 ? s.cost.gpuPriceUsd : s.hardware.launchPriceUsd;
    b.gpus = gpusHeld * gpuPrice;
    b.servers = b.gpus * cost.serverCostFraction;
    b.networkLinks = gpusHeld;
    for (int i = 0; i < s.cluster.tierCount; ++i)
        b.networkLinks += gpusHeld / std::max(1.0, s.cluster.tiers[i].oversubscription);
    const double gbps = s.cluster.scaleOutBandwidth * 8 / 1e9;
    b.network = b.networkLinks * (cost.networkPortUsd + cost.networkUsdPerGbps * gbps);
    b.storage = checkpointBytes * cost.checkpointsKept / 1e12 * cost.storageUsdPerTb;
    return b;
}

CostReport analyzeCost(const Scenario& s, const Calibration& c, const FailureRates& rates, const CostRates& cost)
{
    const Report base = predictRun(s, c);
    return analyzeCost(s, base, analyzeReliability(s, c, ratesForPricing(rates, cost, s.cost), base), cost);
}

CostReport analyzeCost(const Scenario& s, const Report& base, const ReliabilityReport& rel, const CostRates& cost)
{
    const CostSpec& spec = s.cost;
    const HardwareSpec& h = s.hardware;
    CostReport r;
    r.wallSeconds = rel.expectedTime;
    const double hours = r.wallSeconds / 3600.0;
    const double gpusTraining = double(rel.gpus); // backup workers included
    // Hot spares are held, and paid for, the whole run.
    const double gpusHeld = gpusTraining + rel.spareGpus;
    r.gpuHours = gpusHeld * hours;
    const double nodes = std::ceil(gpusHeld / std::max(1, s.cluster.gpusPerNode));

    // Power: a GPU draws idle power plus the rest of its TDP for the share of the step it
    // computes; bubbles, exposed communication and overhead run near idle. Recovery,
    // checkpoint stalls and spares are idle.
    const StepReport& step = base.step;
    const StepBreakdown& b = step.breakdown;
    r.gpuActivity = step.stepTime > 0
        ? std::clamp((b.forward + b.backward + b.recompute + b.optimizer + b.contention) / step.stepTime, 0.0, 1.0) : 0.0;
    const double tdp = h.powerLimitWatts > 0 ? std::min(h.tdpWatts, h.powerLimitWatts) : h.tdpWatts;
    const double idle = std::min(h.idleWatts, tdp);
    r.gpuWatts = idle + (tdp - idle) * r.gpuActivity;
    const double failures = std::isfinite(rel.clusterMtbf) ? rel.expectedTime / (rel.clusterMtbf + rel.recovery) : 0.0;
    // The stalls the plan's checkpoints take over the run (none after the last segment).
    const double checkpointStalls = rel.plan.checkpointOverhead * rel.failureFreeTime;
    const double idleSeconds = std::min(rel.expectedTime, failures * rel.recovery + checkpointStalls);
    const double trainingSeconds = rel.expectedTime - idleSeconds;
    const double gpuJoules = gpusTraining * (r.gpuWatts * trainingSeconds + idle * idleSeconds)
        + (gpusHeld - gpusTraining) * idle * rel.expectedTime;
    const double hostJoules = gpusHeld * cost.hostFractionOfTdp * h.tdpWatts * rel.expectedTime;
    r.bill = hardwareBill(s, cost, gpusHeld, rel.checkpointBytes);
    const double networkJoules = r.bill.networkLinks * cost.networkWattsPerPort * rel.expectedTime;
    const double pue = spec.pue > 0 ? spec.pue : cost.pue;
    const double it = gpuJoules + hostJoules + networkJoules;
    const double joulesPerMwh = 3.6e9;
    r.gpuEnergyMwh = gpuJoules / joulesPerMwh;
    r.hostEnergyMwh = hostJoules / joulesPerMwh;
    r.networkEnergyMwh = networkJoules / joulesPerMwh;
    r.coolingEnergyMwh = it * (pue - 1) / joulesPerMwh;
    r.energyMwh = it * pue / joulesPerMwh;

    r.hardwareBillUsd = r.bill.total();
    const double amortized = rel.expectedTime / cost.lifetime;

    const double electricity = spec.electricityUsdPerKwh > 0 ? spec.electricityUsdPerKwh : cost.electricityUsdPerKwh;
    if (spec.ownership == Ownership::Rent) {
        double price = spec.gpuHourUsd;
        if (price <= 0) {
            const auto it = cost.rent.find(h.id);
            price = it == cost.rent.end() ? 0.0 : it->second.of(spec.pricing);
        }
        r.breakdown.push_back({ "gpu rent", gpusTraining * hours * price });
        if (gpusHeld > gpusTraining)
            r.breakdown.push_back({ "spares rent", (gpusHeld - gpusTraining) * hours * price });
    } else {
        r.breakdown.push_back({ "gpus", r.bill.gpus * amortized });
        r.breakdown.push_back({ "servers", r.bill.servers * amortized });
        r.breakdown.push_back({ "network", r.bill.network * amortized });
        r.breakdown.push_back({ "storage", r.bill.storage * amortized });
        r.breakdown.push_back({ "electricity", r.energyMwh * 1000 * electricity });
    }
    for (const CostItem& i : r.breakdown)
        r.totalUsd += i.usd;

    // Carbon: the grid's intensity for the energy; the devices' manufacturing footprint
    // for the share of their life this run uses.
    const double grams = std::max(0.0, gridIntensity(spec, cost));
    r.operationalTonnes = r.energyMwh * 1000 * grams / 1e6;
    r.embodiedTonnes = (gpusHeld * cost.embodiedKgPerGpu + nodes * cost.embodiedKgPerNode) * amortized / 1000;
    r.co2eTonnes = r.operationalTonnes + r.embodiedTonnes;
    const double tokens = base.tokens(s);
    r.usdPerMillionTokens = tokens > 0 ? r.totalUsd / (tokens / 1e6) : 0.0;
    return r;
}

double gpuHourUsd(const Scenario& s, const CostRates& cost)
{
    if (s.cost.gpuHourUsd > 0)
        return s.cost.gpuHourUsd;
    const auto it = cost.rent.find(s.hardware.id);
    return it == cost.rent.end() ? 0.0 : it->second.of(s.cost.pricing);
}

} // namespace dtsim
