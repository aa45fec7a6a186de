#include "measurement_text.h"

#include "../units.h"

#include <cmath>
#include <cstdio>

namespace dtsim {

namespace {

std::string format(const char* f, auto... args)
{
    char b[512];
    std::snprintf(b, sizeof b, f, args...);
    return b;
}

std::string times(const std::string& what, const GpuTimes& g)
{
    return format("  %-18s span %s, busy %s (%.1f%%), idle %s; compute %s, communication %s, %.1f%% of it under compute\n",
        what.c_str(), formatSeconds(g.span).c_str(), formatSeconds(g.busy).c_str(), g.span > 0 ? 100 * g.busy / g.span : 0.0,
        formatSeconds(g.idle()).c_str(), formatSeconds(g.compute).c_str(), formatSeconds(g.communication).c_str(),
        100 * g.hiddenCommunication());
}

} // namespace

std::string profileText(const KinetoTrace& t, const ProfileSummary& s)
{
    std::string out = format("%s: %zu events, %lld GPU activities on device %d (%s)\n", t.file.c_str(), t.events, s.activities, s.device,
        t.deviceName.empty() ? "device not named in the trace" : t.deviceName.c_str());
    if (t.worldSize > 0)
        out += format("rank %d of %d (%s)\n", t.rank, t.worldSize, t.backend.c_str());
    out += "\nGPU time by kernel category (summed durations; a kernel's category from the op that launched it where the\n"
           "trace records ops, else from its name), and the rate of the ops whose shapes the trace records\n";
    for (int c = 0; c < kKernelCategoryCount; ++c) {
        const CategoryTime& k = s.categories[c];
        if (k.count == 0)
            continue;
        out += format("  %-18s %10s %7lld x", kernelCategoryName(KernelCategory(c)), formatSeconds(k.seconds).c_str(), k.count);
        if (k.flops > 0)
            out += "   " + formatFlops(k.rate()) + " over the " + formatCount(double(k.ops)) + " ops with shapes ("
                + formatSeconds(k.opSeconds) + ")";
        out += "\n";
    }
    if (!s.collectives.empty()) {
        out += "\nCollectives\n";
        for (const CollectiveStats& k : s.collectives)
            out += format("  %-14s %5lld x, %s, %s\n", k.type.c_str(), k.count, formatSeconds(k.seconds).c_str(),
                k.sized > 0 ? (formatBytes(k.bytes) + " in " + std::to_string(k.sized) + " sized").c_str() : "sizes not recorded");
    }
    out += "\nGPU time (unions of intervals: concurrent streams count once)\n";
    out += times("whole trace", s.whole);
    for (const StepFigures& f : s.steps)
        out += times(f.name, f.gpu);
    if (s.steps.empty())
        out += "  (no ProfilerStep annotations: the trace was not taken with a profiler schedule)\n";
    return out;
}

std::string ncclTestsText(const NcclTestsLog& log, const NcclFit& fit)
{
    std::string out = format("%s: %s over %s ranks, %zu sizes (bus factor %.3f)\n", log.file.c_str(), log.collective.c_str(),
        log.ranks > 0 ? std::to_string(log.ranks).c_str() : "?", log.rows.size(), log.factor);
    out += "\nFitted t(S) = latency + factor S / bus bandwidth, one line per protocol regime\n";
    for (const BandwidthSegment& g : fit.segments)
        out += format("  %9s - %-9s  latency %8s   bus bandwidth %10s   worst size %.1f%%\n", formatBytes(g.fromBytes).c_str(),
            formatBytes(g.toBytes).c_str(), formatSeconds(g.latency).c_str(),
            std::isfinite(g.busBandwidth) ? formatRate(g.busBandwidth).c_str() : "(latency-bound)", 100 * g.maxError);
    out += format("\n%12s %12s %12s %8s\n", "size", "measured", "fitted", "error");
    for (const NcclTestsRow& r : log.rows) {
        const double fitted = fit.busBandwidthAt(r.bytes, log.factor);
        out += format("%12s %12s %12s %7.1f%%\n", formatBytes(r.bytes).c_str(), formatRate(r.busBandwidth).c_str(),
            formatRate(fitted).c_str(), 100 * (fitted / r.busBandwidth - 1));
    }
    out += format("\nworst size: %.1f%% off the log's bus bandwidth\n", 100 * fit.maxError);
    return out;
}

} // namespace dtsim
