#pragma once
// nccl-tests logs (all_reduce_perf, all_gather_perf, reduce_scatter_perf, alltoall_perf,
// sendrecv_perf): the table of message size, time and bus bandwidth, and a fit of the
// collective's latency and bus bandwidth that reproduces it.
//
// The table's layout is the one nccl-tests documents (README.md, doc/PERFORMANCE.md):
//   size count type redop root | time algbw busbw #wrong | time algbw busbw #wrong
// sizes in bytes, times in microseconds, bandwidths in GB/s, out-of-place then in-place.
// busbw = algbw x a factor per collective (2(n-1)/n for all-reduce, (n-1)/n for
// all-gather, reduce-scatter and all-to-all, 1 for send/receive), so a collective of
// size S on n ranks takes t(S) = latency + factor x S / busbw: a straight line in S.
#include <string>
#include <vector>

namespace dtsim {

struct NcclTestsRow {
    double bytes = 0;
    double seconds = 0;      // out-of-place time
    double busBandwidth = 0; // factor x bytes / seconds: the busbw column to the time's precision
    int line = 0;
};

struct NcclTestsLog {
    std::string file;
    std::string collective; // allreduce, allgather, reducescatter, alltoall, sendrecv
    int ranks = 0;          // "#  Rank  N ..." lines (0 when the log does not list them)
    double factor = 1;      // busbw / algbw, as the log computed it (from its largest size)
    std::vector<NcclTestsRow> rows; // by size; sizes above 0 bytes
};

// Logs with more sizes than this are refused (the fit grows with the square of a
// segment's sizes; a real log has tens).
inline constexpr std::size_t kMaxNcclTestsRows = 10000;

// `collective` : "" to take it from the log's command line or file name
// (all_reduce_perf, ...). InputError (file, line, field) for a log it cannot read.
NcclTestsLog parseNcclTestsLog(const std::string& path, const std::string& text, const std::string& collective = "");
double busFactor(const std::string& collective, int ranks); // busbw / algbw

// One straight line t(S) = latency + factor S / busBandwidth over a range of sizes.
struct BandwidthSegment {
    double fromBytes = 0, toBytes = 0; // the sizes it was fitted on
    double latency = 0;                // seconds, the whole collective's
    double busBandwidth = 0;           // bytes/s; infinite where the time does not grow with size (latency-bound)
    double maxError = 0;               // largest |predicted/measured - 1| of busbw on its sizes
};

struct NcclFit {
    std::vector<BandwidthSegment> segments; // in size order; one when a single line fits
    double maxError = 0;                    // over all sizes
    double busBandwidthAt(double bytes, double factor) const;
};

// Fits lines to the log's sizes, splitting the size range where one line misses a size
// by more than `tolerance` (NCCL switches protocols, LL to LL128 to Simple, as messages
// grow, and each has its own latency and bandwidth: NCCL docs, "NCCL_PROTO").
NcclFit fitNcclTests(const NcclTestsLog& log, double tolerance = 0.05);

// The fit as an overlay's measured collective for `tier`, its source naming the log.
struct MeasuredCollective;
enum class MeasuredTier;
MeasuredCollective measuredCollective(const NcclTestsLog& log, const NcclFit& fit, MeasuredTier tier);

} // namespace dtsim
