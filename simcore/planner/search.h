#pragma once
// Best-plan search: every parallel plan of a scenario's model on its cluster (TP, PP,
// DP, CP, EP degrees over all divisors, schedule and virtual stages, micro-batch,
// ZeRO stage, recomputation, sequence parallelism), keeping those that satisfy the plan
// rules and fit in memory, ranked by an objective. Rejections are counted by reason.
#include "../calibration.h"
#include "../cost/cost.h"
#include "../plan_check.h"
#include "../report.h"
#include "../scenario.h"

#include <array>
#include <atomic>
#include <optional>
#include <string_view>
#include <vector>

namespace dtsim {

// Cost: the cheapest run that meets the scenario's deadline (and carbon cap), with
// failures, checkpoints and energy priced in; runs that miss them rank after, fastest first.
enum class Objective { Time, Mfu, Cost };
std::string_view objectiveName(Objective o);
std::optional<Objective> objectiveFromName(std::string_view n);

// What the cost objective prices with; `rates` already hold the pricing's preemptions.
struct CostContext {
    FailureRates rates;
    CostRates cost;
};

struct SearchOptions {
    Objective objective = Objective::Time;
    int topN = 10;
    bool varyGpus = false; // also try the cluster's GPU count divided by 2, 4, 8, ...
    int maxMicroBatch = 64;
    int maxVirtualStages = 16;
    int threads = 0; // 0: all hardware threads
    const std::atomic<bool>* cancel = nullptr; // set by the caller to stop early
    const CostContext* cost = nullptr; // required by Objective::Cost
};

struct PlanCandidate {
    ParallelPlan plan;
    int microBatch = 1;
    long long gpus = 0;
    StepReport step;
    double timeToTrain = 0;
    // Priced by the cost objective (zero otherwise).
    double costUsd = 0;
    double expectedTime = 0; // failures and checkpoints included
    double co2eTonnes = 0;
    bool meetsLimits = true; // deadline and carbon cap
    bool finishes = true;    // false: failures would keep the run from ever ending (runIssue)
};

// Prices a candidate whose plan `s` already carries (the cost objective's score).
void priceCandidate(const Scenario& s, const Calibration& c, const CostContext& ctx, PlanCandidate& cand);

struct SearchResult {
    std::vector<PlanCandidate> top; // best first
    std::optional<PlanCandidate> baseline; // the scenario's own plan, when valid
    long long evaluated = 0; // plans simulated (valid and fitting)
    std::array<long long, kPlanRuleCount> rejectedByRule {};
    long long rejectedMemory = 0;
    long long rejectedUnfinished = 0; // cost objective: runs failures would never let finish
    bool cancelled = false;
    // Set when nothing fit in GPU memory and the search offloaded this much to find plans.
    std::optional<OffloadSpec> offload;
    long long considered() const;
};

// Nothing fitting in GPU memory, and the scenario offloading nothing, it tries offload
// (SearchResult::offload).
SearchResult searchPlans(const Scenario& s, const Calibration& c, const SearchOptions& o = {});

// Strict weak order on candidates for an objective: better first, ties broken by the
// plan's degrees so the result never depends on thread timing.
bool betterCandidate(const PlanCandidate& a, const PlanCandidate& b, Objective o);

} // namespace dtsim
