#pragma once
// The calibration file's `convergence` section (calibration_loader.cpp's only; it takes
// yaml-cpp nodes, so no other room includes it).
#include "../convergence_law.h"
#include "yaml_reader.h"

namespace dtsim {

// convergence: {loss_laws: {NAME: {e, a, b, alpha, beta, se: {...}, corpus, source}},
//               critical_batch: {scale, exponent, source}}
void readConvergence(YamlReader& r, const YAML::Node& n, ConvergenceConstants& out);

} // namespace dtsim
