#pragma once
// The subcommands of dtsim-cli. Each takes its own arguments (after the command name)
// and returns the process exit code: 0 success, 2 bad input, 1 internal error.
#include "data_paths.h"

#include <QStringList>

#include <string>

namespace dtsim::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitBadInput = 2;

int runSimulate(const QStringList& args);
int runPresets(const QStringList& args);
int runHardware(const QStringList& args);
int runValidate(const QStringList& args);
int runSearch(const QStringList& args);
int runFrontier(const QStringList& args);
int runScaling(const QStringList& args);
int runBench(const QStringList& args);
int runTrace(const QStringList& args);
int runReliability(const QStringList& args); // dtsim-cli run
int runCost(const QStringList& args);
int runCluster(const QStringList& args);
int runAdvise(const QStringList& args); // the regime and what to change, each gain simulated
int runSweep(const QStringList& args);  // one headline number over two fields' values
int runDiff(const QStringList& args);   // two scenarios: their inputs and results
int runFields(const QStringList& args);  // the scenario fields (--markdown: the docs tables)
int runCalibrate(const QStringList& args); // what a profiler trace measured
int runLayers(const QStringList& args);    // a layer-table step, layer by layer
int runGemm(const QStringList& args);
int runImport(const QStringList& args);    // framework configs -> a scenario
int runExport(const QStringList& args);    // a scenario -> a framework's launch config
int runLoss(const QStringList& args);      // the convergence model: tokens <-> loss
int runModels(const QStringList& args);    // the model catalogue      // one matrix product's time as the step model prices it

} // namespace dtsim::cli
