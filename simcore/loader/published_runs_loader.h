#pragma once
// Reads a published-runs YAML file (a list of measured runs) into RunRecords.
#include "run_record.h"

#include <string>
#include <vector>

namespace dtsim {

std::vector<RunRecord> loadPublishedRuns(const std::string& path);
// The same from text; `origin` names it in errors.
std::vector<RunRecord> loadPublishedRunsText(const std::string& text, const std::string& origin);

} // namespace dtsim
