#include "replica_rows.h"

#include "../random.h"
#include "../stragglers.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace dtsim {

namespace {

// The largest of m independent standard normals, drawn exactly: its CDF is Phi(z)^m, so
// z = Phi^-1(u^(1/m)). The tail 1 - u^(1/m) is taken from expm1 so that a large m keeps
// its precision (u^(1/m) rounds to 1 for m above ~1e16 / -ln u otherwise).
double maxOfNormals(SplitMix64& rng, long long m)
{
    const double u = (double(rng.next() >> 11) + 0.5) * (1.0 / 9007199254740992.0); // in (0, 1), never 0 or 1
    const double logP = std::log(u) / double(std::max(1LL, m));
    const double p = std::exp(logP), tail = -std::expm1(logP);
    return p < 0.5 ? normalQuantile(p) : -normalQuantile(tail);
}

} // namespace

ReplicaRowsInput replicaRowsInput(const Scenario& s, const StepReport& st, int steps)
{
    ReplicaRowsInput in;
    const StepBreakdown& b = st.breakdown;
    in.compute = b.forward + b.backward + b.recompute; // what stragglerWait stretches
    in.allReduce = b.exposedComm[int(CommGroup::DP)];
    in.replicas = std::max(1, s.plan.dp);
    in.ranksPerReplica = std::max(1LL, s.plan.gpus() / in.replicas);
    in.jitter = s.cluster.jitter;
    in.steps = steps;
    return in;
}

ReplicaRows simulateReplicaRows(const ReplicaRowsInput& in)
{
    ReplicaRows r;
    r.replicas = std::max(1LL, in.replicas);
    r.ranksPerReplica = std::max(1LL, in.ranksPerReplica);
    const long long maxRows = std::max(2, in.maxRows);
    r.restRow = r.replicas > maxRows;
    r.shownReplicas = int(r.restRow ? maxRows - 1 : r.replicas);
    const long long restRanks = (r.replicas - r.shownReplicas) * r.ranksPerReplica;
    r.expectedStretch = stragglerShare(in.jitter, r.replicas * r.ranksPerReplica);
    SplitMix64 rng { in.seed };
    std::vector<double> compute(std::size_t(r.rows()));
    double t = 0;
    for (int step = 0; step < std::max(1, in.steps); ++step) {
        double barrier = 0;
        for (int row = 0; row < r.rows(); ++row) {
            const long long ranks = row < r.shownReplicas ? r.ranksPerReplica : restRanks;
            const double z = in.jitter > 0 ? maxOfNormals(rng, ranks) : 0.0;
            // A draw below -1/cv would be a negative time (at cv 0.5, 2.3% of single draws).
            compute[std::size_t(row)] = in.compute * std::max(0.0, 1.0 + in.jitter * z);
            barrier = std::max(barrier, compute[std::size_t(row)]);
        }
        for (int row = 0; row < r.rows(); ++row) {
            const double c = compute[std::size_t(row)];
            r.segments.push_back({ row, step, ReplicaPhase::Compute, t, c });
            r.segments.push_back({ row, step, ReplicaPhase::Wait, t + c, barrier - c });
            r.segments.push_back({ row, step, ReplicaPhase::AllReduce, t + barrier, in.allReduce });
        }
        r.stretch.push_back(in.compute > 0 ? barrier / in.compute - 1 : 0.0);
        t += barrier + in.allReduce;
    }
    r.totalTime = t;
    return r;
}

double ReplicaRows::meanStretch() const
{
    double sum = 0;
    for (double s : stretch)
        sum += s;
    return stretch.empty() ? 0.0 : sum / double(stretch.size());
}

double ReplicaRows::meanWait() const
{
    double sum = 0;
    int n = 0;
    for (const ReplicaSegment& g : segments)
        if (g.phase == ReplicaPhase::Wait) {
            sum += g.duration;
            ++n;
        }
    return n > 0 ? sum / n : 0.0;
}

Trace replicaTrace(const ReplicaRows& r)
{
    Trace t;
    t.stages = 1;
    t.ranksPerStage = 1;
    t.totalTime = r.totalTime;
    for (const ReplicaSegment& g : r.segments) {
        if (g.duration <= 0)
            continue;
        TraceEvent e;
        e.start = g.start;
        e.duration = g.duration;
        e.row = g.row;
        e.step = g.step;
        e.kind = g.phase == ReplicaPhase::Compute ? TaskKind::Compute
            : g.phase == ReplicaPhase::Wait       ? TaskKind::BarrierWait
                                                  : TaskKind::DataParallel;
        t.events.push_back(e);
    }
    // Events sort by (start, row); seq numbers that order (trace.h).
    std::stable_sort(t.events.begin(), t.events.end(), [](const TraceEvent& a, const TraceEvent& b) {
        return a.start != b.start ? a.start < b.start : a.row < b.row;
    });
    for (std::size_t i = 0; i < t.events.size(); ++i)
        t.events[i].seq = (long long)i;
    for (int row = 0; row < r.shownReplicas; ++row)
        t.rowNames.push_back("replica " + std::to_string(row));
    if (r.restRow)
        t.rowNames.push_back("slowest of the other " + std::to_string(r.replicas - r.shownReplicas));
    if (!r.stretch.empty())
        t.stepTime = r.stretch.size() > 1 ? r.segments[std::size_t(3 * r.rows())].start : r.totalTime;
    return t;
}

} // namespace dtsim
