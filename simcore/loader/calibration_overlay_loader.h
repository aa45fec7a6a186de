#pragma once
// The calibration overlay file (docs/calibration.md): read with file/line/field errors,
// written by `dtsim-cli calibrate -o`.
#include "../calibration_overlay.h"

#include <string>

namespace dtsim {

// `path` as given; the result's `path` is it, `file` is left to the caller.
CalibrationOverlay loadCalibrationOverlay(const std::string& path);
std::string calibrationOverlayText(const CalibrationOverlay& o); // YAML, every value with its source

} // namespace dtsim
