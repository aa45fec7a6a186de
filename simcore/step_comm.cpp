#include "step_comm.h"

#include <algorithm>

namespace dtsim::step_detail {

namespace {

double sentFraction(CollectiveKind k, int p)
{
    if (p <= 1)
        return k == CollectiveKind::SendRecv ? 1.0 : 0.0;
    const double f = double(p - 1) / p;
    return k == CollectiveKind::AllReduce ? 2.0 * f : k == CollectiveKind::SendRecv ? 1.0 : f;
}

} // namespace

CommOp comm(CollectiveKind k, double bytes, const GroupSpan& g, const Scenario& s, const CommEfficiency& eff, CommReport& rep)
{
    const CollectiveCost cost = collectiveCost(k, bytes, g, s.cluster, eff);
    rep.collective = k;
    rep.algorithm = cost.algorithm;
    rep.groupSize = g.size;
    rep.domains = g.domains;
    rep.span = g;
    return { cost.seconds, bytes * sentFraction(k, g.size) };
}


// Distinct nodes a token's top-k experts fall on when `experts` are spread evenly over
// `nodes` nodes and routing is balanced: nodes x (1 - C(E - E/nodes, k) / C(E, k)),
// at most `cap` when routing is node-limited (cap > 0).
double expectedNodesPerToken(int experts, int topK, int nodes, int cap)
{
    if (nodes <= 1 || experts <= 0 || topK <= 0)
        return 1.0;
    const double elsewhere = experts - double(experts) / nodes; // experts not on a given node
    double missed = 1.0; // probability that no chosen expert is on a given node
    for (int i = 0; i < topK; ++i)
        missed *= std::max(0.0, (elsewhere - i) / (experts - i));
    const double expected = nodes * (1.0 - missed);
    return cap > 0 ? std::min<double>(cap, expected) : expected;
}

CommOp tensorParallelLayer(const Scenario& s, const Shape& sh, const CommEfficiency& eff, CommReport& rep)
{
    // Tensor parallel: two collectives per layer each way (after attention and after
    // the MLP): all-reduces, or all-gather + reduce-scatter pairs with sequence parallel.
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    CommOp tpLayer;
    if (p.tp > 1 && p.tp2d) {
        // 2D TP (a x b): around each of the two blocks, inputs are all-gathered and partial
        // outputs reduce-scattered across the a ranks of a row on T h / b elements, and
        // across the b ranks of a column on T h / a (an approximation of the SUMMA-style
        // scheme Erdil & Schneider-Joseph 2024 assume; it ignores the FFN width).
        const int a = p.tpRows(), bcols = p.tpColumns();
        const GroupSpan rows = groupSpan(s.cluster, a, p.stride(Axis::TP));
        const GroupSpan cols = groupSpan(s.cluster, bcols, p.stride(Axis::TP) * a);
        const double n = sh.tokens * m.hidden * sh.elem;
        CommOp agR = comm(CollectiveKind::AllGather, n / bcols, rows, s, eff, rep);
        CommOp rsR = comm(CollectiveKind::ReduceScatter, n / bcols, rows, s, eff, rep);
        CommOp agC = comm(CollectiveKind::AllGather, n / a, cols, s, eff, rep);
        CommOp rsC = comm(CollectiveKind::ReduceScatter, n / a, cols, s, eff, rep);
        rep.groupSize = p.tp;
        tpLayer = { 2 * (agR.seconds + rsR.seconds + agC.seconds + rsC.seconds),
            2 * (agR.bytesSent + rsR.bytesSent + agC.bytesSent + rsC.bytesSent) };
    } else if (p.tp > 1) {
        const GroupSpan g = groupSpan(s.cluster, p.tp, p.stride(Axis::TP));
        const double n = sh.tokens * m.hidden * sh.elem;
        if (p.sequenceParallel) {
            // FP8 all-gathers move one byte an element (the per-tensor scale is negligible).
            const bool fp8Gather = s.training.fp8TpAllGather && isScaledLowPrecision(s.training.precision);
            CommOp ag = comm(CollectiveKind::AllGather, fp8Gather ? sh.tokens * m.hidden : n, g, s, eff, rep);
            CommOp rs = comm(CollectiveKind::ReduceScatter, n, g, s, eff, rep);
            tpLayer = { 2 * (ag.seconds + rs.seconds), 2 * (ag.bytesSent + rs.bytesSent) };
        } else {
            CommOp ar = comm(CollectiveKind::AllReduce, n, g, s, eff, rep);
            tpLayer = { 2 * ar.seconds, 2 * ar.bytesSent };
        }
    }
    return tpLayer;
}

RingComm contextParallelLayer(const Scenario& s, const Shape& sh, const CommEfficiency& eff, double chunkAttention,
    double attentionBackwardFactor, double overlapEfficiency, double rerun, CommReport& rep)
{
    // Context parallel: ring attention passes K/V chunks (cp-1) times, each hop hidden
    // behind one chunk of attention; backward passes K/V and their gradients.
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    RingComm out;
    if (p.cp > 1) {
        const GroupSpan g = groupSpan(s.cluster, p.cp, p.stride(Axis::CP));
        const double chunk = 2.0 * sh.tokens * m.kvDimPerRank(p.headSplit()) * sh.elem;
        CommOp hop = comm(CollectiveKind::SendRecv, chunk, g, s, eff, rep);
        rep.groupSize = p.cp;
        const double hops = p.cp - 1;
        const double fwdChunk = chunkAttention;
        const double fwdExposed = hops * std::max(0.0, hop.seconds - overlapEfficiency * fwdChunk);
        const double bwdExposed = hops * std::max(0.0, 2 * hop.seconds - overlapEfficiency * attentionBackwardFactor * fwdChunk);
        const double passes = 1.0 + rerun;
        out.exposed = passes * fwdExposed + bwdExposed;
        out.total = hops * hop.seconds * (passes + 2.0);
        out.bytes = hops * chunk * (passes + 2.0);
    }
    return out;
}

CommOp expertParallelLayer(const Scenario& s, const Shape& sh, const CommEfficiency& eff, double rerun, CommReport& rep)
{
    // Expert parallel: dispatch and combine all-to-alls, forward and backward.
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    CommOp out;
    if (m.isMoe() && p.ep > 1) {
        // The EP group sits outside the experts' TP ranks: along DP when etp = tp, or
        // within the stage's consecutive TP x CP x DP ranks under folding.
        const int epStride = p.etp() == p.tp ? p.stride(Axis::DP) : p.etp();
        const GroupSpan g = groupSpan(s.cluster, p.ep, epStride);
        // Each rank dispatches the tokens it holds at the MoE layer's input: with
        // sequence parallelism (which Megatron-Core requires for MoE with TP) that is its
        // T/tp shard, not the full micro-batch (MoEAlltoAllTokenDispatcher permutes the
        // sequence-parallel hidden states before the all-to-all).
        const double n = std::max(1.0, m.moe.capacityFactor) * m.moe.topK * sh.normTokens * m.hidden * sh.elem;
        // Node-limited routing with per-node dispatch (DeepSeek-V3, Sec. 3.2.2: each token
        // goes over InfiniBand once to each of its <= M nodes, to the GPU with the same
        // in-node index, which forwards it over NVLink; the two stages run concurrently):
        // the scale-out share shrinks by M / top-k; the fabric carries the forwarding.
        // A per-node dispatcher (DeepEP, HybridEP) does the same without a routing limit:
        // a token crosses to each node holding any of its experts once.
        const int nodeCap = m.moe.maxNodesPerToken;
        const double nodes = p.epNodeDispatch ? expectedNodesPerToken(m.moe.experts, m.moe.topK, g.domains, nodeCap)
                                              : double(nodeCap);
        const bool nodeLimited = nodes > 0 && nodes < m.moe.topK && g.domains > 1;
        CommOp a2a = comm(CollectiveKind::AllToAll, nodeLimited ? n * nodes / m.moe.topK : n, g, s, eff, rep);
        if (nodeLimited) {
            CommReport scratch;
            const GroupSpan local = groupSpan(s.cluster, g.perDomain, epStride);
            CommOp forward = comm(CollectiveKind::AllToAll, n * (g.domains - 1) / g.domains, local, s, eff, scratch);
            a2a = { std::max(a2a.seconds, forward.seconds), a2a.bytesSent + forward.bytesSent };
        }
        const double passes = 2.0 + rerun;
        out.seconds = 2 * a2a.seconds * passes;
        out.bytesSent = 2 * a2a.bytesSent * passes;
    }
    return out;
}

} // namespace dtsim::step_detail
