#pragma once
// A profiler trace in figures: GPU time per kernel category, collectives by type (count,
// bytes, time), how much communication ran under compute, idle gaps, per profiler step.
#include "kineto_trace.h"

#include <array>
#include <string>
#include <vector>

namespace dtsim {

struct CategoryTime {
    double seconds = 0; // summed kernel durations (concurrent kernels count twice)
    long long count = 0;
    // From the launching ops' recorded shapes (record_shapes), each op once however many
    // kernels it launched: GEMM and attention FLOPs, the tensor inputs' bytes.
    double flops = 0, inputBytes = 0;
    long long ops = 0;        // distinct launching ops of this category
    double opSeconds = 0;     // kernel time of those ops (the denominator of their rate)
    double rate() const { return opSeconds > 0 ? flops / opSeconds : 0; } // FLOP/s of the ops with shapes
};
using CategoryTimes = std::array<CategoryTime, 9>; // by KernelCategory

struct CollectiveStats {
    std::string type; // allreduce, allgather, ...
    long long count = 0;
    double seconds = 0;
    double bytes = 0;        // summed message sizes of those whose size the trace records
    long long sized = 0;     // how many had a size
};

// Busy time on one GPU over a window: unions of intervals, so concurrent streams count once.
struct GpuTimes {
    double span = 0;          // first start to last end
    double busy = 0;          // any activity
    double compute = 0;       // kernels other than communication (copies and fills excluded)
    double communication = 0; // communication kernels
    double overlapped = 0;    // compute and communication at once
    double idle() const { return span - busy; }
    double hiddenCommunication() const { return communication > 0 ? overlapped / communication : 0; }
};

struct StepFigures {
    std::string name;  // ProfilerStep#N
    double cpuSeconds = 0;
    long long activities = 0; // launched within the step
    GpuTimes gpu;
    CategoryTimes categories {}; // the step's kernels by category
};

struct ProfileSummary {
    int device = 0; // the GPU summarized (the one with the most activity)
    long long activities = 0;
    CategoryTimes categories {};
    std::vector<CollectiveStats> collectives; // by type, in name order
    GpuTimes whole;                           // the whole trace on that GPU
    std::vector<StepFigures> steps;           // in time order
};

ProfileSummary summarizeProfile(const KinetoTrace& t);

} // namespace dtsim
