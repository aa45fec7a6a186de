#pragma once
// How the work is split: the degrees of each kind of parallelism, the pipeline
// schedule, optimizer sharding, recomputation, and how groups map onto ranks.
#include <array>
#include <optional>
#include <string_view>

namespace dtsim {

enum class Schedule { GPipe, OneFOneB, Interleaved1F1B };
// Selective: Megatron's (core attention only). PerOp: torchtitan's per-op selective
// checkpointing, which saves matmul and attention outputs except every second aten.mm
// (and every FP8 _scaled_mm); backward reruns the elementwise ops and those unsaved
// matmuls it needs (step.cpp, layerTimes).
enum class Recompute { None, Selective, Full, PerOp };

// The four axes whose product is the GPU count. Expert parallelism (EP) is carved
// out of the data-parallel x context-parallel ranks, as in Megatron-Core.
enum class Axis { TP, CP, DP, PP };
inline constexpr int kAxisCount = 4;

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
    int zeroStage = 0;     // 0: replicated; 1: optimizer states; 2: + gradients; 3: + weights (FSDP)
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
};

// Layers (of some kind) on the fullest pipeline stage: ceil(layers / pp). Stages may be
// uneven (Llama 3 drops a layer from each end), so this is the slowest stage's share.
inline int layersOnFullestStage(int layers, int pp)
{
    return static_cast<int>((static_cast<long long>(layers) + pp - 1) / (pp > 0 ? pp : 1));
}

std::string_view scheduleName(Schedule s);
std::optional<Schedule> scheduleFromName(std::string_view n);
std::string_view recomputeName(Recompute r);
std::optional<Recompute> recomputeFromName(std::string_view n);
std::string_view axisName(Axis a);
std::optional<Axis> axisFromName(std::string_view n);

} // namespace dtsim
