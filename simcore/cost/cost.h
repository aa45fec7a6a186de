#pragma once
// The price of a run: rented GPU-hours or owned hardware amortized over its life plus
// its electricity; energy from a utilization-dependent power model; operational and
// embodied carbon. It prices the real run: the expected time with failures,
// checkpoints and recovery from the reliability model, and the idle share of every
// step (bubbles, exposed communication) at lower power.
#include "../calibration.h"
#include "../reliability/reliability.h"
#include "../report.h"
#include "../scenario.h"

#include <map>
#include <string>
#include <vector>

namespace dtsim {

struct RentPrices {
    double onDemand = 0, reserved = 0, spot = 0; // USD per GPU-hour
    double of(Pricing p) const { return p == Pricing::OnDemand ? onDemand : p == Pricing::Reserved ? reserved : spot; }
};

// resources/cost/cost.yaml.
struct CostRates {
    std::map<std::string, RentPrices> rent; // by catalogue id
    double spotPreemptionMtbfPerNode = 0;   // seconds
    double lifetime = 5 * 365.25 * 86400;   // seconds
    double serverCostFraction = 0.4;        // of the GPU price, per GPU
    double networkPortUsd = 200, networkUsdPerGbps = 3;
    double storageUsdPerTb = 150, checkpointsKept = 5;
    double hostFractionOfTdp = 0.5, networkWattsPerPort = 25, pue = 1.2, electricityUsdPerKwh = 0.08;
    std::map<std::string, double> gridGramsPerKwh;
    double embodiedKgPerGpu = 150, embodiedKgPerNode = 2500;
};

// What owning the cluster costs to buy: GPUs, the rest of the servers, the network
// (each GPU's link to its leaf plus each tier's uplinks), checkpoint storage.
struct HardwareBill {
    double gpus = 0, servers = 0, network = 0, storage = 0;
    double networkLinks = 0;
    double total() const { return gpus + servers + network + storage; }
};
struct CostItem {
    std::string name; // "gpu rent", "gpus", "servers", "network", "storage", "electricity"
    double usd = 0;
};

struct CostReport {
    double totalUsd = 0;
    std::vector<CostItem> breakdown;
    double hardwareBillUsd = 0;   // owning: the purchase price of everything (not amortized)
    HardwareBill bill;
    double wallSeconds = 0;       // expected time to train, failures included
    double gpuHours = 0;          // every GPU held, spares and backup workers included
    double gpuActivity = 0;       // share of a step the GPUs compute (sets their power)
    double gpuWatts = 0;          // average while training
    double energyMwh = 0;         // at the wall, PUE included
    double gpuEnergyMwh = 0, hostEnergyMwh = 0, networkEnergyMwh = 0, coolingEnergyMwh = 0;
    double operationalTonnes = 0, embodiedTonnes = 0, co2eTonnes = 0;
    double usdPerMillionTokens = 0;
};

HardwareBill hardwareBill(const Scenario& s, const CostRates& cost, double gpusHeld, double checkpointBytes);

// Failure rates as the pricing changes them: spot capacity is preempted.
FailureRates ratesForPricing(const FailureRates& rates, const CostRates& cost, const CostSpec& spec);

// Everything from scratch (simulates the step and the reliability analysis).
CostReport analyzeCost(const Scenario& s, const Calibration& c, const FailureRates& rates, const CostRates& cost);
// With the simulation and reliability analysis at hand (the planner).
CostReport analyzeCost(const Scenario& s, const Report& base, const ReliabilityReport& rel, const CostRates& cost);

// The grid intensity the scenario asks for (override, region), or a negative value
// when the region is unknown.
double gridIntensity(const CostSpec& spec, const CostRates& cost);

// What one GPU-hour of the scenario's GPU costs: the scenario's own price, else the
// catalogue's rent at its pricing kind; 0 when neither is known.
double gpuHourUsd(const Scenario& s, const CostRates& cost);

} // namespace dtsim
