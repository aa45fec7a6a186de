#pragma once
// The Reliability tab's and `dtsim-cli run`'s analysis, composed once: the run's
// failures, checkpoints and recovery analytically, then as a seeded Monte Carlo, and
// with chaos events the same seeds without them.
#include "../plan_check.h"
#include "../reliability/reliability.h"

#include <atomic>
#include <optional>
#include <string>

namespace dtsim {

struct RunOutlook {
    ReliabilityReport report;
    // Why there is no outlook to show: the run cannot finish (the field to change), or
    // a figure came out impossible (then also `badFigure`, which: report_check.h).
    std::optional<PlanIssue> problem;
    std::optional<std::string> badFigure;
    bool tooManyTrials = false;           // strict and more trials asked than the run affords
    MonteCarloResult run;
    MonteCarloResult clean;               // without the chaos events, when there are any
    bool hasChaos = false;
    int trials = 0;      // run: fewer than asked when the run's failures exhaust the budget
    int trialsAsked = 0;
};

struct RunOutlookOptions {
    int trials = 1000;
    unsigned long long seed = 1;
    bool strictTrials = false;     // refuse (tooManyTrials) rather than run fewer
    bool recordFirstTrial = false; // keep the first trial's events (the tab's timeline)
    const std::atomic<bool>* cancel = nullptr;
};

RunOutlook runOutlook(const Scenario& s, const Calibration& c, const FailureRates& rates, const RunOutlookOptions& o);

} // namespace dtsim
