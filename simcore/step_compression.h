#pragma once
// The data-parallel gradient sync under gradient compression (training.grad_compression):
// what goes on the wire in which collectives, and the GPU time to compress and decompress,
// through the step's own GEMM and memory-bandwidth rates. Internal to the step model
// (step_sync_phases.cpp, layers/layer_step.cpp). docs/model.md, "Gradient compression".
#include "grad_compression.h"
#include "step_comm.h"
#include "step_layer.h"

namespace dtsim::step_detail {

struct CompressedSync {
    double commSeconds = 0; // the collectives, per step (1-bit: averaged with its warm-up)
    double bytesSent = 0;   // per GPU, per step
    double compute = 0;     // GPU seconds to compress, decompress and keep the error feedback
};

// Synchronising the gradient `g` (a GPU's share: params = g.total()) over the group at
// `span` by the scenario's method, where the plan all-reduces it (ZeRO 0). None and fp8
// are the plain all-reduce at `gradBytes` per value on the wire.
CompressedSync compressedAllReduce(const Scenario& s, const Rates& r, const CommEfficiency& eff, const GroupSpan& span,
    const GradMatrices& g, double gradBytes, CommReport& rep);

// FP8's quantize and dequantize passes over `params` values held at `heldBytes` each
// (an amax read, a read and a one-byte write, a one-byte read and a write back).
double fp8CastSeconds(const Rates& r, double params, double heldBytes);

// The bytes a gradient value takes on the wire under the scenario's method, where the
// plan's collectives carry it unchanged (none and fp8; the others have their own).
double wireBytesPerValue(const TrainingSpec& t);

} // namespace dtsim::step_detail
