#pragma once
#include "calibration_overlay.h"
// Everything one simulation needs, as plain values. Built by the YAML loader or by
// code (the planner, the GUI); simcore's functions never read files themselves.
#include "cluster.h"
#include "cost_spec.h"
#include "hardware.h"
#include "model.h"
#include "parallel.h"
#include "reliability_spec.h"
#include "workload_spec.h"
#include "training.h"

#include <string>

namespace dtsim {

struct Scenario {
    std::string name;
    std::string description;
    ModelSpec model;
    TrainingSpec training;
    HardwareSpec hardware;
    ClusterSpec cluster;
    ParallelPlan plan;
    ReliabilitySpec reliability;
    CostSpec cost;
    WorkloadSpec workload;
    CalibrationOverlay calibration; // the user's measurements over the shipped calibration
    // By value, every field: round trips and the GUI compare scenarios with it.
    bool operator==(const Scenario&) const = default;
};

} // namespace dtsim
