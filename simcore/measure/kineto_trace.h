#pragma once
// What dtsim reads from a PyTorch profiler (Kineto) trace: the GPU's kernels, copies
// and fills, the launches that tie them to CPU time, the profiler's step annotations,
// and the device and world the trace was taken on. Read in one streaming pass.
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace dtsim {

enum class KernelCategory { Gemm, Attention, Convolution, ElementwiseNorm, Optimizer, Communication, Memcpy, Memset, Other };
inline constexpr int kKernelCategoryCount = 9;
const char* kernelCategoryName(KernelCategory c); // "gemm", "attention", ...

// The category of a GPU kernel from its name (and a collective's own name, when the
// trace records one). The rules are the names cuBLAS, CUTLASS, cuDNN, FlashAttention,
// PyTorch's ATen and NCCL give their kernels.
KernelCategory classifyKernel(const std::string& name);
// "allreduce", "allgather", "reducescatter", "alltoall", "sendrecv", "broadcast",
// "reduce", or "" : from the trace's "Collective name" or else the NCCL kernel name.
std::string collectiveType(const std::string& kernelName, const std::string& collectiveName);

struct GpuActivity {
    double start = 0, duration = 0; // seconds (the trace's microseconds / 1e6)
    int device = 0;
    long long stream = 0;
    long long correlation = -1;
    KernelCategory category = KernelCategory::Other;
    std::string collective; // for communication kernels
    double bytes = 0;       // a collective's message size, where the trace records it
};

struct ProfilerStep {
    std::string name; // "ProfilerStep#550"
    double start = 0, duration = 0; // CPU time, seconds
};

struct KinetoTrace {
    std::string file;
    std::string deviceName; // deviceProperties[0].name, or ""
    double deviceMemoryBytes = 0;
    int computeMajor = 0, computeMinor = 0;
    int rank = -1, worldSize = 0; // distributedInfo; -1 and 0 when absent
    std::string backend;
    std::vector<GpuActivity> gpu; // kernels, copies and fills, in file order
    std::vector<ProfilerStep> steps;
    std::unordered_map<long long, double> launchTime; // correlation -> CPU launch time (s)
    std::size_t events = 0; // traceEvents read
};

// Reads a Chrome-trace JSON file, plain or gzip. InputError (file, line, field) for
// files that are not JSON or not a profiler trace. `progress` (0..1, by bytes read)
// is called now and then and stops the reading by returning false.
KinetoTrace readKinetoTrace(const std::string& path, const std::function<bool(double)>& progress = {});

} // namespace dtsim
