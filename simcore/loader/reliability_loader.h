#pragma once
#include "../reliability/reliability.h"

#include <string>

namespace dtsim {

// Reads resources/reliability/reliability.yaml: per-unit MTBFs, recovery timings,
// mitigation sizes and storage defaults, each with its source.
FailureRates loadFailureRates(const std::string& path);

} // namespace dtsim
