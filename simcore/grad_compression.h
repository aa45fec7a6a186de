#pragma once
// Gradient compression of the data-parallel sync (training.grad_compression): the methods'
// names, the weight matrices a GPU's gradient is made of (PowerSGD compresses each one),
// what each method keeps on the GPU and which plans its framework runs. The time it costs
// is the engine's (step_compression.h); its token cost is convergence.h's.
// docs/model.md, "Gradient compression".
#include "scenario.h"

#include <optional>
#include <string>
#include <string_view>

namespace dtsim {

std::string_view gradCompressionName(GradCompression m);
inline constexpr GradCompression kAllGradCompressions[] = { GradCompression::None, GradCompression::PowerSgd,
    GradCompression::OneBit, GradCompression::Fp8, GradCompression::Int8 };
static_assert(std::size(kAllGradCompressions) == kGradCompressionCount);

// A GPU's gradient as PowerSGD sees it: weight matrices (a convolution's kernel as
// out x (in x k x k), as PowerSGD reshapes it) and the vectors (norms, biases) it sends
// uncompressed (Vogels et al. 2019, Sec. 3: "rank-1 tensors" are all-reduced as they are).
struct GradMatrices {
    double elements = 0; // sum of n m over the matrices
    double sides = 0;    // sum of n + m: a rank-r approximation sends r x this
    double matrices = 0; // how many (each is a few kernels to compress)
    double vectors = 0;  // elements sent uncompressed
    double total() const { return elements + vectors; }
    // The same mix for `params` of them (a part of the gradient: the experts', the dense part).
    GradMatrices part(double params) const;
    // Elements PowerSGD sends at rank r, and the side of a typical matrix (for the
    // efficiency of its thin GEMMs).
    double lowRankValues(int rank) const { return rank * sides + vectors; }
    double typicalSide() const;
};

// The synchronised gradient of the scenario's GPU: a transformer's slowest stage
// (`stageParams` values on this GPU, of which `normParams` are vectors), or a layer
// table's layers (TP-split where the plan splits them).
GradMatrices gradMatrices(const Scenario& s, double stageParams, double normParams);

// Bytes of error-feedback state a GPU keeps for `params` synchronised values in a group of
// `groupSize`: PowerSGD one gradient copy (Vogels et al. 2019, Algorithm 2's e); 1-bit
// Adam/LAMB a worker error and a server error of 1/n of it, fp32 (Tang et al. 2021,
// Algorithm 1; DeepSpeed's onebit optimizers allocate worker_error and server_error);
// FP8 and int8 none (MS-AMP's and PyTorch's quantization hooks keep no error).
double compressionStateBytes(const Scenario& s, double params, int groupSize);

// Why this plan cannot run the chosen compression in any framework that implements it,
// naming the field; nullopt when it can (or there is none).
struct CompressionIssue {
    std::string field, reason;
};
std::optional<CompressionIssue> gradCompressionIssue(const Scenario& s);
bool gradCompressionRefused(const Scenario& s) noexcept; // the same test, for the planner's loop

} // namespace dtsim
