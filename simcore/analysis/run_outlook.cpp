#include "run_outlook.h"

#include "../report_check.h"


namespace dtsim {

RunOutlook runOutlook(const Scenario& s, const Calibration& c, const FailureRates& rates, const RunOutlookOptions& o)
{
    RunOutlook out;
    out.trialsAsked = o.trials;
    out.report = analyzeReliability(s, c, rates);
    out.problem = runIssue(s, out.report);
    if (out.problem)
        return out;
    out.badFigure = badQuantity(out.report);
    if (out.badFigure) {
        out.problem = PlanIssue { *out.badFigure, badQuantityMessage(*out.badFigure) };
        return out;
    }
    out.hasChaos = !s.reliability.chaos.empty();
    // Each event's effect once, before the trials (a degraded link costs a step-model run).
    out.report.chaos = chaosEffects(s, c, out.report);
    // The Monte Carlo follows every failure: a long, failure-prone run affords fewer trials.
    out.trials = affordableTrials(out.report, o.trials, out.hasChaos ? 2 : 1);
    if (out.trials < o.trials && o.strictTrials) {
        out.tooManyTrials = true;
        return out;
    }
    out.run = sampleRuns(out.report, s.reliability, out.trials, o.seed, o.recordFirstTrial, o.cancel);
    if (out.hasChaos) {
        ReliabilitySpec calm = s.reliability;
        calm.chaos.clear();
        out.clean = sampleRuns(out.report, calm, out.trials, o.seed, false, o.cancel);
    }
    // The edge: no trial faster than the run without failures, no goodput above 1.
    for (const MonteCarloResult* m : { &out.run, &out.clean })
        if (!out.badFigure)
            out.badFigure = badQuantity(*m, out.report);
    if (out.badFigure)
        out.problem = PlanIssue { *out.badFigure, badQuantityMessage(*out.badFigure) };
    return out;
}

} // namespace dtsim
