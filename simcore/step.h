#pragma once
// One synchronous training step, analytically: per-layer compute as a roofline of
// GEMMs at a shape-dependent efficiency and memory-bound kernels at achieved
// bandwidth, the collectives each parallelism adds, the pipeline schedule's bubble,
// data-parallel synchronisation overlapped with backward, and the optimizer step.
// Formulas and sources: docs/model.md.
#include "calibration.h"
#include "report.h"
#include "scenario.h"

namespace dtsim {

// Achieved fraction of peak of an (M x K) * (K x N) GEMM. `tileScale` shrinks the
// generation's half_dim for precisions that need smaller tiles (Rates::tileScale).
double gemmEfficiency(const GenerationCalibration& g, double m, double n, double k, double tileScale = 1.0);

// "Idealized" mirrors the assumptions of Epoch AI's simulator (Erdil & Schneider-
// Joseph 2024), for like-for-like comparison: attention FLOPs are ignored, and compute
// and communication overlap perfectly (a micro-batch takes the longer of the two; the
// data-parallel reduction hides under the whole pipeline). Latencies still count.
struct StepOptions {
    bool idealized = false;
};

// The scenario must pass checkPlan(); otherwise results are meaningless.
StepReport predictStep(const Scenario& s, const Calibration& c, const StepOptions& o = {});

// The sync wall's rule, one for addSyncWall and the scaling sweep: the shortest run, and
// of equally short runs the one on the fewest GPUs.
inline bool beatsSyncWall(double time, long long gpus, double bestTime, long long bestGpus)
{
    return time < bestTime || (time == bestTime && gpus < bestGpus);
}

// Step plus run-level figures: time to train, GPU-hours. The sync wall is a sweep over
// data-parallel degrees, left to the planner (addSyncWall) for the views that show it.
Report predictRun(const Scenario& s, const Calibration& c);

} // namespace dtsim
