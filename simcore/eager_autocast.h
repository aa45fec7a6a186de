#pragma once
// The memory-bound kernels of eager PyTorch under torch.autocast over fp32 parameters, as
// Hugging Face transformers' modeling code runs (the way most people first train a model
// on one GPU): every elementwise op is its own kernel; the parameters are cast to 16 bits
// by every forward; the residual stream stays fp32 (the embedding table is fp32), so norms,
// rotary and the residual adds run in fp32 and each linear casts its input; ops on
// autocast's fp32 list (pow, softmax, layer_norm) compute in fp32; the loss runs over
// logits upcast to fp32. Counted op by op from the code and checked against the profiler
// traces in tests/measurements/h200-pytorch (docs/model.md, "Eager PyTorch").
#include "model.h"
#include "scenario.h"

namespace dtsim {

// HBM bytes and kernels of one layer's elementwise work for one micro-batch of `tokens`
// on one GPU: forward, and backward (autograd's kernels for the same ops).
struct EagerTraffic {
    double forwardBytes = 0, backwardBytes = 0;
    int forwardKernels = 0, backwardKernels = 0;
};

EagerTraffic autocastLayerTraffic(const Scenario& s, double tokens);
// The embedding lookup and the output layer's logits and loss (the last stage's).
EagerTraffic autocastEmbeddingTraffic(const Scenario& s, double tokens);
EagerTraffic autocastLossTraffic(const Scenario& s, double tokens, double vocabLocal);

// Bytes autograd keeps for backward from one layer's forward of one micro-batch (no
// recomputation): the fp32 residual stream and norm outputs, each linear's own 16-bit
// copy of its input, attention's inputs and output, the MLP's activations in the dtypes
// the code computes them in, and the KV cache transformers keeps alive through the step.
double autocastSavedBytes(const Scenario& s, double tokens);

} // namespace dtsim
