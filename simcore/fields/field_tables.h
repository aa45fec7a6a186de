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
// The FLOP budget and the cost section.
void addRunFields(std::vector<FieldDef>& f);
void addWorkloadFields(std::vector<FieldDef>& f);

} // namespace dtsim::fields
