#include "report_json.h"
#include "simcore/grad_compression.h"

#include <QJsonArray>
#include <QString>

#include <cstdio>
#include <utility>

namespace dtsim::cli {

namespace {
QString str(std::string_view v) { return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size())); }
}

QString levelName(const ClusterSpec& c, int level)
{
    if (level == 0)
        return "scale-up";
    if (level == 1)
        return "nic";
    const NetworkTier& t = c.tiers[level - 2];
    return t.label().empty() ? QString("tier %1").arg(level - 2) : str(t.label());
}

QJsonObject reportToJson(const Scenario& s, const Report& r)
{
    const StepReport& st = r.step;
    const StepBreakdown& b = st.breakdown;
    const MemoryReport& m = st.memory;

    QJsonObject breakdown {
        { "forward", b.forward },
        { "backward", b.backward },
        { "recompute", b.recompute },
        { "bubble", b.bubble },
        { "optimizer", b.optimizer },
        { "overhead", b.overhead },
        { "contention", b.contention },
        { "input_stall", b.inputStall },
    };
    if (b.straggler > 0) // cluster.jitter; left out at 0, as every report before it was
        breakdown.insert("straggler", b.straggler);
    if (r.step.outerSync.totalSeconds > 0) // parallel.diloco, likewise
        breakdown.insert("outer_sync", b.outerSync);
    if (s.plan.offload.any()) // parallel.offload, likewise
        breakdown.insert("offload", b.offload);
    const bool compressed = s.training.gradCompression != GradCompression::None; // likewise
    if (compressed)
        breakdown.insert("grad_compression", b.compression);
    QJsonObject comm;
    for (int i = 0; i < kCommGroupCount; ++i) {
        const auto g = static_cast<CommGroup>(i);
        const CommReport& c = st.comm[i];
        breakdown.insert(str(commGroupName(g)) + "_comm", b.exposedComm[i]);
        comm.insert(str(commGroupName(g)), QJsonObject {
            { "total_s", c.totalSeconds },
            { "exposed_s", c.exposedSeconds },
            { "hidden_share", c.hiddenShare() },
            { "bytes_per_gpu", c.bytesPerGpu },
            { "collective", str(collectiveName(c.collective)) },
            { "algorithm", str(algorithmName(c.algorithm)) },
            { "group_size", c.groupSize },
            { "scale_up_domains", c.domains },
        });
    }
    const ParameterCounts params = countParameters(s.model, s.training.seqLen);
    const ParallelPlan& p = s.plan;
    QJsonArray levels;
    for (int l = 0; l < st.levelCount; ++l)
        levels.append(QJsonObject { { "level", levelName(s.cluster, l) }, { "bytes_per_step", st.levels[l].bytesPerStep },
            { "capacity_bytes_per_s", st.levels[l].capacity }, { "utilization", st.levels[l].utilization } });

    QJsonObject out {
        { "scenario", QString::fromStdString(s.name) },
        { "gpu", QString::fromStdString(s.hardware.id) },
        { "gpus", p.gpus() },
        { "parallel", QJsonObject { { "tp", p.tp }, { "pp", p.pp }, { "dp", p.dp }, { "cp", p.cp }, { "ep", p.ep },
                          { "schedule", str(scheduleName(p.schedule)) }, { "virtual_stages", p.virtualStages },
                          { "zero", p.zeroStage }, { "recompute", str(recomputeName(p.recompute)) },
                          { "recompute_layers", p.recomputeLayers },
                          { "sequence_parallel", p.sequenceParallel } } },
        { "parameters", params.total },
        { "active_parameters", params.active },
        { "step_time_s", st.stepTime },
        { "microbatches_per_step", st.microbatches },
        { "bubble_fraction", st.bubbleFraction },
        { "mfu", st.mfu },
        { "hfu", st.hfu },
        { "tflops_per_gpu", st.tflopsPerGpu },
        { "tokens_per_s", st.tokensPerSecond },
        { "tokens_per_s_per_gpu", st.tokensPerSecond / p.gpus() },
        { "unit_of_work", unitOfWork(s.model) }, // tokens_per_s counts samples for a layer table
        { "model_flops_per_step", st.modelFlopsPerStep },
        { "hardware_flops_per_step", st.hardwareFlopsPerStep },
        { "memory_per_gpu_bytes", m.total },
        { "memory_allocated_bytes", m.allocated() },
        { "memory_capacity_bytes", m.capacity },
        { "fits_in_memory", m.fits },
        { "memory", QJsonObject { { "weights", m.weights }, { "gradients", m.gradients }, { "optimizer", m.optimizer },
                        { "activations", m.activations }, { "logits", m.logits }, { "reserved", m.reserved },
                        { "inflight_microbatches", m.inflightMicrobatches }, { "worst_stage", m.worstStage } } },
        { "steps", r.steps },
        { "time_to_train_s", r.timeToTrain },
        { "theoretical_min_time_s", r.theoreticalMinTime },
        { "gpu_hours", r.gpuHours },
        { "sync_wall_gpus", r.syncWallGpus },
        { "sync_wall_time_to_train_s", r.syncWallTimeToTrain },
        { "breakdown", breakdown },
        { "communication", comm },
        { "network_levels", levels },
        { "bottleneck_level", st.bottleneckLevel >= 0 ? QJsonValue(levelName(s.cluster, st.bottleneckLevel)) : QJsonValue() },
    };
    if (s.model.isLayerTable()) {
        QJsonObject types;
        for (int t = 0; t < kLayerTypeCount; ++t)
            if (r.layerTypeForward[t] + r.layerTypeBackward[t] > 0)
                types.insert(layerTypeName(LayerType(t)), QJsonObject { { "forward_s", r.layerTypeForward[t] }, { "backward_s", r.layerTypeBackward[t] } });
        out.insert("layer_types", types);
    }
    // A loss target's tokens and loss (a token target's reports are as they always were).
    if (const ConvergencePlan& cv = r.convergence; cv.known && s.training.target == TrainingTarget::Loss)
        out.insert("convergence", QJsonObject { { "law", QString::fromStdString(std::string(lossLawName(s.training.lossLaw))) },
                                      { "target_loss", cv.loss }, { "fit_error", cv.lossError }, { "floor_loss", cv.floorLoss },
                                      { "tokens", cv.tokens }, { "minimal_tokens", cv.minimalTokens },
                                      { "critical_batch_tokens", cv.criticalBatchTokens }, { "batch_tokens", cv.batchTokens },
                                      { "loss_scale", cv.lossScale } });
    if (compressed) {
        QJsonObject gc { { "method", str(gradCompressionName(s.training.gradCompression)) }, { "compute_s", b.compression },
            { "dp_bytes_per_gpu", st.comm[static_cast<int>(CommGroup::DP)].bytesPerGpu }, { "error_feedback_bytes", m.compression } };
        if (s.training.gradCompression == GradCompression::PowerSgd)
            gc.insert("rank", s.training.gradCompressionRank);
        if (s.training.gradCompression == GradCompression::OneBit)
            gc.insert("warmup_share", s.training.gradCompressionWarmup);
        out.insert("grad_compression", gc);
    }
    if (st.outerSync.totalSeconds > 0)
        out.insert("outer_sync", QJsonObject { { "total_s", st.outerSync.totalSeconds }, { "exposed_s", st.outerSync.exposedSeconds },
                                     { "bytes_per_gpu", st.outerSync.bytesPerGpu }, { "workers", st.outerSync.groupSize } });
    if (s.plan.offload.any()) {
        const OffloadReport& o = st.offload;
        out.insert("offload", QJsonObject { { "exposed_s", o.exposed }, { "cpu_optimizer_s", o.cpuOptimizer },
                                  { "optimizer_copies_s", o.optimizerCopies }, { "gradient_copies_s", o.gradientCopies },
                                  { "parameter_copies_s", o.parameterCopies }, { "activation_copies_s", o.activationCopies },
                                  { "link_bytes", o.linkBytes }, { "nvme_bytes", o.nvmeBytes },
                                  { "host_memory_bytes", st.memory.hostBytes }, { "nvme_memory_bytes", st.memory.nvmeBytes } });
    }
    if (const auto& ml = st.moeLayer; ml.total() > 0)
        out.insert("moe_layer", QJsonObject { { "router_s", ml.router }, { "permute_s", ml.permute }, { "dispatch_s", ml.dispatch },
                                    { "experts_s", ml.experts }, { "combine_s", ml.combine }, { "shared_experts_s", ml.shared },
                                    { "total_s", ml.total() } });
    // Which measurements the figures rest on, when the scenario names an overlay.
    if (!s.calibration.empty()) {
        QJsonArray measured;
        for (const MeasuredCollective& m : s.calibration.collectives)
            measured.append(QJsonObject { { "tier", measuredTierName(m.tier) }, { "collective", str(m.collective) },
                { "ranks", m.ranks }, { "segments", int(m.segments.size()) }, { "source", str(m.source) } });
        QJsonObject calibration { { "file", str(s.calibration.file) }, { "path", str(s.calibration.path) },
            { "compute_scale", s.calibration.computeScale }, { "compute_source", str(s.calibration.computeSource) },
            { "collectives", measured } };
        if (const MeasuredKernels& k = s.calibration.kernels; k.fitted()) {
            QJsonObject kernels { { "gemm_scale", k.gemmScale }, { "attention_scale", k.attentionScale },
                { "memory_scale", k.memoryScale }, { "source", str(k.source) } };
            if (k.stepOverhead >= 0)
                kernels.insert("step_overhead_s", k.stepOverhead);
            calibration.insert("kernels", kernels);
        }
        out.insert("calibration", calibration);
    }
    return out;
}

} // namespace dtsim::cli

