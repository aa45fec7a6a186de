#pragma once
// The FLOP-vs-utilization frontier, in the spirit of Epoch AI's Distributed Training
// Interactive Simulator: for one accelerator and a training duration, sweep the
// training compute C; size each model compute-optimally, grow the batch with C, and
// find the cluster and plan that finish in time with the highest utilization. The
// "latency wall" appears where step latency times the serial chain of steps no longer
// fits in the duration.
#include "../calibration.h"
#include "../cluster.h"
#include "../hardware.h"
#include "../model.h"
#include "../parallel.h"

#include <atomic>
#include <optional>
#include <vector>

namespace dtsim {

enum class FrontierMode { Realistic, Idealized };

// Critical batch grows with compute: B_tokens = coefficient * C^exponent. Default from
// DeepSeek-AI 2024 ("DeepSeek LLM", Sec. 3.1): B_opt = 0.292 C^0.3271 tokens.
struct BatchRule {
    double coefficient = 0.292;
    double exponent = 0.3271;
};

struct FrontierOptions {
    HardwareSpec hardware;
    // The network (scale-up domain, per-GPU bandwidths and latencies) of another
    // catalogue part, for counterfactuals such as "GTX 580s on a modern fabric".
    std::optional<HardwareSpec> network;
    double months = 3;
    bool moe = false;     // mixture of experts: 8 experts, top-2, sized on active parameters
    long long maxGpus = 0; // 0: no limit
    double minFlop = 1e20;
    double maxFlop = 1e32;
    int points = 100;
    FrontierMode mode = FrontierMode::Realistic;
    ComputeOptimalRule rule;
    BatchRule batch;
    // Train each point to the loss its compute-optimal tokens reach at a small batch, so a
    // batch above the critical batch costs tokens (McCandlish et al.; convergence.h), as
    // a loss target does elsewhere. false: the compute-optimal tokens, whatever the batch.
    bool chargeCriticalBatch = false;
    int threads = 0; // 0: all hardware threads
    const std::atomic<bool>* cancel = nullptr; // set by the caller to stop early
};

struct FrontierPoint {
    double flop = 0;
    bool feasible = false;
    double mfu = 0;
    long long gpus = 0;
    int tp = 0, pp = 0, dp = 0, ep = 0;
    bool tp2d = false;
    double batchTokens = 0;
    double stepTime = 0;
    double days = 0;
    double costUsd = 0; // GPUs x launch price (hardware bill)
    double parameters = 0;
    int layers = 0, hidden = 0;
    ParallelPlan plan; // the chosen plan, for reports
};

struct Frontier {
    std::vector<FrontierPoint> points;
    double bestMfu = 0;
    double maxFlopAt80 = 0; // largest feasible C at >= 80% of the best utilization
    double maxFlopAny = 0;  // largest feasible C at any utilization
};

Frontier computeFrontier(const FrontierOptions& o, const Calibration& c);

// The scenario one frontier point describes (model, batch, cluster, plan), for reports.
struct Scenario;
Scenario frontierScenario(const FrontierOptions& o, double flop, const Calibration& c);

} // namespace dtsim
