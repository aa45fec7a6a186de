#include "nccl_tests.h"

#include "../calibration_overlay.h"
#include "../input_error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <sstream>

namespace dtsim {

namespace {

// Beyond these a row is not a measurement: nccl-tests' largest default size is 16 GiB,
// the fastest links move about 1 TB/s, and a collective of hours is a hang.
constexpr double kMaxMessageBytes = 1e15;
constexpr double kMaxCollectiveMicroseconds = 1e10;
constexpr double kMaxBusGigabytesPerSecond = 1e5;
constexpr double kMaxBusFactor = 2.0 + 1e-3; // 2(n-1)/n < 2, with the printed digits' rounding

const char* const kCollectives[][2] = { { "all_reduce", "allreduce" }, { "all_gather", "allgather" },
    { "reduce_scatter", "reducescatter" }, { "alltoall", "alltoall" }, { "sendrecv", "sendrecv" } };

std::string collectiveIn(const std::string& text)
{
    for (const auto& c : kCollectives)
        if (text.find(std::string(c[0]) + "_perf") != std::string::npos)
            return c[1];
    return "";
}

std::vector<std::string> words(const std::string& line)
{
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string s; in >> s;)
        w.push_back(s);
    return w;
}

bool number(const std::string& s, double& v)
{
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && !s.empty() && std::isfinite(v);
}

// mpirun prefixes every line with "[1,0]<stdout>:"; the table starts after it.
std::string stripLauncherPrefix(const std::string& line)
{
    if (!line.empty() && line[0] == '[') {
        const std::size_t colon = line.find(">:");
        if (colon != std::string::npos)
            return line.substr(colon + 2);
    }
    return line;
}

// The line through the sizes [lo, hi) that minimizes the relative error of the times
// (weights 1/t^2): t = latency + x / B with x = factor S. Closed form.
BandwidthSegment fitLine(const std::vector<NcclTestsRow>& rows, std::size_t lo, std::size_t hi, double factor)
{
    double swx = 0, sw = 0, swxx = 0, swt = 0, swxt = 0;
    for (std::size_t i = lo; i < hi; ++i) {
        const double w = 1 / (rows[i].seconds * rows[i].seconds), x = factor * rows[i].bytes, t = rows[i].seconds;
        sw += w;
        swx += w * x;
        swxx += w * x * x;
        swt += w * t;
        swxt += w * x * t;
    }
    BandwidthSegment s;
    s.fromBytes = rows[lo].bytes;
    s.toBytes = rows[hi - 1].bytes;
    const double det = sw * swxx - swx * swx;
    double latency = 0, perByte = 0;
    if (hi - lo >= 2 && det > 0) {
        latency = (swxx * swt - swx * swxt) / det;
        perByte = (sw * swxt - swx * swt) / det;
    }
    if (hi - lo < 2 || det <= 0 || perByte < 0 || latency < 0) {
        // The best line with neither term negative lies on an edge: latency alone (small
        // messages, where the time is flat within noise) or bandwidth alone.
        auto error = [&](double a, double b) {
            double e = 0;
            for (std::size_t i = lo; i < hi; ++i) {
                const double r = (a + factor * rows[i].bytes * b) / rows[i].seconds - 1;
                e += r * r;
            }
            return e;
        };
        const double flat = swt / sw, steep = swxx > 0 ? swxt / swxx : 0;
        if (error(flat, 0) <= error(0, steep)) {
            latency = flat;
            perByte = 0;
        } else {
            latency = 0;
            perByte = steep;
        }
    }
    s.latency = latency;
    s.busBandwidth = perByte > 0 ? 1 / perByte : std::numeric_limits<double>::infinity(); // infinite: latency-bound
    for (std::size_t i = lo; i < hi; ++i) {
        const double predicted = factor * rows[i].bytes / (latency + factor * rows[i].bytes * perByte);
        s.maxError = std::max(s.maxError, std::abs(predicted / rows[i].busBandwidth - 1));
    }
    return s;
}

} // namespace

