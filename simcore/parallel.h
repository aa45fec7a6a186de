#pragma once
// How the work is split: the degrees of each kind of parallelism, the pipeline
// schedule, optimizer sharding, recomputation, and how groups map onto ranks.
#include "precision.h"

#include <array>
#include <optional>
#include <string_view>

namespace dtsim {

// DualPipe (DeepSeek-V3, arXiv 2412.19437 Sec. 3.2.1): micro-batches enter from both
// ends of the pipeline and each rank pairs a forward chunk with a backward chunk so
// their communication hides under each other's compute.
enum class Schedule { GPipe, OneFOneB, Interleaved1F1B, DualPipe };
// Selective: Megatron's (core attention only). PerOp: torchtitan's per-op selective
// checkpointing, which saves matmul and attention outputs except every second aten.mm
// (and every FP8 _scaled_mm); backward reruns the elementwise ops and those unsaved
// matmuls it needs (step.cpp, layerTimes). Projections: a remat policy that keeps the
// outputs of the attention's Q/K/V and output projections (MaxText's remat_policy=custom
// with query_proj, key_proj, value_proj and out_proj on device); backward reruns the
// norms, the attention core and the MLP but for its down projection.
enum class Recompute { None, Selective, Full, PerOp, Projections };
inline constexpr std::array<Recompute, 5> kRecomputePolicies { Recompute::None, Recompute::Selective, Recompute::Full,
    Recompute::PerOp, Recompute::Projections };

// The four axes whose product is the GPU count. Expert parallelism (EP) is carved
// out of the data-parallel x context-parallel ranks, as in Megatron-Core.
enum class Axis { TP, CP, DP, PP };
inline constexpr int kAxisCount = 4;

// Infrequent synchronization across groups of replicas (DiLoCo, Douillard et al. 2023;
// Streaming DiLoCo, Douillard et al. 2025): the data-parallel replicas form `workers`
// contiguous groups that reduce gradients among themselves every step; every
// `innerSteps` steps the groups all-reduce the change of their parameters (the outer
// gradient, in `outerPrecision`) and an outer Nesterov step applies it. Streaming sends
// it in fragments under the next inner steps' compute. docs/convergence.md.
struct DilocoSpec {
    int workers = 0; // 0: off (every replica reduces every step)
    int innerSteps = 30;
    bool streaming = false;
    Precision outerPrecision = Precision::FP32;
    bool on() const { return workers > 0; }
    bool operator==(const DilocoSpec&) const = default;
};

// Where state lives when it is not in GPU memory (docs/model.md, "Offload"): ZeRO-Offload
// (Ren et al. 2021) keeps the optimizer states and gradients in CPU memory and runs the
// optimizer step on the CPU; ZeRO-Infinity (Rajbhandari et al. 2021) also moves the
// parameters, to CPU memory or NVMe; Megatron-Core offloads a fraction of the optimizer
// (--optimizer-cpu-offload, --optimizer-offload-fraction) and Transformer Engine the
// activations of some layers (cpu_offloading).
enum class OffloadTarget { None, Cpu, Nvme };
struct OffloadSpec {
    OffloadTarget optimizer = OffloadTarget::None;  // fp32 master weights and moments; the step runs on the CPU
    double optimizerFraction = 1;                   // of the optimizer states (Megatron's offload fraction)
    OffloadTarget gradients = OffloadTarget::None;  // reduced gradients, streamed to the host in backward
    OffloadTarget parameters = OffloadTarget::None; // the working weights, fetched layer by layer
    OffloadTarget activations = OffloadTarget::None; // the saved activations, copied out in forward
    bool any() const
    {
        return optimizer != OffloadTarget::None || gradients != OffloadTarget::None || parameters != OffloadTarget::None
            || activations != OffloadTarget::None;
    }
    // Whether the run keeps training state in host memory (a host that runs out of it fails the run).
    bool usesHostMemory() const { return any(); }
    bool operator==(const OffloadSpec&) const = default;
};

struct ParallelPlan {
    int tp = 1;
    int pp = 1;
    int dp = 1;
    int cp = 1;
    int ep = 1;
    // Expert tensor parallelism: the experts' own TP degree (Megatron-Core's
    // --expert-tensor-parallel-size); 0 means the attention's TP. With MoE parallel
    // folding the expert layers regroup the TP x CP x DP ranks of a stage as
    // expert-TP x EP x expert-DP, so EP may exceed DP x CP (Liu et al. 2025, "MoE Parallel
    // Folding", arXiv 2504.14960).
    int expertTp = 0;
    bool sequenceParallel = false;
    Schedule schedule = Schedule::OneFOneB;
    int virtualStages = 1; // model chunks per pipeline rank (interleaved schedule)
    // Uneven pipeline stages: layers on the first and the last stage (0: an even split).
    // Megatron-Core's --decoder-first/last-pipeline-num-layers; Llama 3 drops one layer
    // from each end so the embedding and the loss do not slow those stages (Dubey et al.
    // 2024, Sec. 3.3.2). The other stages share the rest evenly.
    int firstStageLayers = 0;
    int lastStageLayers = 0;
    bool unevenStages() const { return pp > 1 && (firstStageLayers > 0 || lastStageLayers > 0); }
    int zeroStage = 0;     // 0: replicated; 1: optimizer states; 2: + gradients; 3: + weights (FSDP)
    DilocoSpec diloco;
    OffloadSpec offload;
    // The replicas that reduce gradients together every step: all of them, or one
    // DiLoCo worker's (ZeRO shards across these).
    int syncReplicas() const { return diloco.on() && diloco.workers <= dp ? dp / diloco.workers : dp; }
    Recompute recompute = Recompute::None;
    // With full recomputation: how many layers of each stage recompute (Megatron's
    // --recompute-method block --recompute-num-layers); 0 means all of them.
    int recomputeLayers = 0;
    // Rank layout, innermost (consecutive ranks) first: TP innermost, DP outermost by default,
    // so the chattiest groups stay in the fastest levels of the topology.
    std::array<Axis, kAxisCount> order { Axis::TP, Axis::CP, Axis::PP, Axis::DP };
    bool overlapGradReduce = true;  // DP reduce hidden behind backward (bucketed)
    bool overlapParamGather = true; // ZeRO all-gather hidden behind next forward
    bool tpCommOverlap = false;     // TP collectives pipelined with GEMMs (TE userbuffers)
    // ... in the backward pass too (TE's bulk dgrad/wgrad overlaps); PyTorch's async TP
    // micro-pipelines only the forward's all-gather + matmul and matmul + reduce-scatter.
    bool tpCommOverlapBackward = true;
    // Expert-parallel all-to-alls run under another micro-batch's compute: Megatron-Core's
    // --overlap-moe-expert-parallel-comm (one micro-batch's forward layer merged with
    // another's backward layer), DeepSeek-V3's DualPipe.
    bool epCommOverlap = false;
    // The dispatcher sends each token once to every node that hosts one of its experts
    // and forwards it over NVLink inside the node (DeepEP, Megatron-Core's HybridEP),
    // where the plain all-to-all sends one copy per chosen expert.
    bool epNodeDispatch = false;
    // Two-dimensional TP: weights split over a x b ranks (hidden and residual), so a
    // layer's traffic per GPU shrinks as 1/a + 1/b instead of staying ~constant.
    bool tp2d = false;

