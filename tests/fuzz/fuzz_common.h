#pragma once
// Shared by the libFuzzer targets: the shipped catalogue, loaded once, and what a
// loaded scenario must survive. Any exception other than InputError is a bug, and so
// is a crash, a hang or a sanitizer report.
#include "simcore/input_error.h"
#include "simcore/loader/calibration_loader.h"
#include "simcore/loader/hardware_loader.h"
#include "simcore/loader/reliability_loader.h"
#include "simcore/loader/scenario_loader.h"
#include "simcore/memory.h"
#include "simcore/reliability/reliability.h"
#include "simcore/report_check.h"
#include "simcore/scenario_limits.h"
#include "simcore/step.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <unistd.h>

namespace dtsim::fuzz {

struct Data {
    std::vector<HardwareSpec> catalog = loadHardwareCatalog(std::string(DTSIM_SOURCE_DATA_DIR) + "/resources/hardware");
    std::vector<Topology> topologies = loadTopologyCatalog(std::string(DTSIM_SOURCE_DATA_DIR) + "/resources/topologies");
    Calibration calibration = loadCalibration(std::string(DTSIM_SOURCE_DATA_DIR) + "/resources/calibration/default.yaml");
    FailureRates rates = loadFailureRates(std::string(DTSIM_SOURCE_DATA_DIR) + "/resources/reliability/reliability.yaml");
};

inline const Data& data()
{
    static const Data d;
    return d;
}

// The readers that take a path (they stream from disk) get one scratch file per
// process, named after `what`.
inline std::string scratchPath(const char* what)
{
    std::string name = std::string("/tmp/dtsim-fuzz-") + what + "-XXXXXX";
    const int fd = mkstemp(name.data());
    if (fd < 0)
        std::abort();
    close(fd);
    return name;
}

// Writes `size` bytes to `path` (whole, or the fuzzer stops: a short write is no input).
inline void writeScratch(const std::string& path, const void* bytes, std::size_t size)
{
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(bytes, 1, size, f) != size || std::fclose(f) != 0)
        std::abort();
}

// Runs `work`: a refusal (an InputError with a message) is fine, any other exception a bug.
template <typename Work>
void refusalsOnly(Work work)
{
    try {
        work();
    } catch (const InputError& e) {
        if (std::string(e.what()).empty())
            std::abort(); // every refusal says why
    } catch (const std::exception& e) {
        std::fprintf(stderr, "unexpected exception: %s\n", e.what());
        std::abort();
    }
}

// Loads, and when the scenario is accepted, runs the step model with its sync wall,
// the memory model and the reliability analysis on it: an accepted scenario must give
// finite, non-negative figures (report_check.h), and a run either finishes or says why.
inline void exercise(const std::string& text, const std::vector<Override>& overrides)
{
    refusalsOnly([&] {
        const Scenario s = loadScenarioText(text, "fuzz.yaml", data().catalog, overrides, data().topologies);
        if (checkScenario(s))
            return;
        memoryPerGpu(s, data().calibration);
        const Report r = predictRun(s, data().calibration);
        if (const auto bad = badQuantity(r)) {
            std::fprintf(stderr, "accepted, but %s is not a finite, non-negative number\n", bad->c_str());
            std::abort();
        }
        const ReliabilityReport rel = analyzeReliability(s, data().calibration, data().rates, r);
        if (!runIssue(s, rel) && !std::isfinite(rel.expectedTime)) {
            std::fprintf(stderr, "a run said to finish has an expected time of %g\n", rel.expectedTime);
            std::abort();
        }
    });
}

} // namespace dtsim::fuzz
