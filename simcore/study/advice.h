#pragma once
// What to change, measured: the regime a run is in (from its own step breakdown) and a
// ranked list of changes, each simulated by the engine, each expressible as the
// `--set` overrides that reproduce it (so a user can check any gain it claims).
#include "headline.h"

#include "../calibration.h"
#include "../hardware.h"
#include "../scenario.h"

#include <atomic>
#include <string>
#include <utility>
#include <vector>

namespace dtsim {

enum class Regime { Compute, Communication, Bubble, Memory, Latency };
const char* regimeName(Regime r); // "compute-bound", ...

struct StepShare {
    std::string part; // "compute", "TP communication", "pipeline bubble", ...
    double share = 0; // of the step time
};

struct Diagnosis {
    Regime regime = Regime::Compute;
    std::string summary;  // one sentence naming the regime and what dominates
    std::string reading;  // what that means for the next change
    double computeShare = 0; // forward + backward compute over the step: the step's roofline efficiency
    std::vector<StepShare> shares; // largest first
};

struct Suggestion {
    // Plan: the same hardware and numerics (plan, micro-batch, recomputation, overlap);
    // Precision: other numerics; Hardware: more, faster or other GPUs or network.
    enum class Kind { Plan, Precision, Hardware };
    Kind kind = Kind::Plan;
    std::string title;  // "The planner's best plan: TP 8, PP 8, DP 256, micro-batch 1"
    std::vector<std::pair<std::string, std::string>> sets; // path, value: the --set overrides
    Scenario scenario;  // the changed scenario, for one-click apply
    double timeToTrain = 0, gpuHours = 0; // predicted after the change
    double gain = 0;    // time to train before / after - 1 (0.25: 25% faster)
    double gpuHoursChange = 0; // after / before - 1
    std::string note;   // side effects (more GPUs, more memory)
    bool makesItFit = false; // the scenario did not fit in memory and this change makes it (gain is then 0)
};

struct Advice {
    Diagnosis diagnosis;
    double timeToTrain = 0, gpuHours = 0; // as the scenario stands (meaningless when it does not fit)
    bool fits = true;                     // false: the plan does not fit in memory, and every suggestion makes it fit
    std::vector<Suggestion> suggestions;  // best first; only changes that help
};

Diagnosis diagnose(const Scenario& s, const Report& r);

// `catalog`: GPU types to try instead (may be empty).
Advice advise(const Scenario& s, const Calibration& c, const std::vector<HardwareSpec>& catalog = {},
    const std::atomic<bool>* cancel = nullptr);

} // namespace dtsim
