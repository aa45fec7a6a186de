#pragma once
// Shared fixtures: the shipped catalogue, calibration and presets from the source tree.
#include "simcore/loader/anchors_loader.h"
#include "simcore/loader/calibration_loader.h"
#include "simcore/loader/cost_loader.h"
#include "simcore/loader/hardware_loader.h"
#include "simcore/loader/reliability_loader.h"
#include "simcore/loader/scenario_loader.h"
#include "simcore/loader/scenario_writer.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dtsim::test {

inline std::string dataPath(const std::string& relative)
{
    return std::string(DTSIM_SOURCE_DATA_DIR) + "/" + relative;
}

inline const std::vector<HardwareSpec>& catalog()
{
    static const std::vector<HardwareSpec> c = loadHardwareCatalog(dataPath("resources/hardware"));
    return c;
}

inline const Calibration& calibration()
{
    static const Calibration c = loadCalibration(dataPath("resources/calibration/default.yaml"));
    return c;
}

inline const std::vector<Topology>& topologies()
{
    static const std::vector<Topology> t = loadTopologyCatalog(dataPath("resources/topologies"));
    return t;
}

inline const FailureRates& failureRates()
{
    static const FailureRates f = loadFailureRates(dataPath("resources/reliability/reliability.yaml"));
    return f;
}

inline const CostRates& costRates()
{
    static const CostRates c = loadCostRates(dataPath("resources/cost/cost.yaml"));
    return c;
}

inline const std::vector<FrontierAnchor>& frontierAnchors()
{
    static const std::vector<FrontierAnchor> a = loadFrontierAnchors(dataPath("resources/anchors/epoch.yaml"));
    return a;
}

inline Scenario preset(const std::string& name, const std::vector<Override>& overrides = {})
{
    return loadScenarioFile(dataPath("presets/" + name + ".yaml"), catalog(), overrides, topologies());
}

// A preset written back to YAML with a section appended (a `reliability:` block with
// chaos events, say), read again as a file would be.
inline Scenario presetWithSection(const std::string& presetName, const std::string& section)
{
    const std::string text = scenarioToYaml(preset(presetName)) + section;
    return loadScenarioText(text, "chaos.yaml", catalog(), {}, topologies());
}

// The located error a preset with `section` appended is refused with; nullopt when it loads.
inline std::optional<InputError> sectionError(const std::string& presetName, const std::string& section)
{
    try {
        presetWithSection(presetName, section);
    } catch (const InputError& e) {
        return e;
    }
    return std::nullopt;
}

inline std::vector<std::string> presetNames()
{
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dataPath("presets")))
        if (e.path().extension() == ".yaml")
            names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace dtsim::test
