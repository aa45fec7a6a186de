#pragma once
// The engine's edge: no NaN, infinity or negative quantity may leave it for a table, a
// chart or JSON. The limits on the inputs (scenario_limits.h, the loaders' ranges) are
// meant to make this impossible; this check is what makes it certain.
#include "report.h"

#include <optional>
#include <string>

namespace dtsim {

// The name of the first quantity of `r` that is not a finite, non-negative number
// ("step.stepTime", "step.comm[DP].exposedSeconds"), or nullopt when all are.
std::optional<std::string> badQuantity(const StepReport& r);
std::optional<std::string> badQuantity(const Report& r);

// The message for the user when badQuantity found one: what came out, and why.
std::string badQuantityMessage(const std::string& quantity);

} // namespace dtsim
