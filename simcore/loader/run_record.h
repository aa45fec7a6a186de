#pragma once
// One measured training run from a published-runs file (schema: tests/validation/README.md),
// as plain values. Absent fields stay empty; interpreting the free-text fields is the job
// of run_to_scenario and reported_throughput.
#include <optional>
#include <string>

namespace dtsim {

struct RunRecord {
    std::string id;
    std::string quality;
    std::string framework;
    std::string model;
    int line = 0; // where the record starts in its file

    // architecture
    std::string architectureType; // dense / moe / layer_table
    std::string layerTable;       // architecture.table: a built-in layer table (layer_table rows)
    std::optional<int> layers, hidden, heads, kvHeads, headDim, ffnHidden, vocab, seqLen;
    std::optional<int> experts, topK, expertFfnHidden, sharedExperts, denseLayers;

    // hardware
    std::string accelerator, gpuClass, interconnect;
    std::optional<int> numGpus, gpusPerNode;
    std::optional<double> peakBf16Tflops, peakFp8Tflops;

    // parallelism
    std::optional<int> tp, pp, dp, cp, ep, virtualPipeline;
    std::optional<bool> sequenceParallel;
    std::string zeroOrFsdp, pipelineSchedule, virtualPipelineText;
    // parallelism.offload (this project's addition): where each state lived, as
    // parallel.offload names them ("cpu", "nvme"; empty: on the GPU).
    std::string offloadOptimizer, offloadGradients, offloadParameters, offloadActivations;

    // batch
    std::optional<double> microBatch, globalBatchSeqs, globalBatchTokens, gradAccumSteps;

    std::string activationRecompute, precision, flopsAccounting;
    std::string sourceRef, notes, parallelismNotes; // free text that may name settings
    std::string architectureNotes; // architecture.notes and architecture.moe.notes (shapes in prose)

    // result (numbers as reported) and derived values
    std::optional<double> tflopsPerGpu, mfu, hfu, pctOfPeak, stepTime, tokensPerS, tokensPerSPerGpu, samplesPerS;
    std::optional<double> derivedTokensPerSPerGpu, derivedStepTime;
    std::optional<double> derivedSamplesPerS; // whole run (MLPerf: epochs x dataset / time to train)
    std::optional<double> memoryGib; // result.memory_gib: peak memory per GPU the source states

    std::string sourcePrefix() const { return id.substr(0, id.find('-')); }
};

} // namespace dtsim
