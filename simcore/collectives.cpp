#include "collectives.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

std::string_view collectiveName(CollectiveKind k)
{
    switch (k) {
    case CollectiveKind::AllReduce: return "all-reduce";
    case CollectiveKind::ReduceScatter: return "reduce-scatter";
    case CollectiveKind::AllGather: return "all-gather";
    case CollectiveKind::AllToAll: return "all-to-all";
    case CollectiveKind::Broadcast: return "broadcast";
    case CollectiveKind::SendRecv: return "send/recv";
    }
    return "?";
}

// The collective as nccl-tests names its benchmarks (all_reduce_perf: "allreduce").
std::string ncclTestsName(CollectiveKind k)
{
    switch (k) {
    case CollectiveKind::AllReduce: return "allreduce";
    case CollectiveKind::ReduceScatter: return "reducescatter";
    case CollectiveKind::AllGather: return "allgather";
    case CollectiveKind::AllToAll: return "alltoall";
    case CollectiveKind::Broadcast: return "broadcast";
    case CollectiveKind::SendRecv: return "sendrecv";
    }
    return "";
}

std::string_view algorithmName(Algorithm a)
{
    switch (a) {
    case Algorithm::None: return "none";
    case Algorithm::Ring: return "ring";
    case Algorithm::Tree: return "tree";
    case Algorithm::Hierarchical: return "hierarchical";
    case Algorithm::Direct: return "direct";
    case Algorithm::InNetwork: return "in-network";
    }
    return "?";
}

namespace {
double log2ceil(int p) { return p <= 1 ? 0.0 : std::ceil(std::log2(double(p))); }
}

double ringAllReduceTime(double n, int p, Link l)
{
    if (p <= 1)
        return 0.0;
    return 2.0 * (p - 1) * (l.alpha + n / (double(p) * l.beta));
}

// Pipelined binary tree: reduce up, broadcast down, the message cut into chunks so the
// tree's depth L is paid once per chunk. With the best chunk size the time is
// 2 (sqrt(L alpha) + sqrt(n / beta))^2 (Sanders, Speck, Traff 2009, "Two-tree algorithms
// for full bandwidth broadcast, reduction and scan"): latency 2 L alpha for tiny
// messages, and for large ones 2 n / beta plus a pipeline fill term that makes the ring
// the better choice, as NCCL's tuner finds.
double treeAllReduceTime(double n, int p, Link l)
{
    if (p <= 1)
        return 0.0;
    const double root = std::sqrt(log2ceil(p) * l.alpha) + std::sqrt(n / l.beta);
    return 2.0 * root * root;
}

double ringReduceScatterTime(double n, int p, Link l)
{
    if (p <= 1)
        return 0.0;
    return (p - 1) * (l.alpha + n / (double(p) * l.beta));
}

double ringAllGatherTime(double n, int p, Link l) { return ringReduceScatterTime(n, p, l); }
double allToAllTime(double n, int p, Link l) { return ringReduceScatterTime(n, p, l); }

double treeBroadcastTime(double n, int p, Link l)
{
    if (p <= 1)
        return 0.0;
    const double root = std::sqrt(log2ceil(p) * l.alpha) + std::sqrt(n / l.beta);
    return root * root;
}

double sendRecvTime(double n, Link l) { return l.alpha + n / l.beta; }

double ringAllReduceBytesSent(double n, int p) { return p <= 1 ? 0.0 : 2.0 * (p - 1) / p * n; }

namespace {

CollectiveCost flatCost(CollectiveKind kind, double n, int p, Link l)
{
    switch (kind) {
    case CollectiveKind::AllReduce: {
        const double ring = ringAllReduceTime(n, p, l);
        const double tree = l.measured ? ring : treeAllReduceTime(n, p, l);
        return ring <= tree ? CollectiveCost { ring, Algorithm::Ring } : CollectiveCost { tree, Algorithm::Tree };
    }
    case CollectiveKind::ReduceScatter: return { ringReduceScatterTime(n, p, l), Algorithm::Ring };
    case CollectiveKind::AllGather: return { ringAllGatherTime(n, p, l), Algorithm::Ring };
    case CollectiveKind::AllToAll: return { allToAllTime(n, p, l), Algorithm::Direct };
    case CollectiveKind::Broadcast: {
        const double ring = (p - 1) * l.alpha + n / l.beta;
        const double tree = l.measured ? ring : treeBroadcastTime(n, p, l);
        return ring <= tree ? CollectiveCost { ring, Algorithm::Ring } : CollectiveCost { tree, Algorithm::Tree };
    }
    case CollectiveKind::SendRecv: return { sendRecvTime(n, l), Algorithm::Direct };
    }
    return {};
}

} // namespace

