#include "offload.h"

#include "precision.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

namespace {

// fp32 bytes of the optimizer's state per parameter: the master weight and its moments.
double stateBytes(const Scenario& s) { return 4.0 + (s.training.optimizer == Optimizer::Adam ? 8.0 : 4.0); }

// Seconds to move `bytes` from or to where a target keeps them: NVMe data also crosses
// the link, so the slower of the two paces it.
double fromTarget(const HardwareSpec& h, OffloadTarget t, double bytes)
{
    if (bytes <= 0 || t == OffloadTarget::None)
        return 0.0;
    const double rate = t == OffloadTarget::Nvme ? std::min(h.hostLinkBandwidth, h.nvmeBandwidth) : h.hostLinkBandwidth;
    return bytes / rate;
}

// After backward: the gradient shard down (unless streamed already), the CPU step, the
// updated 16-bit weights up (to the host's own copy instead when the parameters live
// there), and the states' NVMe swap. DeepSpeed tiles these so they run at once; the
// slowest sets the time.
void optimizerStep(const Scenario& s, const Calibration& c, const OffloadShard& shard, OffloadReport& r)
{
    const OffloadSpec& o = s.plan.offload;
    const HardwareSpec& h = s.hardware;
    const double params = shard.optimizerParams * o.optimizerFraction;
    const double share = hostShareScale(s);
    r.cpuOptimizer = params * cpuOptimizerBytesPerParam(s, c) / (h.hostMemoryBandwidth * share * c.cpuOptimizerEfficiency);
    const double down = o.gradients == OffloadTarget::None ? params * 4.0 : 0.0; // fp32 gradients (DeepSpeed casts on the GPU)
    const double up = o.parameters == OffloadTarget::None ? params * storageBytes(s.training.precision) : 0.0;
    double swap = 0;
    if (o.optimizer == OffloadTarget::Nvme) {
        r.nvmeBytes += 2.0 * params * stateBytes(s); // read, then write back
        swap = 2.0 * params * stateBytes(s) / (h.nvmeBandwidth * share);
    }
    r.linkBytes += down + up;
    r.optimizerCopies = std::max({ down / h.hostLinkBandwidth, up / h.hostLinkBandwidth, swap });
    r.exposed += std::max(r.cpuOptimizer, r.optimizerCopies);
}

} // namespace

double cpuOptimizerBytesPerParam(const Scenario& s, const Calibration& c)
{
    return c.optimizerBytesPerParam * (s.training.optimizer == Optimizer::Adam ? 1.0 : 0.5);
}

double hostShareScale(const Scenario& s)
{
    const long long gpus = std::max(1LL, s.cluster.gpus);
    return s.cluster.gpusPerNode > gpus ? double(s.cluster.gpusPerNode) / double(gpus) : 1.0;
}

double gpuOptimizerShare(const OffloadSpec& o) { return o.optimizer == OffloadTarget::None ? 1.0 : 1.0 - o.optimizerFraction; }

OffloadReport offloadTimes(const Scenario& s, const Calibration& c, const OffloadShard& shard, const OffloadCompute& compute)
{
    OffloadReport r;
    const OffloadSpec& o = s.plan.offload;
    if (!o.any())
        return r;
    const HardwareSpec& h = s.hardware;
    // Without the host's figures checkPlan refuses offload; a caller that skipped it gets a
    // step that never ends (report_check refuses it) rather than a division by zero.
    const bool nvme = o.optimizer == OffloadTarget::Nvme || o.parameters == OffloadTarget::Nvme;
    if (h.hostLinkBandwidth <= 0 || h.hostMemoryBandwidth <= 0 || (nvme && h.nvmeBandwidth <= 0)) {
        r.exposed = INFINITY;
        return r;
    }
    const double mb = compute.microbatches;
    if (o.optimizer != OffloadTarget::None)
        optimizerStep(s, c, shard, r);
    if (o.gradients != OffloadTarget::None) {
        // Each micro-batch's fp32 gradient shard, accumulated on the host, under its backward.
        const double bytes = shard.optimizerParams * 4.0;
        const double perMb = bytes / h.hostLinkBandwidth;
        r.linkBytes += mb * bytes;
        r.gradientCopies = mb * perMb;
        r.exposed += mb * std::max(0.0, perMb - compute.backward - compute.recompute); // recompute interleaves with backward
    }
    if (o.parameters != OffloadTarget::None) {
        // The 16-bit shard before every gather: forward, backward and a recomputed forward.
        const double passes = 2.0 + (compute.recompute > 0 ? 1.0 : 0.0);
        const double bytes = shard.gatheredParams * storageBytes(s.training.precision) * passes;
        const double perMb = fromTarget(h, o.parameters, bytes);
        r.linkBytes += mb * bytes;
        if (o.parameters == OffloadTarget::Nvme)
            r.nvmeBytes += mb * bytes;
        r.parameterCopies = mb * perMb;
        r.exposed += mb * std::max(0.0, perMb - (compute.forward + compute.backward + compute.recompute));
    }
    if (o.activations != OffloadTarget::None) {
        const double perPass = shard.activationBytes / h.hostLinkBandwidth;
        r.linkBytes += mb * 2.0 * shard.activationBytes;
        r.activationCopies = mb * 2.0 * perPass;
        r.exposed += mb * (std::max(0.0, perPass - compute.forward) + std::max(0.0, perPass - compute.backward - compute.recompute));
    }
    return r;
}

} // namespace dtsim
