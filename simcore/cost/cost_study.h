#pragma once
// The Cost tab's data: the run priced at other GPU counts (the scenario's plan with its
// data-parallel degree scaled), and the same model on every GPU type that can be
// priced ("procurement view"), each with its cheapest plan under the deadline.
#include "cost.h"

#include <atomic>
#include <string>
#include <vector>

namespace dtsim {

struct CostPoint {
    long long gpus = 0;
    double costUsd = 0, energyMwh = 0, co2eTonnes = 0, expectedTime = 0;
    bool meetsDeadline = true;
};

// GPU counts from 1/16 to 16x the scenario's, in powers of two, wherever the plan
// stays valid and fits with the data-parallel degree scaled.
std::vector<CostPoint> costByGpuCount(const Scenario& s, const Calibration& c, const FailureRates& rates,
    const CostRates& cost);

struct ProcurementRow {
    std::string gpuId, gpuName;
    bool priced = false;          // a price exists for the scenario's ownership
    bool feasible = false;        // some plan fits at this GPU count
    CostPoint point;
    double mfu = 0;
};

// The scenario's model, tokens, GPU count and network tiers on each catalogue GPU,
// with its own scale-up domain and links, at its cheapest plan.
std::vector<ProcurementRow> compareGpuTypes(const Scenario& s, const Calibration& c, const std::vector<HardwareSpec>& catalog,
    const FailureRates& rates, const CostRates& cost, const std::atomic<bool>* cancel = nullptr);

// A scenario moved onto another GPU: its catalogue figures for the node, domain and links.
Scenario onGpu(const Scenario& s, const HardwareSpec& h);

} // namespace dtsim
