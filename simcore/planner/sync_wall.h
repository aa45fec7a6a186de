#pragma once
// The sync wall: at this global batch, model split and micro-batch, the data-parallel
// degree whose run is shortest; beyond it adding GPUs stops paying (the dashboard's
// "Sync wall", `dtsim-cli simulate`). A sweep of simulateStep, so it is the planner's,
// not part of every simulate() the planners and the cost study call.
#include "../calibration.h"
#include "../report.h"
#include "../scenario.h"

namespace dtsim {

// Fills r.syncWallGpus and r.syncWallTimeToTrain; `r` is simulate(s, c).
void addSyncWall(Report& r, const Scenario& s, const Calibration& c);

// simulate() with the sync wall: what the dashboard and `simulate` show.
Report simulateWithSyncWall(const Scenario& s, const Calibration& c);

} // namespace dtsim
