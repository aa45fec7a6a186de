#pragma once
#include "../calibration.h"

#include <string>

namespace dtsim {

// Reads resources/calibration/*.yaml: efficiency curves and latencies with sources.
Calibration loadCalibration(const std::string& path);

} // namespace dtsim
