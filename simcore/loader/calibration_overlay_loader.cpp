#include "calibration_overlay_loader.h"

#include "read_file.h"
#include "sourced_value.h"
#include "yaml_reader.h"

#include <cstdio>

namespace dtsim {

namespace {

// A collective's latency beyond this is a hang, not a measured regime.
constexpr double kMaxSegmentLatency = 3600;
// Far beyond any link (NVLink 5 moves 0.9 TB/s a direction).
constexpr double kMaxBusBandwidth = 1e14;

// A segment's bus bandwidth: a rate above 0, or `unbounded` where the time does not
// grow with size (a latency-bound regime, stored as 0). A plain 0 B/s would mean a
// collective that never ends, so it is refused rather than read as unbounded.
double busBandwidth(const YamlReader& r, const YAML::Node& n, const std::string& field)
{
    if (n.IsScalar() && n.Scalar() == "unbounded")
        return 0;
    const double v = r.quantity(n, field, Dimension::BytesPerSecond, Bound::NonNegative);
    if (v == 0)
        r.fail(n, field, "0 B/s would never finish; write `unbounded` for a size range whose time does not grow with size");
    if (v > kMaxBusBandwidth)
        r.fail(n, field, "is beyond any link (at most 100 TB/s)");
    return v;
}

// A kind's speed ten times off the model's is a measurement of something else, as for
// compute_scale; a step overhead above a minute is a stall, not the loop's own cost.
MeasuredKernels measuredKernels(YamlReader& r, const YAML::Node& k)
{
    r.expectMap(k, "kernels");
    r.checkKeys(k, "kernels", { "source", "gemm_scale", "attention_scale", "memory_scale", "step_overhead" });
    MeasuredKernels m;
    m.line = k.Mark().line + 1;
    m.source = r.string(r.required(k, "kernels", "source"), "kernels.source");
    if (m.source.empty())
        r.fail(k["source"], "kernels.source", "every measurement needs a source");
    auto scale = [&](const char* key, double& out) {
        const std::string field = std::string("kernels.") + key;
        if (const YAML::Node n = r.child(k, "kernels", key)) {
            out = r.quantity(n, field, Dimension::Count, Bound::Positive);
            if (out > kMaxComputeScale || out < kMinComputeScale)
                r.fail(n, field, "a kernel speed ten times off the model's is a measurement of something else");
        }
    };
    scale("gemm_scale", m.gemmScale);
    scale("attention_scale", m.attentionScale);
    scale("memory_scale", m.memoryScale);
    if (const YAML::Node n = r.child(k, "kernels", "step_overhead")) {
        m.stepOverhead = r.quantity(n, "kernels.step_overhead", Dimension::Seconds, Bound::NonNegative);
        if (m.stepOverhead > 60)
            r.fail(n, "kernels.step_overhead", "more than a minute a step outside kernels is a stall, not the training loop's cost");
    }
    return m;
}

} // namespace

CalibrationOverlay loadCalibrationOverlay(const std::string& path)
{
    YamlReader r(path);
    const YAML::Node root = r.parse(readTextFile(path, "calibration overlay"));
    r.expectMap(root, "");
    r.checkKeys(root, "", { "version", "compute_scale", "kernels", "collectives" });
    if (r.integer(r.required(root, "", "version"), "version", 1, 1) != 1)
        r.fail(root, "version", "unsupported version");
    CalibrationOverlay o;
    o.path = path;
    if (const YAML::Node c = r.child(root, "", "compute_scale")) {
        o.computeScale = sourcedQuantity(r, c, "compute_scale", Dimension::Count, Bound::Positive);
        o.computeSource = c["source"].Scalar();
        o.computeLine = c.Mark().line + 1;
        if (o.computeScale > kMaxComputeScale || o.computeScale < kMinComputeScale)
            r.fail(c, "compute_scale.value", "a compute speed ten times off the model's is a measurement of something else");
    }
    if (const YAML::Node k = r.child(root, "", "kernels"))
        o.kernels = measuredKernels(r, k);
    if (const YAML::Node list = r.child(root, "", "collectives")) {
        if (!list.IsSequence())
            r.fail(list, "collectives", "must be a list");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string field = "collectives[" + std::to_string(i) + "]";
            const YAML::Node n = list[i];
            r.expectMap(n, field);
            r.checkKeys(n, field, { "tier", "collective", "ranks", "source", "segments" });
            MeasuredCollective m;
            const std::string tier = r.string(r.required(n, field, "tier"), field + ".tier");
            if (tier == "scale_up")
                m.tier = MeasuredTier::ScaleUp;
            else if (tier == "scale_out")
                m.tier = MeasuredTier::ScaleOut;
            else
                r.fail(n["tier"], field + ".tier", "\"" + tier + "\" is not one of: scale_up, scale_out");
            m.collective = r.string(r.required(n, field, "collective"), field + ".collective");
            if (m.collective != "allreduce" && m.collective != "allgather" && m.collective != "reducescatter"
                && m.collective != "alltoall" && m.collective != "sendrecv")
                r.fail(n["collective"], field + ".collective", "\"" + m.collective + "\" is not one of: allreduce, allgather, reducescatter, alltoall, sendrecv");
            m.ranks = int(r.integer(r.required(n, field, "ranks"), field + ".ranks", 2, 1 << 24));
            m.source = r.string(r.required(n, field, "source"), field + ".source");
            if (m.source.empty())
                r.fail(n["source"], field + ".source", "every measurement needs a source");
            const YAML::Node segs = r.required(n, field, "segments");
            if (!segs.IsSequence() || segs.size() == 0)
                r.fail(segs, field + ".segments", "must be a list of at least one size range");
            for (std::size_t k = 0; k < segs.size(); ++k) {
                const std::string sf = field + ".segments[" + std::to_string(k) + "]";
                r.expectMap(segs[k], sf);
                r.checkKeys(segs[k], sf, { "from", "to", "latency", "bus_bandwidth" });
                MeasuredSegment s;
                s.fromBytes = r.quantity(r.required(segs[k], sf, "from"), sf + ".from", Dimension::Bytes, Bound::Positive);
                s.toBytes = r.quantity(r.required(segs[k], sf, "to"), sf + ".to", Dimension::Bytes, Bound::Positive);
                s.latency = r.quantity(r.required(segs[k], sf, "latency"), sf + ".latency", Dimension::Seconds, Bound::NonNegative);
                s.busBandwidth = busBandwidth(r, r.required(segs[k], sf, "bus_bandwidth"), sf + ".bus_bandwidth");
                if (s.busBandwidth == 0 && s.latency == 0)
                    r.fail(segs[k], sf + ".latency", "a segment with no latency and unbounded bandwidth makes the collective free");
                if (s.latency > kMaxSegmentLatency)
                    r.fail(segs[k]["latency"], sf + ".latency", "a collective of more than an hour is a hang, not a measurement");
                if (s.toBytes < s.fromBytes)
                    r.fail(segs[k], sf + ".to", "is below from");
                if (!m.segments.empty() && s.fromBytes < m.segments.back().fromBytes)
                    r.fail(segs[k], sf + ".from", "segments must be in size order");
                m.segments.push_back(s);
            }
            o.collectives.push_back(std::move(m));
        }
    }
    return o;
}

