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
    long long op = -1; // External id of the CPU op that launched it (KinetoTrace::ops), -1 when unknown
    KernelCategory category = KernelCategory::Other;
    std::string collective; // for communication kernels
    double bytes = 0;       // a collective's message size, where the trace records it
};

struct ProfilerStep {
    std::string name; // "ProfilerStep#550"
    double start = 0, duration = 0; // CPU time, seconds
};

// A CPU operator that launched kernels, with what its recorded shapes give (launching_op.h).
struct LaunchingOp {
    int name = -1;         // index into KinetoTrace::opNames
    double flops = 0;      // a GEMM's or an attention call's, counted once for all its kernels
    double inputBytes = 0; // its tensor inputs
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
    std::unordered_map<long long, long long> launchOp; // correlation -> the launching op's External id
    std::unordered_map<long long, LaunchingOp> ops;    // External id -> the op (cpu_op events)
    std::vector<std::string> opNames;                   // distinct op names, in first-seen order
    std::unordered_map<std::string, int> opIndex;       // name -> its index in opNames
    std::size_t events = 0; // traceEvents read

    int opName(const std::string& name)
    {
        const auto [it, added] = opIndex.emplace(name, int(opNames.size()));
        if (added)
            opNames.push_back(name);
        return it->second;
    }
    const std::string& nameOfOp(long long externalId) const
    {
        static const std::string none;
        const auto it = ops.find(externalId);
        return it == ops.end() || it->second.name < 0 ? none : opNames[std::size_t(it->second.name)];
    }
};

// Reads a Chrome-trace JSON file, plain or gzip. InputError (file, line, field) for
// files that are not JSON or not a profiler trace. `progress` (0..1, by bytes read)
// is called now and then and stops the reading by returning false.
KinetoTrace readKinetoTrace(const std::string& path, const std::function<bool(double)>& progress = {});

} // namespace dtsim
