#pragma once
#include "calibration_overlay.h"

#include <string>
// Collective communication under the alpha-beta (Hockney) model: a message of n bytes
// over one link costs alpha + n / beta. Ring, tree and hierarchical algorithms; the
// cheapest applicable one is chosen, as NCCL's tuner does, and reported.
#include "cluster.h"

#include <string_view>

namespace dtsim {

enum class CollectiveKind { AllReduce, ReduceScatter, AllGather, AllToAll, Broadcast, SendRecv };
enum class Algorithm { None, Ring, Tree, Hierarchical, Direct, InNetwork };

std::string_view collectiveName(CollectiveKind k);
std::string ncclTestsName(CollectiveKind k); // "allreduce", as nccl-tests and calibration overlays name it
std::string_view algorithmName(Algorithm a);

struct Link {
    double alpha = 0; // seconds per message step
    double beta = 0;  // bytes/s per GPU per direction, achieved
    // From the user's nccl-tests log: the line already is NCCL's own pick of algorithm
    // and protocol, so it is scaled to the group as a ring, not raced against a tree.
    bool measured = false;
};

struct CollectiveCost {
    double seconds = 0;
    Algorithm algorithm = Algorithm::None;
};

// Closed forms on a flat group of p ranks. `bytes` is the full buffer: for all-reduce
// the tensor each rank holds; for reduce-scatter the input (output is bytes/p); for
// all-gather the output; for all-to-all what each rank sends in total.
double ringAllReduceTime(double bytes, int p, Link l);     // 2(p-1)(a + n/(p b))
double treeAllReduceTime(double bytes, int p, Link l);     // 2 (sqrt(L a) + sqrt(n/b))^2, L = ceil(log2 p)
double ringReduceScatterTime(double bytes, int p, Link l); // (p-1)(a + n/(p b))
double ringAllGatherTime(double bytes, int p, Link l);     // (p-1)(a + n/(p b))
double allToAllTime(double bytes, int p, Link l);          // (p-1)(a + n/(p b))
double treeBroadcastTime(double bytes, int p, Link l);     // (sqrt(L a) + sqrt(n/b))^2
double sendRecvTime(double bytes, Link l);                 // a + n / b

// Bytes each rank sends in a ring all-reduce: 2 (p-1)/p n.
double ringAllReduceBytesSent(double bytes, int p);

// Efficiency of a collective's achieved bus bandwidth against the link's nominal one.
struct CommEfficiency {
    double scaleUp = 1.0;
    double scaleOut = 1.0;
    // The user's measured links (nccl-tests, through a calibration overlay): where a tier
    // was measured, its latency and bandwidth replace the nominal link's.
    const CalibrationOverlay* measured = nullptr;
};

// Cost on a group that may span scale-up domains: flat within one domain, otherwise
// the better of a flat algorithm on the slowest link and the hierarchical one
// (intra-domain reduce-scatter, inter-domain collective on 1/k of the data,
// intra-domain all-gather).
CollectiveCost collectiveCost(CollectiveKind kind, double bytes, const GroupSpan& g,
    const ClusterSpec& c, const CommEfficiency& eff);

} // namespace dtsim