double busFactor(const std::string& collective, int ranks)
{
    const double n = std::max(1, ranks);
    if (collective == "allreduce")
        return 2 * (n - 1) / n;
    if (collective == "allgather" || collective == "reducescatter" || collective == "alltoall")
        return (n - 1) / n;
    return 1; // sendrecv, broadcast, reduce
}

NcclTestsLog parseNcclTestsLog(const std::string& path, const std::string& text, const std::string& collective)
{
    NcclTestsLog log;
    log.file = path;
    log.collective = collective.empty() ? collectiveIn(text) : collective;
    if (log.collective.empty())
        log.collective = collectiveIn(path);
    if (log.collective.empty())
        throw InputError(path, 0, "collective",
            "not named in the log or the file name (all_reduce_perf, all_gather_perf, reduce_scatter_perf, alltoall_perf or "
            "sendrecv_perf); pass --collective");
    std::istringstream in(text);
    int lineNo = 0, timeColumn = -1, busColumn = -1, columns = 0;
    for (std::string raw; std::getline(in, raw);) {
        ++lineNo;
        const std::string line = stripLauncherPrefix(raw);
        const std::vector<std::string> w = words(line);
        if (w.empty())
            continue;
        if (w[0] == "#") {
            // "#  Rank  3 Group  0 Pid ... device  3 [0x..] NVIDIA H100": one line per rank.
            if (w.size() > 2 && w[1] == "Rank")
                ++log.ranks;
            // The column header: where the out-of-place time and busbw are.
            if (w.size() > 3 && w[1] == "size" && w[2] == "count") {
                const auto at = [&](const char* name) {
                    const auto it = std::find(w.begin() + 1, w.end(), name);
                    return it == w.end() ? -1 : int(it - w.begin()) - 1;
                };
                timeColumn = at("time");
                busColumn = at("busbw");
                columns = int(w.size()) - 1;
                if (timeColumn < 0 || busColumn < 0)
                    throw InputError(path, lineNo, "header", "the table has no time or busbw column");
            }
            continue;
        }
        double size = 0;
        if (!number(w[0], size))
            continue; // NCCL INFO lines and the like between the rows
        if (timeColumn < 0)
            throw InputError(path, lineNo, "header", "a table row before the column header (# size count type ...)");
        // Both columns must be there: the header may put either one last.
        if (int(w.size()) <= std::max(timeColumn, busColumn))
            throw InputError(path, lineNo, "row", "has " + std::to_string(w.size()) + " columns, the header " + std::to_string(columns));
        if (log.rows.size() >= kMaxNcclTestsRows)
            throw InputError(path, lineNo, "rows", "more than " + std::to_string(kMaxNcclTestsRows) + " message sizes: nccl-tests prints one "
                "row a size (1 B to 16 GiB doubling is 35), so this is not one log; split it");
        NcclTestsRow row;
        row.line = lineNo;
        row.bytes = size;
        double us = 0, gbs = 0;
        if (!(size <= kMaxMessageBytes))
            throw InputError(path, lineNo, "size", "\"" + w[0] + "\" bytes is beyond any message nccl-tests sends (at most 1 PB)");
        if (!number(w[std::size_t(timeColumn)], us) || us <= 0 || us > kMaxCollectiveMicroseconds)
            throw InputError(path, lineNo, "time", "\"" + w[std::size_t(timeColumn)] + "\" is not a time in microseconds from above 0 to "
                "1e10 (about 3 hours: a collective that long is a hang, not a measurement)");
        if (!number(w[std::size_t(busColumn)], gbs) || gbs < 0 || gbs > kMaxBusGigabytesPerSecond)
            throw InputError(path, lineNo, "busbw", "\"" + w[std::size_t(busColumn)] + "\" is not a bandwidth in GB/s from 0 to 100000 "
                "(100 TB/s, far beyond any link)");
        row.seconds = us * 1e-6;
        row.busBandwidth = gbs * 1e9; // the printed value until the factor is known
        if (size > 0) // a 0-byte row times the launch alone
            log.rows.push_back(row);
    }
    if (timeColumn < 0)
        throw InputError(path, 0, "header", "no nccl-tests table (# size count type redop root time algbw busbw ...)");
    if (log.rows.size() < 2)
        throw InputError(path, 0, "rows", "fewer than two message sizes: nothing to fit");
    std::sort(log.rows.begin(), log.rows.end(), [](const NcclTestsRow& a, const NcclTestsRow& b) { return a.bytes < b.bytes; });
    // busbw is printed with two decimals (0.01 GB/s at small sizes is +-50%); the time
    // has four digits. The factor nccl-tests used comes from the largest size, where
    // busbw is printed precisely; it also covers logs whose rank lines were cut.
    const NcclTestsRow& big = log.rows.back();
    if (big.busBandwidth <= 0)
        throw InputError(path, big.line, "busbw", "the largest size has no bus bandwidth");
    log.factor = big.busBandwidth * big.seconds / big.bytes;
    // busbw / algbw is 2(n-1)/n at most (all-reduce): anything else is a row whose time
    // and bandwidth do not belong together.
    if (!(log.factor > 0 && log.factor <= kMaxBusFactor))
        throw InputError(path, big.line, "busbw", "the largest size's busbw and time give a bus factor (busbw / algbw) of "
            + std::to_string(log.factor) + "; nccl-tests' factors lie between 0 and 2");
    for (NcclTestsRow& r : log.rows)
        r.busBandwidth = log.factor * r.bytes / r.seconds;
    return log;
}

