#include "cost_study.h"

#include "../scenario_rules.h"

#include "../memory.h"
#include "../plan_check.h"
#include "../planner/cost_search.h"
#include "../step.h"

#include <algorithm>

namespace dtsim {

namespace {

CostPoint pointOf(const Scenario& s, const CostReport& r)
{
    CostPoint p;
    p.gpus = s.cluster.gpus;
    p.costUsd = r.totalUsd;
    p.energyMwh = r.energyMwh;
    p.co2eTonnes = r.co2eTonnes;
    p.expectedTime = r.wallSeconds;
    p.meetsDeadline = s.training.deadline <= 0 || r.wallSeconds <= s.training.deadline;
    return p;
}

} // namespace

std::vector<CostPoint> costByGpuCount(const Scenario& s, const Calibration& c, const FailureRates& rates,
    const CostRates& cost)
{
    std::vector<CostPoint> out;
    const long long modelParallel = (long long)s.plan.tp * s.plan.pp * s.plan.cp;
    for (int shift = -4; shift <= 4; ++shift) {
        Scenario v = s;
        const long long dp = shift < 0 ? s.plan.dp >> -shift : (long long)s.plan.dp << shift;
        if (dp < 1 || (shift < 0 && (dp << -shift) != s.plan.dp) || dp > (1 << 24))
            continue;
        v.plan.dp = static_cast<int>(dp);
        v.cluster.gpus = dp * modelParallel;
        if (checkPlan(v) || !memoryPerGpu(v, c).fits)
            continue;
        const Report base = predictRun(v, c);
        const ReliabilityReport rel = analyzeReliability(v, c, ratesForPricing(rates, cost, v.cost), base);
        if (runIssue(v, rel))
            continue; // failures would keep this many GPUs from ever finishing
        out.push_back(pointOf(v, analyzeCost(v, base, rel, cost)));
    }
    return out;
}

Scenario onGpu(const Scenario& s, const HardwareSpec& h)
{
    Scenario v = s;
    switchGpu(v, h);
    return v;
}

std::vector<ProcurementRow> compareGpuTypes(const Scenario& s, const Calibration& c, const std::vector<HardwareSpec>& catalog,
    const FailureRates& rates, const CostRates& cost, const std::atomic<bool>* cancel)
{
    std::vector<ProcurementRow> rows;
    for (const HardwareSpec& h : catalog) {
        if (cancel && cancel->load())
            break;
        ProcurementRow row;
        row.gpuId = h.id;
        row.gpuName = h.name;
        row.priced = s.cost.ownership == Ownership::Own ? (s.cost.gpuPriceUsd > 0 || h.launchPriceUsd > 0)
                                                         : cost.rent.count(h.id) > 0;
        if (row.priced) {
            Scenario v = onGpu(s, h);
            if (s.cost.ownership == Ownership::Rent)
                v.cost.gpuHourUsd = 0; // a given price belongs to the scenario's GPU
            v.cost.gpuPriceUsd = 0;
            SearchOptions o;
            o.topN = 1;
            o.threads = 1;
            o.cancel = cancel;
            const CostSearchResult r = searchCheapest(v, c, rates, cost, o);
            if (!r.search.top.empty()) {
                const PlanCandidate& best = r.search.top.front();
                v.plan = best.plan;
                v.training.microBatch = best.microBatch;
                row.feasible = true; // the search keeps only runs that finish
                row.mfu = best.step.mfu;
                row.point = pointOf(v, analyzeCost(v, c, rates, cost));
            }
        }
        rows.push_back(row);
    }
    std::stable_sort(rows.begin(), rows.end(), [](const ProcurementRow& a, const ProcurementRow& b) {
        if (a.feasible != b.feasible)
            return a.feasible;
        if (a.point.meetsDeadline != b.point.meetsDeadline)
            return a.point.meetsDeadline;
        return a.point.costUsd < b.point.costUsd;
    });
    return rows;
}

} // namespace dtsim
