#include "run_to_scenario.h"

#include "../scenario_limits.h"
#include "../scenario_rules.h"
#include "reported_throughput.h"

#include "../loader/hardware_loader.h"
#include "../memory.h"
#include "../plan_check.h"
#include "../units.h"
#include "framework_facts.h"
#include "framework_stack.h"
#include "text_match.h"

#include <algorithm>
#include <cmath>
#include <regex>

namespace dtsim {

using text::has;
using text::lower;

namespace {

// GPT-2 BPE (50,257) padded to a multiple of 128 x 8 as Megatron pads it: the vocabulary
// of the GPT-3-style runs that leave it unstated.
constexpr int kDefaultVocab = 51200;

Precision precisionOf(const std::string& text, const HardwareSpec& hw)
{
    const std::string p = lower(text);
    Precision out = Precision::BF16;
    if (has(p, "nvfp4") || has(p, "fp4"))
        out = Precision::FP4;
    else if (has(p, "fp8"))
        out = Precision::FP8;
    else if (has(p, "bf16"))
        out = Precision::BF16;
    else if (has(p, "fp16"))
        out = Precision::FP16;
    else if (has(p, "tf32"))
        out = Precision::TF32;
    else if (has(p, "fp32"))
        out = Precision::FP32;
    if (!hw.supports(out) && out == Precision::BF16 && hw.supports(Precision::FP16))
        out = Precision::FP16;
    return out;
}

// The scaling recipe a row's precision names. The first-named recipe wins: Megatron-Bridge
// writes "FP8-CS (FP8-MX in parentheses)" for current scaling with MXFP8 figures beside.
ScalingRecipe scalingOf(const std::string& text)
{
    const std::string p = lower(text);
    if (has(p, "nvfp4") || has(p, "fp4"))
        return ScalingRecipe::Nvfp4;
    if (has(p, "fp8-cs") || has(p, "current scaling") || has(p, "tensorwise") || has(p, "delayed"))
        return ScalingRecipe::Tensorwise;
    if (has(p, "rowwise"))
        return ScalingRecipe::Rowwise;
    if (has(p, "blockwise") || has(p, "1x128") || has(p, "128x128"))
        return ScalingRecipe::Blockwise;
    if (has(p, "fp8-mx") || has(p, "mxfp8"))
        return ScalingRecipe::Mxfp8;
    return ScalingRecipe::Tensorwise;
}

// "Checkpoint every n-th block" with n not given: how many blocks is left to memory.
bool blockCountUnstated(const std::string& text)
{
    return has(lower(text), "every n-th");
}

// The fewest layers of each stage to recompute fully for the plan to fit (all when none
// fits); the plan's recompute must already be Full.
void leastBlocksThatFit(Scenario& s, const Calibration& calibration, int from)
{
    const int fullest = stageLayers(s.model.layers, s.plan).fullest();
    for (int k = from; k < fullest; ++k) {
        s.plan.recomputeLayers = k;
        if (memoryPerGpu(s, calibration).fits)
            return;
    }
    s.plan.recomputeLayers = 0;
}

// When a source reports both MFU and HFU (hardware FLOPs counted as executed, the
// recomputed forward included), HFU/MFU = (3 + f)/3 for a fraction f of the blocks
// recomputed: the run's own statement of how many blocks reran. 0 when not reported.
int blocksImpliedByHfu(const RunRecord& r, const Scenario& s)
{
    if (!r.mfu || !r.hfu || *r.mfu <= 0 || *r.hfu < *r.mfu)
        return 0;
    const int fullest = stageLayers(s.model.layers, s.plan).fullest();
    const double fraction = std::min(1.0, 3.0 * (*r.hfu / *r.mfu - 1.0));
    return std::clamp(int(std::lround(fraction * fullest)), 1, fullest);
}

bool recomputeUnstated(const std::string& text)
{
    const std::string r = lower(text);
    return r.empty() || r == "null" || has(r, "not stated") || has(r, "unstated");
}

Recompute recomputeOf(const std::string& text)
{
    const std::string r = lower(text);
    if (r.empty() || r == "none" || r == "null" || has(r, "no recompute"))
        return Recompute::None;
    // torchtitan's per-op selective checkpointing ("op SAC", "per-op SAC", "op-level").
    if (has(r, "op sac") || has(r, "per-op") || has(r, "op-level"))
        return Recompute::PerOp;
    if (has(r, "every n-th"))
        return Recompute::Full; // some blocks fully (fms-fsdp's selective checkpointing): see blockCountUnstated
    if (has(r, "selective") || has(r, "sac") || has(r, "qkv_proj"))
        return Recompute::Selective;
    if (has(r, "full"))
        return Recompute::Full;
    return Recompute::None;
}

int zeroStageOf(const std::string& text)
{
    const std::string z = lower(text);
    if (z.empty() || z == "none" || z == "null")
        return 0;
    if (has(z, "shard_grad_op") || has(z, "zero-2") || has(z, "zero_stage=2"))
        return 2;
    if (has(z, "fsdp=0") || has(z, "(fsdp=0)"))
        return 1; // "distributed optimizer / DDP (FSDP=0)"
    if (has(z, "fsdp") || has(z, "fully sharded") || has(z, "full_shard") || has(z, "zero-3") || has(z, "full shard"))
        return 3;
    if (has(z, "zero-1") || has(z, "zero_stage=1") || has(z, "distributed optimizer") || has(z, "sharded"))
        return 1;
    return 0;
}

} // namespace

// True when reported TFLOP/s per GPU over reported tokens/s per GPU is nearer 4 than 3
// forward passes per token (full attention, logits once per pass as Eq. 3 counts them).
bool impliesRecomputation(const RunRecord& r, const Scenario& s)
{
    if (!r.tflopsPerGpu || *r.tflopsPerGpu <= 0)
        return false;
    const std::optional<MeasuredTokens> measured = measuredTokensPerGpu(r, s);
    if (!measured || measured->tokensPerSecondPerGpu <= 0)
        return false;
    const double implied = *r.tflopsPerGpu * 1e12 / measured->tokensPerSecondPerGpu;
    const SourceForwardFlops f = sourceForwardFlopsPerToken(s);
    const double forward = f.layers + f.logits;
    return implied > 3.5 * forward;
}

Precision runPrecision(const std::string& text, const HardwareSpec& hw) { return precisionOf(text, hw); }

namespace {

// A stated memory size or power limit that differs from the catalogue part.
void applyStatedMemoryAndPower(HardwareSpec& out, const RunRecord& r, const HardwareSpec& catalogued)
{
    // A size, not a bandwidth ("NVLink 160 GB/s").
    static const std::regex gb(R"((\d+) ?gb(?!\s*/\s*s|ps|it))");
    static const std::regex watts(R"((\d+) ?w power limit)");
    std::smatch m;
    const std::string acc = lower(r.accelerator);
    if (std::regex_search(acc, m, gb)) {
        const double stated = std::stod(m[1]) * units::GiB;
        if (std::fabs(stated / catalogued.memoryBytes - 1) > 0.05)
            out.memoryBytes = stated;
    }
    if (std::regex_search(acc, m, watts))
        out.powerLimitWatts = std::stod(m[1]);
}

// The mixture-of-experts shape the row states, with the routing limits its notes name.
void moeFromRun(ModelSpec& m, const RunRecord& r)
{
    m.moe.experts = *r.experts;
    m.moe.topK = r.topK.value_or(1);
    m.moe.expertFfnHidden = r.expertFfnHidden.value_or(m.ffnHidden);
    m.moe.sharedExperts = r.sharedExperts.value_or(0);
    m.moe.firstDenseLayers = r.denseLayers.value_or(0);
    // "node-limited routing (<=4 nodes per token)", in the architecture notes.
    static const std::regex nodeLimit(R"((?:<=|at most|up to|max(?:imum)?)\s*(\d+)\s*nodes)");
    std::smatch nl;
    const std::string an = lower(r.architectureNotes);
    if (has(an, "node-limited") && std::regex_search(an, nl, nodeLimit))
        m.moe.maxNodesPerToken = std::stoi(nl[1]);
    // DeepSeek-V3's router is group-limited whatever the notes say: 8 groups of 32
    // experts, a token's experts drawn from its 4 best groups (deepseek-ai/DeepSeek-V3
    // config.json: n_group 8, topk_group 4; Megatron-Core moe_router_num_groups 8,
    // moe_router_group_topk 4). With the experts over 8 or more nodes a group lies
    // within a node, so a token reaches at most 4 nodes (arXiv 2412.19437 Sec. 2.1.2).
    if (m.moe.maxNodesPerToken == 0 && has(lower(r.model), "deepseek-v3") && m.moe.experts == 256)
        m.moe.maxNodesPerToken = 4;
}

// Multi-head latent attention, when the architecture notes give its shapes in the
// words of the DeepSeek configs: "q_lora N", "kv_lora N", "qk_head NOPE+ROPE" and
// "v_head N" (kv_lora is required; without q_lora queries are projected directly).
void mlaFromNotes(ModelSpec& m, const std::string& architectureNotes)
{
    const std::string an = lower(architectureNotes);
    static const std::regex qLora(R"(q_lora(?:_rank)?[ :=]*(\d+))");
    static const std::regex kvLora(R"(kv_lora(?:_rank)?[ :=]*(\d+))");
    static const std::regex qkHead(R"(qk_head(?:_dim)?[ :=]*(\d+) ?\+ ?(\d+))");
    static const std::regex vHead(R"(v_head(?:_dim)?[ :=]*(\d+))");
    std::smatch kv, qk, v, q;
    if (std::regex_search(an, kv, kvLora) && std::regex_search(an, qk, qkHead) && std::regex_search(an, v, vHead)) {
        m.mla.kvLoraRank = std::stoi(kv[1]);
        m.mla.qkNopeDim = std::stoi(qk[1]);
        m.mla.qkRopeDim = std::stoi(qk[2]);
        m.mla.vHeadDim = std::stoi(v[1]);
        if (std::regex_search(an, q, qLora))
            m.mla.qLoraRank = std::stoi(q[1]);
    }
}

// The transformer's shape: the stated dimensions, GPT-style defaults for the rest, and the
// conventions of the framework that built it. The caller has checked the required fields.
void modelFromRun(ModelSpec& m, const RunRecord& r)
{
    m.name = r.model;
    m.layers = *r.layers;
    m.hidden = *r.hidden;
    m.heads = *r.heads;
    m.kvHeads = r.kvHeads.value_or(m.heads);
    m.headDim = r.headDim.value_or(m.hidden / m.heads);
    m.ffnHidden = r.ffnHidden.value_or(4 * m.hidden);
    // Gated MLPs (SwiGLU) are the ones whose width is not the GPT-style 4h.
    m.gatedMlp = m.ffnHidden != 4 * m.hidden;
    m.norm = m.gatedMlp ? NormKind::RmsNorm : NormKind::LayerNorm;
    m.vocab = r.vocab.value_or(kDefaultVocab);
    if (buildsMegatronGpt(r)) {
        m.tiedEmbeddings = m.linearBias = true;
        m.position = PositionKind::Learned;
        // Dropout (0.1 by default) stays off: see framework_facts.h.
    }
    if (r.experts && *r.experts > 0)
        moeFromRun(m, r);
    mlaFromNotes(m, r.architectureNotes);
}

// Precision and kernels: what the row names, else what its framework stack runs.
void trainingKernelsFromRun(TrainingSpec& t, const RunRecord& r, const HardwareSpec& hw)
{
    t.seqLen = *r.seqLen;
    t.precision = precisionOf(r.precision, hw);
    t.scaling = scalingOf(r.precision);
    t.attention = attentionKernelOf(r);
    t.fusedKernels = usesFusedKernels(r);
    t.graphCapture = runsCapturedGraphs(r);
    t.fusedProjections = !runsSeparateProjections(r);
    t.fp8TpAllGather = isScaledLowPrecision(t.precision) && gathersTpInFp8(r, t.scaling);
    t.fp8ParamGather = isScaledLowPrecision(t.precision) && gathersParamsInFp8(r);
    if (const std::optional<Precision> grads = gradientFormat(r, t.precision))
        t.gradReduce = *grads;
}

// TP, PP, CP and EP as stated; DP the rest of the GPUs. Also the vocabulary the TP degree
// pads to. A reason when the degrees do not divide the GPUs.
std::optional<SkippedRun> parallelDegreesFromRun(Scenario& s, const RunRecord& r)
{
    ParallelPlan& p = s.plan;
    p.tp = r.tp.value_or(1);
    s.model.vocab = trainedVocab(r, s.model.vocab, p.tp);
    p.pp = r.pp.value_or(1);
    p.cp = r.cp.value_or(1);
    p.ep = r.ep.value_or(1);
    const int model = p.tp * p.pp * p.cp;
    if (model < 1 || *r.numGpus % model != 0)
        return SkippedRun { "tp*pp*cp does not divide num_gpus" };
    p.dp = r.dp.value_or(*r.numGpus / model);
    if (p.gpus() != *r.numGpus)
        p.dp = *r.numGpus / model; // the schema's dp may count only the sharded group
    return std::nullopt;
}

// Where the row's states lived (parallelism.offload), as parallel.offload names them.
void offloadFromRun(OffloadSpec& o, const RunRecord& r)
{
    auto target = [](const std::string& text) {
        const std::string t = lower(text);
        return t == "nvme" ? OffloadTarget::Nvme : t == "cpu" ? OffloadTarget::Cpu : OffloadTarget::None;
    };
    o.optimizer = target(r.offloadOptimizer);
    o.gradients = target(r.offloadGradients);
    o.parameters = target(r.offloadParameters);
    o.activations = target(r.offloadActivations);
}

// Sequence parallelism, recomputation, sharding and which collectives overlap compute.
void shardingAndOverlapFromRun(ParallelPlan& p, const RunRecord& r)
{
    // Sequence parallelism defaults on with TP when TP divides the local sequence and
    // the stack has it.
    p.sequenceParallel = r.sequenceParallel.value_or(
        splitsSequenceAcrossTp(r) && p.tp > 1 && (*r.seqLen / p.cp) % p.tp == 0);
    p.recompute = recomputeOf(r.activationRecompute);
    p.zeroStage = text::lower(r.zeroOrFsdp).empty() ? unstatedZeroStage(r) : zeroStageOf(r.zeroOrFsdp);
    // Flags the source lists in its parallelism notes (Megatron argument names).
    const std::string pnotes = lower(r.parallelismNotes);
    // TP collectives overlapped with GEMMs: Megatron's --tp-comm-overlap, PyTorch's
    // async TP (the notes name "vanilla TP" when a benchmark compares both).
    const std::string ref = lower(r.sourceRef);
    const bool asyncTp = has(pnotes, "async tp") || (!has(pnotes, "vanilla") && (has(ref, "asynctp") || has(ref, "async tp")));
    if (has(pnotes, "tp-comm-overlap") || has(pnotes, "tp_comm_overlap") || asyncTp)
        p.tpCommOverlap = true;
    // PyTorch's async TP micro-pipelines the forward only: "up to ~29% forward pass
    // speedup and ~8% E2E speedup in Llama3 7B" (PyTorch dev-discuss, "Introducing Async
    // Tensor Parallelism in PyTorch", 2024).
    if (asyncTp && !has(pnotes, "tp-comm-overlap"))
        p.tpCommOverlapBackward = false;
    if (recipeOverlapsTp(r) && p.tp > 1 && p.sequenceParallel)
        p.tpCommOverlap = true;
    // EP all-to-alls overlapped with a paired micro-batch's compute: DeepSeek-V3's DualPipe
    // schedule ("full overlap of forward and backward computation-communication phases",
    // arXiv 2412.19437 Sec. 3.2.1) or Megatron-Core's --overlap-moe-expert-parallel-comm.
    {
        const std::string schedText = lower(r.pipelineSchedule + " " + r.parallelismNotes + " " + r.notes);
        if (has(schedText, "dualpipe") || has(schedText, "overlap-moe-expert-parallel-comm")
            || has(schedText, "overlap_moe_expert_parallel_comm"))
            p.epCommOverlap = true;
    }
    if (reducesGradientsAfterBackward(r))
        p.overlapGradReduce = p.overlapParamGather = false;
    // Parameter-gather overlap exists only with Megatron's distributed optimizer.
    if (p.zeroStage == 0 && (has(pnotes, "distributed-optimizer") || has(pnotes, "overlap-param-gather")))
        p.zeroStage = 1;
    offloadFromRun(p.offload, r);
}

// The pipeline schedule and its virtual stages per rank.
void pipelineScheduleFromRun(ParallelPlan& p, const RunRecord& r, int layers)
{
    const std::string pnotes = lower(r.parallelismNotes);
    const std::string sched = lower(r.pipelineSchedule);
    const bool dualPipe = has(lower(r.pipelineSchedule + " " + r.parallelismNotes), "dualpipe");
    p.virtualStages = std::max(1, r.virtualPipeline.value_or(1));
    {
        // Megatron's "--num-layers-per-virtual-pipeline-stage N" gives layers per chunk.
        static const std::regex perChunk(R"(num-layers-per-virtual-pipeline-stage (\d+))");
        std::smatch vm;
        const std::string vtext = lower(r.virtualPipelineText);
        if (std::regex_search(vtext, vm, perChunk) && std::stoi(vm[1]) > 0)
            p.virtualStages = std::max(1, (layers / std::max(1, p.pp)) / std::stoi(vm[1]));
    }
    // Megatron overlaps pipeline sends only under the interleaved schedule and turns the
    // overlap off otherwise (megatron/training/arguments.py: "Overlap P2P communication
    // is disabled if not using the interleaved schedule"), so a row that says its PP
    // communication overlapped ran interleaved.
    const bool ppOverlap = has(pnotes, "pp comm overlap") || has(pnotes, "overlap-p2p");
    if (p.pp > 1 && (has(sched, "interleaved") || p.virtualStages > 1 || ppOverlap)) {
        p.schedule = Schedule::Interleaved1F1B;
        if (p.virtualStages == 1)
            p.virtualStages = 2;
    } else if (p.pp > 1 && p.pp % 2 == 0 && dualPipe) {
        p.schedule = Schedule::DualPipe;
        p.virtualStages = 1;
    } else {
        p.schedule = Schedule::OneFOneB;
        p.virtualStages = 1;
    }
}

// First and last stages one layer short of the rest, when the row says so.
void unevenStagesFromRun(ParallelPlan& p, const RunRecord& r, int layers)
{
    // "The first and last stages have one fewer layer" (Llama 3, Sec. 3.3.2): uneven
    // stages one layer short of the even split, where the rest splits evenly.
    if (p.pp > 2 && has(lower(r.pipelineSchedule + " " + r.parallelismNotes), "one fewer layer")) {
        const int ends = layersOnFullestStage(layers, p.pp) - 1;
        const int rest = layers - 2 * ends;
        if (ends >= 1 && rest >= p.pp - 2 && rest % (p.pp - 2) == 0)
            p.firstStageLayers = p.lastStageLayers = ends;
    }
    // Megatron-LM's --account-for-embedding-in-pipeline-split and
    // --account-for-loss-in-pipeline-split count the embedding and the loss as a layer
    // each when splitting the stages (megatron/training/arguments.py: num_layers += 1 for
    // each, then divided by pp), so the first and last stages hold one layer fewer.
    const std::string splitText = lower(r.notes + " " + r.parallelismNotes + " " + r.pipelineSchedule);
    if (p.pp > 2 && has(splitText, "account-for-embedding-in-pipeline-split") && has(splitText, "account-for-loss-in-pipeline-split")
        && (layers + 2) % p.pp == 0) {
        const int ends = (layers + 2) / p.pp - 1;
        if (ends >= 1)
            p.firstStageLayers = p.lastStageLayers = ends;
    }
}

// How the expert layers lay out over the GPUs (for a MoE model with EP > 1).
void expertLayoutFromRun(ParallelPlan& p, const RunRecord& r)
{
    // EP larger than DP x CP is MoE parallel folding (Megatron-Core 0.10+): the expert
    // layers regroup TP x CP x DP as expert-TP x EP x expert-DP. Rows do not state the
    // expert TP; take the largest that fits (with EP 32 on TP 2 x DP 16, only 1 does).
    if (const auto etp = recipeExpertTp(r); etp && p.tp % *etp == 0
        && (static_cast<long long>(p.tp) * p.cp * p.dp) % (static_cast<long long>(p.ep) * *etp) == 0)
        p.expertTp = *etp;
    p.epCommOverlap = p.epCommOverlap || recipeOverlapsEpComm(r);
    p.epNodeDispatch = recipeDispatchesPerNode(r);
    if (p.expertDataParallel() == 0)
        for (int etp = p.tp; etp >= 1; --etp)
            if (p.tp % etp == 0 && (static_cast<long long>(p.tp) * p.cp * p.dp) % (static_cast<long long>(p.ep) * etp) == 0) {
                p.expertTp = etp;
                break;
            }
    // Expert parallelism is carved out of the data-parallel ranks, and the all-to-all
    // is the chattiest traffic of a MoE layer: Megatron-Core orders ranks
    // tp-cp-ep-dp-pp (parallel_state.initialize_model_parallel, order argument), so the
    // EP group sits right outside TP x CP and the pipeline axis outermost.
    p.order = { Axis::TP, Axis::CP, Axis::DP, Axis::PP };
}

// The GPU's standard server, then what the row says of its own.
void clusterFromRun(ClusterSpec& c, const RunRecord& r, const HardwareSpec& hw)
{
    c.gpus = *r.numGpus;
    setLinksFromGpu(c, hw);
    c.gpusPerNode = r.gpusPerNode.value_or(c.gpusPerNode);
    if (c.gpusPerNode < c.scaleUpDomain && hw.scaleUpDomain <= 8)
        c.scaleUpDomain = c.gpusPerNode;
    // DGX-2 joins its 16 V100s with NVSwitch, where the GPU's usual server (DGX-1) has 8.
    if (c.gpusPerNode > c.scaleUpDomain && has(lower(r.interconnect), "nvswitch"))
        c.scaleUpDomain = c.gpusPerNode;
    if (const double bw = perGpuNetworkBandwidth(r.interconnect, c.gpusPerNode); bw > 0)
        c.scaleOutBandwidth = bw;
}

// The global batch and micro-batch, and a schedule the rounded micro-batch count can run.
// A reason when the row states no batch.
std::optional<SkippedRun> batchFromRun(Scenario& s, const RunRecord& r)
{
    TrainingSpec& t = s.training;
    ParallelPlan& p = s.plan;
    // Batch: sequences per step, else tokens / seq_len. Micro-batch default 1.
    double seqs = r.globalBatchSeqs.value_or(0);
    if (seqs <= 0 && r.globalBatchTokens)
        seqs = *r.globalBatchTokens / t.seqLen;
    if (seqs < 1)
        return SkippedRun { "batch.global_batch_seqs and global_batch_tokens both missing" };
    t.microBatch = std::max(1, int(std::lround(r.microBatch.value_or(1))));
    if (!r.microBatch && p.pp > 1 && splitsReplicaBatchByPipelineRanks(r))
        t.microBatch = std::max(1, int(std::lround(seqs / p.dp / p.pp)));
    else if (!r.microBatch && runsReplicaBatchInOnePass(r))
        t.microBatch = std::max(1, int(std::lround(seqs / p.dp)));
    // A few rows state accumulation steps inconsistent with GBS/(DP*MBS): keep the
    // global batch, round the number of micro-batches per replica.
    const double perReplica = seqs / (double(p.dp) * t.microBatch);
    const int micro = std::max(1, int(std::lround(perReplica)));
    t.globalBatch = micro * p.dp * t.microBatch;
    if (p.schedule == Schedule::Interleaved1F1B && micro % p.pp != 0)
        p.schedule = Schedule::OneFOneB, p.virtualStages = 1; // runs needing it used a variant
    if (p.schedule == Schedule::DualPipe && micro % 2 != 0)
        p.schedule = Schedule::OneFOneB; // an odd rounded count: the nearest plan dtsim can run
    t.tokens = t.tokensPerStep();
    return std::nullopt;
}

// A run that happened fitted in memory. When the source leaves recomputation
// unstated, take the least recomputation that fits (frameworks enable it for that).
// But when the source reports both TFLOP/s and a throughput, their ratio tells
// whether the recomputed forward was executed (4 passes per token instead of 3).
void settleUnstatedRecompute(Scenario& s, const RunRecord& r, const Calibration& calibration)
{
    ParallelPlan& p = s.plan;
    if (recomputeUnstated(r.activationRecompute)) {
        if (const auto policy = recipeRematPolicy(r)) {
            p.recompute = *policy;
        } else if (impliesRecomputation(r, s)) {
            p.recompute = Recompute::Full;
        } else {
            bool fits = false;
            for (Recompute policy : { Recompute::None, Recompute::Selective }) {
                p.recompute = policy;
                if ((fits = memoryPerGpu(s, calibration).fits))
                    break;
            }
            if (!fits) {
                p.recompute = Recompute::Full;
                if (recomputesPartially(r))
                    leastBlocksThatFit(s, calibration, 1);
            }
        }
    } else if (blockCountUnstated(r.activationRecompute)) {
        if (const int k = blocksImpliedByHfu(r, s); k > 0)
            p.recomputeLayers = k;
        else
            leastBlocksThatFit(s, calibration, 1);
    }
}

} // namespace

// Each part of the scenario comes from its own reader below, in an order that matters: the
// plan's vocabulary padding needs TP, the schedule needs the layer count, the batch needs
// the schedule, and the recomputation default needs the whole scenario. A run is skipped at
// the first thing the engine needs and the row does not give.
std::variant<Scenario, SkippedRun> scenarioFromRun(const RunRecord& r, const std::vector<HardwareSpec>& catalog,
    const Calibration& calibration)
{
    const bool table = r.architectureType == "layer_table";
    if (!table && (!r.layers || !r.hidden || !r.heads || !r.seqLen))
        return SkippedRun { "architecture incomplete (layers, hidden_size, attention_heads and seq_len are needed)" };
    if (!r.numGpus || *r.numGpus < 1)
        return SkippedRun { "hardware.num_gpus missing" };
    const std::string id = acceleratorId(r.accelerator + " " + r.gpuClass);
    if (id.empty())
        return SkippedRun { "accelerator \"" + r.accelerator + "\" is not in the catalogue" };
    const HardwareSpec* hw = findHardware(catalog, id);
    if (!hw)
        return SkippedRun { "catalogue has no \"" + id + "\"" };
    if (table)
        return layerTableScenarioFromRun(r, *hw);

    Scenario s;
    s.name = r.id;
    s.hardware = *hw;
    applyStatedMemoryAndPower(s.hardware, r, *hw);
    modelFromRun(s.model, r);
    trainingKernelsFromRun(s.training, r, s.hardware);
    if (!s.hardware.supports(s.training.precision))
        return SkippedRun { "precision \"" + r.precision + "\" has no peak on " + id };

    ParallelPlan& p = s.plan;
    if (auto skipped = parallelDegreesFromRun(s, r))
        return *skipped;
    shardingAndOverlapFromRun(p, r);
    pipelineScheduleFromRun(p, r, s.model.layers);
    unevenStagesFromRun(p, r, s.model.layers);
    if (s.model.isMoe() && s.model.moe.experts % p.ep != 0)
        return SkippedRun { "ep does not divide the experts" };
    if (s.model.isMoe() && p.ep > 1)
        expertLayoutFromRun(p, r);

    clusterFromRun(s.cluster, r, *hw);
    if (auto skipped = batchFromRun(s, r))
        return *skipped;

    if (auto issue = checkScenario(s))
        return SkippedRun { "plan rejected: " + issue->field + ": " + issue->reason };
    settleUnstatedRecompute(s, r, calibration);
    return s;
}

} // namespace dtsim
