#pragma once
// The CPU operator that launched a GPU kernel, as a PyTorch profiler trace records it
// (`cpu_op` events; with `record_shapes=True` their input dims, dtypes and scalar
// arguments). The kernel's category follows from the operator (aten::mm is a GEMM
// whatever cuBLAS names its kernel), and the FLOPs of a matrix product or an attention
// call, and the bytes an elementwise op reads, from its inputs.
#include <optional>
#include <string>
#include <vector>

namespace dtsim {

enum class KernelCategory;

// Whether an operator's or kernel's name contains `part`.
inline bool nameHas(const std::string& name, const char* part) { return name.find(part) != std::string::npos; }

// What record_shapes wrote for one operator call.
struct OpInputs {
    std::vector<std::vector<double>> dims; // per input: its shape (empty for scalars, lists)
    std::vector<std::string> types;        // per input: "c10::BFloat16", "float", "Scalar", ...
    std::vector<std::string> concrete;     // per input: a scalar's value as text, else ""
};

struct OpCost {
    double flops = 0;      // GEMM and attention calls with shapes; 0 for the rest
    double inputBytes = 0; // the tensor inputs' bytes (an elementwise op's reads)
    bool attentionBackward = false;
};

// The category of an operator's kernels from its name (aten::mm -> Gemm, aten::_cudnn_
// attention_backward -> Attention, aten::_fused_adamw_ -> Optimizer, ...); nullopt for an
// operator that says nothing (a Python range, a profiler annotation), whose kernels keep
// the category their own names give.
std::optional<KernelCategory> categoryOfOp(const std::string& opName);

// FLOPs and input bytes of one call (0 where the trace has no shapes).
OpCost costOfOp(const std::string& opName, const OpInputs& in);

// Bytes of one element of a dtype as the profiler names it ("c10::BFloat16", "float",
// "long int", "Float8_e4m3fn", ...); 0 when unknown or not a tensor.
double dtypeBytes(const std::string& type);

} // namespace dtsim
