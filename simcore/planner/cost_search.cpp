#include "cost_search.h"
#include "../convergence.h"

#include "../divisors.h"

#include "../memory.h"
#include "../plan_check.h"
#include "../step.h"

namespace dtsim {

std::optional<Scenario> naivePlan(const Scenario& s, const Calibration& c)
{
    Scenario n = s;
    ParallelPlan& p = n.plan;
    p.cp = 1;
    p.ep = 1;
    p.schedule = Schedule::OneFOneB;
    p.virtualStages = 1;
    p.tp2d = false;
    n.training.microBatch = 1;
    const long long gpus = s.cluster.gpus;
    // Model-parallel sizes in increasing order (TP within a node first, then PP); at
    // each, the memory savers in a fixed order until it fits. Nothing is tuned for speed.
    for (long long mp : divisorsOf(gpus)) {
        for (int tp = 1; tp <= std::min<long long>(mp, s.cluster.gpusPerNode); tp *= 2) {
            if (mp % tp != 0)
                continue;
            p.tp = tp;
            p.pp = static_cast<int>(mp / tp);
            p.dp = static_cast<int>(gpus / mp);
            for (int saver = 0; saver < 4; ++saver) {
                p.recompute = saver >= 1 ? Recompute::Full : Recompute::None;
                p.sequenceParallel = saver >= 2 && tp > 1;
                p.zeroStage = saver >= 3 ? 1 : 0;
                if (!checkPlan(n) && memoryPerGpu(n, c).fits)
                    return n;
            }
        }
    }
    return std::nullopt;
}

CostSearchResult searchCheapest(const Scenario& s, const Calibration& c, const FailureRates& rates,
    const CostRates& cost, SearchOptions o)
{
    const CostContext ctx { ratesForPricing(rates, cost, s.cost), cost };
    o.objective = Objective::Cost;
    o.cost = &ctx;
    CostSearchResult r;
    r.search = searchPlans(s, c, o);
    if (const auto n = naivePlan(s, c)) {
        PlanCandidate cand;
        cand.plan = n->plan;
        cand.microBatch = n->training.microBatch;
        cand.gpus = n->cluster.gpus;
        cand.step = predictStep(*n, c);
        cand.timeToTrain = cand.step.stepTime * trainingSteps(*n, c);
        priceCandidate(*n, c, ctx, cand);
        r.naive = cand;
    }
    if (!r.search.top.empty()) {
        const double best = r.search.top.front().costUsd;
        if (r.naive && r.naive->costUsd > 0)
            r.savingVsNaive = 1 - best / r.naive->costUsd;
        if (r.search.baseline && r.search.baseline->costUsd > 0)
            r.savingVsGiven = 1 - best / r.search.baseline->costUsd;
    }
    return r;
}

} // namespace dtsim
