#pragma once
// One accelerator from the catalogue (resources/hardware/*.yaml). All values SI:
// FLOP/s, bytes, bytes/s (per direction), seconds, watts, US dollars.
#include "precision.h"

#include <array>
#include <string>

namespace dtsim {

struct HardwareSpec {
    std::string id;
    std::string name;
    std::string vendor;
    std::string generation; // fermi, kepler, ..., hopper, blackwell, blackwell-ultra, cdna3, tpu-v4, tpu-v5
    int launchYear = 0;
    std::array<double, kPrecisionCount> peakDenseFlops {}; // 0 where unsupported
    double memoryBytes = 0;
    double memoryBandwidth = 0;
    std::string scaleUpTechnology;
    double scaleUpBandwidth = 0; // per GPU, per direction
    int scaleUpDomain = 1;
    double scaleUpLatency = 0;
    double scaleOutBandwidth = 0; // per GPU, per direction
    double scaleOutLatency = 0;
    double tdpWatts = 0;
    double idleWatts = 0;
    double launchPriceUsd = 0;
    double powerLimitWatts = 0; // a board power cap below TDP (0 = none); lowers clocks
    // The host's share per GPU, for offload (0 = unknown; offload is then refused): CPU
    // memory and its bandwidth, the GPU's link to it per direction while every GPU of the
    // node copies at once, and local NVMe capacity and bandwidth.
    double hostMemoryBytes = 0;
    double hostMemoryBandwidth = 0;
    double hostLinkBandwidth = 0;
    double nvmeBytes = 0;
    double nvmeBandwidth = 0;
    std::string hostServer; // the server the host figures describe ("DGX H100")

    double peak(Precision p) const { return peakDenseFlops[precisionIndex(p)]; }
    bool supports(Precision p) const { return peak(p) > 0; }
    bool operator==(const HardwareSpec&) const = default;
};

} // namespace dtsim
