#include "recovery_strategies.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

namespace {

// What one failure of a cause takes down: 0 a node, 1 a rack (leaf), 2 a pod.
int domainLevel(FailureCause c)
{
    return c == FailureCause::Rack ? 1 : c == FailureCause::Pod ? 2 : 0;
}

double domainGpus(const StrategyInputs& in, FailureCause c)
{
    const int level = domainLevel(c);
    return level == 0 ? in.nodeGpus : level == 1 ? in.rackGpus : in.podGpus;
}

// Training seconds between storage checkpoints with stall `stall`, for failures that
// only storage survives arriving at `rate`: the scenario's interval, else Young's; at
// least the asynchronous flush; a whole number of steps.
double storageIntervalFor(const StrategyInputs& in, double stall, double rate, double flush)
{
    double tau = in.checkpointInterval > 0 ? in.checkpointInterval : rate > 0 ? youngInterval(stall, 1 / rate) : INFINITY;
    if (!std::isfinite(tau))
        return INFINITY;
    tau = std::max(tau, flush);
    if (in.step > 0) {
        double steps = std::max(1.0, std::round(tau / in.step));
        if (steps * in.step < flush)
            steps = std::ceil(flush / in.step);
        tau = steps * in.step;
    }
    return tau;
}

void setStorageLevel(const StrategyInputs& in, RecoveryPlan& p, bool async)
{
    p.async = async;
    p.storageStall = async ? in.staging : in.storageWrite;
    p.storageFlush = async ? in.storageWrite : 0.0;
}

// Rates of the failures a plan survives without storage and of those it does not, and
// the mean recovery of each.
struct Split {
    double coveredRate = 0, uncoveredRate = 0, coveredRecovery = 0, uncoveredRecovery = 0;
};

Split split(const StrategyInputs& in, const RecoveryPlan& p)
{
    Split s;
    for (int i = 0; i < kComponentCount; ++i) {
        if (p.covered[i]) {
            s.coveredRate += in.rate[i];
            s.coveredRecovery += in.rate[i] * p.recoveryCovered[i];
        } else {
            s.uncoveredRate += in.rate[i];
            s.uncoveredRecovery += in.rate[i] * p.recoveryUncovered[i];
        }
    }
    if (s.coveredRate > 0)
        s.coveredRecovery /= s.coveredRate;
    if (s.uncoveredRate > 0)
        s.uncoveredRecovery /= s.uncoveredRate;
    return s;
}

// Storage checkpoints only: Daly's exact expectation for exponential failures, with
// failures during recovery, over the mean recovery of all causes.
void costStorage(const StrategyInputs& in, RecoveryPlan& p)
{
    const Split s = split(in, p);
    p.uncoveredRate = s.uncoveredRate;
    const double M = s.uncoveredRate > 0 ? 1 / s.uncoveredRate : INFINITY;
    const RunOverhead o = runOverhead(M, p.storageStall, s.uncoveredRecovery, p.fastInterval, in.failureFreeTime);
    p.checkpointOverhead = o.checkpoints;
    p.lostWorkOverhead = o.lostWork;
    p.recoveryOverhead = o.recovery;
    p.expectedTime = in.failureFreeTime * (1 + o.exact);
}

// Two levels (a fast one for covered failures, storage for the rest): the renewal
// argument: wall time E = work W plus E x (each class's rate x (its recovery + half the
// span it rolls back)), so E = W / (1 - sum). First order in the failure rates, checked
// against the Monte Carlo (tests).
void costTwoLevel(const StrategyInputs& in, RecoveryPlan& p)
{
    const Split s = split(in, p);
    p.coveredRate = s.coveredRate;
    p.uncoveredRate = s.uncoveredRate;
    const double segment = p.fastInterval + p.fastStall;
    const double work = in.failureFreeTime;
    double storageSpan = std::isfinite(p.segmentsPerStorage) ? p.segmentsPerStorage * segment + p.storageStall : 0.0;
    double storageShare = std::isfinite(p.segmentsPerStorage) ? p.storageStall / p.storageInterval() : 0.0;
    if (std::isfinite(p.segmentsPerStorage) && work > 0) {
        // The run's last block ends it without a storage checkpoint, and a failure can
        // roll back no further than the start.
        const double written = std::max(0.0, std::ceil(work / p.storageInterval() - 1e-9) - 1);
        storageShare = written * p.storageStall / work;
        storageSpan = std::min(storageSpan, work * segment / p.fastInterval);
    }
    p.checkpointOverhead = p.fastStall / p.fastInterval + storageShare;
    p.lostWorkOverhead = s.coveredRate * segment / 2 + s.uncoveredRate * storageSpan / 2;
    p.recoveryOverhead = s.coveredRate * s.coveredRecovery + s.uncoveredRate * s.uncoveredRecovery;
    const double busy = p.lostWorkOverhead + p.recoveryOverhead;
    p.expectedTime = busy < 1 ? in.failureFreeTime * (1 + p.checkpointOverhead) / (1 - busy) : INFINITY;
}

// Each cause's recovery when the state comes back in `coveredLoad` seconds (the plan
// survived it) or from storage.
void setRecoveries(const StrategyInputs& in, RecoveryPlan& p, double coveredLoad)
{
    for (int i = 0; i < kFailureCauseCount; ++i) {
        p.recoveryCovered[i] = recoveryTime(in, FailureCause(i), coveredLoad);
        p.recoveryUncovered[i] = recoveryTime(in, FailureCause(i), in.storageLoad);
    }
}

void setBackstop(const StrategyInputs& in, RecoveryPlan& p, bool async)
{
    setStorageLevel(in, p, async);
    // Planned for at least one failure a run that the copies do not survive (but not
    // for more failures than all causes give), so a storage checkpoint exists even where
    // the census expects none.
    const Split s = split(in, p);
    double uncovered = s.uncoveredRate;
    if (in.failureFreeTime > 0)
        uncovered = std::max(uncovered, std::min(s.coveredRate + s.uncoveredRate, 1 / in.failureFreeTime));
    const double tau = storageIntervalFor(in, p.storageStall, uncovered, p.storageFlush);
    p.segmentsPerStorage = std::isfinite(tau) ? std::max(1.0, std::round(tau / p.fastInterval)) : INFINITY;
    if (std::isfinite(p.segmentsPerStorage) && p.storageInterval() < p.storageFlush)
        p.segmentsPerStorage = std::ceil(p.storageFlush / p.fastInterval);
}

RecoveryPlan storage(const StrategyInputs& in, bool async)
{
    RecoveryPlan p;
    p.strategy = RecoveryStrategy::Storage;
    p.name = async ? "storage_async" : "storage";
    setStorageLevel(in, p, async);
    double all = 0;
    for (double r : in.rate)
        all += r;
    p.fastInterval = storageIntervalFor(in, p.storageStall, all, p.storageFlush);
    if (!std::isfinite(p.fastInterval)) // nothing ever fails: one checkpoint at the end
        p.fastInterval = std::max(in.failureFreeTime, in.step);
    p.segmentsPerStorage = 1;
    for (int i = 0; i < kFailureCauseCount; ++i)
        p.recoveryUncovered[i] = recoveryTime(in, FailureCause(i), in.storageLoad);
    costStorage(in, p);
    return p;
}

// Why peer copies cannot be placed on this cluster (empty: they can). `copyLevel`: the
// smallest domain holding every copy (1 rack, 2 pod, 3 the cluster).
std::string copiesUnavailable(const StrategyInputs& in, int copyLevel)
{
    if (in.nicBandwidth <= 0 || in.step <= 0)
        return "there is no scale-out network to copy over";
    if (in.gpus <= in.nodeGpus)
        return "the job runs on one node: there is no peer host for the copy";
    if (in.gpus <= in.nodeGpus * in.copies)
        return "the job's " + std::to_string(int(std::ceil(in.gpus / in.nodeGpus))) + " nodes are too few for a host and "
            + std::to_string(in.copies) + " peer copies";
    if (copyLevel == 1 && in.rackGpus <= in.nodeGpus * in.copies)
        return "one rack holds " + std::to_string(int(in.rackGpus / in.nodeGpus)) + " node(s): too few for a host and its "
            + std::to_string(in.copies) + " peer(s); place the copies in another rack";
    if (copyLevel == 2 && in.rackGpus >= in.gpus)
        return "the job fits in one rack: there is no other rack for the copies";
    if (copyLevel == 3 && in.podGpus >= in.gpus)
        return "the job fits in one pod: there is no other pod for the copies";
    return {};
}

// Steps between copies: the copy (`copy` seconds on the NIC) hides in k steps' idle
// network time and whatever does not fit stalls training; more steps between copies lose
// more work per covered failure (at `covered` a second). The k with the least overhead
// to first order, searched up to where neither term can improve.
double stepsBetweenCopies(const StrategyInputs& in, double copy, double covered)
{
    const double step = std::max(in.step, 1e-9);
    const double idle = std::max(0.0, in.nicIdlePerStep);
    const double kMax = std::min(1e6, std::ceil(std::max(idle > 0 ? copy / idle : 1.0,
        covered > 0 ? youngInterval(std::max(copy - idle, step), 1 / covered) / step : 1.0)) + 1);
    double bestK = 1, best = INFINITY;
    for (double k = 1; k <= kMax; ++k) {
        const double stall = std::max(0.0, copy - k * idle);
        const double cost = stall / (k * step) + covered * (k * step + stall) / 2;
        if (cost < best) {
            best = cost;
            bestK = k;
        }
    }
    return bestK;
}

// Gemini (Wang et al., SOSP 2023): every host copies its GPUs' states to `copies` peer
// hosts' CPU memory, in the network's idle time between training traffic (their
// Sec. 5: traffic interleaving), and restores from a peer; storage checkpoints remain
// for failures that take every copy.
RecoveryPlan inMemory(const StrategyInputs& in, bool async)
{
    RecoveryPlan p;
    p.strategy = RecoveryStrategy::InMemory;
    p.name = "in_memory";
    const int copyLevel = in.placement == CopyPlacement::SameRack ? 1 : in.placement == CopyPlacement::OtherRack ? 2 : 3;
    p.unavailable = copiesUnavailable(in, copyLevel);
    for (int i = 0; i < kFailureCauseCount; ++i)
        p.covered[i] = p.unavailable.empty() && domainLevel(FailureCause(i)) < copyLevel;
    const double copy = in.nicBandwidth > 0 ? in.stateBytesPerGpu * in.copies / in.nicBandwidth : INFINITY;
    const double k = std::isfinite(copy) ? stepsBetweenCopies(in, copy, split(in, p).coveredRate) : 1.0;
    p.fastInterval = k * std::max(in.step, 1e-9);
    p.fastStall = std::isfinite(copy) ? std::max(0.0, copy - k * std::max(0.0, in.nicIdlePerStep)) : 0.0;
    setRecoveries(in, p, in.nicBandwidth > 0 ? in.stateBytesPerGpu / in.nicBandwidth : INFINITY); // from a peer's memory
    setBackstop(in, p, async);
    costTwoLevel(in, p);
    return p;
}

// Just-in-time checkpoints (Gupta et al., EuroSys 2024): no periodic stall; when a
// failure is detected the surviving ranks write the state of the last finished step,
// which the restarted job reads back, so a covered failure loses only the step in
// flight. The state survives when each rank's shard is held elsewhere: by a healthy
// data-parallel replica (unsharded states, DP >= 2, the failure short of a whole DP
// group), or by the failed rank's own GPU when only its network path broke.
RecoveryPlan justInTime(const StrategyInputs& in, bool async)
{
    RecoveryPlan p;
    p.strategy = RecoveryStrategy::JustInTime;
    p.name = "just_in_time";
    const bool replicas = in.dp >= 2 && !in.shardedStates;
    for (int i = 0; i < kFailureCauseCount; ++i) {
        const FailureCause c = FailureCause(i);
        const bool gpuSurvives = c == FailureCause::Nic || c == FailureCause::SwitchOrCable;
        p.covered[i] = gpuSurvives || (replicas && domainGpus(in, c) < in.dpSpanGpus);
    }
    p.fastInterval = std::max(in.step, 1e-9);
    p.fastStall = 0;
    setRecoveries(in, p, in.storageWrite + in.storageLoad); // the just-in-time write, then its reload
    setBackstop(in, p, async);
    costTwoLevel(in, p);
    return p;
}

} // namespace

const char* recoveryStrategyName(RecoveryStrategy s)
{
    switch (s) {
    case RecoveryStrategy::Storage: return "storage";
    case RecoveryStrategy::InMemory: return "in_memory";
    case RecoveryStrategy::JustInTime: return "just_in_time";
    }
    return "?";
}

double recoveryTime(const StrategyInputs& in, FailureCause cause, double load)
{
    const double nodes = std::ceil(domainGpus(in, cause) / std::max(1.0, in.nodeGpus));
    const double provision = in.spares && nodes <= in.spareNodes ? in.provisionSpare : in.provisionWait;
    return in.detect + in.drain + provision + load + in.reinit;
}

std::array<RecoveryPlan, 4> planStrategies(const StrategyInputs& in, bool async)
{
    return { storage(in, false), storage(in, true), inMemory(in, async), justInTime(in, async) };
}

int strategyIndex(RecoveryStrategy s, bool async)
{
    return s == RecoveryStrategy::Storage ? (async ? 1 : 0) : s == RecoveryStrategy::InMemory ? 2 : 3;
}

} // namespace dtsim
