#pragma once
// Scenario -> YAML (version 1), every field explicit, so that loading the text gives
// back the same Scenario (tested on every preset).
#include "../scenario.h"

#include <string>

namespace dtsim {

std::string scenarioToYaml(const Scenario& s);

struct FieldDef;
// A quantity in the largest unit that reads back exactly and briefly ("120 days").
std::string naturalQuantityText(const FieldDef& f, double value);
// One field's value as the file writes it ("8", "400 Gbps", "interleaved", "h100-sxm"),
// which is also what `--set path=value` reads back.
std::string fieldValueText(const Scenario& s, const FieldDef& f, int entry = 0);

} // namespace dtsim
