#pragma once
// Shared by the libFuzzer targets: the shipped catalogue, loaded once, and what a
// loaded scenario must survive. Any exception other than InputError is a bug, and so
// is a crash, a hang or a sanitizer report.
#include "simcore/input_error.h"
#include "simcore/loader/calibration_loader.h"
#include "simcore/loader/hardware_loader.h"
#include "simcore/loader/scenario_loader.h"
#include "simcore/memory.h"
#include "simcore/plan_check.h"
#include "simcore/step.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace dtsim::fuzz {

struct Data {
    std::vector<HardwareSpec> catalog = loadHardwareCatalog(std::string(DTSIM_SOURCE_DATA_DIR) + "/resources/hardware");
    std::vector<Topology> topologies = loadTopologyCatalog(std::string(DTSIM_SOURCE_DATA_DIR) + "/resources/topologies");
    Calibration calibration = loadCalibration(std::string(DTSIM_SOURCE_DATA_DIR) + "/resources/calibration/default.yaml");
};

inline const Data& data()
{
    static const Data d;
    return d;
}

// Loads, and when the plan is valid, runs the step model and the memory model on it.
inline void exercise(const std::string& text, const std::vector<Override>& overrides)
{
    try {
        const Scenario s = loadScenarioText(text, "fuzz.yaml", data().catalog, overrides, data().topologies);
        if (!checkPlan(s)) {
            memoryPerGpu(s, data().calibration);
            simulateStep(s, data().calibration);
        }
    } catch (const InputError& e) {
        if (std::string(e.what()).empty())
            std::abort(); // every refusal says why
    } catch (const std::exception& e) {
        std::fprintf(stderr, "unexpected exception: %s\n", e.what());
        std::abort();
    }
}

} // namespace dtsim::fuzz
