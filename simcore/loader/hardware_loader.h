#pragma once
// Reads the hardware catalogue: one resources/hardware/<id>.yaml per accelerator.
#include "../hardware.h"

#include <string>
#include <vector>

namespace dtsim {

HardwareSpec loadHardwareFile(const std::string& path);
std::vector<HardwareSpec> loadHardwareCatalog(const std::string& directory); // sorted by year, id
const HardwareSpec* findHardware(const std::vector<HardwareSpec>& catalog, const std::string& id);

} // namespace dtsim
