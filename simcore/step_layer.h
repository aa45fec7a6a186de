#pragma once
// Inside the step model (step.cpp): one GPU's execution rates and the time of one
// layer's work for one micro-batch. Internal to simcore; views never include it.
#include "calibration.h"
#include "scenario.h"

namespace dtsim::step_detail {

// Execution rates of one GPU for this scenario.
struct Rates {
    double gemmPeak = 0;      // FLOP/s GEMMs see at 100% efficiency (FP8 recipes mixed in)
    double halfGemmPeak = 0;  // of 16-bit GEMMs (the output layer stays 16-bit under FP8)
    double attentionRate = 0;       // achieved FLOP/s of FlashAttention-2-class kernels
    double nativeAttentionRate = 0; // of the generation's best fused kernel
    double memoryRate = 0;    // achieved bytes/s of streaming kernels
    double vectorRate = 0;    // FLOP/s of elementwise arithmetic (the CUDA cores' FP32 peak): a fused op's floor
    double kernel = 0;        // per-kernel fixed cost
    double hostKernel = 0;    // host time to issue one kernel (0 when the step is a captured graph)
    double attentionHalfHeadDim = 0;
    double attentionHalfSeq = 0;
    double elementBytes = 2;   // bytes of a GEMM operand
    double aligned8 = 1, unaligned = 1; // GEMM efficiency below 16-byte-aligned dimensions (Calibration)
    double gemmEfficiencyScale = 1;     // a traced step's GEMM speed over the model's (overlay kernels.gemm_scale)
    // The generation's half_dim is fitted to its 16-bit tensor-core GEMMs. A tile hides its
    // operand loads when its size keeps up with the FLOP rate times the bytes an operand
    // element takes, so precisions that feed fewer bytes a second (FP32 on CUDA cores:
    // 15.7 TFLOP/s x 4 B on a V100 against 125 x 2) reach their peak with smaller tiles.
    double tileScale = 1.0;
    double castBytes = 0;      // HBM bytes quantizing one GEMM input element costs (scaled recipes)
    const RecipeCalibration* narrow = nullptr; // the recipe's narrow-GEMM limit, if it has one
    bool idealized = false; // attention FLOPs not counted (Epoch's assumption)
    const GenerationCalibration* eff = nullptr;
};

// Time of one layer's work for one micro-batch on one GPU.
struct LayerTimes {
    double gemmForward = 0;
    double attentionForward = 0;
    double streamForward = 0;
    double streamBackward = 0; // autograd's elementwise kernels (twice the forward's, unless counted op by op)
    // Forward GEMM time of the projections a recomputation policy may rerun (which ones:
    // recompute_plan.cpp).
    struct Projections {
        double attention = 0; // all of the attention's projections (MLA's five included)
        double qkv = 0;       // Q, K and V (not MLA)
        double oneKv = 0;     // one of K and V
        double output = 0;    // the output projection
        double mlpUp = 0;     // the MLPs' input projections, gate and up (routed and shared experts)
        double mlpUpAlone = 0; // a gated MLP's up projection without its gate (w3)
        double router = 0;    // the MoE router
    } projections;
    // An MoE layer's parts, forward, GPU time (StepReport::moeLayer): the router (its GEMM
    // and routing kernels), token permutation and unpermutation, the routed experts and
    // the shared experts (GEMMs and activations).
    struct MoeParts {
        double router = 0, permute = 0, experts = 0, shared = 0;
    } moe;
    double hostForward = 0;    // host time to issue the forward's kernels
    double hostBackward = 0;   // ... and the backward's (about twice: data and weight gradients, elementwise backward ops)
    double gpuForward() const { return gemmForward + attentionForward + streamForward; }
    double gpuBackward(double attnFactor) const
    {
        return 2.0 * gemmForward + attnFactor * attentionForward + streamBackward;
    }
    // The GPU runs no faster than the host issues its kernels.
    double forward() const { return std::max(gpuForward(), hostForward); }
    double backward(double attnFactor) const { return std::max(gpuBackward(attnFactor), hostBackward); }
};

struct Shape {
    double tokens;      // per micro-batch per GPU (after CP split)
    double normTokens;  // tokens the replicated elementwise work touches (T/tp with SP)
    double elem;        // bytes per activation element
};

struct ElementwiseTraffic {
    double bytes = 0; // forward, per micro-batch per layer; backward streams twice this
    int kernels = 0;
};

Rates ratesFor(const Scenario& s, const Calibration& c);
// Roofline GEMM time at the achieved rate and shape efficiency, plus the kernel cost.
double gemmTime(const Rates& r, double m, double n, double k);
double streamTime(const Rates& r, double bytes, int kernels);
// GEMM efficiency for the alignment of its dimensions: 1 when every dimension's bytes are
// a multiple of 16, less for 8-byte and narrower alignment (Calibration::gemmAligned8Bytes).
double gemmAlignment(const Rates& r, double m, double n, double k);
ElementwiseTraffic elementwiseTraffic(const Scenario& s, const Shape& sh, bool moeLayer, double castBytes);
// An MoE layer's token permutation and unpermutation, forward bytes, and their kernels.
double permutationBytes(const Scenario& s, const Shape& sh);
inline constexpr int kPermutationKernels = 4;
LayerTimes layerTimes(const Scenario& s, const Rates& r, const Shape& sh, bool moeLayer);

} // namespace dtsim::step_detail
