#pragma once
#include "../workload_spec.h"
#include "yaml_reader.h"

namespace dtsim {

// A scenario's optional `workload:` section (shared-cluster scheduling), and its YAML.
void readWorkloadSection(YamlReader& r, const YAML::Node& n, WorkloadSpec& w);
void writeWorkloadSection(YAML::Emitter& y, const WorkloadSpec& w);

} // namespace dtsim
