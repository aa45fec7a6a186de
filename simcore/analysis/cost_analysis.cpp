#include "cost_analysis.h"

#include "../reliability/reliability.h"
#include "../step.h"

namespace dtsim {

CostAnalysis analyzeCostStudy(const Scenario& s, const Calibration& c, const std::vector<HardwareSpec>& catalog,
    const FailureRates& rates, const CostRates& cost, const CostAnalysisOptions& o)
{
    auto cancelled = [&] { return o.cancel && o.cancel->load(); };
    CostAnalysis a;
    a.deadline = s.training.deadline;
    const Report base = predictRun(s, c);
    const ReliabilityReport rel = analyzeReliability(s, c, ratesForPricing(rates, cost, s.cost), base);
    a.problem = runIssue(s, rel);
    if (a.problem)
        return a;
    a.report = analyzeCost(s, base, rel, cost);
    if (o.byGpuCount && !cancelled())
        a.byGpuCount = costByGpuCount(s, c, rates, cost);
    if (o.byGpuType && !cancelled())
        a.byGpuType = compareGpuTypes(s, c, catalog, rates, cost, o.cancel);
    return a;
}

} // namespace dtsim
