#pragma once
// Saving over a file the user wrote: the text is kept, and only what changed is
// rewritten, in place and in the unit it was written in ("deadline: 120 days" stays so
// after an edit of the batch; an edited deadline of 90 days is written "90 days", not
// "7776000 s"), so comments, order and units survive a save.
#include "../hardware.h"
#include "../scenario.h"
#include "topology_loader.h"

#include <optional>
#include <string>
#include <vector>

namespace dtsim {

// `original` is the text `loaded` was read from. The text with `edited`'s values, or
// nothing when a change cannot be made in place (a list changed, a section was added
// or removed, a field is new to a flow-style section): the caller writes the whole
// scenario instead (scenarioToYaml). A patch is returned only if it reads back equal
// to `edited`.
std::optional<std::string> patchScenarioText(const std::string& original, const Scenario& loaded, const Scenario& edited,
    const std::vector<HardwareSpec>& catalog, const std::vector<Topology>& topologies);

} // namespace dtsim
