#pragma once
// Consistency of a scenario's plan with its model, batch, cluster and hardware:
// divisibility rules and supported formats. `firstViolation` is allocation-free for
// the planner's inner loop; `checkPlan` adds the scenario field and a message for
// loaders and the GUI.
#include "scenario.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtsim {

enum class PlanRule {
    Ok,
    TpHeads,
    TpKvHeads,
    TpFfn,
    TpExpertFfn,
    PpLayers,
    UnevenStages,
    VirtualNeedsInterleaved,
    InterleavedNeedsPipeline,
    InterleavedLayers,
    GpuProduct,
    EpNeedsMoe,
    EpExperts,
    EpDataParallel,
    CpSequence,
    SpSequence,
    MicroBatchTooLarge,
    BatchDivisibility,
    InterleavedMicrobatches,
    DualPipeShape,
    ZeroStage,
    Precision,
    ScaleUpDomain,
    TableParallel, // a layer table split other than by data and channels
    TableTp,       // tp does not divide a channel-split layer
    TableZero,
    GradCompression, // a compression method no framework runs with this plan (grad_compression.h)
    Offload, // parallel.offload as no framework runs it, or without the host's figures
    Count
};
inline constexpr int kPlanRuleCount = static_cast<int>(PlanRule::Count);

std::string_view planRuleName(PlanRule r); // short id for reports: "tp-heads", ...

PlanRule firstViolation(const Scenario& s) noexcept;

struct PlanIssue {
    std::string field;  // dotted scenario path, e.g. "parallel.tp"
    std::string reason; // what is wrong and what would fix it
};

std::optional<PlanIssue> checkPlan(const Scenario& s);

// Micro-batches per pipeline per step (gradient accumulation), 0 if not integral.
int microbatchesPerStep(const Scenario& s) noexcept;

// The data-parallel degrees the global batch allows at the scenario's micro-batch (the
// divisors of global_batch / micro_batch), ascending, whose GPU count with the
// scenario's model split still fits cluster.gpus' range. At most 1,600 for any batch,
// so sweeps over them cost no more than that whatever the batch.
std::vector<int> dataParallelDegrees(const Scenario& s);

} // namespace dtsim
