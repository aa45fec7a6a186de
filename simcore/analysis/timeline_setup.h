#pragma once
// The set-up of a timeline, composed once for `dtsim-cli trace` and the Timeline tab:
// the analytical step it is compared with, checkpoints where the reliability model
// puts them, and the bars it would make (each front end refuses past its own limit).
#include "../reliability/reliability.h"
#include "../timeline/timeline.h"

namespace dtsim {

struct TimelineSetup {
    TimelineOptions options;    // the caller's, with the checkpoint interval and stall filled in
    StepReport step;            // the analytical step
    long long intervalSteps = 0; // the reliability model's checkpoint interval, in steps
    double estimatedBars = 0;   // estimateTimelineEvents for these options
};

// `checkpointAtEnd`: one checkpoint at the end of the window instead of the model's
// interval (the tab's choice, to show what one costs).
TimelineSetup timelineSetup(const Scenario& s, const Calibration& c, const FailureRates& rates, TimelineOptions o,
    bool checkpointAtEnd = false);

} // namespace dtsim
