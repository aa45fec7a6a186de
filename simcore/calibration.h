#pragma once
// Physical efficiency constants shared by every run: how close real kernels and
// collectives come to the hardware's nominal peaks. Loaded from
// resources/calibration/*.yaml, where each value cites its source.
#include "convergence_law.h"
#include "precision.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace dtsim {

// Achieved matrix-multiply rate, as a fraction of the dense peak, for one generation.
// efficiency(M,N,K) = peakFraction * prod_d d / (d + halfDim): large GEMMs approach
// peakFraction; a dimension equal to halfDim halves it.
struct GenerationCalibration {
    std::string generation;
    double peakFraction = 0.8;
    double halfDim = 64;
    double attentionFraction = 0.5;       // FlashAttention-2-class kernels, fraction of dense peak
    double nativeAttentionFraction = 0.5; // the generation's best fused kernel (FA3/cuDNN on Hopper)
    double attentionHalfSeq = -1;   // the generation's own length ramp (s / (s + this)); < 0: the shared one
    double memoryFraction = 0.8;    // achieved share of HBM bandwidth on streaming kernels
    double convolutionFraction = 1.0; // convolution kernels' rate against a GEMM of the same implicit-GEMM shape
    double reservedMemoryBytes = 2e9; // CUDA context, NCCL and cuBLAS workspaces of that era's stack
};

// One scaled low-precision recipe: how fast its GEMMs run against 16-bit ones, how much
// of the GEMM work it converts, and the bytes quantizing one GEMM input element costs.
struct RecipeCalibration {
    double speedup = 1.9;  // realized low-precision GEMM rate over the BF16 rate (capped by the peak)
    double gemmShare = 1.0; // share of the transformer blocks' GEMM FLOPs the recipe converts
    double castBytes = 5.0; // read 16-bit, write low precision, read again for the amax
    // GEMMs too narrow for the recipe to beat 16-bit (their local weight is N x K): N at
    // most narrowN, or K at most narrowK, or both within narrowBoxN x narrowBoxK. They
    // run at the 16-bit rate and still pay their casts. 0: no limit.
    double narrowN = 0, narrowK = 0, narrowBoxN = 0, narrowBoxK = 0;
    bool hasNarrowLimit() const { return narrowN > 0 || narrowK > 0 || (narrowBoxN > 0 && narrowBoxK > 0); }
};

struct Calibration {
    std::vector<GenerationCalibration> generations;
    GenerationCalibration fallback;
    double attentionBackwardFactor = 2.5; // flash backward FLOPs / forward FLOPs (recomputes S)
    double attentionHalfHeadDim = 32;     // attention efficiency x head_dim / (head_dim + this)
    // GEMM efficiency when a dimension's row of operands is not 16-byte aligned (cuBLAS's
    // fast kernels load 16-byte vectors, and on Hopper TMA requires 16-byte strides): 8-byte
    // aligned, or less (an odd width in 16 bits: GPT-2's 50,257-token vocabulary).
    double gemmAligned8Bytes = 1, gemmUnaligned = 1;
    double attentionHalfSeq = 0;          // and x s / (s + this), s the length one kernel call sees; 0: off
    std::array<RecipeCalibration, kScalingRecipeCount> recipes {}; // by scalingRecipeIndex
    double kernelOverhead = 4e-6; // per kernel launch/tail, seconds
    double hostLaunchOverhead = 0; // host time to issue one kernel from an eager framework, seconds
    double scaleUpBusEfficiency = 0.8;
    double scaleOutBusEfficiency = 0.85;
    double overlapEfficiency = 0.9; // share of a compute window usable to hide communication
    double overlapSlowdown = 0.3;   // compute time lost per second of hidden communication
    double overlapSlowdownScaleOut = 0.3; // the same for collectives paced by the NICs
    double gradBucketBytes = 40e6 * 4; // Megatron DDP bucket: 40M fp32 elements
    double layerTableBucketBytes = 25e6; // PyTorch DDP's default bucket (bucket_cap_mb = 25), for layer tables
    double stepOverhead = 0.0;     // per optimizer step: data loading, logging, syncs
    double capturedStepOverhead = 0.0; // the same when the whole step is one captured graph
    double allocatorOverhead = 0.05;  // fragmentation share of the allocated bytes
    double optimizerBytesPerParam = 32; // Adam update traffic per fp32 master parameter
    // The optimizer step on the CPU (offload) moves the same bytes through host memory at
    // this share of its peak bandwidth (ZeRO-Offload's CPU-Adam, Ren et al. 2021, Table 4).
    double cpuOptimizerEfficiency = 0.46;
    // GPU memory gradient offload keeps: DeepSpeed's two reduce buckets in the 16-bit format.
    double offloadGradientBufferBytes = 2e9;
    // Published convergence fits (loss laws, the critical batch): `convergence` in the
    // file; absent, a loss target is refused (convergenceIssue).
    ConvergenceConstants convergence;

    const GenerationCalibration& forGeneration(const std::string& generation) const;
    const RecipeCalibration& forRecipe(ScalingRecipe r) const { return recipes[scalingRecipeIndex(r)]; }
    // The attention length ramp of a generation: its own, else the shared one.
    double attentionHalfSeqFor(const GenerationCalibration& g) const
    {
        return g.attentionHalfSeq >= 0 ? g.attentionHalfSeq : attentionHalfSeq;
    }
    // The largest compute speed factor (a calibration overlay's compute_scale) that keeps
    // every kernel of the generation at or below the GPU's peak: the best GEMM,
    // convolution or attention rate the model gives it, scaled, reaches 100% at most.
    static double maxComputeScale(const GenerationCalibration& g)
    {
        const double best = std::max({ g.peakFraction * std::max(1.0, g.convolutionFraction), g.attentionFraction, g.nativeAttentionFraction });
        return best > 0 ? 1 / best : 1;
    }
};

} // namespace dtsim
