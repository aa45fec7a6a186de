#pragma once
// Report -> aligned text for a terminal.
#include "simcore/report.h"
#include "simcore/scenario.h"

#include <string>

namespace dtsim::cli {

std::string reportToText(const Scenario& s, const Report& r);

} // namespace dtsim::cli
