#pragma once
// The engine's edge: no NaN, infinity or negative quantity, no MFU above 100%, no run
// faster with failures than without, may leave it for a table, a chart or JSON. The limits on the inputs (scenario_limits.h, the loaders' ranges) are
// meant to make this impossible; this check is what makes it certain.
#include "calibration.h"
#include "reliability/reliability.h"
#include "report.h"
#include "scenario.h"

#include <optional>
#include <string>

namespace dtsim {

// The name of the first quantity of `r` that is not a finite, non-negative number
// ("step.stepTime", "step.comm[DP].exposedSeconds"), or nullopt when all are.
std::optional<std::string> badQuantity(const StepReport& r);
std::optional<std::string> badQuantity(const Report& r);

// The same for a run's outlook: an expected run shorter than the failure-free one, a
// Monte Carlo trial faster than no failures at all, goodput above 1.
std::optional<std::string> badQuantity(const ReliabilityReport& r);
std::optional<std::string> badQuantity(const MonteCarloResult& m, const ReliabilityReport& r);

// The message for the user when badQuantity found one: what came out, and why.
std::string badQuantityMessage(const std::string& quantity);

// A calibration overlay whose compute speed would run the GPU's kernels above its peak
// (Calibration::maxComputeScale): an InputError naming the overlay's file, line and
// field. Checked where the scenario meets the engine's calibration.
void checkOverlay(const Scenario& s, const Calibration& c);

} // namespace dtsim
