#pragma once
// Consistency of a scenario's plan with its model, batch, cluster and hardware:
// divisibility rules and supported formats. Returns the first problem found, with the
// scenario field it belongs to, so a file loader or a GUI can point at it.
#include "scenario.h"

#include <optional>
#include <string>

namespace dtsim {

struct PlanIssue {
    std::string field;  // dotted scenario path, e.g. "parallel.tp"
    std::string reason; // what is wrong and what would fix it
};

std::optional<PlanIssue> checkPlan(const Scenario& s);

// Micro-batches per pipeline per step (gradient accumulation), 0 if not integral.
int microbatchesPerStep(const Scenario& s);

} // namespace dtsim
