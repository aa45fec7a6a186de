#pragma once
// Scaling curves: how step time, time to train and efficiency change with the GPU
// count, adding data-parallel replicas to the scenario's model split, at a fixed global
// batch (strong scaling, where the sync wall appears) and with the batch growing with
// the replicas (weak scaling).
#include "../calibration.h"
#include "../scenario.h"

#include <vector>

namespace dtsim {

struct ScalingPoint {
    long long gpus = 0;
    int dp = 0;
    int globalBatch = 0;
    double stepTime = 0;
    double timeToTrain = 0;
    double tokensPerSecond = 0;
    double mfu = 0;
    double efficiency = 0; // tokens/s per GPU relative to the curve's smallest point
    double gpuHours = 0;
    bool fits = false;
};

struct ScalingCurves {
    std::vector<ScalingPoint> fixedBatch;
    std::vector<ScalingPoint> growingBatch;
    int syncWallGpus = 0; // fastest point of the fixed-batch curve
    // The growing-batch curve's fastest point that fits, when a larger point (that fits) is
    // slower: past it more GPUs make the run slower (0: the curve still falls at its end).
    // With a loss target this is where the extra tokens a batch above the critical batch
    // needs outweigh the replicas it feeds.
    long long turnaroundGpus = 0;
};

ScalingCurves scalingCurves(const Scenario& s, const Calibration& c, int maxDoublings = 8);

} // namespace dtsim
