#pragma once
// Limits derived from physics, checked on every scenario before the engine runs on it.
// Each loader field has its own range; these are the limits that involve several
// fields (a batch larger than all the training tokens, a model larger than any
// cluster could hold), beyond which results stop meaning anything or overflow.
#include "plan_check.h"
#include "scenario.h"

#include <optional>

namespace dtsim {

// More parameters than a million 192 GB GPUs hold even as 2-byte weights
// (1e6 x 192e9 B / 2 B = 9.6e16): no cluster can train such a model.
inline constexpr double kMaxParameters = 1e17;
// A layer table's forward FLOPs for one sample: a hundred times an 8k-token sequence
// through a 1.8T-parameter transformer (2 x 1.8e12 x 8192 = 3e16).
inline constexpr double kMaxSampleFlops = 1e18;

// The first limit broken, with the field to blame and the accepted range.
std::optional<PlanIssue> checkLimits(const Scenario& s);

// The plan rules, then the limits: what the loader and the window refuse.
std::optional<PlanIssue> checkScenario(const Scenario& s);

} // namespace dtsim
