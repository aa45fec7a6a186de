#pragma once
// Numeric formats a training run computes in, and their sizes.
#include <array>
#include <optional>
#include <string_view>

namespace dtsim {

enum class Precision { FP32, TF32, BF16, FP16, FP8, FP4 };
inline constexpr int kPrecisionCount = 6;
inline constexpr std::array<Precision, kPrecisionCount> kAllPrecisions { Precision::FP32,
    Precision::TF32, Precision::BF16, Precision::FP16, Precision::FP8, Precision::FP4 };

constexpr std::string_view precisionName(Precision p)
{
    switch (p) {
    case Precision::FP32: return "fp32";
    case Precision::TF32: return "tf32";
    case Precision::BF16: return "bf16";
    case Precision::FP16: return "fp16";
    case Precision::FP8: return "fp8";
    case Precision::FP4: return "fp4";
    }
    return "?";
}

inline std::optional<Precision> precisionFromName(std::string_view n)
{
    for (Precision p : kAllPrecisions)
        if (precisionName(p) == n)
            return p;
    return std::nullopt;
}

// A scaled low-precision GEMM recipe (FP8, FP4): GEMM inputs are quantized around each
// linear layer while the rest of the step stays 16-bit.
constexpr bool isScaledLowPrecision(Precision p) { return p == Precision::FP8 || p == Precision::FP4; }

// Bytes of an activation or weight element stored in this format. TF32 is a math mode:
// its tensors are stored as fp32. FP8/FP4 runs keep weights and activations that leave
// a GEMM in 16-bit (Transformer Engine recipes), so storage falls back to 2 bytes.
constexpr double storageBytes(Precision p)
{
    switch (p) {
    case Precision::FP32:
    case Precision::TF32: return 4.0;
    case Precision::BF16:
    case Precision::FP16:
    case Precision::FP8:
    case Precision::FP4: return 2.0;
    }
    return 4.0;
}

constexpr int precisionIndex(Precision p) { return static_cast<int>(p); }

// How a scaled low-precision recipe sets its quantization scales. Tensorwise: one scale
// per tensor (Transformer Engine delayed/current scaling, torchao "tensorwise");
// rowwise: one per row (torchao "rowwise"); blockwise: 1x128 activation and 128x128
// weight tiles (DeepSeek-V3, TE Float8BlockScaling); mxfp8: 32-element blocks with
// power-of-two scales that Blackwell's tensor cores apply in hardware (OCP MX v1.0);
// nvfp4: 4-bit values in 16-element blocks with FP8 scales (Blackwell).
enum class ScalingRecipe { Tensorwise, Rowwise, Blockwise, Mxfp8, Nvfp4 };
inline constexpr int kScalingRecipeCount = 5;
inline constexpr std::array<ScalingRecipe, kScalingRecipeCount> kAllScalingRecipes { ScalingRecipe::Tensorwise,
    ScalingRecipe::Rowwise, ScalingRecipe::Blockwise, ScalingRecipe::Mxfp8, ScalingRecipe::Nvfp4 };

constexpr std::string_view scalingRecipeName(ScalingRecipe r)
{
    switch (r) {
    case ScalingRecipe::Tensorwise: return "tensorwise";
    case ScalingRecipe::Rowwise: return "rowwise";
    case ScalingRecipe::Blockwise: return "blockwise";
    case ScalingRecipe::Mxfp8: return "mxfp8";
    case ScalingRecipe::Nvfp4: return "nvfp4";
    }
    return "?";
}

inline std::optional<ScalingRecipe> scalingRecipeFromName(std::string_view n)
{
    for (ScalingRecipe r : kAllScalingRecipes)
        if (scalingRecipeName(r) == n)
            return r;
    return std::nullopt;
}

// The number format a recipe computes its GEMMs in.
constexpr Precision recipePrecision(ScalingRecipe r) { return r == ScalingRecipe::Nvfp4 ? Precision::FP4 : Precision::FP8; }

constexpr int scalingRecipeIndex(ScalingRecipe r) { return static_cast<int>(r); }

} // namespace dtsim
