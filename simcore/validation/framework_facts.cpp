#include "framework_facts.h"

#include "framework_stack.h"
#include "text_match.h"

#include <algorithm>

#include <regex>

namespace dtsim {

using text::has;
using text::lower;

// FlashAttention appeared in June 2022 and reached the training frameworks in 2023;
// frameworks dated earlier, or the 2022 forks, ran attention unfused. Transformer
// Engine (Megatron-Core, NeMo) and XLA on GPUs call cuDNN's fused attention, the
// hardware's native kernel; PyTorch-native stacks use FlashAttention-2 (SDPA, Triton).
AttentionKernel attentionKernelOf(const RunRecord& r)
{
    const FrameworkStack f = parseFrameworkStack(r.framework);
    if (f.namesYearIn(2010, 2022) || f.predatesMegatron2022() || f.t5x)
        return AttentionKernel::Unfused;
    return f.pytorchNative ? AttentionKernel::Flash2 : AttentionKernel::Native;
}

// JAX/XLA stacks compile the whole step into one program; PyTorch stacks issue kernels
// from the host one by one unless the run says it captured CUDA graphs.
bool runsCapturedGraphs(const RunRecord& r)
{
    if (parseFrameworkStack(r.framework).xla)
        return true;
    const std::string context = lower(r.framework + " " + r.sourceRef + " " + r.notes + " " + r.parallelismNotes);
    static const std::regex graphs(R"(cuda[ -]?graph)");
    static const std::regex noGraphs(R"((without|no|disabled?) cuda[ -]?graph)");
    return std::regex_search(context, graphs) && !std::regex_search(context, noGraphs);
}

// Recomputing only some layers of each stage arrived with Korthikanti et al. 2022
// (Megatron's --recompute-method block/uniform --recompute-num-layers); later stacks
// all have an equivalent (per-block checkpointing in FSDP stacks, remat policies in
// XLA). Stacks dated before 2022 and the 2020-2021 forks recompute all layers or none.
bool recomputesPartially(const RunRecord& r)
{
    const FrameworkStack f = parseFrameworkStack(r.framework);
    return !f.namesYearIn(2010, 2021) && !f.predatesMegatron2022();
}

// Sequence parallelism came in the same Megatron-LM release as partial recomputation
// (Korthikanti et al. 2022, --sequence-parallel); the stacks that predate it or forked
// before it (Megatron-DeepSpeed, GPT-NeoX, metaseq) all-reduce full activations.
bool splitsSequenceAcrossTp(const RunRecord& r)
{
    return recomputesPartially(r);
}

// Eager PyTorch stacks run each elementwise op as its own kernel unless the run says
// it used torch.compile; Megatron/NeMo (Transformer Engine) and JAX/XLA stacks fuse.
bool usesFusedKernels(const RunRecord& r)
{
    const FrameworkStack f = parseFrameworkStack(r.framework);
    const std::string context = lower(r.framework + " " + r.sourceRef + " " + r.notes + " " + r.parallelismNotes);
    // "torch.compile=off" or "without compile" names compile to say it was not used.
    static const std::regex compiled(R"(compile(?!\s*(=|:)?\s*(off|false|disabled)))");
    static const std::regex notCompiled(R"((without|no) (torch\.)?compile)");
    if (std::regex_search(context, compiled) && !std::regex_search(context, notCompiled))
        return true;
    // torchao's Float8 training relies on torch.compile to fuse its scaling and casting
    // kernels (torchao/float8 README: "enable torch.compile to generate fused kernels for
    // float8 scaling and casting"); torchtitan's float8 benchmarks all run compiled.
    if (has(lower(r.precision), "torchao") && !std::regex_search(context, notCompiled))
        return true;
    return !(f.pytorchNative || f.metaseq); // eager PyTorch stacks
}

namespace {

// NeMo's and Megatron-Bridge's performance recipes (pretrain_performance_optimizations).
bool nemoPerformanceRecipe(const RunRecord& r)
{
    return parseFrameworkStack(r.framework).nemoOrBridge;
}

// Megatron-Bridge's mixture-of-experts performance recipes, and the Hopper parts they name.
bool megatronBridgeMoe(const RunRecord& r)
{
    return parseFrameworkStack(r.framework).megatronBridge && r.experts.value_or(0) > 0;
}
bool onHopper(const RunRecord& r)
{
    const std::string a = lower(r.accelerator);
    return has(a, "h100") || has(a, "h800") || has(a, "h200");
}

} // namespace

// NeMo 2.0 sets grad_reduce_in_fp32 = False in every pretrain_performance_optimizations
// (e.g. nemo/collections/llm/recipes/nemotron4_340b.py) and in scripts/llm/performance;
// NeMo 1.0 benchmark configs set optim.grad_sync_dtype: bf16. Megatron-LM reduces fp16
// gradients in fp16: --accumulate-allreduce-grads-in-fp32 is off by default and forced
// on only for bf16 (megatron/arguments.py); GPT-NeoX and Megatron-DeepSpeed inherit it.
std::optional<Precision> gradientFormat(const RunRecord& r, Precision compute)
{
    if (compute == Precision::FP32)
        return std::nullopt;
    if (nemoPerformanceRecipe(r))
        return Precision::BF16;
    const FrameworkStack f = parseFrameworkStack(r.framework);
    if (compute == Precision::FP16 && (f.megatron || f.gptNeox))
        return Precision::FP16;
    return std::nullopt;
}

// The same recipes build their optimizer with distributed_fused_adam_with_cosine_annealing
// (nemo/collections/llm/recipes/optim/adam.py: use_distributed_optimizer=True), so a row
// of theirs that leaves the sharding blank ran ZeRO-1's sharded optimizer states.
int unstatedZeroStage(const RunRecord& r)
{
    return nemoPerformanceRecipe(r) ? 1 : 0;
}

// The same recipes add MegatronCommOverlapCallback(tp_comm_overlap=True).
bool recipeOverlapsTp(const RunRecord& r)
{
    return nemoPerformanceRecipe(r);
}


// Megatron-Bridge scripts/performance/configs: BASE_QWEN3_235B_A22B_CONFIG,
// BASE_QWEN3_30B_A3B_CONFIG and BASE_GPT_OSS_120B_CONFIG set
// expert_tensor_parallel_size=1 (qwen/qwen3_workload_base_configs.py,
// gpt_oss/gpt_oss_workload_base_configs.py), as does the DeepSeek-V3 H100 recipe
// (dryrun_configs/deepseek/deepseek_v3_pretrain_h100_fp8_sc_v1.yaml).
std::optional<int> recipeExpertTp(const RunRecord& r)
{
    return megatronBridgeMoe(r) ? std::optional<int>(1) : std::nullopt;
}

// QWEN3_235B_A22B_PRETRAIN_CONFIG_H100_{BF16,FP8_CS}_V1/V2: moe_a2a_overlap=True; the
// other H100 MoE recipes leave it off.
bool recipeOverlapsEpComm(const RunRecord& r)
{
    return megatronBridgeMoe(r) && onHopper(r) && has(lower(r.model), "qwen3-235b");
}

// Per-node token dispatch (moe_token_dispatcher_type "flex"): the DeepSeek-V3 H100 recipe
// with the hybridep backend, and from the 26.04 release on (Megatron-Bridge v0.4.0 and
// v0.5.0, scripts/performance/configs/qwen/qwen3_workload_base_configs.py)
// QWEN3_30B_A3B_PRETRAIN_CONFIG_H100_{BF16,FP8_CS}_V1 with moe_flex_dispatcher_backend=
// "hybridep" on EP 16 (qwen3_llm_pretrain.py sets the flex dispatcher). The 25.11 recipe
// (v0.2.0, workload_base_configs.py) used the plain all-to-all.
bool recipeDispatchesPerNode(const RunRecord& r)
{
    if (!megatronBridgeMoe(r) || !onHopper(r))
        return false;
    const std::string m = lower(r.model);
    if (has(m, "deepseek"))
        return true;
    return has(m, "qwen3-30b") && parseFrameworkStack(r.framework).nemoContainer >= 2604;
}

// NVIDIA's MaxText recipe (dgxc-benchmarking maxtext/configure.sh @35a9aec, v24.11.1)
// overrides the remat policy with remat_policy=custom and query_proj, key_proj,
// value_proj, qkv_proj and out_proj set to "device" (the BF16 run also keeps mlpwo, an
// output the backward does not need): the attention projections are kept, the rest of
// each layer is rematerialized.
std::optional<Recompute> recipeRematPolicy(const RunRecord& r)
{
    if (has(lower(r.framework), "maxtext") && has(lower(r.sourceRef), "dgxc-benchmarking"))
        return Recompute::Projections;
    return std::nullopt;
}

// torchtitan's Llama keeps wq, wk and wv, and w1 and w3, as separate nn.Linear modules
// (torchtitan/models/llama3/model.py @820504e; torchtitan/models/llama/model.py @9dec370),
// so each runs its own, narrower GEMM.
bool runsSeparateProjections(const RunRecord& r)
{
    return parseFrameworkStack(r.framework).torchtitan;
}

// torchtitan's parallelize_llama swaps in torchao's Float8ColwiseParallel,
// Float8RowwiseParallel and PrepareFloat8ModuleInput when the Float8 converter runs
// tensorwise scaling: inputs are cast before the sequence-parallel all-gather and output
// gradients before the backward one ("float8 all-gather with TP is only supported for
// tensorwise float8 scaling recipes. For rowwise recipes, we use regular TP",
// torchtitan/models/llama3/parallelize_llama.py @820504e, June 2025; docs/float8.md
// @9dec370, Dec. 2024: "float8 all-gather ... for TP (by default for Float8Linear)").
bool gathersTpInFp8(const RunRecord& r, ScalingRecipe scaling)
{
    return parseFrameworkStack(r.framework).torchtitan && has(lower(r.precision), "torchao")
        && scaling == ScalingRecipe::Tensorwise && r.tp.value_or(1) > 1;
}

// torchao's enable_fsdp_float8_all_gather ("cast Float8Linear.weight from high precision
// to float8 before FSDP all-gather", torchtitan docs/float8.md) or Megatron-Core's
// --fp8-param-gather, when the row names it.
bool gathersParamsInFp8(const RunRecord& r)
{
    const std::string t = lower(r.precision + " " + r.zeroOrFsdp + " " + r.parallelismNotes + " " + r.notes);
    static const std::regex fsdpFloat8(R"((fsdp|with) float8 all[- ]gather)");
    static const std::regex paramGather(R"(fp8[-_ ]param[-_ ]gather)");
    return std::regex_search(t, fsdpFloat8) || std::regex_search(t, paramGather);
}

// torchtitan splits each replica's batch into as many micro-batches as there are
// pipeline ranks unless told otherwise (job config pipeline_parallel_microbatches:
// "the default value will be the number of pipeline stages, if unspecified"; the 2024
// build_pipeline_schedule took the pipeline-parallel degree, and the same benchmark's
// 1F1B vs interleaved ratio, 1.28, is the one 8 micro-batches give).
bool splitsReplicaBatchByPipelineRanks(const RunRecord& r)
{
    return parseFrameworkStack(r.framework).torchtitan;
}

// Megatron-LM before its 2021 pipeline release had no gradient accumulation: --batch-size
// was each data-parallel rank's data-loader batch and train_step ran one forward and one
// backward per iteration (megatron/arguments.py, megatron/training.py of v1.x;
// --micro-batch-size and --global-batch-size arrived with pipelining in v2.0). An
// unstated micro-batch is then the whole replica batch.
bool runsReplicaBatchInOnePass(const RunRecord& r)
{
    const FrameworkStack f = parseFrameworkStack(r.framework);
    return f.megatronLmMajor == 1 || (f.megatronLmYear >= 2010 && f.megatronLmYear <= 2020);
}

// Megatron-LM through 2022 reduced gradients with its 'local' DDP (the default
// --DDP-impl) after forward_backward_func returned: train_step calls
// model_module.allreduce_gradients() once per step (megatron/training.py, v1.x to v3.0);
// the distributed optimizer (2022) reduce-scatters there and all-gathers in step().
// Overlap arrived with Megatron-Core's --overlap-grad-reduce (2023). DeepSpeed's pipeline
// engine, which Megatron-DeepSpeed and GPT-NeoX train with, runs ReduceGrads after the
// schedule's last backward and ZeRO-1 gathers the updated shards inside step(). Without
// pipelining, ZeRO-2/3 reduce from backward hooks (overlap_comm) and do overlap.
bool reducesGradientsAfterBackward(const RunRecord& r)
{
    const FrameworkStack f = parseFrameworkStack(r.framework);
    if (f.deepSpeedFork) {
        static const std::regex hookedStage(R"((zero|stage)[- ]?[23]\b)");
        return r.pp.value_or(1) > 1 || !std::regex_search(lower(r.zeroOrFsdp), hookedStage);
    }
    if (!f.megatronLm || f.megatronCore)
        return false;
    return f.namesVersionIn(1, 3) || f.namesYearIn(2010, 2022);
}

// GPT-NeoX's logger through 2022 (megatron/training.py, later megatron/logging.py,
// get_flops): ff = model.total_params * 6, attn = seq_length * hidden_size * num_layers * 60,
// flops = global batch * seq_length * (ff + attn) / (iter_time * world_size). No
// recompute factor: model FLOPs with its own attention term. The 2023 rewrite switched to
// Megatron-DeepSpeed's hardware formula (24 x checkpoint factor x B s L h^2 (...)).
bool logsNeoxFlops(const RunRecord& r)
{
    if (!parseFrameworkStack(r.framework).gptNeox)
        return false;
    const std::vector<int> years = yearsNamedIn(r.framework + " " + r.sourceRef);
    return std::none_of(years.begin(), years.end(), [](int y) { return y >= 2023; });
}

int trainedVocab(const RunRecord& r, int vocab, int tp)
{
    if (!parseFrameworkStack(r.framework).megatron)
        return vocab;
    const long long unit = 128LL * std::max(1, tp);
    return int((vocab + unit - 1) / unit * unit);
}

bool buildsMegatronGpt(const RunRecord& r)
{
    const FrameworkStack f = parseFrameworkStack(r.framework);
    const bool gptShape = !r.ffnHidden || !r.hidden || *r.ffnHidden == 4 * *r.hidden;
    return f.megatronLm && !f.megatronCore && (f.megatronLmMajor == 1 || (f.megatronLmYear >= 2020 && f.megatronLmYear <= 2022)) && gptShape
        && !(r.experts && *r.experts > 0);
}

} // namespace dtsim