    int tpRows() const;    // a: the largest divisor of tp not above sqrt(tp)
    int tpColumns() const { return tp / tpRows(); } // b: splits the heads
    int headSplit() const { return tp2d ? tpColumns() : tp; } // ranks the heads are split over

    long long gpus() const { return static_cast<long long>(tp) * pp * dp * cp; }
    int etp() const { return expertTp > 0 ? expertTp : tp; } // the experts' TP degree
    // The ranks of a stage (TP x CP x DP) regrouped for the experts: how many replicas
    // of each expert shard (expert data parallelism); 0 when ep x etp does not divide them.
    long long expertDataParallel() const
    {
        const long long stage = static_cast<long long>(tp) * cp * dp, group = static_cast<long long>(ep) * etp();
        return group > 0 && stage % group == 0 ? stage / group : 0;
    }
    int degree(Axis a) const;
    // Rank distance between consecutive members of an axis' group under `order`.
    int stride(Axis a) const;
    bool operator==(const ParallelPlan&) const = default;
};

// Layers (of some kind) on the fullest pipeline stage: ceil(layers / pp). Stages may be
// uneven (Llama 3 drops a layer from each end), so this is the slowest stage's share.
inline int layersOnFullestStage(int layers, int pp)
{
    return static_cast<int>((static_cast<long long>(layers) + pp - 1) / (pp > 0 ? pp : 1));
}

// Transformer layers on each kind of pipeline stage. Without uneven stages all three
// are ceil(layers / pp), the fullest stage's share.
struct StageLayers {
    int first = 0, middle = 0, last = 0;
    int fullest() const { return first > middle ? (first > last ? first : last) : (middle > last ? middle : last); }
    int onStage(int stage, int pp) const { return stage == 0 ? first : (stage == pp - 1 ? last : middle); }
};
inline StageLayers stageLayers(int layers, const ParallelPlan& p)
{
    const int even = layersOnFullestStage(layers, p.pp);
    if (!p.unevenStages())
        return { even, even, even };
    const int first = p.firstStageLayers > 0 ? p.firstStageLayers : even;
    const int last = p.lastStageLayers > 0 ? p.lastStageLayers : even;
    if (p.pp == 2)
        return { first, 0, last };
    const int rest = layers - first - last;
    return { first, rest > 0 ? (rest + p.pp - 3) / (p.pp - 2) : 0, last };
}

std::string_view scheduleName(Schedule s);
std::optional<Schedule> scheduleFromName(std::string_view n);
std::string_view recomputeName(Recompute r);
std::optional<Recompute> recomputeFromName(std::string_view n);
std::string_view axisName(Axis a);
std::optional<Axis> axisFromName(std::string_view n);

} // namespace dtsim
