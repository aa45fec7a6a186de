#include "report_table.h"
#include "simcore/grad_compression.h"

#include "simcore/units.h"

#include <cstdio>
#include <string>

namespace dtsim::cli {

namespace {

std::string pct(double f)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * f);
    return buf;
}

std::string num(double v, const char* fmt = "%.3g")
{
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

void row(std::string& out, const std::string& label, const std::string& value, const std::string& note = {})
{
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-30s %-16s %s\n", label.c_str(), value.c_str(), note.c_str());
    out += buf;
}

// A loss target: the tokens it takes at this batch and why (convergence.h).
void convergenceRows(std::string& out, const Scenario& s, const ConvergencePlan& cv)
{
    char loss[64];
    std::snprintf(loss, sizeof loss, "%.3f +- %.3f", cv.loss, cv.lossError);
    row(out, "target loss", loss, std::string(lossLawName(s.training.lossLaw)) + "'s fit error at this point");
    row(out, "tokens at a small batch", formatCount(cv.minimalTokens), "floor " + num(cv.floorLoss, "%.3f") + " with infinite data");
    row(out, "critical batch", formatCount(cv.criticalBatchTokens) + " tokens",
        "this batch: " + formatCount(cv.batchTokens) + ", +" + num(100 * cv.batchPenalty(), "%.1f") + "% tokens");
    if (s.plan.diloco.on())
        row(out, "DiLoCo's loss at equal tokens", "x" + num(cv.lossScale, "%.4f"),
            std::to_string(s.plan.diloco.workers) + " workers against data parallel (published fits at H = 30)");
}

// Offload (parallel.offload): what the host adds to the step, and what the copies move.
void offloadRows(std::string& out, const StepReport& st)
{
    const OffloadReport& o = st.offload;
    std::string note = pct(st.breakdown.offload / st.stepTime) + "  " + formatBytes(o.linkBytes) + " over the host link";
    if (o.nvmeBytes > 0)
        note += ", " + formatBytes(o.nvmeBytes) + " on NVMe";
    row(out, "offload: waiting for the host", formatSeconds(st.breakdown.offload), note);
    if (o.cpuOptimizer > 0)
        row(out, "  CPU optimizer step", formatSeconds(o.cpuOptimizer),
            "copies and swaps beside it " + formatSeconds(o.optimizerCopies) + " (the longer counts)");
    if (o.gradientCopies > 0)
        row(out, "  gradient copies", formatSeconds(o.gradientCopies), "under backward");
    if (o.parameterCopies > 0)
        row(out, "  parameter fetches", formatSeconds(o.parameterCopies), "prefetched under compute");
    if (o.activationCopies > 0)
        row(out, "  activation copies", formatSeconds(o.activationCopies), "out in forward, back in backward");
}

} // namespace

