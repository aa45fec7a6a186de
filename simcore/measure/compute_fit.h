#pragma once
// The compute speed (a calibration overlay's compute_scale) at which a scenario's
// predicted step takes what was measured: used by `dtsim-cli calibrate --measured-step`
// and by the calibrate-then-extrapolate check on published runs.
#include "../calibration.h"
#include "../scenario.h"

namespace dtsim {

struct ComputeFit {
    double scale = 1;       // within [kMinComputeScale, maxScale]
    double maxScale = 1;    // the speed at which the GPU's kernels reach its peak (Calibration::maxComputeScale)
    bool reached = false;   // false: no speed in that range gives the measured step
    double fittedStep = 0;  // seconds, the step at `scale`
    bool tooFast() const { return !reached && scale > 1; } // the measured step needs more than the peak
};

// The step time falls as compute speeds up, so a bisection on a log scale finds it.
// A speed above the GPU's peak is not a calibration: the fit stops there.
ComputeFit fitComputeScale(Scenario s, const Calibration& c, double measuredStepSeconds);

// The step that a measured throughput (tokens/s over the whole run) means for `s`.
double stepFromThroughput(const Scenario& s, const Calibration& c, double tokensPerSecond);

} // namespace dtsim
