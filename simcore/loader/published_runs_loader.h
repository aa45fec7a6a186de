#pragma once
// Reads a published-runs YAML file (a list of measured runs) into RunRecords.
#include "../validation/run_record.h"

#include <string>
#include <vector>

namespace dtsim {

std::vector<RunRecord> loadPublishedRuns(const std::string& path);

} // namespace dtsim