std::string reportToText(const Scenario& s, const Report& r)
{
    const StepReport& st = r.step;
    const ParallelPlan& p = s.plan;
    const ParameterCounts params = countParameters(s.model, s.training.seqLen);
    std::string out;
    out += s.name.empty() ? std::string("Scenario") : s.name;
    out += "\n  " + formatCount(params.total) + " parameters";
    if (s.model.isLayerTable())
        out += " (layer table " + s.model.table.ref + ")";
    if (s.model.isMoe())
        out += " (" + formatCount(params.active) + " active)";
    out += " on " + std::to_string(p.gpus()) + " x " + s.hardware.name + "\n";
    out += "  TP " + std::to_string(p.tp) + "  PP " + std::to_string(p.pp) + "  DP " + std::to_string(p.dp) + "  CP "
        + std::to_string(p.cp) + "  EP " + std::to_string(p.ep) + "  schedule " + std::string(scheduleName(p.schedule))
        + (p.virtualStages > 1 ? " (v=" + std::to_string(p.virtualStages) + ")" : std::string()) + "  ZeRO "
        + std::to_string(p.zeroStage) + "  recompute " + std::string(recomputeName(p.recompute))
        + (p.recompute == Recompute::Full && p.recomputeLayers > 0
                ? " (" + std::to_string(p.recomputeLayers) + " layers a stage)"
                : std::string())
        + (s.training.graphCapture ? "  captured graph" : "") + "\n";
    if (!s.calibration.empty())
        out += "  calibrated from " + s.calibration.file + " (compute x" + num(s.calibration.computeScale, "%.3f") + ", "
            + (s.calibration.kernels.fitted() ? "traced kernels: GEMM x" + num(s.calibration.kernels.gemmScale, "%.2f") + " attention x"
                      + num(s.calibration.kernels.attentionScale, "%.2f") + " memory x" + num(s.calibration.kernels.memoryScale, "%.2f") + ", "
                                              : std::string())
            + std::to_string(s.calibration.collectives.size()) + " measured collective(s))\n";
    out += "\n";

    out += "Step\n";
    row(out, "step time", formatSeconds(st.stepTime), std::to_string(st.microbatches) + " micro-batches");
    row(out, "MFU / HFU", pct(st.mfu) + " / " + pct(st.hfu));
    row(out, "achieved per GPU", num(st.tflopsPerGpu, "%.1f") + " TFLOP/s",
        "of " + formatFlops(st.peakFlopsPerGpu) + " peak");
    const std::string unit = std::string(" ") + unitOfWorkShort(s.model) + "/s";
    row(out, "throughput", formatCount(st.tokensPerSecond) + unit, formatCount(st.tokensPerSecond / p.gpus()) + unit + " per GPU");
    row(out, "pipeline bubble", pct(st.bubbleFraction), "(p-1)/(v m)");

    out += "\nWhere the step goes\n";
    const StepBreakdown& b = st.breakdown;
    auto part = [&](const std::string& name, double v) {
        if (v > 0)
            row(out, name, formatSeconds(v), pct(v / st.stepTime));
    };
    part("forward", b.forward);
    part("backward", b.backward);
    part("recompute", b.recompute);
    for (int i = 0; i < kCommGroupCount; ++i) {
        const CommReport& c = st.comm[i];
        if (c.totalSeconds <= 0)
            continue;
        std::string note = pct(b.exposedComm[i] / st.stepTime) + "  " + std::string(collectiveName(c.collective))
            + " " + std::string(algorithmName(c.algorithm)) + ", group " + std::to_string(c.groupSize) + ", "
            + pct(c.hiddenShare()) + " hidden";
        row(out, std::string(commGroupName(static_cast<CommGroup>(i))) + " communication (exposed)",
            formatSeconds(b.exposedComm[i]), note);
    }
    part("pipeline bubble", b.bubble);
    part("optimizer", b.optimizer);
    part("framework overhead", b.overhead);
    part("overlap contention", b.contention);
    part("waiting for input (host)", b.inputStall);
    part("waiting for the slowest rank", b.straggler);
    if (const GradCompression gc = s.training.gradCompression; gc != GradCompression::None)
        row(out, "gradient compression (GPU)", formatSeconds(b.compression),
            pct(b.compression / st.stepTime) + "  " + std::string(gradCompressionName(gc))
                + (gc == GradCompression::PowerSgd ? " rank " + std::to_string(s.training.gradCompressionRank) : std::string())
                + ": compress, decompress, error feedback");
    if (const CommReport& o = st.outerSync; o.totalSeconds > 0)
        row(out, "DiLoCo outer sync (exposed)", formatSeconds(b.outerSync),
            pct(b.outerSync / st.stepTime) + "  all-reduce across " + std::to_string(o.groupSize) + " workers every "
                + std::to_string(s.plan.diloco.innerSteps) + " steps, " + pct(o.hiddenShare()) + " hidden");
    if (s.plan.offload.any())
        offloadRows(out, st);
    if (const auto& ml = st.moeLayer; ml.total() > 0) {
        out += "\nOne MoE layer, one micro-batch (forward + backward; dispatch and combine hidden or not)\n";
        auto moePart = [&](const std::string& name, double v) {
            if (v > 0)
                row(out, name, formatSeconds(v), pct(v / ml.total()));
        };
        moePart("router", ml.router);
        moePart("permute + unpermute", ml.permute);
        moePart("dispatch (all-to-all)", ml.dispatch);
        moePart("experts", ml.experts);
        moePart("combine (all-to-all)", ml.combine);
        moePart("shared experts", ml.shared);
    }

    if (st.levelCount > 0) {
        out += "\nNetwork levels (traffic over the step, the most loaded marked)\n";
        for (int l = 0; l < st.levelCount; ++l) {
            const LevelLoad& load = st.levels[l];
            const std::string name = l == 0 ? "scale-up fabric" : l == 1 ? "NICs" : std::string(s.cluster.tiers[l - 2].label().empty() ? "tier" : s.cluster.tiers[l - 2].label()) + " uplinks";
            row(out, name, formatBytes(load.bytesPerStep), pct(load.utilization) + " busy" + (l == st.bottleneckLevel ? "  <- bottleneck" : ""));
        }
    }

    const MemoryReport& m = st.memory;
    out += "\nMemory per GPU (" + std::string(m.worstStage == 0 ? "first" : "last") + " pipeline stage)\n";
    row(out, "weights", formatMemory(m.weights));
    row(out, "gradients", formatMemory(m.gradients));
    row(out, "optimizer states", formatMemory(m.optimizer));
    row(out, "activations", formatMemory(m.activations), num(m.inflightMicrobatches, "%.3g") + " micro-batches in flight");
    if (m.logits > 0)
        row(out, "logits", formatMemory(m.logits));
    if (m.compression > 0)
        row(out, "compression error feedback", formatMemory(m.compression));
    row(out, "allocated (tensors)", formatMemory(m.allocated()), "as torch.cuda.max_memory_allocated counts");
    row(out, "reserved + fragmentation", formatMemory(m.reserved));
    row(out, "total", formatMemory(m.total),
        (m.total <= m.capacity ? "fits in " : "DOES NOT FIT in ") + formatMemory(m.capacity));
    if (m.hostBytes > 0)
        row(out, "offloaded to host memory", formatMemory(m.hostBytes),
            (m.hostBytes <= m.hostCapacity ? "fits in " : "DOES NOT FIT in ") + formatMemory(m.hostCapacity) + " per GPU");
    if (m.nvmeBytes > 0)
        row(out, "offloaded to NVMe", formatMemory(m.nvmeBytes),
            (m.nvmeBytes <= m.nvmeCapacity ? "fits in " : "DOES NOT FIT in ") + formatMemory(m.nvmeCapacity) + " per GPU");

    out += "\nRun\n";
    row(out, s.model.isLayerTable() ? "samples" : "tokens", formatCount(r.tokens(s)), formatCount(r.steps) + " steps");
    if (const ConvergencePlan& cv = r.convergence; cv.known && s.training.target == TrainingTarget::Loss)
        convergenceRows(out, s, cv);
    row(out, "time to train (predicted)", formatDuration(r.timeToTrain));
    row(out, "time to train (at 100% peak)", formatDuration(r.theoreticalMinTime));
    row(out, "GPU-hours", formatCount(r.gpuHours));
    row(out, "sync wall", std::to_string(r.syncWallGpus) + " GPUs",
        "fastest run at this global batch: " + formatDuration(r.syncWallTimeToTrain));
    return out;
}

} // namespace dtsim::cli
