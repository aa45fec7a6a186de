#include "plan_check.h"

#include "divisors.h"
#include "grad_compression.h"

#include <algorithm>
#include <limits>
#include <string>

namespace dtsim {

namespace {

// Each model chunk of the interleaved schedule holds at least one layer. With uneven
// stages (Llama 3, Sec. 3.3.2: "the first model chunk on the first stage has only the
// embedding, and the last model chunk on the last stage has only output projection and
// loss calculation") the end stages' outer chunks may hold none.
bool interleavedChunksTooMany(const ModelSpec& m, const ParallelPlan& p)
{
    const long long v = p.virtualStages;
    if (p.firstStageLayers <= 0 && p.lastStageLayers <= 0)
        return static_cast<long long>(p.pp) * v > m.layers;
    const long long middle = p.pp > 2 ? (m.layers - p.firstStageLayers - p.lastStageLayers) / (p.pp - 2) : v;
    return middle < v || p.firstStageLayers < v - 1 || p.lastStageLayers < v - 1;
}

std::string num(long long v) { return std::to_string(v); }

// The first channel-split layer whose output channels (within each group the GPUs do
// not line up with) tp does not divide; null when every one splits.
const Layer* unevenChannelSplit(const LayerTable& t, int tp)
{
    if (tp <= 1)
        return nullptr;
    for (const Layer& l : t.layers) {
        const bool weighted = l.type == LayerType::Convolution || l.type == LayerType::Linear;
        if (!weighted || l.split != LayerSplit::Channels)
            continue;
        const long long groups = l.type == LayerType::Convolution ? l.groups : 1;
        if (groups % tp != 0 && (l.outChannels / groups) % tp != 0)
            return &l;
    }
    return nullptr;
}
} // namespace

int microbatchesPerStep(const Scenario& s) noexcept
{
    const long long perStep = static_cast<long long>(s.plan.dp) * s.training.microBatch;
    if (perStep <= 0 || s.training.globalBatch % perStep != 0)
        return 0;
    return static_cast<int>(s.training.globalBatch / perStep);
}

std::vector<int> dataParallelDegrees(const Scenario& s)
{
    std::vector<int> degrees;
    const int micro = s.training.microBatch, batch = s.training.globalBatch;
    if (micro <= 0 || batch <= 0 || batch % micro != 0)
        return degrees;
    const long long n = batch / micro;
    const long long split = static_cast<long long>(s.plan.tp) * s.plan.pp * s.plan.cp;
    const long long maxDp = std::numeric_limits<int>::max() / std::max(1LL, split);
    for (long long d : divisorsOf(n))
        if (d <= maxDp)
            degrees.push_back(static_cast<int>(d));
    return degrees;
}

// Offload as the frameworks run it (offload.h), on a host whose figures are known: the
// field to change and why, or nullopt. No allocation: the plan search calls it.
struct OffloadProblem {
    const char* field;
    const char* why;
    bool namesGpu = false; // append the GPU's id: the catalogue lacks its host
};

std::optional<OffloadProblem> offloadProblem(const Scenario& s) noexcept
{
    const OffloadSpec& o = s.plan.offload;
    const HardwareSpec& h = s.hardware;
    if (s.model.isLayerTable())
        return OffloadProblem { "parallel.offload", "offload is modelled for transformers only" };
    if (o.optimizer != OffloadTarget::None && s.plan.zeroStage < 1)
        return OffloadProblem { "parallel.zero", "offloading the optimizer needs its states partitioned (zero >= 1), as ZeRO-Offload "
                                                 "and Megatron's distributed optimizer do" };
    if (o.gradients != OffloadTarget::None && o.optimizer == OffloadTarget::None)
        return OffloadProblem { "parallel.offload.gradients", "gradients go to the host for the CPU's optimizer step: offload the optimizer too" };
    if (o.parameters != OffloadTarget::None && (s.plan.zeroStage < 3 || s.plan.pp > 1))
        return OffloadProblem { "parallel.offload.parameters", "parameter offload fetches ZeRO-3's shard before each gather: it needs "
                                                               "zero: 3 without pipeline parallelism (ZeRO-Infinity)" };
    if (h.hostLinkBandwidth <= 0)
        return OffloadProblem { "hardware.host_link_bandwidth", "the catalogue has no host link figure for ", true };
    if (h.hostMemoryBytes <= 0)
        return OffloadProblem { "hardware.host_memory", "the catalogue has no host memory figure for ", true };
    if (h.hostMemoryBandwidth <= 0)
        return OffloadProblem { "hardware.host_memory_bandwidth", "the catalogue has no host memory bandwidth for ", true };
    const bool nvme = o.optimizer == OffloadTarget::Nvme || o.parameters == OffloadTarget::Nvme;
    if (nvme && h.nvmeBytes <= 0)
        return OffloadProblem { "hardware.nvme_capacity", "the catalogue has no NVMe capacity for ", true };
    if (nvme && h.nvmeBandwidth <= 0)
        return OffloadProblem { "hardware.nvme_bandwidth", "the catalogue has no NVMe bandwidth for ", true };
    return std::nullopt;
}

std::string_view planRuleName(PlanRule r)
{
    switch (r) {
    case PlanRule::Ok: return "ok";
    case PlanRule::TpHeads: return "tp-heads";
    case PlanRule::TpKvHeads: return "tp-kv-heads";
    case PlanRule::TpFfn: return "tp-ffn";
    case PlanRule::TpExpertFfn: return "tp-expert-ffn";
    case PlanRule::PpLayers: return "pp-layers";
    case PlanRule::UnevenStages: return "uneven-stages";
    case PlanRule::VirtualNeedsInterleaved: return "virtual-needs-interleaved";
    case PlanRule::InterleavedNeedsPipeline: return "interleaved-needs-pp";
    case PlanRule::InterleavedLayers: return "interleaved-layers";
    case PlanRule::GpuProduct: return "gpu-product";
    case PlanRule::EpNeedsMoe: return "ep-needs-moe";
    case PlanRule::EpExperts: return "ep-experts";
    case PlanRule::EpDataParallel: return "ep-data-parallel";
    case PlanRule::CpSequence: return "cp-sequence";
    case PlanRule::SpSequence: return "sp-sequence";
    case PlanRule::MicroBatchTooLarge: return "micro-batch-too-large";
    case PlanRule::BatchDivisibility: return "batch-divisibility";
    case PlanRule::InterleavedMicrobatches: return "interleaved-microbatches";
    case PlanRule::DualPipeShape: return "dualpipe-shape";
    case PlanRule::ZeroStage: return "zero-stage";
    case PlanRule::Precision: return "precision";
    case PlanRule::ScaleUpDomain: return "scale-up-domain";
    case PlanRule::TableParallel: return "table-parallel";
    case PlanRule::TableTp: return "table-tp";
    case PlanRule::TableZero: return "table-zero";
    case PlanRule::GradCompression: return "grad-compression";
    case PlanRule::Offload: return "offload";
    case PlanRule::Count: break;
    }
    return "?";
}

PlanRule firstViolation(const Scenario& s) noexcept
{
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    const TrainingSpec& t = s.training;
    if (m.isLayerTable()) {
        // Data parallelism, and AlexNet's channel columns over tp; nothing else yet.
        if (p.pp > 1 || p.cp > 1 || p.ep > 1 || p.sequenceParallel || p.virtualStages > 1 || p.schedule != Schedule::OneFOneB)
            return PlanRule::TableParallel;
        if (m.table.resolved && unevenChannelSplit(m.table.resolved->table, p.tp))
            return PlanRule::TableTp;
        if (p.zeroStage > 2)
            return PlanRule::TableZero;
    } else {
    // Heads split over all TP ranks, or over the b columns of two-dimensional TP.
    const int headSplit = p.headSplit();
    if (m.heads % headSplit != 0)
        return PlanRule::TpHeads;
    // Key/value heads are split across TP ranks, or replicated when tp is a multiple.
    if (m.kvHeads % headSplit != 0 && headSplit % m.kvHeads != 0)
        return PlanRule::TpKvHeads;
    if (m.ffnHidden % p.tp != 0)
        return PlanRule::TpFfn;
    if (m.isMoe() && m.moe.expertFfnHidden % p.etp() != 0)
        return PlanRule::TpExpertFfn;
    // Uneven stages are allowed (Llama 3 drops a layer from each end stage); the
    // slowest stage holds ceil(layers / pp) layers.
    if (p.pp > m.layers)
        return PlanRule::PpLayers;
    if (p.firstStageLayers > 0 || p.lastStageLayers > 0) {
        // Every stage keeps at least one layer and the middle stages split the rest evenly.
        const long long ends = static_cast<long long>(p.firstStageLayers) + p.lastStageLayers;
        const long long rest = m.layers - ends;
        if (p.pp < 2 || p.firstStageLayers < 1 || p.lastStageLayers < 1)
            return PlanRule::UnevenStages;
        if (p.pp == 2 ? rest != 0 : (rest < p.pp - 2 || rest % (p.pp - 2) != 0))
            return PlanRule::UnevenStages;
    }
    if (p.virtualStages > 1 && p.schedule != Schedule::Interleaved1F1B)
        return PlanRule::VirtualNeedsInterleaved;
    if (p.schedule == Schedule::Interleaved1F1B) {
        if (p.pp < 2)
            return PlanRule::InterleavedNeedsPipeline;
        if (interleavedChunksTooMany(m, p))
            return PlanRule::InterleavedLayers;
    }
    } // transformer rules
    // After the per-degree rules, so the message names the degree that is wrong.
    if (p.gpus() != s.cluster.gpus)
        return PlanRule::GpuProduct;
    if (p.ep > 1 && !m.isMoe())
        return PlanRule::EpNeedsMoe;
    if (m.isMoe() && m.moe.experts % p.ep != 0)
        return PlanRule::EpExperts;
    if (p.expertDataParallel() == 0)
        return PlanRule::EpDataParallel;
    if (t.seqLen % p.cp != 0)
        return PlanRule::CpSequence;
    if (p.sequenceParallel && t.seqLen / p.cp % p.tp != 0)
        return PlanRule::SpSequence;
    if (t.microBatch > t.globalBatch)
        return PlanRule::MicroBatchTooLarge;
    const int micro = microbatchesPerStep(s);
    if (micro == 0)
        return PlanRule::BatchDivisibility;
    if (p.schedule == Schedule::Interleaved1F1B && micro % p.pp != 0)
        return PlanRule::InterleavedMicrobatches;
    // DualPipe feeds micro-batches from both ends in pairs (deepseek-ai/DualPipe).
    if (p.schedule == Schedule::DualPipe && (p.pp < 2 || p.pp % 2 != 0 || micro % 2 != 0))
        return PlanRule::DualPipeShape;
    if (p.zeroStage < 0 || p.zeroStage > 3)
        return PlanRule::ZeroStage;
    if (!s.hardware.supports(t.precision))
        return PlanRule::Precision;
    if (isScaledLowPrecision(t.precision) && recipePrecision(t.scaling) != t.precision)
        return PlanRule::Precision;
    // Block-scaled formats need tensor cores that apply the block scales (Blackwell's
    // tcgen05); the catalogue marks such parts by their FP4 peak.
    if (isScaledLowPrecision(t.precision) && (t.scaling == ScalingRecipe::Mxfp8 || t.scaling == ScalingRecipe::Nvfp4)
        && !s.hardware.supports(Precision::FP4))
        return PlanRule::Precision;
    if (s.cluster.gpusPerNode > s.cluster.scaleUpDomain && s.cluster.scaleUpDomain > 0
        && s.cluster.gpusPerNode % s.cluster.scaleUpDomain != 0)
        return PlanRule::ScaleUpDomain;
    if (gradCompressionRefused(s))
        return PlanRule::GradCompression;
    if (s.plan.offload.any() && offloadProblem(s))
        return PlanRule::Offload;
    return PlanRule::Ok;
}

std::optional<PlanIssue> checkPlan(const Scenario& s)
{
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    const TrainingSpec& t = s.training;
    switch (firstViolation(s)) {
    case PlanRule::Ok:
    case PlanRule::Count: return std::nullopt;
    case PlanRule::TpHeads:
        return PlanIssue { "parallel.tp", "tp = " + num(p.tp) + " does not divide the " + num(m.heads) + " attention heads" };
    case PlanRule::TpKvHeads:
        return PlanIssue { "parallel.tp",
            "tp = " + num(p.tp) + " neither divides nor is a multiple of the " + num(m.kvHeads) + " key/value heads" };
    case PlanRule::TpFfn:
        return PlanIssue { "parallel.tp", "tp = " + num(p.tp) + " does not divide ffn_hidden = " + num(m.ffnHidden) };
    case PlanRule::TpExpertFfn:
        return PlanIssue { p.expertTp > 0 ? "parallel.expert_tp" : "parallel.tp",
            (p.expertTp > 0 ? "expert_tp = " : "tp = ") + num(p.etp()) + " does not divide expert_ffn_hidden = "
                + num(m.moe.expertFfnHidden) };
    case PlanRule::PpLayers:
        return PlanIssue { "parallel.pp", "pp = " + num(p.pp) + " is more than the " + num(m.layers) + " layers" };
    case PlanRule::UnevenStages: {
        const std::string field = p.firstStageLayers < 1 ? "parallel.first_stage_layers" : "parallel.last_stage_layers";
        if (p.pp < 2)
            return PlanIssue { field, "uneven stages need pp >= 2" };
        if (p.firstStageLayers < 1 || p.lastStageLayers < 1)
            return PlanIssue { field, "set both first_stage_layers and last_stage_layers (>= 1), or neither" };
        const int rest = m.layers - p.firstStageLayers - p.lastStageLayers;
        if (p.pp == 2)
            return PlanIssue { field, "with pp = 2, first_stage_layers + last_stage_layers must equal the " + num(m.layers) + " layers" };
        return PlanIssue { field, "the " + num(rest) + " layers left for the " + num(p.pp - 2)
                + " middle stages must split evenly, at least one each" };
    }
    case PlanRule::VirtualNeedsInterleaved:
        return PlanIssue { "parallel.virtual_stages", "virtual stages > 1 need schedule: interleaved" };
    case PlanRule::InterleavedNeedsPipeline:
        return PlanIssue { "parallel.schedule", "the interleaved schedule needs pp >= 2" };
    case PlanRule::InterleavedLayers:
        if (p.firstStageLayers > 0)
            return PlanIssue { "parallel.virtual_stages", "virtual_stages = " + num(p.virtualStages)
                    + " needs a layer in every model chunk: at least that many layers on each middle stage and one fewer on the "
                      "first and last (whose end chunks hold the embedding and the output layer)" };
        return PlanIssue { "parallel.virtual_stages",
            "pp*virtual_stages = " + num(static_cast<long long>(p.pp) * p.virtualStages) + " is more than the " + num(m.layers) + " layers" };
    case PlanRule::GpuProduct:
        return PlanIssue { "parallel",
            "dp*tp*pp*cp = " + num(p.dp) + "*" + num(p.tp) + "*" + num(p.pp) + "*" + num(p.cp) + " = " + num(p.gpus())
                + " but cluster.gpus = " + num(s.cluster.gpus) };
    case PlanRule::EpNeedsMoe:
        return PlanIssue { "parallel.ep", "ep = " + num(p.ep) + " needs a mixture-of-experts model" };
    case PlanRule::EpExperts:
        return PlanIssue { "parallel.ep", "ep = " + num(p.ep) + " does not divide the " + num(m.moe.experts) + " experts" };
    case PlanRule::EpDataParallel:
        return PlanIssue { "parallel.ep",
            "ep x expert_tp = " + num(p.ep) + " x " + num(p.etp()) + " must divide tp*cp*dp = "
                + num(static_cast<long long>(p.tp) * p.cp * p.dp)
                + " (the expert layers regroup a stage's ranks; with expert_tp = tp, ep must divide dp*cp)" };
    case PlanRule::CpSequence:
        return PlanIssue { "parallel.cp", "cp = " + num(p.cp) + " does not divide seq_len = " + num(t.seqLen) };
    case PlanRule::SpSequence:
        return PlanIssue { "parallel.sequence_parallel",
            "sequence parallelism needs tp = " + num(p.tp) + " to divide the local sequence " + num(t.seqLen / p.cp) };
    case PlanRule::MicroBatchTooLarge:
        return PlanIssue { "training.micro_batch", "micro_batch is larger than global_batch" };
    case PlanRule::BatchDivisibility:
        return PlanIssue { "training.global_batch",
            "global_batch = " + num(t.globalBatch) + " is not a multiple of dp*micro_batch = "
                + num(static_cast<long long>(p.dp) * t.microBatch) };
    case PlanRule::InterleavedMicrobatches:
        return PlanIssue { "training.global_batch",
            "the interleaved schedule needs micro-batches per step (" + num(microbatchesPerStep(s))
                + ") to be a multiple of pp = " + num(p.pp) };
    case PlanRule::DualPipeShape:
        if (p.pp < 2 || p.pp % 2 != 0)
            return PlanIssue { "parallel.pp", "DualPipe needs an even pp >= 2 (pp = " + num(p.pp) + ")" };
        return PlanIssue { "training.global_batch",
            "DualPipe feeds micro-batches in pairs: micro-batches per step (" + num(microbatchesPerStep(s)) + ") must be even" };
    case PlanRule::ZeroStage:
        return PlanIssue { "parallel.zero", "ZeRO stage must be 0, 1, 2 or 3" };
    case PlanRule::Precision:
        if (!s.hardware.supports(t.precision))
            return PlanIssue { "training.precision",
                s.hardware.id + " has no " + std::string(precisionName(t.precision)) + " peak in the catalogue" };
        if (recipePrecision(t.scaling) != t.precision)
            return PlanIssue { "training.scaling", std::string(scalingRecipeName(t.scaling)) + " computes in "
                    + std::string(precisionName(recipePrecision(t.scaling))) + ", not "
                    + std::string(precisionName(t.precision)) + ": choose "
                    + (t.precision == Precision::FP4 ? "nvfp4" : "tensorwise, rowwise, blockwise or mxfp8") };
        return PlanIssue { "training.scaling", std::string(scalingRecipeName(t.scaling)) + " needs block-scaled tensor cores (Blackwell); "
                + s.hardware.id + " has none: choose tensorwise, rowwise or blockwise" };
    case PlanRule::ScaleUpDomain:
        return PlanIssue { "cluster.scale_up_domain", "scale_up_domain must divide gpus_per_node or be a multiple of it" };
    case PlanRule::Offload: {
        const OffloadProblem o = *offloadProblem(s);
        return PlanIssue { o.field, o.namesGpu ? std::string(o.why) + s.hardware.id + ": set " + o.field : std::string(o.why) };
    }
    case PlanRule::TableParallel: {
        const std::string field = p.pp > 1 ? "parallel.pp" : p.cp > 1 ? "parallel.cp" : p.ep > 1 ? "parallel.ep"
            : p.sequenceParallel ? "parallel.sequence_parallel" : p.virtualStages > 1 ? "parallel.virtual_stages" : "parallel.schedule";
        return PlanIssue { field, "a layer table (model.table) runs data parallel, with its `split: channels` layers over tp; "
                                  "pipeline, context, expert and sequence parallelism are not modelled for it" };
    }
    case PlanRule::TableTp: {
        const Layer* l = unevenChannelSplit(m.table.resolved->table, p.tp);
        return PlanIssue { "parallel.tp", "tp = " + num(p.tp) + " does not split layer " + l->name + "'s " + num(l->outChannels)
                + " output channels evenly" };
    }
    case PlanRule::GradCompression: {
        const auto issue = gradCompressionIssue(s);
        return PlanIssue { issue ? issue->field : "training.grad_compression", issue ? issue->reason : "not supported" };
    }
    case PlanRule::TableZero:
        return PlanIssue { "parallel.zero", "a layer table shards optimizer states and gradients (ZeRO 1, 2); ZeRO 3 is not modelled for it" };
    }
    return std::nullopt;
}

} // namespace dtsim