namespace {

std::string number(double v)
{
    char b[64];
    std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}

std::string quoted(const std::string& s)
{
    std::string q = "\"";
    for (char c : s)
        q += c == '"' ? std::string("\\\"") : c == '\\' ? std::string("\\\\") : std::string(1, c);
    return q + "\"";
}

} // namespace

std::string calibrationOverlayText(const CalibrationOverlay& o)
{
    std::string t = "# dtsim calibration overlay (docs/calibration.md), written by dtsim-cli calibrate.\n"
                    "# A scenario uses it with `calibration: <this file>`; it sits over resources/calibration.\n"
                    "version: 1\n";
    if (o.computeScale != 1 || !o.computeSource.empty())
        t += "compute_scale: {value: " + number(o.computeScale) + ", source: " + quoted(o.computeSource) + "}\n";
    if (o.kernels.fitted()) {
        const MeasuredKernels& k = o.kernels;
        t += "kernels:\n  source: " + quoted(k.source) + "\n  gemm_scale: " + number(k.gemmScale) + "\n  attention_scale: "
            + number(k.attentionScale) + "\n  memory_scale: " + number(k.memoryScale) + "\n";
        if (k.stepOverhead >= 0)
            t += "  step_overhead: " + number(k.stepOverhead) + " s\n";
    }
    if (!o.collectives.empty()) {
        t += "collectives:\n";
        for (const MeasuredCollective& m : o.collectives) {
            t += "  - tier: " + std::string(measuredTierName(m.tier)) + "\n";
            t += "    collective: " + m.collective + "\n";
            t += "    ranks: " + std::to_string(m.ranks) + "\n";
            t += "    source: " + quoted(m.source) + "\n";
            t += "    segments:\n";
            for (const MeasuredSegment& s : m.segments)
                t += "      - {from: " + number(s.fromBytes) + " B, to: " + number(s.toBytes) + " B, latency: " + number(s.latency)
                    + " s, bus_bandwidth: " + (s.busBandwidth > 0 ? number(s.busBandwidth) + " B/s" : std::string("unbounded")) + "}\n";
        }
    }
    return t;
}

} // namespace dtsim
