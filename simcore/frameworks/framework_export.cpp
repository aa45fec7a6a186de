#include "framework_export.h"

#include <sstream>

namespace dtsim {

std::optional<ExportTarget> exportTargetNamed(const std::string& name)
{
    if (name == "megatron") return ExportTarget::Megatron;
    if (name == "torchtitan") return ExportTarget::Torchtitan;
    if (name == "deepspeed") return ExportTarget::DeepSpeed;
    if (name == "nemo") return ExportTarget::NeMo;
    return std::nullopt;
}

const char* exportTargetName(ExportTarget t)
{
    switch (t) {
    case ExportTarget::Megatron: return "megatron";
    case ExportTarget::Torchtitan: return "torchtitan";
    case ExportTarget::DeepSpeed: return "deepspeed";
    case ExportTarget::NeMo: return "nemo";
    }
    return "?";
}

const char* exportFileSuffix(ExportTarget t)
{
    switch (t) {
    case ExportTarget::Megatron: return ".sh";
    case ExportTarget::Torchtitan: return ".toml";
    case ExportTarget::DeepSpeed: return ".json";
    case ExportTarget::NeMo: return ".yaml";
    }
    return "";
}

namespace {

std::string exportNumber(long long v) { return std::to_string(v); }
const char* boolText(bool b) { return b ? "true" : "false"; }

long long exportSteps(const Scenario& s)
{
    const double perStep = double(s.training.globalBatch) * s.training.seqLen;
    return perStep > 0 ? static_cast<long long>(s.training.tokens / perStep + 0.5) : 0;
}

// Layers per pipeline chunk under the interleaved schedule (Megatron's
// --num-layers-per-virtual-pipeline-stage), 0 when the schedule is not interleaved.
int layersPerChunk(const Scenario& s)
{
    const ParallelPlan& p = s.plan;
    if (p.schedule != Schedule::Interleaved1F1B || p.pp <= 1 || p.virtualStages <= 1)
        return 0;
    return s.model.layers / (p.pp * p.virtualStages);
}

// What no framework target here expresses; every exporter lists these.
void commonGaps(const Scenario& s, std::vector<std::string>& gaps)
{
    if (s.model.isLayerTable())
        gaps.push_back("model.table " + s.model.table.ref + ": these frameworks train transformers; a layer table has no launch config");
    if (s.plan.tp2d)
        gaps.push_back("parallel.tp_2d: two-dimensional tensor parallelism is not in these frameworks");
    if (s.training.precision == Precision::FP4)
        gaps.push_back("training.precision fp4: not a training precision of this framework");
}

// Megatron-LM's flags in order, "--flag value" or a bare switch.
struct ArgumentList {
    std::vector<std::string> items;
    void operator()(const std::string& flag, const std::string& value = {}) { items.push_back(value.empty() ? flag : flag + " " + value); }
};

// The model's flags: dimensions, MLP, norms, positions, vocabulary, dropout, experts, MLA.
void megatronModelArguments(const Scenario& s, ArgumentList& arg, std::vector<std::string>& gaps)
{
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    arg("--num-layers", exportNumber(m.layers));
    arg("--hidden-size", exportNumber(m.hidden));
    arg("--num-attention-heads", exportNumber(m.heads));
    if (m.kvHeads != m.heads) {
        arg("--group-query-attention");
        arg("--num-query-groups", exportNumber(m.kvHeads));
    }
    if (m.headDim * m.heads != m.hidden)
        arg("--kv-channels", exportNumber(m.headDim));
    arg("--ffn-hidden-size", exportNumber(m.ffnHidden));
    if (m.gatedMlp)
        arg("--swiglu");
    if (!m.tiedEmbeddings)
        arg("--untie-embeddings-and-output-weights");
    if (!m.linearBias)
        arg("--disable-bias-linear");
    arg("--normalization", m.norm == NormKind::RmsNorm ? "RMSNorm" : "LayerNorm");
    arg("--position-embedding-type", m.position == PositionKind::Rotary ? "rope" : "learned_absolute");
    // Megatron pads the vocabulary to a multiple of this x TP; 1 keeps dtsim's size when TP divides it.
    arg("--vocab-size", exportNumber(m.vocab));
    arg("--make-vocab-size-divisible-by", "1");
    if (m.vocab % p.tp != 0)
        gaps.push_back("model.vocab " + exportNumber(m.vocab) + ": Megatron pads it to a multiple of TP (" + exportNumber(p.tp) + ")");
    if (m.activation == Activation::GeluTanhOps)
        gaps.push_back("model.activation gelu_new: Megatron's GELU is one fused kernel");
    if (m.dropout) {
        arg("--hidden-dropout", "0.1");
        arg("--attention-dropout", "0.1");
    } else {
        arg("--hidden-dropout", "0");
        arg("--attention-dropout", "0");
    }
    if (m.isMoe()) {
        arg("--num-experts", exportNumber(m.moe.experts));
        arg("--moe-router-topk", exportNumber(m.moe.topK));
        arg("--moe-ffn-hidden-size", exportNumber(m.moe.expertFfnHidden));
        if (m.moe.sharedExperts > 0)
            arg("--moe-shared-expert-intermediate-size", exportNumber(static_cast<long long>(m.moe.sharedExperts) * m.moe.expertFfnHidden));
        if (m.moe.firstDenseLayers > 0 || m.moe.layerInterval > 1) {
            if (m.moe.layerInterval > 1 && m.moe.firstDenseLayers > 0)
                gaps.push_back("model.moe: leading dense layers with an interval; exported as the interval only");
            if (m.moe.layerInterval > 1)
                arg("--moe-layer-freq", exportNumber(m.moe.layerInterval));
            else
                arg("--moe-layer-freq", "'([0]*" + exportNumber(m.moe.firstDenseLayers) + "+[1]*" + exportNumber(m.layers - m.moe.firstDenseLayers) + ")'");
        }
        if (m.moe.capacityFactor != 1.0)
            gaps.push_back("model.moe.capacity_factor: Megatron drops tokens only with --moe-expert-capacity-factor and a drop policy; set them by hand");
        if (m.moe.maxNodesPerToken > 0)
            gaps.push_back("model.moe.max_nodes_per_token: set --moe-router-num-groups to the expert-parallel nodes and --moe-router-group-topk");
    }
    if (m.isMla()) {
        arg("--multi-latent-attention");
        if (m.mla.qLoraRank > 0)
            arg("--q-lora-rank", exportNumber(m.mla.qLoraRank));
        arg("--kv-lora-rank", exportNumber(m.mla.kvLoraRank));
        arg("--qk-head-dim", exportNumber(m.mla.qkNopeDim));
        arg("--qk-pos-emb-head-dim", exportNumber(m.mla.qkRopeDim));
        arg("--v-head-dim", exportNumber(m.mla.vHeadDim));
    }
}

FrameworkExport megatron(const Scenario& s)
{
    FrameworkExport out;
    commonGaps(s, out.unexpressed);
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    const TrainingSpec& t = s.training;
    ArgumentList arg;
    megatronModelArguments(s, arg, out.unexpressed);
    arg("--seq-length", exportNumber(t.seqLen));
    arg("--max-position-embeddings", exportNumber(t.seqLen));
    arg("--micro-batch-size", exportNumber(t.microBatch));
    arg("--global-batch-size", exportNumber(t.globalBatch));
    if (const long long n = exportSteps(s); n > 0)
        arg("--train-iters", exportNumber(n));
    arg("--tensor-model-parallel-size", exportNumber(p.tp));
    arg("--pipeline-model-parallel-size", exportNumber(p.pp));
    if (p.cp > 1)
        arg("--context-parallel-size", exportNumber(p.cp));
    if (p.ep > 1)
        arg("--expert-model-parallel-size", exportNumber(p.ep));
    if (p.expertTp > 0 && p.expertTp != p.tp)
        arg("--expert-tensor-parallel-size", exportNumber(p.expertTp));
    if (p.sequenceParallel)
        arg("--sequence-parallel");
    if (const int chunk = layersPerChunk(s); chunk > 0)
        arg("--num-layers-per-virtual-pipeline-stage", exportNumber(chunk));
    if (p.unevenStages()) {
        if (p.firstStageLayers > 0)
            arg("--decoder-first-pipeline-num-layers", exportNumber(p.firstStageLayers));
        if (p.lastStageLayers > 0)
            arg("--decoder-last-pipeline-num-layers", exportNumber(p.lastStageLayers));
    }
    if (p.pp > 1 && p.schedule == Schedule::GPipe)
        out.unexpressed.push_back("parallel.schedule gpipe: Megatron-LM runs 1F1B (or interleaved)");
    if (p.pp > 1 && p.schedule == Schedule::DualPipe)
        out.unexpressed.push_back("parallel.schedule dualpipe: Megatron-LM has no DualPipe schedule; 1F1B is what runs");
    switch (p.recompute) {
    case Recompute::None: break;
    case Recompute::Selective: arg("--recompute-granularity", "selective"); break;
    case Recompute::Full:
        arg("--recompute-granularity", "full");
        if (p.recomputeLayers > 0) {
            arg("--recompute-method", "block");
            arg("--recompute-num-layers", exportNumber(p.recomputeLayers));
        } else {
            arg("--recompute-method", "uniform");
            arg("--recompute-num-layers", "1");
        }
        break;
    case Recompute::PerOp:
    case Recompute::Projections:
        out.unexpressed.push_back(std::string("parallel.recompute ") + std::string(recomputeName(p.recompute))
            + ": not a Megatron-LM policy (its choices: selective, full)");
        break;
    }
    switch (t.precision) {
    case Precision::BF16: arg("--bf16"); break;
    case Precision::FP16: arg("--fp16"); break;
    case Precision::FP8:
        arg("--bf16");
        arg("--fp8-format", "hybrid");
        arg("--fp8-recipe", t.scaling == ScalingRecipe::Mxfp8 ? "mxfp8" : t.scaling == ScalingRecipe::Blockwise ? "blockwise" : "tensorwise");
        if (t.scaling == ScalingRecipe::Rowwise)
            out.unexpressed.push_back("training.scaling rowwise: Megatron's FP8 recipes are tensorwise/delayed, blockwise and mxfp8");
        break;
    default: break;
    }
    if (t.fp8ParamGather)
        arg("--fp8-param-gather");
    if (t.fp8TpAllGather)
        out.unexpressed.push_back("training.fp8_tp_all_gather: Transformer Engine decides which TP all-gathers run in FP8");
    if (t.gradReduce == Precision::BF16)
        arg("--grad-reduce-in-bf16");
    if (t.attention == AttentionKernel::Unfused)
        arg("--attention-backend", "unfused");
    else if (t.attention == AttentionKernel::Flash2)
        arg("--attention-backend", "flash");
    if (p.zeroStage >= 1)
        arg("--use-distributed-optimizer");
    if (p.zeroStage >= 2)
        out.unexpressed.push_back("parallel.zero " + exportNumber(p.zeroStage) + ": Megatron's distributed optimizer shards optimizer states (ZeRO-1); "
            + (p.zeroStage == 3 ? "ZeRO-3 is Megatron FSDP (--use-megatron-fsdp), a different code path" : "gradients are reduce-scattered into it"));
    if (p.overlapGradReduce)
        arg("--overlap-grad-reduce");
    if (p.overlapParamGather && p.zeroStage >= 1)
        arg("--overlap-param-gather");
    if (p.tpCommOverlap)
        arg("--tp-comm-overlap");
    if (p.epCommOverlap)
        arg("--overlap-moe-expert-parallel-comm");
    if (m.isMoe())
        arg("--moe-token-dispatcher-type", p.epNodeDispatch ? "flex" : "alltoall");
    if (p.epNodeDispatch)
        arg("--moe-enable-deepep");
    std::ostringstream os;
    os << "#!/bin/bash\n# " << (s.name.empty() ? std::string("dtsim scenario") : s.name)
       << ": Megatron-LM arguments written by dtsim-cli export.\n";
    for (const std::string& g : out.unexpressed)
        os << "# not expressed: " << g << "\n";
    const long long nodes = (s.cluster.gpus + s.cluster.gpusPerNode - 1) / std::max(1, s.cluster.gpusPerNode);
    os << "torchrun --nnodes " << nodes << " --nproc_per_node " << s.cluster.gpusPerNode << " pretrain_gpt.py";
    for (const std::string& x : arg.items)
        os << " \\\n    " << x;
    os << "\n";
    out.text = os.str();
    return out;
}

FrameworkExport torchtitan(const Scenario& s, const std::string& catalogueId)
{
    FrameworkExport out;
    commonGaps(s, out.unexpressed);
    const ParallelPlan& p = s.plan;
    const TrainingSpec& t = s.training;
    std::ostringstream os;
    // torchtitan names models by flavor (torchtitan/models/*/__init__.py).
    std::string name, flavor;
    if (catalogueId == "llama-3.1-8b") name = "llama3", flavor = "8B";
    else if (catalogueId == "llama-3.1-70b") name = "llama3", flavor = "70B";
    else if (catalogueId == "llama-3.1-405b") name = "llama3", flavor = "405B";
    else if (catalogueId == "deepseek-v3") name = "deepseek_v3", flavor = "671B";
    else if (catalogueId == "qwen3-8b") name = "qwen3", flavor = "8B";
    else if (catalogueId == "qwen3-235b-a22b") name = "qwen3", flavor = "235B-A22B";
    if (name.empty())
        out.unexpressed.push_back("model: torchtitan trains its own model flavors; this model (" + exportNumber(s.model.layers) + " layers, hidden "
            + exportNumber(s.model.hidden) + ") is none of them; add a flavor to torchtitan/models/llama3/__init__.py");
    if (p.zeroStage == 1 || p.zeroStage == 2)
        out.unexpressed.push_back("parallel.zero " + exportNumber(p.zeroStage) + ": torchtitan shards everything (FSDP2, ZeRO-3) or nothing");
    if (p.recompute == Recompute::Selective || p.recompute == Recompute::Projections)
        out.unexpressed.push_back(std::string("parallel.recompute ") + std::string(recomputeName(p.recompute))
            + ": torchtitan's selective checkpointing is per-op or every N layers");
    if (p.recompute == Recompute::Full && p.recomputeLayers > 0)
        out.unexpressed.push_back("parallel.recompute_layers: torchtitan recomputes every layer or every Nth");
    if (p.tp > 1 && !p.sequenceParallel)
        out.unexpressed.push_back("parallel.sequence_parallel false: torchtitan's tensor parallelism always splits the sequence");
    for (const std::string& g : out.unexpressed)
        os << "# not expressed: " << g << "\n";
    os << "# " << (s.name.empty() ? std::string("dtsim scenario") : s.name) << ": written by dtsim-cli export for "
       << s.cluster.gpus << " GPUs (torchrun --nproc_per_node " << s.cluster.gpusPerNode << ")\n\n";
    if (!name.empty() || t.precision == Precision::FP8)
        os << "[model]\n";
    if (!name.empty())
        os << "name = \"" << name << "\"\nflavor = \"" << flavor << "\"\n";
    if (t.precision == Precision::FP8)
        os << "converters = [\"float8\"]\n";
    os << "\n[training]\n";
    const long long dp = p.dp;
    if (p.pp > 1) {
        os << "local_batch_size = " << t.globalBatch / std::max<long long>(1, dp) << "\n";
    } else {
        os << "local_batch_size = " << t.microBatch << "\n";
        os << "global_batch_size = " << t.globalBatch << "\n";
    }
    os << "seq_len = " << t.seqLen << "\n";
    if (const long long n = exportSteps(s); n > 0)
        os << "steps = " << n << "\n";
    os << "mixed_precision_param = \"" << (t.precision == Precision::FP32 ? "float32" : "bfloat16") << "\"\n";
    if (t.precision == Precision::FP16)
        out.unexpressed.push_back("training.precision fp16: torchtitan trains in bfloat16 or float32");
    os << "\n[parallelism]\n";
    os << "data_parallel_replicate_degree = " << (p.zeroStage == 3 ? 1 : dp) << "\n";
    os << "data_parallel_shard_degree = " << (p.zeroStage == 3 ? dp : 1) << "\n";
    os << "tensor_parallel_degree = " << p.tp << "\n";
    if (p.tp > 1)
        os << "enable_async_tensor_parallel = " << boolText(p.tpCommOverlap) << "\n";
    os << "pipeline_parallel_degree = " << p.pp << "\n";
    if (p.pp > 1) {
        const char* sched = p.schedule == Schedule::GPipe ? "GPipe" : p.schedule == Schedule::Interleaved1F1B ? "Interleaved1F1B"
            : p.schedule == Schedule::DualPipe ? "DualPipeV" : "1F1B";
        os << "pipeline_parallel_schedule = \"" << sched << "\"\n";
        os << "pipeline_parallel_microbatch_size = " << t.microBatch << "\n";
        if (const int chunk = layersPerChunk(s); chunk > 0)
            os << "pipeline_parallel_layers_per_stage = " << chunk << "\n";
    }
    os << "context_parallel_degree = " << p.cp << "\n";
    if (p.ep > 1)
        os << "expert_parallel_degree = " << p.ep << "\n";
    os << "\n[activation_checkpoint]\n";
    os << "mode = \"" << (p.recompute == Recompute::None ? "none" : p.recompute == Recompute::PerOp ? "selective" : "full") << "\"\n";
    if (p.recompute == Recompute::PerOp)
        os << "selective_ac_option = \"op\"\n";
    os << "\n[compile]\nenable = " << boolText(t.fusedKernels) << "\n";
    if (t.precision == Precision::FP8) {
        os << "\n[quantize.linear.float8]\n";
        os << "recipe_name = \"" << (t.scaling == ScalingRecipe::Rowwise ? "rowwise" : "tensorwise") << "\"\n";
        os << "enable_fsdp_float8_all_gather = " << boolText(t.fp8ParamGather) << "\n";
    }
    out.text = os.str();
    return out;
}

FrameworkExport deepspeed(const Scenario& s)
{
    FrameworkExport out;
    commonGaps(s, out.unexpressed);
    const ParallelPlan& p = s.plan;
    const TrainingSpec& t = s.training;
    if (p.tp > 1 || p.pp > 1 || p.cp > 1 || p.ep > 1)
        out.unexpressed.push_back("parallel: TP " + exportNumber(p.tp) + ", PP " + exportNumber(p.pp) + ", CP " + exportNumber(p.cp) + ", EP " + exportNumber(p.ep)
            + ": DeepSpeed's JSON holds the data-parallel side; the model-parallel degrees go to the training script "
              "(Megatron-DeepSpeed's --tensor-model-parallel-size, --pipeline-model-parallel-size)");
    if (p.recompute != Recompute::None)
        out.unexpressed.push_back(std::string("parallel.recompute ") + std::string(recomputeName(p.recompute))
            + ": recomputation is the training script's (Megatron-DeepSpeed's --checkpoint-activations)");
    if (t.precision == Precision::FP8)
        out.unexpressed.push_back("training.precision fp8: DeepSpeed's JSON has no FP8 training switch (Transformer Engine's is in the model code)");
    const long long accumulation = t.globalBatch / std::max<long long>(1, static_cast<long long>(p.dp) * t.microBatch);
    std::ostringstream os;
    os << "{\n";
    os << "  \"train_batch_size\": " << t.globalBatch << ",\n";
    os << "  \"train_micro_batch_size_per_gpu\": " << t.microBatch << ",\n";
    os << "  \"gradient_accumulation_steps\": " << accumulation << ",\n";
    os << "  \"zero_optimization\": {\n    \"stage\": " << p.zeroStage << ",\n    \"overlap_comm\": " << boolText(p.overlapGradReduce) << "\n  },\n";
    os << "  \"bf16\": {\n    \"enabled\": " << boolText(t.precision == Precision::BF16) << "\n  },\n";
    os << "  \"fp16\": {\n    \"enabled\": " << boolText(t.precision == Precision::FP16) << "\n  },\n";
    os << "  \"communication_data_type\": \"" << std::string(precisionName(t.gradReduce)) << "\",\n";
    os << "  \"optimizer\": {\n    \"type\": \"" << (t.optimizer == Optimizer::Sgd ? "SGD" : "AdamW") << "\"\n  }\n";
    os << "}\n";
    out.text = os.str();
    return out;
}

FrameworkExport nemo(const Scenario& s)
{
    FrameworkExport out;
    commonGaps(s, out.unexpressed);
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    const TrainingSpec& t = s.training;
    std::ostringstream os;
    if (p.recompute == Recompute::PerOp || p.recompute == Recompute::Projections)
        out.unexpressed.push_back(std::string("parallel.recompute ") + std::string(recomputeName(p.recompute)) + ": NeMo's choices are selective and full");
    if (p.pp > 1 && (p.schedule == Schedule::GPipe || p.schedule == Schedule::DualPipe))
        out.unexpressed.push_back("parallel.schedule " + std::string(scheduleName(p.schedule)) + ": NeMo runs Megatron-Core's 1F1B or interleaved");
    if (p.zeroStage >= 2)
        out.unexpressed.push_back("parallel.zero " + exportNumber(p.zeroStage) + ": NeMo's distributed optimizer is ZeRO-1");
    if (m.isMla())
        out.unexpressed.push_back("model.mla: set NeMo's MLA config (q_lora_rank, kv_lora_rank, ...) in the model class");
    for (const std::string& g : out.unexpressed)
        os << "# not expressed: " << g << "\n";
    os << "# " << (s.name.empty() ? std::string("dtsim scenario") : s.name) << ": NeMo recipe overrides written by dtsim-cli export\n";
    const long long nodes = (s.cluster.gpus + s.cluster.gpusPerNode - 1) / std::max(1, s.cluster.gpusPerNode);
    os << "trainer:\n  num_nodes: " << nodes << "\n  devices: " << s.cluster.gpusPerNode << "\n";
    os << "  precision: " << (t.precision == Precision::FP16 ? "16-mixed" : t.precision == Precision::FP32 ? "32" : "bf16-mixed") << "\n";
    if (const long long n = exportSteps(s); n > 0)
        os << "  max_steps: " << n << "\n";
    os << "model:\n";
    os << "  micro_batch_size: " << t.microBatch << "\n  global_batch_size: " << t.globalBatch << "\n";
    os << "  encoder_seq_length: " << t.seqLen << "\n";
    os << "  tensor_model_parallel_size: " << p.tp << "\n  pipeline_model_parallel_size: " << p.pp << "\n";
    if (p.schedule == Schedule::Interleaved1F1B && p.virtualStages > 1)
        os << "  virtual_pipeline_model_parallel_size: " << p.virtualStages << "\n";
    os << "  context_parallel_size: " << p.cp << "\n";
    if (p.ep > 1)
        os << "  expert_model_parallel_size: " << p.ep << "\n";
    os << "  sequence_parallel: " << boolText(p.sequenceParallel) << "\n";
    os << "  num_layers: " << m.layers << "\n  hidden_size: " << m.hidden << "\n  ffn_hidden_size: " << m.ffnHidden << "\n";
    os << "  num_attention_heads: " << m.heads << "\n  num_query_groups: " << m.kvHeads << "\n  kv_channels: " << m.headDim << "\n";
    os << "  vocab_size: " << m.vocab << "\n";
    os << "  activation: " << (m.gatedMlp ? "fast-swiglu" : "gelu") << "\n";
    os << "  bias: " << boolText(m.linearBias) << "\n";
    os << "  normalization: " << (m.norm == NormKind::RmsNorm ? "rmsnorm" : "layernorm") << "\n";
    os << "  position_embedding_type: " << (m.position == PositionKind::Rotary ? "rope" : "learned_absolute") << "\n";
    os << "  share_embeddings_and_output_weights: " << boolText(m.tiedEmbeddings) << "\n";
    os << "  hidden_dropout: " << (m.dropout ? "0.1" : "0.0") << "\n  attention_dropout: " << (m.dropout ? "0.1" : "0.0") << "\n";
    if (m.isMoe()) {
        os << "  num_moe_experts: " << m.moe.experts << "\n  moe_router_topk: " << m.moe.topK << "\n";
        os << "  moe_ffn_hidden_size: " << m.moe.expertFfnHidden << "\n";
        if (m.moe.sharedExperts > 0 || m.moe.firstDenseLayers > 0 || m.moe.layerInterval > 1)
            out.unexpressed.push_back("model.moe: shared experts and dense layers are set in NeMo's model class");
    }
    if (p.recompute == Recompute::Selective)
        os << "  activations_checkpoint_granularity: selective\n";
    else if (p.recompute == Recompute::Full) {
        os << "  activations_checkpoint_granularity: full\n";
        os << "  activations_checkpoint_method: " << (p.recomputeLayers > 0 ? "block" : "uniform") << "\n";
        os << "  activations_checkpoint_num_layers: " << (p.recomputeLayers > 0 ? p.recomputeLayers : 1) << "\n";
    }
    os << "  fp8: " << boolText(t.precision == Precision::FP8) << "\n";
    if (t.fp8ParamGather)
        os << "  fp8_params: true\n";
    os << "  ub_tp_comm_overlap: " << boolText(p.tpCommOverlap) << "\n";
    os << "  optim:\n    name: " << (p.zeroStage >= 1 ? "distributed_fused_adam" : "fused_adam") << "\n";
    os << "    grad_sync_dtype: " << std::string(precisionName(t.gradReduce)) << "\n";
    os << "    overlap_grad_sync: " << boolText(p.overlapGradReduce) << "\n";
    if (p.zeroStage >= 1)
        os << "    overlap_param_sync: " << boolText(p.overlapParamGather) << "\n";
    out.text = os.str();
    return out;
}

} // namespace

FrameworkExport exportScenario(const Scenario& s, ExportTarget target, const std::string& catalogueId)
{
    switch (target) {
    case ExportTarget::Megatron: return megatron(s);
    case ExportTarget::Torchtitan: return torchtitan(s, catalogueId);
    case ExportTarget::DeepSpeed: return deepspeed(s);
    case ExportTarget::NeMo: return nemo(s);
    }
    return {};
}

} // namespace dtsim
