#pragma once
// What one training run does: batch, sequence, data volume, number formats, optimizer.
#include "convergence_law.h"
#include "precision.h"

namespace dtsim {

enum class Optimizer { Adam, Sgd };
enum class AttentionKernel { Unfused, Flash2, Native };
// What the run trains to: a token count, or a loss (convergence.h).
enum class TrainingTarget { Tokens, Loss };
// How the data-parallel gradient synchronisation compresses what it sends
// (grad_compression.h): PowerSGD's low-rank factors (Vogels et al. 2019), 1-bit
// Adam/LAMB's signs (Tang et al. 2021; Li et al. 2022), or one byte a value (FP8, int8).
enum class GradCompression { None, PowerSgd, OneBit, Fp8, Int8 };
inline constexpr int kGradCompressionCount = 5;

struct TrainingSpec {
    int globalBatch = 0; // sequences per optimizer step
    int microBatch = 1;  // sequences per forward/backward on one pipeline
    int seqLen = 0;
    double tokens = 0;   // total training tokens (target Tokens)
    TrainingTarget target = TrainingTarget::Tokens;
    double targetLoss = 0;                     // target Loss: the final loss, in the law's nats per token
    LossLaw lossLaw = LossLaw::Besiroglu2024;  // which published fit turns tokens into loss
    double criticalBatchTokens = 0;            // a measured critical batch, tokens; 0: from the loss (Kaplan et al.)
    double deadline = 0; // seconds the run must finish in (0 = none); reported, and the frontier's duration
    Precision precision = Precision::BF16;
    // Scales of an FP8/FP4 recipe (ignored by 16- and 32-bit runs); must compute in
    // the precision above (recipePrecision).
    ScalingRecipe scaling = ScalingRecipe::Tensorwise;
    Optimizer optimizer = Optimizer::Adam;
    // Mixed precision keeps fp32 master weights; gradients are reduced in this format.
    bool masterWeightsFp32 = true;
    Precision gradReduce = Precision::FP32;
    // Attention kernel. Fused kernels never materialize the scores (Dao et al. 2022);
    // "native" is the hardware's best one (FlashAttention-3/cuDNN on Hopper and later,
    // FlashAttention-2 elsewhere), "flash2" the portable FlashAttention-2.
    AttentionKernel attention = AttentionKernel::Native;
    bool fusedAttention() const { return attention != AttentionKernel::Unfused; }
    // Fused elementwise kernels (Megatron-Core/Transformer Engine, XLA, torch.compile)
    // rather than eager PyTorch ops; decides the memory traffic around the GEMMs.
    bool fusedKernels = true;
    // Layer tables: batch norm and ReLU folded into the convolutions (cuDNN's fused
    // operations), beyond fusing elementwise chains (fusedKernels).
    bool convolutionFusion = false;
    // The whole step runs as one captured graph (XLA, CUDA graphs), so the host does not
    // issue kernels one by one; otherwise each launch costs host time and a layer runs no
    // faster than its kernels can be issued.
    bool graphCapture = false;
    // Q, K and V projections as one GEMM, and a gated MLP's gate and up projections as
    // one (Megatron-Core's linear_qkv and linear_fc1); false: separate linears on the
    // same input (torchtitan's and Hugging Face's Llama: wq, wk, wv; w1, w3), each a
    // narrower GEMM.
    bool fusedProjections = true;
    // torch.autocast over fp32 parameters (plain PyTorch, Hugging Face transformers): the
    // parameters, gradients and residual stream are fp32, each forward casts the weights
    // and the linears' inputs to 16 bits; false: 16-bit parameters with an fp32 master
    // copy (Megatron-Core, FSDP mixed precision, torchtitan). Eager, it runs each op as its
    // own kernel as the modeling code is written (eager_autocast.h).
    bool autocast = false;
    // Scaled low-precision recipes that communicate the quantized copies instead of the
    // 16-bit tensors (both ignored by 16- and 32-bit runs):
    //  - fp8TpAllGather: sequence-parallel all-gathers (the inputs of column-parallel
    //    linears forward, the output gradients of row-parallel ones backward) carry FP8;
    //    reduce-scatters stay 16-bit (torchao Float8ColwiseParallel/RowwiseParallel,
    //    which torchtitan applies for tensorwise scaling);
    //  - fp8ParamGather: ZeRO/FSDP parameter all-gathers carry the FP8 weights of the
    //    converted linears (torchao enable_fsdp_float8_all_gather, Megatron-Core
    //    --fp8-param-gather).
    bool fp8TpAllGather = false;
    bool fp8ParamGather = false;
    // Gradient compression of the data-parallel sync (grad_compression.h). PowerSGD's
    // rank r: each n x m gradient matrix travels as r(n + m) values; the paper uses rank 2
    // for its CNN and rank 4 for its LSTM (Vogels et al. 2019, Tables 3 and 7), PyTorch's
    // hook defaults to 1. 1-bit Adam/LAMB's warm-up: the share of the run's steps taken
    // uncompressed before the optimizer freezes its variance and compresses
    // (DeepSpeed's freeze_step, as a fraction of the steps).
    GradCompression gradCompression = GradCompression::None;
    int gradCompressionRank = 4;
    double gradCompressionWarmup = 0.15;

    // The host's input pipeline (decode, augment) for layer tables: CPU cores feeding each
    // GPU and the samples one core prepares a second; 0: not a bound.
    double loaderCoresPerGpu = 0;
    double loaderSamplesPerCore = 0;

    double tokensPerStep() const { return double(globalBatch) * seqLen; }
    double steps() const { return tokens / tokensPerStep(); }
    bool operator==(const TrainingSpec&) const = default;
};

} // namespace dtsim
