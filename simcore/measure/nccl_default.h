#pragma once
// What the shipped calibration predicts for an nccl-tests log's collective on a
// scenario's links: the "default" beside the measured and fitted bus bandwidth, so a
// user sees how far their fabric is from dtsim's assumption before using the fit.
#include "../calibration.h"
#include "../calibration_overlay.h"
#include "../scenario.h"
#include "nccl_tests.h"

#include <vector>

namespace dtsim {

// Bus bandwidth (bytes/s) per row of the log: the collective over log.ranks GPUs of one
// scale-up domain (scale_up), or one GPU in each of log.ranks domains (scale_out), with
// the scenario's links and the shipped bus efficiencies; the scenario's own overlay is
// left out (the default is what it would replace).
std::vector<double> defaultBusBandwidths(const NcclTestsLog& log, MeasuredTier tier, const Scenario& s, const Calibration& c);

} // namespace dtsim
