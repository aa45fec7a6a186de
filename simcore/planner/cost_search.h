#pragma once
// The planner's cost objective: the cheapest plan (over plans and GPU counts) that
// meets the deadline and the carbon cap, and what it saves against the user's own
// plan and against a naive one.
#include "search.h"

#include <optional>

namespace dtsim {

// The naive plan: every GPU of the cluster, the largest data-parallel degree that fits
// (TP inside a node first, then PP), 1F1B, micro-batch 1, and only the memory savers
// it needs, in a fixed order (full recomputation, sequence parallelism, ZeRO-1).
// Nothing is tuned for speed.
std::optional<Scenario> naivePlan(const Scenario& s, const Calibration& c);

struct CostSearchResult {
    SearchResult search;                 // best first; `baseline` is the user's plan
    std::optional<PlanCandidate> naive;
    double savingVsNaive = 0;            // 1 - best / naive
    double savingVsGiven = 0;            // 1 - best / the user's plan
};

// Sets `o.objective` to Cost; with `o.varyGpus` it also tries smaller GPU counts,
// which is where most of the saving is when a deadline leaves room.
CostSearchResult searchCheapest(const Scenario& s, const Calibration& c, const FailureRates& rates,
    const CostRates& cost, SearchOptions o);

} // namespace dtsim
