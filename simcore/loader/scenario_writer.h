#pragma once
// Scenario -> YAML (version 1), every field explicit, so that loading the text gives
// back the same Scenario (tested on every preset).
#include "../scenario.h"

#include <functional>
#include <string>

namespace dtsim {

std::string scenarioToYaml(const Scenario& s);

struct FieldDef;
struct SectionDef;
// A list section's entries as a YAML sequence ("- name: ...", or "[1, 2]" in flow
// style), for a save that rewrites one list of the user's file and keeps the rest;
// `keep` (when given) says which fields of an entry to write.
using ListFieldFilter = std::function<bool(const FieldDef& f, int entry)>;
std::string listYaml(const Scenario& s, const SectionDef& list, bool flow, const ListFieldFilter& keep = {});
// A quantity in the largest unit that reads back exactly and briefly ("120 days").
std::string naturalQuantityText(const FieldDef& f, double value);
// One field's value as the file writes it ("8", "400 Gbps", "interleaved", "h100-sxm"),
// which is also what `--set path=value` reads back.
std::string fieldValueText(const Scenario& s, const FieldDef& f, int entry = 0);

} // namespace dtsim
