#pragma once
// The phases of one transformer step, in the order predictStep (step.cpp) runs them:
// what every phase reads (StepInputs); 1. layer costs: the slowest stage's compute for
// one micro-batch, recomputation included; 2. communication inside a micro-batch (TP,
// CP and EP collectives, ZeRO 3's per-layer gathers, pipeline hops); 3. the pipeline:
// micro-batches, bubble and the breakdown; 4. data-parallel synchronisation; 5. the
// optimizer step and the framework's overhead. Internal to the step model.
#include "memory.h"
#include "recompute_plan.h"
#include "step.h"
#include "step_comm.h"
#include "step_compression.h"

namespace dtsim::step_detail {

// What the phases share: the scenario, the GPU's rates, the micro-batch's shape, the
// slowest stage's layers and their times, and the recomputation plan.
struct StepInputs {
    const Scenario& s;
    const Calibration& c;
    bool idealized = false;
    Rates r {};
    CommEfficiency eff {};
    double eta = 1;  // overlap efficiency (calibration)
    int mb = 1;      // micro-batches a step
    int v = 1;       // model chunks a stage (interleaved 1F1B)
    Shape sh {};
    StageLayers stages {};
    int layersPerStage = 0, moePerStage = 0, densePerStage = 0; // the fullest stage's
    LayerTimes dense {}, moe {};
    double attnBack = 0; // flash backward FLOPs / forward FLOPs
    RecomputePlan recompute {};
    ParameterCounts counts {};
};
StepInputs stepInputs(const Scenario& s, const Calibration& c, const StepOptions& o);

// 1. Layer costs, per micro-batch on the slowest stage.
struct StageCompute {
    double forward = 0, backward = 0, recompute = 0;
    double logitsGemm = 0; // the output layer's GEMM, forward
    double embedForward = 0, embedBackward = 0, logitsForward = 0, logitsBackward = 0;
    double total() const { return forward + backward + recompute; }
};
StageCompute stageCompute(const StepInputs& in);
// The report's GPU kernel time by kind and the MoE layer's parts.
void reportKernels(const StepInputs& in, const StageCompute& sc, StepReport& out);

// The data-parallel group and what it synchronises (phases 2 and 4).
struct DataParallelGroup {
    int size = 1; // DP x CP: gradients reduce over both
    GroupSpan span;
    double gradBytes = 0, gatherBytes = 0; // per parameter
    StageParams params;                    // of the larger end stage
    bool perMicrobatchGather = false;      // ZeRO 3 without PP: gathers every micro-batch
    GradMatrices matrices;                 // the gradient as weight matrices (gradient compression)
    double heldGradBytes = 0;              // a gradient value's bytes on the GPU (gradBytes: on the wire)
};
DataParallelGroup dataParallelGroup(const StepInputs& in);

// 2. Communication within one micro-batch, seconds and bytes.
struct MicrobatchComm {
    CommOp tpLayer;       // one layer's TP collectives, forward
    double tpPasses = 2;  // forward, backward and reruns of them
    double tpTotal = 0, tpExposed = 0;
    RingComm cpLayer;
    double cpExposed = 0;
    CommOp epLayer;
    double ep = 0, epExposed = 0;
    double zero3Total = 0, zero3Exposed = 0, zero3Bytes = 0;
    double pp = 0, ppBytes = 0;
    double inLayerExposed() const { return tpExposed + cpExposed + epExposed + zero3Exposed; }
};
MicrobatchComm microbatchComm(const StepInputs& in, const StageCompute& sc, const DataParallelGroup& dp, StepReport& out);

// 3. The pipeline: fills out.pipeline, the breakdown's compute, in-layer communication
// and bubble, and the TP/CP/EP/PP reports. Returns the bubble in micro-batches.
double pipelinePhase(const StepInputs& in, const StageCompute& sc, const MicrobatchComm& mc, const DataParallelGroup& dp,
    StepReport& out);

// 4. Data-parallel gradient synchronisation (and ZeRO 3's per-micro-batch share).
void dataParallelSync(const StepInputs& in, const StageCompute& sc, const MicrobatchComm& mc, const DataParallelGroup& dp,
    StepReport& out);

// 5. The optimizer step, the framework's per-step overhead and overlap contention.
void optimizerAndOverhead(const StepInputs& in, const DataParallelGroup& dp, StepReport& out);

// Parameters whose optimizer states this GPU holds (its ZeRO shard of the larger end stage).
double optimizerShardParams(const StepInputs& in, const DataParallelGroup& dp);

// 5b. Offload (parallel.offload): the CPU optimizer step and the host copies compute
// cannot hide (offload.h).
void offloadPhase(const StepInputs& in, const StageCompute& sc, const DataParallelGroup& dp, StepReport& out);

// 4b. DiLoCo's outer all-reduce across workers, shared over its inner steps (with
// streaming, what the inner steps' compute cannot hide).
void outerSync(const StepInputs& in, const DataParallelGroup& dp, StepReport& out);

// 6. Waiting for the slowest rank: the step's compute stretched by cluster.jitter's
// expected maximum over the job's ranks (stragglers.h).
void stragglerWait(const StepInputs& in, StepReport& out);

// Epoch AI's idealized assumptions, applied over phases 3-5 (StepOptions::idealized).
void idealize(const StepInputs& in, const StageCompute& sc, const MicrobatchComm& mc, const DataParallelGroup& dp,
    double bubbleMb, StepReport& out);

} // namespace dtsim::step_detail
