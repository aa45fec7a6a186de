#include "validation.h"

#include "../report_check.h"

#include "../step.h"
#include "reported_throughput.h"
#include "run_to_scenario.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

ErrorStats errorStats(std::vector<double> e)
{
    ErrorStats s;
    s.count = static_cast<int>(e.size());
    if (e.empty())
        return s;
    std::sort(e.begin(), e.end());
    auto quantile = [&](double q) {
        const double pos = q * (e.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(pos));
        const auto hi = std::min(lo + 1, e.size() - 1);
        return e[lo] + (pos - lo) * (e[hi] - e[lo]);
    };
    s.median = quantile(0.5);
    s.p90 = quantile(0.9);
    s.max = e.back();
    return s;
}

ValidationResult validateRuns(const std::vector<RunRecord>& runs, const std::vector<HardwareSpec>& catalog,
    const Calibration& calibration)
{
    ValidationResult out;
    std::vector<double> good, all, goodMoe, goodBlackwell, memory;
    std::map<std::string, std::vector<double>> goodBy, allBy;
    for (const RunRecord& r : runs) {
        ValidationRow row;
        row.id = r.id;
        row.quality = r.quality;
        row.source = r.sourcePrefix();
        auto built = scenarioFromRun(r, catalog, calibration);
        if (auto* skip = std::get_if<SkippedRun>(&built)) {
            row.skipped = true;
            row.skipReason = skip->reason;
            out.rows.push_back(row);
            continue;
        }
        const Scenario& s = std::get<Scenario>(built);
        const ReportedThroughput measured = reportedThroughput(r, s);
        row.basis = measured.basis;
        if (!measured.tokensPerSecondPerGpu || *measured.tokensPerSecondPerGpu <= 0) {
            row.skipped = true;
            row.skipReason = measured.basis;
            out.rows.push_back(row);
            continue;
        }
        const StepReport rep = predictStep(s, calibration);
        if (const auto bad = badQuantity(rep)) {
            // Never a NaN in the statistics: a row the engine cannot compute is skipped, saying why.
            row.skipped = true;
            row.skipReason = "the prediction's " + *bad + " is not a finite number";
            out.rows.push_back(row);
            continue;
        }
        row.reported = *measured.tokensPerSecondPerGpu;
        row.predicted = rep.tokensPerSecond / s.plan.gpus();
        row.relError = (row.predicted - row.reported) / row.reported;
        row.predictedMfu = rep.mfu;
        row.predictedFits = rep.memory.fits;
        row.moe = s.model.isMoe();
        row.blackwell = s.hardware.generation.rfind("blackwell", 0) == 0; // blackwell, blackwell-ultra
        row.generation = s.hardware.generation;
        row.gpus = s.cluster.gpus;
        row.lowPrecision = isScaledLowPrecision(s.training.precision); // FP8 and FP4 store 16-bit activations
        row.predictedMemoryGib = rep.memory.total / double(1ull << 30);
        if (r.memoryGib && *r.memoryGib > 0) {
            row.reportedMemoryGib = r.memoryGib;
            row.memoryRelError = (row.predictedMemoryGib - *r.memoryGib) / *r.memoryGib;
            memory.push_back(std::fabs(row.memoryRelError));
        }
        const double a = std::fabs(row.relError);
        all.push_back(a);
        allBy[row.source].push_back(a);
        if (row.quality == "good") {
            good.push_back(a);
            goodBy[row.source].push_back(a);
            if (row.moe)
                goodMoe.push_back(a);
            if (row.blackwell)
                goodBlackwell.push_back(a);
            out.goodOutOfMemory += row.predictedFits ? 0 : 1;
        }
        out.rows.push_back(row);
    }
    out.good = errorStats(good);
    out.all = errorStats(all);
    out.goodMoe = errorStats(goodMoe);
    out.goodBlackwell = errorStats(goodBlackwell);
    out.memory = errorStats(memory);
    for (auto& [k, v] : goodBy)
        out.goodBySource[k] = errorStats(v);
    for (auto& [k, v] : allBy)
        out.allBySource[k] = errorStats(v);
    return out;
}

} // namespace dtsim
