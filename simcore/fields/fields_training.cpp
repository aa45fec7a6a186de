// The `training` section.
#include "field_builder.h"
#include "field_tables.h"

#include "../convergence_law.h"
#include "../grad_compression.h"
#include "../scenario_rules.h"

namespace dtsim::fields {

namespace {

std::vector<ChoiceName> precisionNames()
{
    std::vector<ChoiceName> names;
    for (Precision p : kAllPrecisions)
        names.push_back({ std::string(precisionName(p)), int(p) });
    return names;
}

std::vector<ChoiceName> recipeNames()
{
    std::vector<ChoiceName> names;
    for (ScalingRecipe r : kAllScalingRecipes)
        names.push_back({ std::string(scalingRecipeName(r)), int(r) });
    return names;
}

// mxfp8 and nvfp4 name a format and its scaling recipe at once; the choice value of
// such an alias is 100 + the recipe, which `setPrecisionChoice` unfolds.
constexpr int kRecipeAlias = 100;

void setPrecisionChoice(Scenario& s, double v, int)
{
    const int value = static_cast<int>(std::lround(v));
    if (value >= kRecipeAlias) {
        const ScalingRecipe recipe = ScalingRecipe(value - kRecipeAlias);
        s.training.precision = recipePrecision(recipe);
        s.training.scaling = recipe;
    } else {
        s.training.precision = Precision(value);
    }
}

// FP8/FP4-only switches, off by default and written only when on.
Field lowPrecisionFlag(const char* path, bool TrainingSpec::*member, std::string help, const char* label, std::string panelHelp)
{
    return flag(path).byDefault("`false`").help(std::move(help))
        .bind(&Scenario::training, member)
        .check([](const Scenario& s, double v, int) -> std::string {
            if (v != 0 && !isScaledLowPrecision(s.training.precision))
                return "applies to fp8 and fp4 runs only; precision is " + std::string(precisionName(s.training.precision));
            return {};
        })
        .writtenWhen([member](const Scenario& s, int) { return s.training.*member; })
        .panel("Hardware", label, 0, 1, SliderScale::Linear, std::move(panelHelp));
}

std::vector<ChoiceName> lossLawNames()
{
    std::vector<ChoiceName> names;
    for (int i = 0; i < kLossLawCount; ++i)
        names.push_back({ std::string(lossLawName(LossLaw(i))), i });
    return names;
}

bool lossTarget(const Scenario& s) { return s.training.target == TrainingTarget::Loss; }

// What the run trains to: a token count, or a loss that a published law turns into
// tokens at the run's batch (convergence.h, docs/convergence.md).
void addTargetFields(std::vector<FieldDef>& f)
{
    f.push_back(choice("training.target", { { "tokens", int(TrainingTarget::Tokens) }, { "loss", int(TrainingTarget::Loss) } })
            .byDefault("`tokens`")
            .help("what the run trains to: `tokens` (training.tokens) or `loss` (training.target_loss; the tokens follow from the "
                  "loss law and grow with the batch past the critical batch)")
            .bind(&Scenario::training, &TrainingSpec::target)
            .writtenWhen([](const Scenario& s, int) { return lossTarget(s); })
            .panel("Run", "Train to", 0, 1, SliderScale::Linear,
                "A token count, or a loss: then the tokens come from the loss law and grow with the batch past the critical batch.")
            .forModel(ModelKind::Transformer));
    // Not required by the loader, so a window edit to `target: loss` saves and reopens; a
    // loss target without it is refused where the run is planned (convergenceIssue).
    f.push_back(quantity("training.target_loss", Dimension::Count, "").byDefault("needed with `target: loss`")
            .help("the final loss to reach, in nats per token on the loss law's corpus (`2.0`); kept but unused with `target: tokens`")
            .bind(&Scenario::training, &TrainingSpec::targetLoss)
            // Kept with a token target too, so switching the target back and forth loses nothing.
            .writtenWhen([](const Scenario& s, int) { return s.training.targetLoss > 0; })
            .panel("Run", "Target loss", 1.5, 4, SliderScale::Linear, "The final loss to reach (nats per token on the law's corpus).")
            .forModel(ModelKind::Transformer));
    f.push_back(choice("training.loss_law", lossLawNames()).byDefault("`besiroglu2024`")
            .help("the published fit L(N, D) = E + A/N^alpha + B/D^beta that turns tokens into loss: `besiroglu2024` (the "
                  "replication's refit) or `hoffmann2022` (Chinchilla's Approach 3); constants in the calibration file")
            .bind(&Scenario::training, &TrainingSpec::lossLaw)
            .writtenWhen([](const Scenario& s, int) { return s.training.lossLaw != LossLaw::Besiroglu2024; })
            .panel("Run", "Loss law", 0, kLossLawCount - 1, SliderScale::Linear,
                "Which published fit turns tokens into loss (both fitted to MassiveText, Chinchilla's corpus).")
            .forModel(ModelKind::Transformer));
    f.push_back(quantity("training.critical_batch", Dimension::Count, "", Bound::NonNegative).byDefault("`0` (from the loss)")
            .help("a measured critical batch in tokens; past it each doubling of the batch nearly doubles the tokens a loss "
                  "needs; `0`: Kaplan et al.'s B_crit(L) at the run's final loss")
            .bind(&Scenario::training, &TrainingSpec::criticalBatchTokens)
            .writtenWhen([](const Scenario& s, int) { return s.training.criticalBatchTokens > 0; })
            .forModel(ModelKind::Transformer));
}

// How much the run trains, in what batches, and what feeds it.
void addBatchFields(std::vector<FieldDef>& f)
{
    f.push_back(integer("training.global_batch").required().byDefault("required").help("sequences per optimizer step")
            .bind(&Scenario::training, &TrainingSpec::globalBatch)
            .panel("Batch", "Global batch", 1, 1 << 24, SliderScale::Powers2,
                "Sequences (samples for a layer table) per optimizer step. Micro-batches per replica = global / (DP x micro)."));
    f.push_back(integer("training.micro_batch").byDefault("`1`")
            .help("sequences per forward/backward; gradient accumulation = `global_batch / (dp * micro_batch)`")
            .bind(&Scenario::training, &TrainingSpec::microBatch)
            .panel("Batch", "Micro-batch", 1, 8192, SliderScale::Powers2,
                "Sequences (samples for a layer table) per forward/backward pass; larger ones raise GEMM efficiency and activation memory."));
    f.push_back(integer("training.seq_len").required().byDefault("required").help("tokens per sequence")
            .bind(&Scenario::training, &TrainingSpec::seqLen)
            .panel("Batch", "Sequence length", 64, 1 << 20, SliderScale::Powers2, "Tokens per sequence. Attention FLOPs grow as s^2 per sequence.")
            .forModel(ModelKind::Transformer));
    addTargetFields(f);
    f.push_back(quantity("training.tokens", Dimension::Count, "")
            .requiredWhen([](const Scenario& s) { return s.training.target == TrainingTarget::Tokens; })
            .typeText("count > 0").byDefault("required unless `target: loss`")
            .help("training tokens (`300e9`, `15.6T`); with `target: loss` the loss law decides them and this is not used")
            .bind(&Scenario::training, &TrainingSpec::tokens)
            .writtenWhen([](const Scenario& s, int) { return s.training.tokens > 0; })
            .panel("Run", "Training tokens", 0.001, 1e6, SliderScale::Log, "Tokens to train on. Time to train = tokens / throughput.")
            .shown("B", 1e9)
            .forModel(ModelKind::Transformer));
    f.push_back(quantity("training.samples", Dimension::Count, "").required().typeText("count > 0").byDefault("required")
            .help("layer tables: samples to train on, epochs x dataset (`90 x 1.2M` is `108M`)")
            .bind(&Scenario::training, &TrainingSpec::tokens)
            .panel("Run", "Training samples", 0.001, 1e6, SliderScale::Log, "Samples to train on (epochs x dataset). Time to train = samples / throughput.")
            .shown("M", 1e6)
            .forModel(ModelKind::LayerTable));
    f.push_back(quantity("training.loader_cores_per_gpu", Dimension::Count, "", Bound::NonNegative).byDefault("`0` (not a bound)")
            .help("layer tables: host CPU cores decoding and augmenting samples for each GPU")
            .bind(&Scenario::training, &TrainingSpec::loaderCoresPerGpu)
            .writtenWhen([](const Scenario& s, int) { return s.training.loaderCoresPerGpu > 0; })
            .panel("Run", "Input cores per GPU (0 = no bound)", 0, 64, SliderScale::Linear,
                "Host CPU cores preparing samples for each GPU; with the rate below, a bound on the step (docs/layers.md).")
            .forModel(ModelKind::LayerTable));
    f.push_back(quantity("training.loader_samples_per_core", Dimension::Count, "", Bound::NonNegative).byDefault("`0` (not a bound)")
            .help("layer tables: samples one host core decodes and augments a second (JPEG decode, crop, flip)")
            .bind(&Scenario::training, &TrainingSpec::loaderSamplesPerCore)
            .writtenWhen([](const Scenario& s, int) { return s.training.loaderSamplesPerCore > 0; })
            .panel("Run", "Samples per core per second", 0, 2000, SliderScale::Linear,
                "Samples one host core decodes and augments a second; 0 = the input pipeline never bounds the step.")
            .forModel(ModelKind::LayerTable));
}

// The compute format and, for FP8/FP4, its scaling recipe.
void addNumberFormatFields(std::vector<FieldDef>& f)
{
    std::vector<ChoiceName> precisions = precisionNames();
    precisions.push_back({ "mxfp8", kRecipeAlias + int(ScalingRecipe::Mxfp8), true });
    precisions.push_back({ "nvfp4", kRecipeAlias + int(ScalingRecipe::Nvfp4), true });
    f.push_back(choice("training.precision", std::move(precisions)).byDefault("`bf16`")
            .help("compute format; must have a peak in the catalogue; `mxfp8` and `nvfp4` are `fp8` and `fp4` with that scaling recipe")
            .access([](const Scenario& s, int) { return double(int(s.training.precision)); }, setPrecisionChoice)
            .panel("Hardware", "Precision", 0, kPrecisionCount - 1, SliderScale::Linear,
                "Number format of the GEMMs; MFU is measured against this format's dense peak.")
            .edit([](Scenario& s, double v) { setPrecision(s, Precision(std::lround(v))); }));
    f.push_back(choice("training.scaling", recipeNames()).byDefault("`tensorwise` (fp8), `nvfp4` (fp4)")
            .help("how an FP8/FP4 recipe scales its tensors; each recipe's GEMM speed-up, converted share and cast traffic are in "
                  "the calibration's `scaling_recipes`; only with `fp8`/`fp4`")
            .bind(&Scenario::training, &TrainingSpec::scaling)
            // Kept when the precision named it (mxfp8), else the format's usual recipe.
            .derived([](const Scenario& s, int) {
                const ScalingRecipe r = recipePrecision(s.training.scaling) == s.training.precision ? s.training.scaling
                                                                                                   : defaultScaling(s.training.precision);
                return DerivedDefault::of(double(int(r)));
            })
            .check([](const Scenario& s, double v, int) -> std::string {
                const Precision p = s.training.precision;
                const ScalingRecipe r = ScalingRecipe(std::lround(v));
                if (!isScaledLowPrecision(p))
                    return "applies to fp8 and fp4 runs only; precision is " + std::string(precisionName(p));
                if (recipePrecision(r) != p)
                    return std::string(scalingRecipeName(r)) + " computes in " + std::string(precisionName(recipePrecision(r)))
                        + ", but precision is " + std::string(precisionName(p));
                return {};
            })
            .writtenWhen([](const Scenario& s, int) { return isScaledLowPrecision(s.training.precision); })
            .panel("Hardware", "FP8/FP4 scaling", 0, kScalingRecipeCount - 1, SliderScale::Linear,
                "How an FP8/FP4 recipe scales its tensors: per tensor (Transformer Engine, torchao tensorwise), per row "
                "(torchao rowwise: slower GEMMs), per 1x128/128x128 block (DeepSeek-V3), MXFP8 and NVFP4 blocks (Blackwell). "
                "16- and 32-bit runs have none.")
            .edit([](Scenario& s, double v) { setScaling(s, ScalingRecipe(std::lround(v))); }));
}

// The optimizer, its master weights and the gradients' format.
void addOptimizerFields(std::vector<FieldDef>& f)
{
    f.push_back(choice("training.optimizer", { { "adam", int(Optimizer::Adam) }, { "adamw", int(Optimizer::Adam), true }, { "sgd", int(Optimizer::Sgd) } })
            .typeText("`adam`/`adamw` or `sgd`").byDefault("`adam`").help("Adam keeps two fp32 states per parameter")
            .bind(&Scenario::training, &TrainingSpec::optimizer));
    f.push_back(flag("training.master_weights_fp32").byDefault("`true`").help("fp32 master copy in mixed precision")
            .bind(&Scenario::training, &TrainingSpec::masterWeightsFp32));
    f.push_back(choice("training.grad_reduce", { { "fp32", int(Precision::FP32) }, { "bf16", int(Precision::BF16) }, { "fp16", int(Precision::FP16) } })
            .byDefault("`fp32` in mixed precision").help("format gradients are accumulated and reduced in")
            .bind(&Scenario::training, &TrainingSpec::gradReduce)
            .derived([](const Scenario& s, int) {
                const Precision p = s.training.precision;
                const bool mixed = p != Precision::FP32 && p != Precision::TF32 && s.training.masterWeightsFp32;
                const Precision storage = storageBytes(p) == 4.0 ? Precision::FP32 : Precision::BF16;
                return DerivedDefault::of(double(int(mixed ? Precision::FP32 : storage)));
            }));
}

std::vector<ChoiceName> gradCompressionNames()
{
    std::vector<ChoiceName> names;
    for (GradCompression m : kAllGradCompressions)
        names.push_back({ std::string(gradCompressionName(m)), int(m) });
    return names;
}

bool compresses(const Scenario& s, GradCompression m) { return s.training.gradCompression == m; }

// Gradient compression of the data-parallel sync (grad_compression.h, docs/model.md).
void addCompressionFields(std::vector<FieldDef>& f)
{
    f.push_back(choice("training.grad_compression", gradCompressionNames()).byDefault("`none`")
            .help("compress the data-parallel gradient sync: `powersgd` (rank-r factors in two all-reduces, error feedback; "
                  "PyTorch DDP's communication hook, ZeRO 0 only), `onebit` (1-bit Adam/LAMB, DeepSpeed: signs in an "
                  "all-to-all and an all-gather after an uncompressed warm-up; Adam, ZeRO 0), `fp8` (one byte a value in the "
                  "plan's own all-reduce or reduce-scatter, MS-AMP/FP8-LM; any ZeRO stage), `int8` (PyTorch's quantization "
                  "hook: every GPU all-gathers the int8 copies; ZeRO 0)")
            .bind(&Scenario::training, &TrainingSpec::gradCompression)
            .writtenWhen([](const Scenario& s, int) { return !compresses(s, GradCompression::None); })
            .panel("Parallelism", "Gradient compression", 0, kGradCompressionCount - 1, SliderScale::Linear,
                "Fewer bytes in the data-parallel gradient sync, for GPU time to compress and decompress and (where "
                "published) extra tokens. PowerSGD and int8 need ZeRO 0, 1-bit needs Adam and ZeRO 0.")
            .labels({ "none", "PowerSGD", "1-bit Adam/LAMB", "FP8", "int8" }));
    f.push_back(integer("training.grad_compression_rank").byDefault("`4`")
            .help("PowerSGD's rank r: each n x m gradient matrix travels as r(n + m) values; the paper uses 2 for ResNet-18 "
                  "and 4 for its LSTM (Vogels et al. 2019, Tables 6 and 7)")
            .bind(&Scenario::training, &TrainingSpec::gradCompressionRank)
            .check([](const Scenario&, double v, int) -> std::string { return v >= 1 && v <= 1024 ? "" : "a rank from 1 to 1024"; })
            .writtenWhen([](const Scenario& s, int) { // kept when another method is chosen, as target_loss is
                return compresses(s, GradCompression::PowerSgd) || s.training.gradCompressionRank != TrainingSpec {}.gradCompressionRank;
            })
            .panel("Parallelism", "PowerSGD rank", 1, 64, SliderScale::Powers2,
                "Rank of PowerSGD's approximation: r(n + m) values per n x m matrix; more rank, more bytes and GEMM time."));
    f.push_back(quantity("training.grad_compression_warmup", Dimension::Count, "", Bound::NonNegative).byDefault("`0.15`")
            .help("1-bit Adam/LAMB: the share of the run's steps taken uncompressed before compression starts (DeepSpeed's "
                  "freeze_step; its tutorial suggests 15-25% of the steps)")
            .bind(&Scenario::training, &TrainingSpec::gradCompressionWarmup)
            .check([](const Scenario&, double v, int) -> std::string { return v < 1 ? "" : "a share of the steps below 1"; })
            .writtenWhen([](const Scenario& s, int) {
                return compresses(s, GradCompression::OneBit) || s.training.gradCompressionWarmup != TrainingSpec {}.gradCompressionWarmup;
            })
            .panel("Parallelism", "1-bit warm-up (share of steps)", 0, 0.5, SliderScale::Linear,
                "1-bit Adam/LAMB run plain Adam for this share of the steps, then compress."));
}

// Which kernels the framework runs: attention, fused elementwise ops, fused GEMMs.
void addKernelFields(std::vector<FieldDef>& f)
{
    f.push_back(choice("training.attention_kernel",
        { { "native", int(AttentionKernel::Native) }, { "flash2", int(AttentionKernel::Flash2) }, { "unfused", int(AttentionKernel::Unfused) } })
            .byDefault("`native`")
            .help("`native`: the GPU's best fused kernel (FlashAttention-3/cuDNN on Hopper and Blackwell, FlashAttention-2 before); "
                  "`flash2`: FlashAttention-2; `unfused`: scores written to memory (pre-2023 stacks)")
            .bind(&Scenario::training, &TrainingSpec::attention));
    f.push_back(flag("training.fused_kernels").byDefault("`true`")
            .help("fused elementwise kernels (Megatron-Core/TE, XLA, torch.compile) vs eager PyTorch ops")
            .bind(&Scenario::training, &TrainingSpec::fusedKernels)
            .panel("Hardware", "Fused elementwise kernels", 0, 1, SliderScale::Linear,
                "Norms, activations and residual adds run as fused kernels (Megatron-Core/TE, XLA, torch.compile), "
                "not one eager PyTorch op each; fewer passes over the activations (docs/layers.md for layer tables)."));
    f.push_back(flag("training.convolution_fusion").byDefault("`false`")
            .help("layer tables: batch-norm statistics in the convolution's epilogue, scale, shift and ReLU in the next one's prologue "
                  "(cuDNN fused operations, NVIDIA's MLPerf ResNet); `fused_kernels` alone fuses each norm's elementwise chain (XLA)")
            .bind(&Scenario::training, &TrainingSpec::convolutionFusion)
            .writtenWhen([](const Scenario& s, int) { return s.training.convolutionFusion; })
            .panel("Hardware", "Convolution fusion (cuDNN fused ops)", 0, 1, SliderScale::Linear,
                "Batch-norm statistics in each convolution's epilogue, scale, shift and ReLU in the next one's prologue, "
                "as NVIDIA's MLPerf ResNet runs: the norms cost nothing forward and one pass backward.")
            .forModel(ModelKind::LayerTable));
    f.push_back(flag("training.fused_projections").byDefault("`true`")
            .help("Q, K and V as one GEMM and a gated MLP's gate and up projections as one (Megatron-Core); `false`: separate, "
                  "narrower linears on the same input (torchtitan and Hugging Face Llama: wq, wk, wv; w1, w3)")
            .bind(&Scenario::training, &TrainingSpec::fusedProjections)
            .writtenWhen([](const Scenario& s, int) { return !s.training.fusedProjections; })
            .panel("Hardware", "Fused Q/K/V and gate/up GEMMs", 0, 1, SliderScale::Linear,
                "Q, K and V run as one GEMM, and the gate and up projections as one (Megatron-Core). Off: separate linears "
                "(torchtitan, Hugging Face), whose narrow K and V GEMMs use the GPU less well."));
}

// What is cast to low precision: FP8 collectives, and autocast's 16-bit copies of fp32 weights.
void addCastFields(std::vector<FieldDef>& f)
{
    f.push_back(lowPrecisionFlag("training.fp8_tp_all_gather", &TrainingSpec::fp8TpAllGather,
        "sequence-parallel all-gathers carry FP8 (inputs forward, output gradients backward); reduce-scatters stay 16-bit "
        "(torchao Float8ColwiseParallel/RowwiseParallel, which torchtitan applies under tensorwise scaling)",
        "FP8 tensor-parallel all-gathers",
        "FP8 runs: the sequence-parallel all-gathers move FP8 copies (one byte an element) instead of 16-bit ones "
        "(torchao's float8 tensor parallelism); reduce-scatters stay 16-bit."));
    f.push_back(lowPrecisionFlag("training.fp8_param_gather", &TrainingSpec::fp8ParamGather,
        "ZeRO/FSDP parameter all-gathers carry the FP8 weights of the converted linears (torchao enable_fsdp_float8_all_gather, "
        "Megatron-Core --fp8-param-gather); embeddings, norms and the output layer stay 16-bit",
        "FP8 parameter all-gathers",
        "FP8 runs: ZeRO/FSDP gather the linears' FP8 weights (one byte each) instead of 16-bit ones "
        "(torchao FSDP float8 all-gather, Megatron-Core --fp8-param-gather)."));
    f.push_back(flag("training.autocast").byDefault("`false`")
            .help("torch.autocast over fp32 parameters (plain PyTorch, Hugging Face transformers): weights, gradients and the "
                  "residual stream in fp32, the weights and the linears' inputs cast to 16 bits by every forward, the loss over fp32 "
                  "logits; with `fused_kernels: false` each op its own kernel as the modeling code runs it. `false`: 16-bit "
                  "parameters with an fp32 master copy (Megatron-Core, FSDP mixed precision, torchtitan)")
            .bind(&Scenario::training, &TrainingSpec::autocast)
            .check([](const Scenario& s, double v, int) {
                return v != 0 && s.training.precision != Precision::BF16 && s.training.precision != Precision::FP16
                    ? "autocast casts to 16 bits: set training.precision to bf16 or fp16" : "";
            })
            .writtenWhen([](const Scenario& s, int) { return s.training.autocast; })
            .panel("Hardware", "torch.autocast over fp32 weights", 0, 1, SliderScale::Linear,
                "Plain PyTorch / Hugging Face: fp32 parameters cast to 16 bits by every forward, fp32 residual stream and "
                "loss. Off: 16-bit parameters and an fp32 master copy (Megatron-Core, FSDP, torchtitan)."));
}

// How the host issues the step's kernels, and the run's deadline.
void addGraphCaptureAndDeadlineFields(std::vector<FieldDef>& f)
{
    f.push_back(flag("training.graph_capture").byDefault("`false`")
            .help("the step runs as one captured graph (XLA, CUDA graphs): no per-kernel host cost; otherwise a layer runs no faster "
                  "than the host issues its kernels (`host_launch_overhead` each)")
            .bind(&Scenario::training, &TrainingSpec::graphCapture)
            .panel("Hardware", "Captured step (CUDA graphs, XLA)", 0, 1, SliderScale::Linear,
                "The step runs as one captured graph, so the host does not issue kernels one by one. "
                "Off: each kernel costs host time, which bounds small layers."));
    f.push_back(quantity("training.deadline", Dimension::Seconds, "s").typeText("time").byDefault("none")
            .help("the run must finish within it (`90 days`); the app flags a predicted time beyond it and draws the frontier for this duration")
            .bind(&Scenario::training, &TrainingSpec::deadline)
            .writtenWhen([](const Scenario& s, int) { return s.training.deadline > 0; })
            .panel("Run", "Deadline (0 = none)", 0, 3650, SliderScale::Linear,
                "The run must finish within it; the time-to-train tile turns red beyond it, and the frontier uses it as its duration.")
            .shown("days", 86400));
}

} // namespace

// In declaration order, which the docs and the derived defaults follow.
void addTrainingFields(std::vector<FieldDef>& f)
{
    addBatchFields(f);
    addNumberFormatFields(f);
    addOptimizerFields(f);
    addCompressionFields(f);
    addKernelFields(f);
    addCastFields(f);
    addGraphCaptureAndDeadlineFields(f);
}

} // namespace dtsim::fields
