#pragma once
// Memory per GPU: weights, gradients, optimizer states (sharded as the plan shards
// them), activations (by schedule, micro-batches in flight and recompute policy),
// logits, and reserved/allocator overhead. The worst pipeline stage is reported.
#include "calibration.h"
#include "plan_check.h"
#include "scenario.h"

#include <optional>
#include <string>

namespace dtsim {

struct MemoryReport {
    double weights = 0;
    double gradients = 0;
    double optimizer = 0;
    double activations = 0;
    double logits = 0;   // fp32 logits of one micro-batch on the last stage
    double compression = 0; // gradient compression's error-feedback buffers (training.grad_compression)
    double reserved = 0; // context, workspaces, allocator fragmentation
    double total = 0;
    double capacity = 0;
    // Offloaded state (parallel.offload) per GPU, and the host's share per GPU.
    double hostBytes = 0, nvmeBytes = 0;
    double hostCapacity = 0, nvmeCapacity = 0;
    bool hostFits() const { return hostBytes <= hostCapacity && nvmeBytes <= nvmeCapacity; }
    double inflightMicrobatches = 0; // on the first pipeline stage
    int worstStage = 0;              // 0 = first, pp-1 = last
    bool fits = false;
    // What torch.cuda.max_memory_allocated() reports: the tensors, without the CUDA context,
    // workspaces and the caching allocator's fragmentation (which `reserved` adds).
    double allocated() const { return total - reserved; }
};

// Activation bytes of one transformer layer for one micro-batch on one GPU, stored
// for backward (Korthikanti et al. 2022, generalized to GQA, gated MLPs, MoE, CP and
// no-dropout models). With `full` recompute only the layer input is kept.
double activationBytesPerLayer(const Scenario& s, bool moeLayer, Recompute policy);
inline double activationBytesPerLayer(const Scenario& s, bool moeLayer)
{
    return activationBytesPerLayer(s, moeLayer, s.plan.recompute);
}

// Parameters held by one GPU of pipeline stage `stage` (before ZeRO sharding), split
// into those replicated across expert-parallel ranks and the routed experts.
struct StageParams {
    double dense = 0;   // sharded by DP x CP under ZeRO
    double experts = 0; // sharded by the expert-data-parallel group under ZeRO
    double total() const { return dense + experts; }
};
StageParams stageParameters(const Scenario& s, int stage, const ParameterCounts& counts);
inline StageParams stageParameters(const Scenario& s, int stage)
{
    return stageParameters(s, stage, countParameters(s.model, s.training.seqLen));
}

MemoryReport memoryPerGpu(const Scenario& s, const Calibration& c);
// The same with the model's parameter counts already at hand (the step model has them;
// the planner evaluates millions of plans a second).
MemoryReport memoryPerGpu(const Scenario& s, const Calibration& c, const ParameterCounts& counts);

// Why a plan whose memory does not fit cannot run: the total against the capacity, its
// largest parts, and the field that most directly shrinks the largest. nullopt when it
// fits. A run, its price and its reliability are refused on it, never printed.
std::optional<PlanIssue> memoryIssue(const Scenario& s, const MemoryReport& m);
// "151 GiB per GPU does not fit in its 80 GiB (weights, ... 113 GiB, activations 33.1 GiB)"
std::string memoryShortfall(const MemoryReport& m);

} // namespace dtsim