namespace dtsim::cli {

namespace {

constexpr std::pair<Headline, const char*> kBanded[] = { { Headline::StepTime, "step_time_s" }, { Headline::Mfu, "mfu" },
    { Headline::TokensPerSecond, "tokens_per_s" }, { Headline::TimeToTrain, "time_to_train_s" } };

} // namespace

QJsonObject bandsToJson(const Report& r, const ErrorBand& b)
{
    QJsonObject o { { "similar_runs", b.similar } };
    if (!b.ok()) {
        o["note"] = "no similar published run";
        return o;
    }
    o["similar"] = QString::fromStdString(b.similarity);
    o["coverage"] = kBandCoverage;
    for (const auto& [h, key] : kBanded) {
        const Interval i = bandOf(h, headlineValue(r, h), b);
        o[key] = QJsonArray { i.low, i.high };
    }
    return o;
}

std::string bandsToText(const Report& r, const ErrorBand& b)
{
    if (!b.ok())
        return "\nError band\n  no similar published run (fewer than " + std::to_string(kMinSimilarRuns) + " to compare with)\n";
    std::string out = "\nError band: where the measured value fell in 80% of " + std::to_string(b.similar) + " similar published runs ("
        + b.similarity + ")\n";
    for (const auto& [h, key] : kBanded) {
        const Interval i = bandOf(h, headlineValue(r, h), b);
        char line[160];
        std::snprintf(line, sizeof line, "  %-28s %s to %s\n", headlineInfo(h).label, formatHeadline(h, i.low).c_str(),
            formatHeadline(h, i.high).c_str());
        out += line;
    }
    return out;
}

} // namespace dtsim::cli
