#pragma once
// A discrete-event simulation of training steps under a pipeline schedule: forward and
// backward of every micro-batch and model chunk on every stage, the sends between
// stages, data-parallel synchronisation and the optimizer. Events are ordered by
// (time, sequence number), so the result is deterministic. Durations come from the
// analytical engine; what the simulation adds is the exact schedule, and the sharing
// of a NIC between pipeline sends and gradient buckets that run at the same time.
#include "../calibration.h"
#include "../report.h"
#include "../scenario.h"
#include "trace.h"

namespace dtsim {

struct TimelineOptions {
    int steps = 1;
    bool perRankRows = false; // one row per TP rank of each stage
    bool zeroBubble = false;  // ZB-H1: weight gradients deferred to fill the bubble
    bool perLayer = true;     // split passes into layers, with their exposed TP/CP/EP collectives
    // A checkpoint after every `checkpointEverySteps` steps of the window (0: none),
    // stalling every rank for `checkpointSeconds` (from the reliability model).
    int checkpointEverySteps = 0;
    double checkpointSeconds = 0;
    bool shareLinks = true;   // pipeline sends and gradient buckets on one NIC share it
};

Trace simulateTimeline(const Scenario& s, const Calibration& c, const TimelineOptions& o = {});

// The bars simulateTimeline would make for these options, from the step report alone
// (no simulation): an upper bound, exact when no duration is zero. Callers refuse or
// shrink a request before any work when it is too large to hold or to write.
double estimateTimelineEvents(const Scenario& s, const StepReport& step, const TimelineOptions& o);
// Bytes of Chrome-trace JSON per bar, about (a bar is one line of ~170 characters).
inline constexpr double kChromeTraceBytesPerEvent = 200;

} // namespace dtsim
