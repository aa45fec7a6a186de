#pragma once
// "Calibrate, then extrapolate" on published runs: where a source reports the same model
// on the same stack at several GPU counts, fit the compute speed (a calibration overlay's
// compute_scale) to the smallest run and predict the larger ones with it, as a user who
// measured one node would. Reports each run's error before and after.
#include "validation.h"

namespace dtsim {

struct ExtrapolatedRun {
    std::string id;
    int gpus = 0;
    double errorBefore = 0; // (predicted - reported) / reported, shipped calibration
    double errorAfter = 0;  // with the compute speed fitted on the group's smallest run
};

struct ExtrapolationGroup {
    std::string key;     // source | model | accelerator | precision | sequence | framework
    std::string fittedOn; // the smallest run's id
    int fittedGpus = 0;
    double computeScale = 1;
    std::vector<ExtrapolatedRun> runs; // the larger ones, by GPU count
};

struct ExtrapolationResult {
    std::vector<ExtrapolationGroup> groups;
    std::vector<std::string> notFitted; // groups whose smallest run no speed in range reproduces
    ErrorStats before, after;           // |error| over every extrapolated run
};

// Good rows only; a group needs two or more GPU counts.
ExtrapolationResult extrapolationCheck(const std::vector<RunRecord>& runs, const std::vector<HardwareSpec>& catalog,
    const Calibration& calibration);

} // namespace dtsim
