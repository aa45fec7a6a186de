#include "explain.h"

#include "units.h"

#include <cstdio>

namespace dtsim {

namespace {

std::string num(double v, const char* fmt = "%.4g")
{
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

std::string pct(double v) { return num(100 * v, "%.1f") + "%"; }

} // namespace

std::vector<std::string> explainedFigures()
{
    return { "step", "mfu", "tflops", "tokens", "memory", "ttt", "min", "gpuh", "wall", "flops", "bubble" };
}

Explanation explainFigure(const std::string& key, const Scenario& s, const Report& r)
{
    const StepReport& st = r.step;
    const double gpus = double(s.plan.gpus());
    Explanation e;
    if (key == "step") {
        const StepBreakdown& b = st.breakdown;
        double comm = 0;
        for (double c : b.exposedComm)
            comm += c;
        e.title = "Step time";
        e.formula = "step = forward + backward + recompute + exposed communication + pipeline bubble + optimizer + framework overhead + overlap contention + waiting for input + waiting for the slowest rank";
        e.terms = { b.forward, b.backward, b.recompute, comm, b.bubble, b.optimizer, b.overhead, b.contention, b.inputStall, b.straggler };
        e.substituted = "= " + formatSeconds(b.forward) + " + " + formatSeconds(b.backward) + " + " + formatSeconds(b.recompute) + " + "
            + formatSeconds(comm) + " + " + formatSeconds(b.bubble) + " + " + formatSeconds(b.optimizer) + " + "
            + formatSeconds(b.overhead) + " + " + formatSeconds(b.contention) + " + " + formatSeconds(b.inputStall) + " + "
            + formatSeconds(b.straggler);
        // The terms that only some runs have, named only when they are there.
        for (const auto& [name, v] : { std::pair { " + DiLoCo's outer sync", b.outerSync }, std::pair { " + gradient compression", b.compression },
                 std::pair { " + waiting for the host (offload)", b.offload } })
            if (v > 0) {
                e.formula += name;
                e.terms.push_back(v);
                e.substituted += " + " + formatSeconds(v);
            }
        e.value = st.stepTime;
        e.result = "= " + formatSeconds(st.stepTime);
        e.note = "Compute of all " + std::to_string(st.microbatches) + " micro-batches on the slowest pipeline stage; communication counts only "
            "the part not hidden behind compute (the Breakdown tab splits it by parallelism).";
    } else if (key == "mfu") {
        e.title = "Model FLOPs utilization (MFU)";
        e.formula = "MFU = model FLOPs per step / (step time x GPUs x peak FLOP/s per GPU)";
        e.terms = { st.modelFlopsPerStep, st.stepTime, gpus, st.peakFlopsPerGpu };
        e.substituted = "= " + num(st.modelFlopsPerStep, "%.4e") + " FLOP / (" + formatSeconds(st.stepTime) + " x " + num(gpus, "%.0f")
            + " x " + formatFlops(st.peakFlopsPerGpu) + ")";
        e.value = st.mfu;
        e.result = "= " + pct(st.mfu);
        e.note = "Model FLOPs count the forward and backward passes once (no recomputation); HFU counts recomputation too: " + pct(st.hfu) + ".";
    } else if (key == "tflops") {
        e.title = "Achieved TFLOP/s per GPU";
        e.formula = "TFLOP/s per GPU = model FLOPs per step / (step time x GPUs)";
        e.terms = { st.modelFlopsPerStep, st.stepTime, gpus };
        e.substituted = "= " + num(st.modelFlopsPerStep, "%.4e") + " FLOP / (" + formatSeconds(st.stepTime) + " x " + num(gpus, "%.0f") + ")";
        e.value = st.tflopsPerGpu;
        e.result = "= " + num(st.tflopsPerGpu, "%.1f") + " TFLOP/s of " + formatFlops(st.peakFlopsPerGpu) + " peak";
    } else if (key == "tokens") {
        e.title = "Training throughput";
        e.formula = "tokens/s = global batch x sequence length / step time";
        e.terms = { double(s.training.globalBatch), double(s.training.seqLen), st.stepTime };
        e.substituted = "= " + std::to_string(s.training.globalBatch) + " x " + std::to_string(s.training.seqLen) + " / " + formatSeconds(st.stepTime);
        e.value = st.tokensPerSecond;
        e.result = "= " + formatCount(st.tokensPerSecond) + " tokens/s (" + formatCount(st.tokensPerSecond / gpus) + " per GPU)";
    } else if (key == "memory") {
        const MemoryReport& m = st.memory;
        e.title = "Memory per GPU";
        e.formula = "memory = weights + gradients + optimizer states + activations + logits + reserved";
        e.terms = { m.weights, m.gradients, m.optimizer, m.activations, m.logits, m.reserved };
        e.substituted = "= " + formatMemory(m.weights) + " + " + formatMemory(m.gradients) + " + " + formatMemory(m.optimizer) + " + "
            + formatMemory(m.activations) + " + " + formatMemory(m.logits) + " + " + formatMemory(m.reserved);
        e.value = m.total;
        e.result = "= " + formatMemory(m.total) + (m.fits ? " (fits in " : " (does not fit in ") + formatMemory(m.capacity) + ")";
        e.note = "On pipeline stage " + std::to_string(m.worstStage + 1) + ", the fullest, with " + num(m.inflightMicrobatches, "%.0f")
            + " micro-batches' activations in flight; ZeRO stage " + std::to_string(s.plan.zeroStage) + " shards the optimizer states"
            + (s.plan.zeroStage >= 2 ? ", gradients" : "") + (s.plan.zeroStage >= 3 ? " and weights" : "") + ".";
    } else if (key == "ttt") {
        e.title = "Time to train";
        e.formula = "time = steps x step time, steps = tokens / (global batch x sequence length)";
        e.terms = { r.steps, st.stepTime };
        e.substituted = "= " + formatCount(r.tokens(s)) + " / (" + std::to_string(s.training.globalBatch) + " x "
            + std::to_string(s.training.seqLen) + ") x " + formatSeconds(st.stepTime) + " = " + formatCount(r.steps) + " x "
            + formatSeconds(st.stepTime);
        e.value = r.timeToTrain;
        e.result = "= " + formatDuration(r.timeToTrain);
        e.note = "Failure-free: the Reliability tab adds failures, checkpoints and recovery.";
    } else if (key == "min") {
        e.title = "Time at 100% of peak";
        e.formula = "time at peak = steps x model FLOPs per step / (GPUs x peak FLOP/s per GPU)";
        e.terms = { r.steps, st.modelFlopsPerStep, gpus, st.peakFlopsPerGpu };
        e.substituted = "= " + formatCount(r.steps) + " x " + num(st.modelFlopsPerStep, "%.4e") + " FLOP / (" + num(gpus, "%.0f") + " x "
            + formatFlops(st.peakFlopsPerGpu) + ")";
        e.value = r.theoreticalMinTime;
        e.result = "= " + formatDuration(r.theoreticalMinTime);
        e.note = "The floor no software can beat on this hardware: the predicted time is this divided by the MFU.";
    } else if (key == "gpuh") {
        e.title = "GPU-hours";
        e.formula = "GPU-hours = time to train x GPUs / 3600 s";
        e.terms = { r.timeToTrain, gpus };
        e.substituted = "= " + num(r.timeToTrain, "%.6g") + " s x " + num(gpus, "%.0f") + " / 3600 s";
        e.value = r.gpuHours;
        e.result = "= " + formatCount(r.gpuHours) + " GPU-hours";
    } else if (key == "wall") {
        e.title = "Sync wall";
        e.formula = "the GPU count (changing only data parallelism, at this global batch) whose run is shortest";
        e.terms = { double(r.syncWallGpus), r.syncWallTimeToTrain };
        e.substituted = "= " + std::to_string(r.syncWallGpus) + " GPUs, training in " + formatDuration(r.syncWallTimeToTrain);
        e.value = double(r.syncWallGpus);
        e.result = "= " + std::to_string(r.syncWallGpus) + " GPUs";
        e.note = "Beyond it, each replica gets fewer micro-batches while the gradient synchronisation stays, so more GPUs train slower.";
    } else if (key == "flops") {
        e.title = "Model FLOPs per step";
        e.formula = "model FLOPs per step = FLOPs per token (forward + backward = 3 x forward) x tokens per step";
        e.terms = { st.modelFlopsPerStep / s.training.tokensPerStep(), s.training.tokensPerStep() };
        e.substituted = "= " + num(st.modelFlopsPerStep / s.training.tokensPerStep(), "%.4e") + " FLOP/token x " + formatCount(s.training.tokensPerStep());
        e.value = st.modelFlopsPerStep;
        e.result = "= " + num(st.modelFlopsPerStep, "%.4e") + " FLOP";
        e.note = "Forward: 2 FLOPs per parameter touched per token plus attention scores (docs/model.md).";
    } else if (key == "bubble" && s.plan.schedule == Schedule::DualPipe) {
        e.title = "Pipeline bubble (DualPipe)";
        e.formula = "bubble share = (pipeline stages / 2 - 1) x w / micro-batches, w = (forward + backward / 2) / (forward + backward)";
        e.terms = { double(s.plan.pp), st.pipeline.bubbleWeight, double(st.microbatches) };
        e.substituted = "= (" + std::to_string(s.plan.pp) + " / 2 - 1) x " + num(st.pipeline.bubbleWeight, "%.3f") + " / "
            + std::to_string(st.microbatches);
        e.value = st.bubbleFraction;
        e.result = "= " + pct(st.bubbleFraction) + " of the busy time, " + formatSeconds(st.breakdown.bubble) + " per step";
        e.note = "DeepSeek-V3 report, Table 2: (PP/2 - 1)(F&B + B - 3W), with F&B = F + B and W = B/2.";
    } else if (key == "bubble") {
        e.title = "Pipeline bubble";
        e.formula = "bubble share = (pipeline stages - 1) / (virtual stages x micro-batches)";
        e.terms = { double(s.plan.pp), double(std::max(1, s.plan.virtualStages)), double(st.microbatches) };
        e.substituted = "= (" + std::to_string(s.plan.pp) + " - 1) / (" + std::to_string(std::max(1, s.plan.virtualStages)) + " x "
            + std::to_string(st.microbatches) + ")";
        e.value = st.bubbleFraction;
        e.result = "= " + pct(st.bubbleFraction) + " of the busy time, " + formatSeconds(st.breakdown.bubble) + " per step";
    }
    return e;
}

} // namespace dtsim
