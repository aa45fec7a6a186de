#pragma once
// One-click fixes for inconsistent inputs: for a plan rule the scenario breaks, the
// nearest change that satisfies it (keeping the GPU count where possible).
#include "simcore/plan_check.h"

#include <QString>

#include <optional>

namespace dtsim::gui {

struct PlanFix {
    QString label;    // "Set DP to 16"
    Scenario fixed;   // the scenario after the fix
};

std::optional<PlanFix> suggestFix(const Scenario& s);

// The panel row an issue's field belongs to ("parallel" -> "parallel.dp").
QString rowForIssueField(const QString& field);

} // namespace dtsim::gui
