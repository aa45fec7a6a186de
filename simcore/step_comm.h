#pragma once
// Inside the step model (step.cpp): the per-layer collectives of each parallelism group
// for one micro-batch (tensor, context and expert parallel), and the collective helper
// they share. Internal to simcore; views never include it.
#include "collectives.h"
#include "report.h"
#include "scenario.h"
#include "step_layer.h"

namespace dtsim::step_detail {

// A group's slot in StepReport::comm and StepBreakdown::exposedComm.
constexpr int idx(CommGroup g) { return static_cast<int>(g); }

struct CommOp {
    double seconds = 0;
    double bytesSent = 0;
};

// The links' efficiencies a step's collectives run at: the calibration's bus efficiencies,
// and the scenario's measured links when it names a calibration overlay.
inline CommEfficiency commEfficiencyFor(const Scenario& s, const Calibration& c)
{
    return { c.scaleUpBusEfficiency, c.scaleOutBusEfficiency, s.calibration.collectives.empty() ? nullptr : &s.calibration };
}

// One collective on a placed group; records its kind, algorithm and span in `rep`.
CommOp comm(CollectiveKind k, double bytes, const GroupSpan& g, const Scenario& s, const CommEfficiency& eff, CommReport& rep);

// Tensor parallel: the collectives of one layer's forward (2D TP, sequence parallel or
// plain all-reduces).
CommOp tensorParallelLayer(const Scenario& s, const Shape& sh, const CommEfficiency& eff, CommReport& rep);

// Context parallel: ring attention's K/V hops of one layer, forward, reruns and backward;
// `chunkAttention` is the forward attention time of one chunk (the hop hides behind it).
struct RingComm {
    double exposed = 0, total = 0, bytes = 0;
};
RingComm contextParallelLayer(const Scenario& s, const Shape& sh, const CommEfficiency& eff, double chunkAttention,
    double attentionBackwardFactor, double overlapEfficiency, double rerun, CommReport& rep);

// Expert parallel: dispatch and combine all-to-alls of one MoE layer, forward, reruns and
// backward (node-limited and per-node dispatch included).
CommOp expertParallelLayer(const Scenario& s, const Shape& sh, const CommEfficiency& eff, double rerun, CommReport& rep);

// Distinct nodes a token's top-k experts fall on (balanced routing), at most `cap` (> 0).
double expectedNodesPerToken(int experts, int topK, int nodes, int cap);

} // namespace dtsim::step_detail
