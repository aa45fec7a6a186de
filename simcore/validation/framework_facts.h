#pragma once
// What a published run's framework did that the schema has no field for (kernels,
// graph capture, recomputation granularity, gradient format, recipe defaults), read
// from its framework and notes text. Each rule cites the framework's own source; none
// is keyed on a run or a source (docs/validation.md).
#include "../parallel.h"
#include "../precision.h"
#include "../training.h"
#include "../loader/run_record.h"

#include <optional>

namespace dtsim {

// Unfused (before 2023), FlashAttention-2 (PyTorch-native stacks) or native (TE, XLA).
AttentionKernel attentionKernelOf(const RunRecord& r);
// Fused elementwise kernels, unless an eager PyTorch stack ran without torch.compile.
bool usesFusedKernels(const RunRecord& r);
// The whole step as one captured graph (XLA stacks, CUDA graphs).
bool runsCapturedGraphs(const RunRecord& r);
// The stack can recompute only some layers of a stage (2022 on).
bool recomputesPartially(const RunRecord& r);
// The stack can split norms and dropout along the sequence across TP ranks (2022 on).
bool splitsSequenceAcrossTp(const RunRecord& r);
// The format gradients are reduced in when the recipe says so; empty: the default.
std::optional<Precision> gradientFormat(const RunRecord& r, Precision compute);
// The recipe overlaps tensor-parallel communication with GEMMs.
bool recipeOverlapsTp(const RunRecord& r);

// ZeRO stage of a row that does not state its sharding (0 unless the framework's
// recipes shard by default).
int unstatedZeroStage(const RunRecord& r);
// Megatron-Bridge's MoE performance recipes: the experts' own TP degree (1), whether
// the EP all-to-alls overlap another micro-batch's compute, and whether tokens go out
// through the per-node HybridEP dispatcher. Empty / false for every other stack.
std::optional<int> recipeExpertTp(const RunRecord& r);

// The vocabulary a run's embedding and output layer really have: Megatron and its forks
// pad the tokenizer's to a multiple of --make-vocab-size-divisible-by (128) x TP
// (megatron/training/tokenizer/tokenizer.py, _vocab_size_with_padding; BigScience's
// tr11-176B-ml.slurm pads BLOOM's 250,680 to 250,880 explicitly); other stacks use it as is.
int trainedVocab(const RunRecord& r, int vocab, int tp);
bool recipeOverlapsEpComm(const RunRecord& r);
bool recipeDispatchesPerNode(const RunRecord& r);
// Q, K, V (and gate, up) as separate linears: torchtitan's Llama.
bool runsSeparateProjections(const RunRecord& r);
// The remat policy a recipe sets when the row leaves recomputation unstated.
std::optional<Recompute> recipeRematPolicy(const RunRecord& r);
// torchtitan with torchao tensorwise FP8 all-gathers its sequence-parallel inputs in FP8.
bool gathersTpInFp8(const RunRecord& r, ScalingRecipe scaling);
// The row says its ZeRO/FSDP parameter all-gathers carried FP8 weights.
bool gathersParamsInFp8(const RunRecord& r);
// With pipelining and no stated micro-batch, each replica's batch is split into as
// many micro-batches as there are pipeline ranks.
bool splitsReplicaBatchByPipelineRanks(const RunRecord& r);
// The stack had no gradient accumulation: an unstated micro-batch is the replica batch.
bool runsReplicaBatchInOnePass(const RunRecord& r);
// The stack reduces data-parallel gradients only after the last backward of the step,
// and gathers sharded parameters inside the optimizer step: nothing overlaps compute.
bool reducesGradientsAfterBackward(const RunRecord& r);
// GPT-NeoX before its 2023 rewrite logged TFLOP/s as (6 x parameters + 60 s h L) per token.
bool logsNeoxFlops(const RunRecord& r);
// Megatron-LM's own GPT (2020-2022 releases, before Megatron-Core): tied input and output
// embeddings, biases on every linear layer, learned absolute positions, all by default
// (megatron/arguments.py, megatron/model/language_model.py). Its hidden and attention
// dropout also default to 0.1, but with dtsim's dropout on these 15 runs come out 5-16%
// slower than measured (4% faster to 5% slower with it off): the unfused attention's
// dropout passes over the s x s scores would need a measurement of their own before they
// are charged, so the rows (and dtsim-cli import) leave model.dropout off.
bool buildsMegatronGpt(const RunRecord& r);

} // namespace dtsim
