#pragma once
// The per-section tables that scenario_fields.cpp joins in file order (private to
// simcore/fields/).
#include "field_def.h"

#include <vector>

namespace dtsim::fields {

void addTopLevelFields(std::vector<FieldDef>& f);
void addModelFields(std::vector<FieldDef>& f);
void addTrainingFields(std::vector<FieldDef>& f);
void addHardwareFields(std::vector<FieldDef>& f);
void addClusterFields(std::vector<FieldDef>& f);
void addParallelFields(std::vector<FieldDef>& f);
// Reliability, cost and workload: read by their own loaders; declared here for the
// panel and the docs.
void addRunFields(std::vector<FieldDef>& f);

} // namespace dtsim::fields
