#pragma once
// Offload (parallel.offload): what moves to CPU memory or NVMe, what crosses the
// GPU-host link each step, and what of it compute cannot hide (docs/model.md, "Offload").
// The frameworks' schedules, per GPU and step (Ren et al. 2021, ZeRO-Offload, Sec. 4-5;
// Rajbhandari et al. 2021, ZeRO-Infinity, Sec. 5-6; DeepSpeed stage_1_and_2.py and
// stage3.py; Megatron-Core optimizer/cpu_offloading; Transformer Engine cpu_offload.py):
// - optimizer: after backward, the gradient shard goes to the host (unless already
//   there), the CPU runs the optimizer step, and the updated 16-bit weights come back.
//   The three are tiled and pipelined, so the slowest of them (or the NVMe swap of the
//   states) sets the time; nothing overlaps it with forward or backward;
// - gradients: each micro-batch's gradient shard streams to the host during its backward;
// - parameters (ZeRO 3): the shard is copied in before every gather, prefetched under
//   the previous layers' compute;
// - activations: saved activations leave in forward and return in backward, under the
//   other layers' compute.
#include "calibration.h"
#include "scenario.h"

namespace dtsim {

// Seconds and bytes per GPU and step; zero when nothing is offloaded.
struct OffloadReport {
    double linkBytes = 0;       // across the GPU-host link, both directions
    double nvmeBytes = 0;       // read and written on NVMe
    double cpuOptimizer = 0;    // the CPU's optimizer step
    double optimizerCopies = 0; // the optimizer's link copies and NVMe swaps, pipelined with the CPU step
    double gradientCopies = 0;  // streamed during backward, total
    double parameterCopies = 0; // fetched before the gathers, total
    double activationCopies = 0; // out in forward and back in backward, total
    double exposed = 0;         // what the step waits for
};

// One micro-batch's compute on the slowest stage, which the copies hide under.
struct OffloadCompute {
    double forward = 0, backward = 0, recompute = 0;
    int microbatches = 1;
};

// Parameters of one GPU's shard, as the optimizer step and ZeRO 3 see them.
struct OffloadShard {
    double optimizerParams = 0; // parameters this GPU's optimizer states cover
    double gatheredParams = 0;  // parameters of this GPU's ZeRO-3 shard (0 without ZeRO 3)
    double activationBytes = 0; // saved activations of one micro-batch on the stage
};

OffloadReport offloadTimes(const Scenario& s, const Calibration& c, const OffloadShard& shard, const OffloadCompute& compute);

// Bytes a CPU optimizer step moves through host memory per parameter: Adam's traffic
// (calibration optimizer_bytes_per_param); plain SGD reads and writes two fewer fp32 values.
double cpuOptimizerBytesPerParam(const Scenario& s, const Calibration& c);

// The catalogue's host figures are a full node's shared by its GPUs; a job on fewer GPUs
// than a node has the node's CPU memory, its bandwidth and the NVMe to fewer of them.
double hostShareScale(const Scenario& s);

// The GPU's remaining share of the optimizer step (1 - the offloaded fraction).
double gpuOptimizerShare(const OffloadSpec& o);

} // namespace dtsim
