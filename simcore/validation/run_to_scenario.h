#pragma once
// Turns a published run into a dtsim Scenario, reading the schema's free-text fields
// (accelerator, precision, recomputation, sharding, schedule, interconnect) by the
// documented rules of docs/validation.md. Missing fields take documented defaults; a
// run is skipped only when something the engine needs has none.
#include "../calibration.h"
#include "../hardware.h"
#include "../scenario.h"
#include "../loader/run_record.h"

#include <string>
#include <variant>
#include <vector>

namespace dtsim {

struct SkippedRun {
    std::string reason;
};

// `calibration` is needed for one default: unstated recomputation is the least that fits.
std::variant<Scenario, SkippedRun> scenarioFromRun(const RunRecord& r, const std::vector<HardwareSpec>& catalog,
    const Calibration& calibration);

// Catalogue id for an accelerator description ("A100-SXM4-40GB", "TPU v5e"), or "".
std::string acceleratorId(const std::string& description);

// Per-GPU scale-out bandwidth (bytes/s) stated in an interconnect description, or 0.
double perGpuNetworkBandwidth(const std::string& interconnect, int gpusPerNode);

// The compute format a precision description names ("bf16 mixed", "fp8 (delayed
// scaling)"), or the GPU's best 16-bit format when it names none.
Precision runPrecision(const std::string& text, const HardwareSpec& hw);

// A `layer_table` row (CNNs, DLRM: architecture.table names a built-in table): data
// parallel with the stated batch, samples as the unit of work.
std::variant<Scenario, SkippedRun> layerTableScenarioFromRun(const RunRecord& r, const HardwareSpec& hw);

} // namespace dtsim
