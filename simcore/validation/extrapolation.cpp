#include "extrapolation.h"

#include "../measure/compute_fit.h"
#include "../step.h"
#include "reported_throughput.h"
#include "run_to_scenario.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace dtsim {

namespace {

struct Prepared {
    const RunRecord* run;
    Scenario scenario;
    double reported; // tokens/s per GPU
};

double predicted(const Scenario& s, const Calibration& c)
{
    return predictStep(s, c).tokensPerSecond / s.plan.gpus();
}

std::string groupKey(const RunRecord& r)
{
    return r.sourcePrefix() + " | " + r.model + " | " + r.accelerator + " | " + r.precision + " | seq "
        + std::to_string(r.seqLen.value_or(0)) + " | " + r.framework;
}

} // namespace

ExtrapolationResult extrapolationCheck(const std::vector<RunRecord>& runs, const std::vector<HardwareSpec>& catalog,
    const Calibration& calibration)
{
    std::map<std::string, std::vector<Prepared>> groups;
    for (const RunRecord& r : runs) {
        if (r.quality != "good" || !r.numGpus)
            continue;
        auto built = scenarioFromRun(r, catalog, calibration);
        if (!std::holds_alternative<Scenario>(built))
            continue;
        Scenario s = std::get<Scenario>(std::move(built));
        const ReportedThroughput measured = reportedThroughput(r, s);
        if (!measured.tokensPerSecondPerGpu || *measured.tokensPerSecondPerGpu <= 0)
            continue;
        groups[groupKey(r)].push_back({ &r, std::move(s), *measured.tokensPerSecondPerGpu });
    }
    ExtrapolationResult out;
    std::vector<double> before, after;
    for (auto& [key, members] : groups) {
        std::stable_sort(members.begin(), members.end(), [](const Prepared& a, const Prepared& b) { return *a.run->numGpus < *b.run->numGpus; });
        if (*members.front().run->numGpus == *members.back().run->numGpus)
            continue; // one GPU count: nothing to extrapolate to
        const Prepared& small = members.front();
        // Its reported tokens/s per GPU, as the step it means.
        const double measuredStep = stepFromThroughput(small.scenario, calibration, small.reported * small.scenario.plan.gpus());
        const ComputeFit fit = fitComputeScale(small.scenario, calibration, measuredStep);
        if (!fit.reached) {
            out.notFitted.push_back(key);
            continue;
        }
        ExtrapolationGroup g;
        g.key = key;
        g.fittedOn = small.run->id;
        g.fittedGpus = *small.run->numGpus;
        g.computeScale = fit.scale;
        for (const Prepared& m : members) {
            if (*m.run->numGpus == g.fittedGpus)
                continue; // same size as the fit: not an extrapolation
            Scenario calibrated = m.scenario;
            calibrated.calibration.computeScale = fit.scale;
            ExtrapolatedRun e;
            e.id = m.run->id;
            e.gpus = *m.run->numGpus;
            e.errorBefore = predicted(m.scenario, calibration) / m.reported - 1;
            e.errorAfter = predicted(calibrated, calibration) / m.reported - 1;
            before.push_back(std::fabs(e.errorBefore));
            after.push_back(std::fabs(e.errorAfter));
            g.runs.push_back(e);
        }
        out.groups.push_back(std::move(g));
    }
    out.before = errorStats(before);
    out.after = errorStats(after);
    return out;
}

} // namespace dtsim
