#pragma once
// The Cost tab's and `dtsim-cli cost`'s analysis, composed once: the run priced with
// its failures, and optionally at other GPU counts and on other GPU types.
#include "../cost/cost_study.h"
#include "../plan_check.h"

#include <atomic>
#include <optional>
#include <vector>

namespace dtsim {

struct CostAnalysis {
    std::optional<PlanIssue> problem; // the run cannot finish: why (nothing else is priced)
    CostReport report;
    std::vector<CostPoint> byGpuCount;    // when asked
    std::vector<ProcurementRow> byGpuType; // when asked
    double deadline = 0;
};

struct CostAnalysisOptions {
    bool byGpuCount = true;
    bool byGpuType = true;
    const std::atomic<bool>* cancel = nullptr; // stops before each part
};

CostAnalysis analyzeCostStudy(const Scenario& s, const Calibration& c, const std::vector<HardwareSpec>& catalog,
    const FailureRates& rates, const CostRates& cost, const CostAnalysisOptions& o = {});

} // namespace dtsim
