#pragma once
// Kernel speeds fitted to a profiler trace of the user's own step (dtsim-cli calibrate
// TRACE --scenario FILE): the traced GPU time of GEMMs, attention and the memory-bound
// rest against what the scenario predicts for them, and the step's time outside kernels.
// Simulated with the result (a calibration overlay's `kernels`), the scenario takes the
// traced step; the same rates then serve it at other sizes and scales.
#include "../calibration.h"
#include "../scenario.h"
#include "profile_summary.h"

namespace dtsim {

// A step's GPU time by the kinds the step model prices separately.
struct KernelKinds {
    double gemm = 0, attention = 0, stream = 0, optimizer = 0;
};

struct TraceFit {
    int steps = 0;             // ProfilerSteps the medians are over
    KernelKinds measured;      // the trace: median over its steps
    double measuredStep = 0;   // median GPU span of a step
    double measuredBusy = 0;   // median GPU busy time of a step
    KernelKinds predicted;     // the scenario before the fit
    double predictedStep = 0;
    MeasuredKernels kernels;   // the fitted speeds and step overhead (source left to the caller)
    KernelKinds fitted;        // the scenario with them
    double fittedStep = 0;
    double residual() const { return measuredStep > 0 ? fittedStep / measuredStep - 1 : 0; }
    // Whether every traced kind is reproduced within 1%: false where a speed would have to
    // be ten times off the model's (a trace of another scenario or another GPU).
    bool converged() const;
};

// Throws InputError (where "TRACE") when the trace holds no GPU kernels or no
// ProfilerStep with GEMM or attention kernels to fit, or "--scenario" when the scenario is not one GPU's step
// that a trace of one GPU can stand for (pipeline stages, communication).
TraceFit fitTrace(Scenario s, const Calibration& c, const ProfileSummary& trace);

} // namespace dtsim
