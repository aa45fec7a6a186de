#pragma once
// The recovery strategies a run can use (storage checkpoints, synchronous or
// asynchronous; Gemini's in-memory copies; just-in-time checkpoints), each costed on the
// same run: its stalls, intervals, which failures it survives without going back to
// storage, its recovery time per cause and its expected time to train.
#include "reliability.h"

namespace dtsim {

// What the strategies share, worked out once from the scenario and its step.
struct StrategyInputs {
    double failureFreeTime = 0;     // seconds
    double step = 0;                // seconds per training step
    std::array<double, kComponentCount> rate {}; // failures a second, per cause
    double detect = 0, drain = 0, reinit = 0, provisionSpare = 0, provisionWait = 0;
    bool spares = true;
    double spareNodes = 0;          // hot spares at hand
    double nodeGpus = 8, rackGpus = 8, podGpus = 8; // failure domains
    double gpus = 8;
    double storageWrite = 0;        // seconds for a synchronous checkpoint
    double storageLoad = 0;         // seconds to read it back
    double staging = 0;             // seconds to stage an asynchronous one in host memory
    double stateBytesPerGpu = 0;    // weights and optimizer states one GPU holds
    double nicBandwidth = 0;        // bytes/s per GPU into the scale-out network
    double nicIdlePerStep = 0;      // seconds a step that network is free
    int dp = 1;
    bool shardedStates = false;     // ZeRO >= 1: a rank's optimizer shard has no replica
    double dpSpanGpus = 1;          // consecutive GPUs holding a whole data-parallel group
    int copies = 1;                 // in-memory: peer hosts holding each copy
    CopyPlacement placement = CopyPlacement::SameRack;
    double checkpointInterval = 0;  // the scenario's storage interval; 0: Young's optimum
};

// Recovery time (without the lost work) of a failure of `cause` when the state comes
// back in `load` seconds: detect, drain, provision every node the failure took (a hot
// spare each while they last, else the wait for new ones), load and re-initialize.
double recoveryTime(const StrategyInputs& in, FailureCause cause, double load);

// Every strategy on this run, in RecoveryStrategy order with storage split into
// synchronous and asynchronous: { storage, storage async, in_memory, just_in_time }.
// The last two write their backstop storage checkpoints asynchronously when `async`.
std::array<RecoveryPlan, 4> planStrategies(const StrategyInputs& in, bool async);

// The index in planStrategies' answer of the scenario's own strategy.
int strategyIndex(RecoveryStrategy s, bool async);

const char* recoveryStrategyName(RecoveryStrategy s);

} // namespace dtsim
