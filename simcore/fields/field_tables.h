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
void addReliabilityFields(std::vector<FieldDef>& f);
// The FLOP budget, the cost section and the shared cluster's panel fields (the
// workload section's lists have their own loader).
void addRunFields(std::vector<FieldDef>& f);

} // namespace dtsim::fields