NcclFit fitNcclTests(const NcclTestsLog& log, double tolerance)
{
    const double factor = log.factor;
    NcclFit fit;
    // Greedy from the small end: each segment grows while one line fits all its sizes.
    std::size_t lo = 0;
    while (lo < log.rows.size()) {
        std::size_t hi = lo + 1;
        BandwidthSegment best = fitLine(log.rows, lo, hi, factor);
        while (hi < log.rows.size()) {
            const BandwidthSegment wider = fitLine(log.rows, lo, hi + 1, factor);
            if (wider.maxError > tolerance)
                break;
            best = wider;
            ++hi;
        }
        fit.segments.push_back(best);
        fit.maxError = std::max(fit.maxError, best.maxError);
        lo = hi;
    }
    return fit;
}

double NcclFit::busBandwidthAt(double bytes, double factor) const
{
    if (segments.empty())
        return 0;
    const BandwidthSegment* s = &segments.front();
    for (const BandwidthSegment& seg : segments)
        if (bytes >= seg.fromBytes)
            s = &seg;
    return factor * bytes / (s->latency + factor * bytes / s->busBandwidth);
}

MeasuredCollective measuredCollective(const NcclTestsLog& log, const NcclFit& fit, MeasuredTier tier)
{
    MeasuredCollective m;
    m.tier = tier;
    m.collective = log.collective;
    // The group size from the log's rank lines, else from the bus factor it printed.
    const double f = log.factor;
    const int fromFactor = int(std::lround(log.collective == "allreduce" ? 2 / std::max(1e-3, 2 - f) : 1 / std::max(1e-3, 1 - f)));
    m.ranks = std::max(2, log.ranks > 1 ? log.ranks : fromFactor);
    for (const BandwidthSegment& g : fit.segments)
        m.segments.push_back({ g.fromBytes, g.toBytes, g.latency, std::isfinite(g.busBandwidth) ? g.busBandwidth : 0.0 });
    char worst[32];
    std::snprintf(worst, sizeof worst, "%.1f%%", 100 * fit.maxError);
    m.source = "fit to " + log.file + " (nccl-tests " + log.collective + ", " + std::to_string(log.rows.size()) + " sizes, worst size "
        + worst + " off its bus bandwidth)";
    return m;
}

} // namespace dtsim
