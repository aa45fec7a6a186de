#pragma once
// The dashboard's line on convergence: the final loss with its error and law, the tokens
// (and what this batch adds over a small one), and the critical batch against this one.
// Text only: every figure is simcore's ConvergencePlan.
#include "simcore/convergence.h"
#include "simcore/scenario.h"

#include <QString>

namespace dtsim::gui {

QString lossLawTitle(LossLaw law); // "Besiroglu et al. 2024 refit"
// Rich text; empty when the plan is not known (a layer table, no law in the calibration).
// `brief`: without the critical batch, for the stage's one line under the tiles.
QString convergenceLine(const Scenario& s, const ConvergencePlan& cv, bool brief = false);
// The longest line it gives, for the space the dashboard reserves.
QString widestConvergenceLine(bool brief = false);

} // namespace dtsim::gui