CollectiveCost collectiveCost(CollectiveKind kind, double bytes, const GroupSpan& g,
    const ClusterSpec& c, const CommEfficiency& eff)
{
    if (bytes <= 0.0 || (g.size <= 1 && kind != CollectiveKind::SendRecv))
        return {};
    Link up { c.scaleUpLatency, c.scaleUpBandwidth * eff.scaleUp };
    Link out { g.interLatency, g.interBandwidth * eff.scaleOut };
    Link rails { g.interLatency, g.railBandwidth * eff.scaleOut };
    Link spread { g.interLatency, g.spreadBandwidth * eff.scaleOut };
    if (eff.measured) {
        if (const MeasuredCollective* m = eff.measured->forTier(MeasuredTier::ScaleUp, ncclTestsName(kind))) {
            const MeasuredLink l = measuredLink(*m, bytes);
            up = { l.alpha, l.beta, true };
        }
        if (const MeasuredCollective* m = eff.measured->forTier(MeasuredTier::ScaleOut, ncclTestsName(kind))) {
            // Measured per GPU across domains: it stands for the flat, rail and spread paths alike.
            const MeasuredLink l = measuredLink(*m, bytes);
            out = rails = spread = { l.alpha, l.beta, true };
        }
    }

    if (kind == CollectiveKind::SendRecv)
        return flatCost(kind, bytes, 2, g.domains > 1 ? out : up);
    // In-switch reduction (NVLS in the scale-up fabric, SHARP in the network): each GPU
    // sends its buffer once and receives the reduced result once: n / b plus a round trip.
    auto switchReduced = [](double n, Link l) { return 2.0 * l.alpha + n / l.beta; };
    if (g.domains <= 1) {
        CollectiveCost flat = flatCost(kind, bytes, g.size, up);
        if (kind == CollectiveKind::AllReduce && c.scaleUpInNetworkReduction && !up.measured && switchReduced(bytes, up) < flat.seconds)
            return { switchReduced(bytes, up), Algorithm::InNetwork };
        return flat;
    }

    // Flat over the whole group: every step is bounded by the slowest (scale-out) link.
    CollectiveCost flat = flatCost(kind, bytes, g.size, kind == CollectiveKind::AllToAll ? spread : out);
    if (g.perDomain <= 1)
        return flat;

    // Hierarchical: k = perDomain ranks per domain each drive their own NIC on 1/k of
    // the data (rail-style), so the inter-domain phase moves n/k per GPU.
    const int k = g.perDomain, d = g.domains;
    double t = 0.0;
    switch (kind) {
    case CollectiveKind::AllReduce: {
        double inter = flatCost(kind, bytes / k, d, rails).seconds;
        if (g.inNetworkReduction && !rails.measured) // a measured line already has SHARP in it
            inter = std::min(inter, switchReduced(bytes / k, rails));
        t = ringReduceScatterTime(bytes, k, up) + inter + ringAllGatherTime(bytes, k, up);
        break;
    }
    case CollectiveKind::ReduceScatter:
        t = ringReduceScatterTime(bytes, k, up) + ringReduceScatterTime(bytes / k, d, rails);
        break;
    case CollectiveKind::AllGather:
        t = ringAllGatherTime(bytes / k, d, rails) + ringAllGatherTime(bytes, k, up);
        break;
    case CollectiveKind::AllToAll:
        // Intra-domain share at scale-up speed, the (d-1)/d remote share over scale-out.
        t = allToAllTime(bytes / d, k, up) + (d - 1) * (spread.alpha + bytes / (double(d) * spread.beta));
        break;
    case CollectiveKind::Broadcast:
        t = treeBroadcastTime(bytes, d, out) + treeBroadcastTime(bytes, k, up);
        break;
    case CollectiveKind::SendRecv: break;
    }
    if (t < flat.seconds)
        return { t, Algorithm::Hierarchical };
    return flat;
}

} // namespace dtsim
