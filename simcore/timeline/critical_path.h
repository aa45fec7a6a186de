#pragma once
// The critical path of a simulated step: the chain of events, each starting where the
// one before it ends, that runs from the first start to the last end. A trace
// analysis, so simcore's (the Timeline tab draws it; it computes nothing).
#include "trace.h"

#include <vector>

namespace dtsim {

// One flag per trace event: 1 on the path. Walks back from the event that ends last,
// each step to the event that held the current one back: one ending where it starts
// (preferring the same row), or across a gap the last to end before it started.
std::vector<char> criticalPath(const Trace& t);

} // namespace dtsim
