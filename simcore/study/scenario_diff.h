#pragma once
// What differs between two scenarios, field by field, as the file would write each
// value: the input half of `dtsim-cli diff` and of the app's A/B comparison.
#include "../scenario.h"

#include <string>
#include <vector>

namespace dtsim {

struct FieldDifference {
    std::string path; // "parallel.tp", "cluster.tiers[1].latency", "reliability.chaos" (entry counts)
    std::string a, b; // as written in a file ("8", "400 Gbps", "3 entries")
};

struct FieldDef;
// A field's value as written, in readable units ("1 TB/s", "30 s") where they read back
// exactly, so that it also serves as a --set value.
std::string readableFieldValue(const Scenario& s, const FieldDef& f, int entry = 0);

// Every field of the file (not the panel's derived views), in the registry's order; list
// entries compared index by index, and a list of another length reported once.
std::vector<FieldDifference> diffScenarios(const Scenario& a, const Scenario& b);

} // namespace dtsim
