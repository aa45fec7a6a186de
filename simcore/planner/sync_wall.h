#pragma once
// The sync wall: at this global batch, model split and micro-batch, the data-parallel
// degree whose run is shortest; beyond it adding GPUs stops paying (the dashboard's
// "Sync wall", `dtsim-cli simulate`). A sweep of predictStep, so it is the planner's,
// not part of every predictRun() the planners and the cost study call.
#include "../calibration.h"
#include "../report.h"
#include "../scenario.h"

namespace dtsim {

// Fills r.syncWallGpus and r.syncWallTimeToTrain; `r` is predictRun(s, c).
void addSyncWall(Report& r, const Scenario& s, const Calibration& c);

// predictRun() with the sync wall and, for a token target too, the loss it reaches
// (Report::convergence): what the dashboard and `simulate` show.
Report predictRunWithSyncWall(const Scenario& s, const Calibration& c);

} // namespace dtsim
