#include "timeline_setup.h"

#include "../step.h"

#include <algorithm>

namespace dtsim {

TimelineSetup timelineSetup(const Scenario& s, const Calibration& c, const FailureRates& rates, TimelineOptions o,
    bool checkpointAtEnd)
{
    TimelineSetup t;
    const Report base = predictRun(s, c);
    t.step = base.step;
    const ReliabilityReport rel = analyzeReliability(s, c, rates, base);
    t.intervalSteps = static_cast<long long>(std::min(1e15, rel.intervalSteps));
    // An interval past any window the simulation could run is "no checkpoint in it".
    o.checkpointEverySteps = checkpointAtEnd ? o.steps : static_cast<int>(std::min<long long>(t.intervalSteps, 1 << 30));
    o.checkpointSeconds = rel.checkpointWrite;
    t.options = o;
    t.estimatedBars = estimateTimelineEvents(s, t.step, o);
    return t;
}

} // namespace dtsim
