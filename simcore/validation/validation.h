#pragma once
// Checks the engine against measured runs: predicted vs reported tokens/s per GPU, and
// error statistics overall and per source, for `quality: good` rows and for all rows.
#include "../calibration.h"
#include "../hardware.h"
#include "../loader/run_record.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dtsim {

struct ValidationRow {
    std::string id;
    std::string quality;
    std::string source; // id prefix
    bool skipped = false;
    std::string skipReason;
    std::string basis; // which reported field the measured value came from
    double reported = 0;  // tokens/s per GPU
    double predicted = 0; // tokens/s per GPU
    double relError = 0;  // (predicted - reported) / reported
    double predictedMfu = 0;
    bool predictedFits = true;
    bool moe = false;       // a mixture-of-experts model
    bool blackwell = false; // on a Blackwell part (B200, GB200, B300, GB300)
    std::string generation; // the GPU's (hopper, ampere ...), for error bands
    long long gpus = 0;
    bool lowPrecision = false; // FP8 or narrower
    double predictedMemoryGib = 0;           // peak per GPU, the worst pipeline stage
    std::optional<double> reportedMemoryGib; // where the source states it
    double memoryRelError = 0;               // (predicted - reported) / reported, when stated
};

struct ErrorStats {
    int count = 0;
    double median = 0; // of |relative error|
    double p90 = 0;
    double max = 0;
};

struct ValidationResult {
    std::vector<ValidationRow> rows;
    ErrorStats good;
    ErrorStats all;
    std::map<std::string, ErrorStats> goodBySource;
    std::map<std::string, ErrorStats> allBySource;
    ErrorStats goodMoe;       // throughput, good rows of mixture-of-experts models
    ErrorStats goodBlackwell; // throughput, good rows on Blackwell parts
    ErrorStats memory;        // peak memory per GPU, every row that states it
    int goodOutOfMemory = 0;  // good rows the engine says do not fit
};

ErrorStats errorStats(std::vector<double> absErrors); // percentiles by linear interpolation

ValidationResult validateRuns(const std::vector<RunRecord>& runs, const std::vector<HardwareSpec>& catalog,
    const Calibration& calibration);

} // namespace dtsim
