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

} // namespace dtsim
