#pragma once
// What a simulation returns: step time and where it goes, throughput and
// utilization, memory, and the whole-run figures. Plain values, no allocation.
#include "collectives.h"
#include "convergence.h"
#include "memory.h"
#include "offload.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace dtsim {

// Communication by the parallelism that causes it.
enum class CommGroup { TP, CP, EP, PP, DP };
inline constexpr int kCommGroupCount = 5;
inline constexpr int kLayerTypeCount = 8; // LayerType's values (layers/layer_table.h)
std::string_view commGroupName(CommGroup g);

struct CommReport {
    double totalSeconds = 0;   // per step, if nothing were overlapped (steady state)
    double exposedSeconds = 0; // what remains on the critical path
    double bytesPerGpu = 0;    // per step, sent by one GPU
    CollectiveKind collective = CollectiveKind::AllReduce;
    Algorithm algorithm = Algorithm::None;
    int groupSize = 1;
    int domains = 1; // scale-up domains the group spans
    GroupSpan span;  // where the group lands in the topology
    double hiddenShare() const { return totalSeconds > 0 ? std::max(0.0, 1.0 - exposedSeconds / totalSeconds) : 1.0; }
};

// Traffic on one level of the topology over a step: level 0 is the scale-up fabric,
// level 1 the NICs into the scale-out network, level 2 + i the uplinks of tier i.
struct LevelLoad {
    double bytesPerStep = 0; // summed over the cluster
    double capacity = 0;     // bytes/s summed over the cluster
    double utilization = 0;  // bytes / (capacity x step time)
};
inline constexpr int kMaxLevels = kMaxTiers + 2;

// Seconds per step by component; the parts add up to the step time.
struct StepBreakdown {
    double forward = 0;   // forward compute of all micro-batches (steady state)
    double backward = 0;  // backward compute
    double recompute = 0; // activation recomputation
    std::array<double, kCommGroupCount> exposedComm {};
    double bubble = 0;    // pipeline fill and drain
    double optimizer = 0;
    double overhead = 0;  // per-step framework overhead
    double contention = 0; // compute slowed by the communication it hides
    double inputStall = 0; // waiting for the host's input pipeline (layer tables)
    double straggler = 0;  // waiting for the slowest rank's compute (cluster.jitter)
    double outerSync = 0;  // DiLoCo's outer all-reduce across workers, per step (parallel.diloco)
    double offload = 0;    // waiting for the host: the CPU optimizer step and copies compute cannot hide
    double compression = 0; // compressing and decompressing the DP gradients on the GPU (training.grad_compression)
    double sum() const;
};

struct StepReport {
    double stepTime = 0;
    StepBreakdown breakdown;
    std::array<CommReport, kCommGroupCount> comm {};
    OffloadReport offload; // parallel.offload's copies and CPU step (all zero when off)
    CommReport outerSync; // DiLoCo's, per step (totalSeconds, bytes: averaged over the inner steps)
    int microbatches = 0;
    double bubbleFraction = 0; // bubble / (step time without bubble) = (p-1)/(v m)
    double modelFlopsPerStep = 0;
    double hardwareFlopsPerStep = 0; // + recomputation
    double peakFlopsPerGpu = 0;
    double mfu = 0;
    double hfu = 0;
    double tflopsPerGpu = 0; // achieved model TFLOP/s per GPU
    double tokensPerSecond = 0;
    MemoryReport memory;
    // GPU kernel time of one step on the slowest stage, by the kinds a profiler trace splits
    // (dtsim-cli calibrate fits each to a trace): matrix products, attention, and the
    // memory-bound rest (norms, activations, casts, the loss); the optimizer is the
    // breakdown's. With one stage the embedding and the output layer are included.
    struct KernelTimes {
        double gemm = 0, attention = 0, stream = 0;
    } kernels;
    // One MoE layer for one micro-batch on one GPU, forward and backward (with its rerun
    // under full recomputation): where its time goes. All zero for a dense model.
    struct MoeLayerTimes {
        double router = 0;   // gating GEMM and routing kernels
        double permute = 0;  // token permutation before the experts and unpermutation after
        double dispatch = 0; // the all-to-all that sends tokens to their experts (total, hidden or not)
        double experts = 0;  // the routed experts' GEMMs and activations
        double combine = 0;  // the all-to-all that brings the results back
        double shared = 0;   // shared experts
        double total() const { return router + permute + dispatch + experts + combine + shared; }
    } moeLayer;
    // One micro-batch on the slowest pipeline stage, for the event simulation: the
    // exposed in-layer communication is split between the passes by compute share.
    struct PipelineTimes {
        double forward = 0;   // all chunks, compute + exposed TP/CP/EP/ZeRO-3
        double backward = 0;  // likewise, without recomputation
        double recompute = 0;
        double hop = 0;       // one pipeline send
        int chunks = 1;       // virtual stages
        int layers = 1;       // layers on the stage
        double forwardCollectives = 0;  // of `forward`: exposed in-layer collectives
        double backwardCollectives = 0; // of `backward`
        double gradientBuckets = 1;     // DP buckets the gradient synchronisation uses
        // DualPipe: the bubble's micro-batch slots are worth (F + B/2) / (F + B) each.
        double bubbleWeight = 1;
    } pipeline;
    std::array<LevelLoad, kMaxLevels> levels {};
    int levelCount = 0;
    int bottleneckLevel = -1; // the most utilized level
};

struct Report {
    StepReport step;
    double steps = 0;
    double timeToTrain = 0;        // predicted, seconds
    double theoreticalMinTime = 0; // all GPUs at peak, no communication
    double gpuHours = 0;
    int syncWallGpus = 0; // GPU count with the shortest run at this global batch
    double syncWallTimeToTrain = 0;
    // A loss target's tokens and loss (convergence.h); unknown (not computed) for a token
    // target, whose reports do not need it.
    ConvergencePlan convergence;
    double tokens(const Scenario& s) const
    {
        return s.training.target == TrainingTarget::Tokens ? s.training.tokens : steps * s.training.tokensPerStep();
    }
    // Layer tables only (zero for transformers): the step's forward and backward compute
    // by layer type, in LayerType's order (layers/layer_table.h), for the breakdown view.
    // Here, not in StepReport, which the planner evaluates millions of times a second.
    std::array<double, kLayerTypeCount> layerTypeForward {}, layerTypeBackward {};
};

} // namespace dtsim
