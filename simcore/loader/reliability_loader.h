#pragma once
#include "../reliability/reliability.h"
#include "yaml_reader.h"

#include <string>

namespace dtsim {

// Reads resources/reliability/reliability.yaml: per-unit MTBFs, recovery timings,
// mitigation sizes and storage defaults, each with its source.
FailureRates loadFailureRates(const std::string& path);

// Reads a scenario's optional `reliability:` section.
void readReliabilitySection(YamlReader& r, const YAML::Node& n, ReliabilitySpec& spec);

// The section as YAML, for the scenario writer; nothing when everything is default.
void writeReliabilitySection(YAML::Emitter& y, const ReliabilitySpec& spec);

} // namespace dtsim
