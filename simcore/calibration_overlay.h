#pragma once
// A scenario's own calibration, fitted to the user's measurements (`dtsim-cli calibrate`)
// and referenced from the scenario (`calibration: overlay.yaml`). It sits over the global
// calibration: a compute-speed factor from a measured step, and the links of a network
// tier as nccl-tests measured them. Empty: the global calibration alone.
#include <string>
#include <vector>

namespace dtsim {

enum class MeasuredTier { ScaleUp, ScaleOut };
const char* measuredTierName(MeasuredTier t); // "scale_up", "scale_out"

// A collective's time on `ranks` GPUs, t(S) = latency + factor S / busBandwidth, over
// the sizes [fromBytes, toBytes] (one line per NCCL protocol regime).
struct MeasuredSegment {
    double fromBytes = 0, toBytes = 0;
    double latency = 0;      // seconds, the whole collective's
    double busBandwidth = 0; // bytes/s; 0: latency-bound (the time does not grow with size)
    bool operator==(const MeasuredSegment&) const = default;
};

struct MeasuredCollective {
    MeasuredTier tier = MeasuredTier::ScaleUp;
    std::string collective; // allreduce, allgather, reducescatter, alltoall, sendrecv
    int ranks = 2;
    std::vector<MeasuredSegment> segments; // by size
    std::string source;
    bool operator==(const MeasuredCollective&) const = default;
};

// A measured compute speed ten times below the model's is a measurement of something
// else (another GPU, a stalled run), not a calibration. Above, the limit is the GPU's
// peak (Calibration::maxComputeScale), checked where the scenario meets the hardware.
inline constexpr double kMinComputeScale = 0.1, kMaxComputeScale = 10;

// Kernel rates fitted to a profiler trace of the user's own step (dtsim-cli calibrate
// TRACE --scenario): each kind's measured over modelled speed, and the step's time
// outside kernels as measured. Scales multiply the calibrated rates (1: as shipped).
struct MeasuredKernels {
    double gemmScale = 1, attentionScale = 1, memoryScale = 1;
    double stepOverhead = -1; // seconds; below 0: the shipped step_overhead
    std::string source;       // "": none fitted
    int line = 0;             // of `kernels` in the file, for the error that refuses it
    bool fitted() const { return !source.empty(); }
    bool operator==(const MeasuredKernels& o) const
    {
        return gemmScale == o.gemmScale && attentionScale == o.attentionScale && memoryScale == o.memoryScale
            && stepOverhead == o.stepOverhead && source == o.source;
    }
};

struct CalibrationOverlay {
    std::string file;          // as the scenario names it ("" : none)
    std::string path;          // resolved against the scenario's folder
    double computeScale = 1;   // measured over predicted compute speed (GEMMs and attention)
    std::string computeSource;
    int computeLine = 0;       // of compute_scale in the file, for the error that refuses it
    MeasuredKernels kernels;
    std::vector<MeasuredCollective> collectives;
    bool empty() const { return file.empty(); }
    // The measured collective of a tier, preferring `collective`'s own; null if none.
    const MeasuredCollective* forTier(MeasuredTier tier, const std::string& collective) const;
    // Adds `m`, replacing an earlier measurement of the same tier and collective.
    void put(MeasuredCollective m);
    // The same measurements from the same file (where in it a value sits is not part of it).
    bool operator==(const CalibrationOverlay& o) const
    {
        return file == o.file && path == o.path && computeScale == o.computeScale && computeSource == o.computeSource
            && kernels == o.kernels && collectives == o.collectives;
    }
};

// Per-step latency and per-GPU bandwidth of a ring over `ranks` GPUs that reproduce
// the measured line at `bytes`: a ring all-reduce takes 2(n-1) steps and moves
// 2(n-1)/n of the data, so alpha = latency / steps and beta = busBandwidth.
struct MeasuredLink {
    double alpha = 0, beta = 0;
};
MeasuredLink measuredLink(const MeasuredCollective& m, double bytes);

} // namespace dtsim
