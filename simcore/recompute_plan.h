#pragma once
// Recomputation (activation checkpointing) as one set of decisions per policy: what a
// layer keeps for its backward and what the backward reruns. The step's time, its
// hardware FLOPs (step.cpp, step_phases.cpp) and the memory model (memory.cpp) read only
// this, so a policy is its enum value (parallel.h) and one entry in recompute_plan.cpp
// (simcore/README.md, "How to add a recomputation policy"). Internal to the step model.
#include "model.h"
#include "scenario.h"
#include "step_layer.h"

#include <optional>

namespace dtsim::step_detail {

// Forward work the backward reruns, for one layer and one micro-batch.
struct LayerRerun {
    double gemm = 0, attention = 0, stream = 0; // GPU kernel time by kind (StepReport::kernels)
    double seconds = 0;                         // the stage's time for it (host issue included)
};

// Collectives rerun with a layer's forward, counted in that forward's own collectives.
struct CollectiveRerun {
    double tp = 0; // tensor-parallel collectives (four a layer, forward)
    double cp = 0; // ring-attention passes
    double ep = 0; // share of the dispatch and combine all-to-alls
};

struct RecomputePlan {
    Recompute policy = Recompute::None;
    // Share of the stage's layers that rerun: 1, but for Megatron's block method (full
    // recomputation of recompute_layers layers a stage).
    double layerShare = 1;
    int blockLayers = 0;          // that block's layers a stage (0: all)
    CollectiveRerun collectives;
    double moeParts = 0;          // forward passes of an MoE layer's parts rerun (StepReport::moeLayer)
    bool keepsEverything = false; // nothing rerun: autograd keeps what it saves (scores, KV cache)
    bool keepsAutocastCopies = true; // eager autocast keeps its 16-bit weight copies for backward
    bool rebuildsLayer = false;   // backward rebuilds one layer's full activations at a time

    // What the backward reruns of one layer (times from layerTimes).
    LayerRerun layerRerun(const Scenario& s, const LayerTimes& lt) const;
    // Rerun FLOPs per token over the whole model (hardware FLOPs = model FLOPs + these).
    double flopsPerToken(const Scenario& s, const ForwardFlops& ff) const;
    // Bytes a layer keeps for one micro-batch when the policy keeps less than the
    // layer's full activations; none when memory.cpp's full count applies.
    std::optional<double> keptActivationBytes(const Scenario& s, bool moeLayer) const;
    // Layers of a stage of `stageLayers` that keep their full activations anyway.
    int layersKeepingAll(int stageLayers) const;
};

// The scenario's policy (or `policy`) on a stage whose fullest has `layersPerStage` layers.
RecomputePlan recomputePlan(const Scenario& s, int layersPerStage);
RecomputePlan recomputePlan(const Scenario& s, Recompute policy, int layersPerStage);

} // namespace dtsim::step_detail
