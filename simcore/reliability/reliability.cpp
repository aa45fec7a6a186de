#include "reliability.h"

#include "recovery_strategies.h"
#include "../random.h"

#include "../model.h"
#include "../precision.h"
#include "../step.h"
#include "../units.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dtsim {

const char* failureCauseName(FailureCause c)
{
    switch (c) {
    case FailureCause::Gpu: return "gpu";
    case FailureCause::Host: return "host";
    case FailureCause::Nic: return "nic";
    case FailureCause::SwitchOrCable: return "switch_or_cable";
    case FailureCause::Software: return "software";
    case FailureCause::Rack: return "rack";
    case FailureCause::Pod: return "pod";
    case FailureCause::Preemption: return "preemption";
    case FailureCause::Injected: return "injected";
    }
    return "?";
}

const char* chaosKindName(ChaosEvent::Kind k)
{
    switch (k) {
    case ChaosEvent::Kind::Failure: return "failure";
    case ChaosEvent::Kind::Straggler: return "straggler";
    case ChaosEvent::Kind::CorruptCheckpoint: return "corrupt_checkpoint";
    case ChaosEvent::Kind::Drain: return "drain";
    case ChaosEvent::Kind::LinkDegraded: return "link_degraded";
    case ChaosEvent::Kind::StorageOutage: return "storage_outage";
    case ChaosEvent::Kind::Partition: return "partition";
    case ChaosEvent::Kind::HostOom: return "host_oom";
    }
    return "?";
}

double youngInterval(double c, double m) { return std::sqrt(2.0 * c * m); }

double dalyInterval(double c, double m)
{
    // Daly 2006, "A higher order estimate of the optimum checkpoint interval", Eq. 37.
    if (c >= 2 * m)
        return m;
    const double x = c / (2 * m);
    return std::sqrt(2 * c * m) * (1 + std::sqrt(x) / 3 + x / 9) - c;
}

RunOverhead runOverhead(double M, double C, double R, double tau)
{
    RunOverhead o;
    o.checkpoints = C / tau;
    if (!std::isfinite(M)) {
        o.firstOrder = o.exact = o.checkpoints;
        return o;
    }
    o.lostWork = tau / (2 * M);
    o.recovery = R / M;
    o.firstOrder = o.checkpoints + o.lostWork + o.recovery;
    // One segment of length L = tau + C, retried until no failure strikes it, takes
    // M e^{R/M} (e^{L/M} - 1) on average when failures strike during recovery too and
    // restart it (Daly 2006, Eq. 13).
    o.exact = std::expm1((tau + C) / M) * M * std::exp(R / M) / tau - 1;
    return o;
}

RunOverhead runOverhead(double M, double C, double R, double tau, double W)
{
    if (!(W > 0) || !std::isfinite(W) || !(tau > 0))
        return runOverhead(M, C, R, tau);
    // n segments: n - 1 of tau followed by a checkpoint, the last of what is left with
    // none (the run ends there), each retried until no failure strikes it.
    const double n = std::max(1.0, std::ceil(W / tau - 1e-9));
    const double last = W - (n - 1) * tau;
    RunOverhead o;
    o.checkpoints = (n - 1) * C / W;
    if (!std::isfinite(M)) {
        o.firstOrder = o.exact = o.checkpoints;
        return o;
    }
    o.lostWork = ((n - 1) * tau * tau + last * last) / (2 * M * W);
    o.recovery = R / M;
    o.firstOrder = o.checkpoints + o.lostWork + o.recovery;
    o.exact = M * std::exp(R / M) * ((n - 1) * std::expm1((tau + C) / M) + std::expm1(last / M)) / W - 1;
    return o;
}


ReliabilityReport analyzeReliability(const Scenario& s, const Calibration& c, const FailureRates& rates)
{
    return analyzeReliability(s, c, rates, predictRun(s, c));
}

const char* rateSetName(RateSet s)
{
    switch (s) {
    case RateSet::Llama3H100: return "llama3-h100";
    case RateSet::Rsc1A100: return "rsc1-a100";
    case RateSet::Rsc2A100: return "rsc2-a100";
    case RateSet::BloomA100: return "bloom-a100";
    case RateSet::OptA100: return "opt-a100";
    }
    return "?";
}

double censusNodeFailuresPerDay(const FailureRates& f)
{
    constexpr double gpus = 8, levels = 3;
    double perSecond = 0;
    for (int i = 0; i < kComponentCount; ++i) {
        if (f.mtbf[i] <= 0 || FailureCause(i) == FailureCause::Preemption)
            continue;
        switch (f.unit[i]) {
        case FailureRates::Unit::Gpu: perSecond += gpus / f.mtbf[i]; break;
        case FailureRates::Unit::Node: perSecond += 1 / f.mtbf[i]; break;
        case FailureRates::Unit::PortLevel: perSecond += gpus * levels / f.mtbf[i]; break;
        case FailureRates::Unit::Rack:
        case FailureRates::Unit::Pod: break; // not in a node's own count
        }
    }
    return perSecond * 86400;
}

FailureRates scenarioRates(const FailureRates& shipped, const ReliabilitySpec& spec)
{
    FailureRates r = shipped;
    // Another fleet's rate: the census's split among causes, scaled to its total.
    const double own = shipped.failuresPerNodeDay[std::size_t(spec.failureRates)];
    const double census = censusNodeFailuresPerDay(shipped);
    if (spec.failureRates != RateSet::Llama3H100 && own > 0 && census > 0)
        for (int i = 0; i < kComponentCount; ++i)
            if (FailureCause(i) != FailureCause::Preemption)
                r.mtbf[std::size_t(i)] *= census / own;
    const double mine[] = { spec.mtbfGpu, spec.mtbfHost, spec.mtbfNic, spec.mtbfSwitchOrCable, spec.mtbfSoftware,
        spec.mtbfRack, spec.mtbfPod, spec.mtbfPreemption };
    static_assert(std::size(mine) == std::size_t(kComponentCount));
    for (int i = 0; i < kComponentCount; ++i)
        if (mine[i] > 0)
            r.mtbf[std::size_t(i)] = mine[i];
    if (spec.detect > 0)
        r.detect = spec.detect;
    if (spec.drain > 0)
        r.drain = spec.drain;
    if (spec.provision > 0) // whichever applies: a hot spare's swap, or the wait for one
        r.provisionSpare = r.provisionWait = spec.provision;
    if (spec.reinit > 0)
        r.reinit = spec.reinit;
    if (spec.spareFraction > 0)
        r.spareFraction = spec.spareFraction;
    return r;
}

FailureDomains failureDomains(const ClusterSpec& c)
{
    FailureDomains d;
    const double gpus = double(std::max(1LL, c.gpus));
    d.node = std::min(gpus, double(std::max(1, c.gpusPerNode)));
    // A rack or leaf: below one unit of the first switch tier, or one scale-up domain
    // (an NVL72 rack) when the topology names no tier; a pod: below the second tier,
    // else the whole cluster.
    d.rack = std::min(gpus, c.tierCount > 0 ? double(c.tiers[0].spanGpus) : double(std::max(c.gpusPerNode, c.scaleUpDomain)));
    d.pod = std::min(gpus, c.tierCount > 1 ? double(c.tiers[1].spanGpus) : gpus);
    d.rack = std::max(d.rack, d.node);
    d.pod = std::max(d.pod, d.rack);
    return d;
}

RecoveryPlan storagePlan(const ReliabilityReport& r)
{
    RecoveryPlan p;
    p.fastInterval = r.interval;
    p.storageStall = r.checkpointWrite;
    p.storageFlush = r.checkpointFlush;
    p.recoveryUncovered.fill(r.recovery);
    p.expectedTime = r.expectedTime;
    return p;
}

ReliabilityReport analyzeReliability(const Scenario& s, const Calibration& c, const FailureRates& shipped, const Report& base)
{
    const ReliabilitySpec& spec = s.reliability;
    const FailureRates rates = scenarioRates(shipped, spec);
    ReliabilityReport r;
    const double gpus = double(s.cluster.gpus);
    const double perNode = std::max(1, s.cluster.gpusPerNode);
    const double nodes = std::ceil(gpus / perNode);
    const double levels = 1 + s.cluster.tierCount; // the leaf, then each tier
    const FailureDomains domains = failureDomains(s.cluster);
    r.rackGpus = domains.rack;
    r.podGpus = domains.pod;

    // Cluster failure rate: every unit of every component fails independently; a rack
    // or pod event takes all the GPUs below it at once.
    StrategyInputs in;
    double lambda = 0;
    for (int i = 0; i < kComponentCount; ++i) {
        double units = gpus;
        switch (rates.unit[i]) {
        case FailureRates::Unit::Gpu: units = gpus; break;
        case FailureRates::Unit::Node: units = nodes; break;
        case FailureRates::Unit::PortLevel: units = gpus * levels; break;
        case FailureRates::Unit::Rack: units = std::ceil(gpus / domains.rack); break;
        case FailureRates::Unit::Pod: units = std::ceil(gpus / domains.pod); break;
        }
        const double li = rates.mtbf[i] > 0 ? units / rates.mtbf[i] : 0.0;
        in.rate[i] = li;
        r.failuresPerDayByCause[i] = li * 86400.0;
        lambda += li;
    }
    r.clusterMtbf = lambda > 0 ? 1.0 / lambda : INFINITY;

    // Checkpoint: weights and optimizer states; every shard is written once, and
    // data-parallel replicas split the writing between them (as torch DCP does), all at
    // once, so they share the storage's aggregate bandwidth.
    const ParameterCounts params = countParameters(s.model, s.training.seqLen);
    const bool mixed = s.training.precision != Precision::FP32 && s.training.precision != Precision::TF32;
    const double stateBytes = (s.training.optimizer == Optimizer::Adam ? 8.0 : 4.0)
        + (mixed && s.training.masterWeightsFp32 ? 4.0 : 0.0);
    r.checkpointBytes = params.total * (storageBytes(s.training.precision) + stateBytes);
    const double write = spec.storageWriteBandwidth > 0 ? spec.storageWriteBandwidth : gpus * rates.writeBandwidthPerGpu;
    const double read = spec.storageReadBandwidth > 0 ? spec.storageReadBandwidth : gpus * rates.readBandwidthPerGpu;
    const double staging = spec.stagingBandwidth > 0 ? spec.stagingBandwidth : rates.stagingBandwidthPerGpu;
    r.checkpointLoad = r.checkpointBytes / read;
    r.detect = rates.detect;
    r.drain = rates.drain;
    r.provision = spec.spares ? rates.provisionSpare : rates.provisionWait;
    r.reinit = rates.reinit;
    r.recovery = r.detect + r.drain + r.provision + r.checkpointLoad + r.reinit;
    r.spareGpus = spec.spares ? std::ceil(rates.spareFraction * gpus / perNode) * perNode : 0.0;

    // Stragglers: a synchronous step runs at the slowest GPU's pace, unless backup
    // workers drop the slowest (at the price of more GPUs). A degraded link slows the
    // collectives that cross it.
    const double straggler = spec.backupWorkers ? 0.0 : spec.stragglerSlowdown;
    const double link = spec.degradedLinkFraction < 1 && base.step.stepTime > 0
        ? linkStepSlowdown(s, c, spec.degradedLinkLevel, 0, spec.degradedLinkFraction, base.step.stepTime) : 0.0;
    r.stepSlowdown = (1 + straggler) * (1 + link) - 1;
    r.gpus = static_cast<long long>(std::llround(gpus * (spec.backupWorkers ? 1 + rates.backupWorkerFraction : 1.0)));
    r.memoryProblem = memoryIssue(s, base.step.memory);
    r.cleanTime = base.timeToTrain;
    r.steps = base.steps;
    r.failureFreeTime = base.timeToTrain * (1 + r.stepSlowdown);

    // Every recovery strategy, costed on this run.
    in.failureFreeTime = r.failureFreeTime;
    in.step = base.step.stepTime;
    in.detect = r.detect;
    in.drain = r.drain;
    in.reinit = r.reinit;
    in.provisionSpare = rates.provisionSpare;
    in.provisionWait = rates.provisionWait;
    in.spares = spec.spares;
    in.spareNodes = r.spareGpus / perNode;
    in.nodeGpus = domains.node;
    in.rackGpus = domains.rack;
    in.podGpus = domains.pod;
    in.gpus = gpus;
    in.storageWrite = r.checkpointBytes / write;
    in.storageLoad = r.checkpointLoad;
    in.staging = r.checkpointBytes / gpus / staging;
    in.stateBytesPerGpu = base.step.memory.weights + base.step.memory.optimizer;
    in.nicBandwidth = s.cluster.scaleOutBandwidth;
    const LevelLoad& nic = base.step.levels[1];
    in.nicIdlePerStep = base.step.levelCount > 1 ? base.step.stepTime * std::max(0.0, 1 - nic.utilization) : base.step.stepTime;
    in.dp = s.plan.dp;
    in.shardedStates = s.plan.zeroStage >= 1;
    in.dpSpanGpus = double(s.plan.dp) * s.plan.stride(Axis::DP);
    in.copies = spec.inMemoryCopies;
    in.placement = spec.copyPlacement;
    in.checkpointInterval = spec.checkpointInterval;
    r.strategies = planStrategies(in, spec.asyncCheckpoint);
    r.plan = r.strategies[std::size_t(strategyIndex(spec.strategy, spec.asyncCheckpoint))];

    // The storage level of the chosen strategy: its checkpoints, interval and recovery.
    r.checkpointWrite = r.plan.storageStall;
    r.checkpointFlush = r.plan.storageFlush;
    // (the backstop of the other strategies plans for at least one uncovered failure a run)
    const double uncovered = r.plan.strategy == RecoveryStrategy::Storage ? lambda
                                                                          : std::max(r.plan.uncoveredRate, std::min(lambda, 1 / r.failureFreeTime));
    r.youngInterval = uncovered > 0 ? youngInterval(r.checkpointWrite, 1 / uncovered) : INFINITY;
    r.dalyInterval = uncovered > 0 ? dalyInterval(r.checkpointWrite, 1 / uncovered) : INFINITY;
    r.interval = r.plan.storageInterval();
    r.intervalSteps = base.step.stepTime > 0 && std::isfinite(r.interval) ? r.interval / base.step.stepTime : 0.0;
    r.firstOrderOverhead = r.plan.checkpointOverhead + r.plan.lostWorkOverhead + r.plan.recoveryOverhead;
    r.expectedTime = r.plan.expectedTime;
    r.overheadFraction = r.expectedTime / r.failureFreeTime - 1;
    r.expectedFailures = std::isfinite(r.clusterMtbf) ? r.expectedTime / r.clusterMtbf : 0.0;

    const double idle = r.spareGpus + (r.gpus - gpus);
    r.mitigationGpuHours = idle * r.expectedTime / 3600.0;
    return r;
}

namespace {

std::string years(double seconds)
{
    return seconds / units::year >= 1 ? formatCount(seconds / units::year) + " years" : formatDuration(seconds);
}

} // namespace

std::optional<PlanIssue> runIssue(const Scenario& s, const ReliabilityReport& r)
{
    const ReliabilitySpec& spec = s.reliability;
    if (r.memoryProblem)
        return r.memoryProblem;
    if (!r.plan.unavailable.empty())
        return PlanIssue { spec.strategy == RecoveryStrategy::InMemory && spec.copyPlacement != CopyPlacement::SameRack
                               ? "reliability.in_memory.placement" : "reliability.strategy",
            std::string(r.plan.name) + " checkpoints cannot run here: " + r.plan.unavailable };
    const double M = r.clusterMtbf;
    const bool tooManyFailures = !(r.expectedFailures <= kMaxExpectedFailures);
    if (!tooManyFailures && r.overheadFraction <= kMaxRunOverhead && std::isfinite(r.expectedTime))
        return std::nullopt;
    const std::string mtbf = formatDuration(M);
    // Too long before any failure or overhead: the run itself.
    if (!(r.cleanTime / M <= kMaxExpectedFailures))
        return PlanIssue { s.training.target == TrainingTarget::Loss ? "training.target_loss" : "training.tokens",
            "the run takes " + years(r.cleanTime) + " with no failures (" + formatCount(r.steps) + " steps of "
                + formatDuration(r.cleanTime / std::max(1.0, r.steps)) + "); with the cluster failing every " + mtbf + " it would see "
                + formatCount(r.cleanTime / M) + " failures, more than any run survives (dtsim follows up to "
                + formatCount(kMaxExpectedFailures) + "); train "
                + (s.training.target == TrainingTarget::Loss ? "to a higher loss" : "fewer tokens") + " or on more GPUs" };
    if (!(r.failureFreeTime / M <= kMaxExpectedFailures)) {
        const bool straggler = !spec.backupWorkers && spec.stragglerSlowdown > 0;
        return PlanIssue { straggler ? "reliability.straggler_slowdown" : "reliability.degraded_link.bandwidth_fraction",
            std::string(straggler ? "the straggler" : "the degraded link") + " slows every step " + formatCount(1 + r.stepSlowdown)
                + "x, so the run takes " + years(r.failureFreeTime) + " and would see " + formatCount(r.failureFreeTime / M)
                + " failures; no such run finishes" };
    }
    const std::string expected = std::isfinite(r.expectedTime) ? years(r.expectedTime) : "forever";
    if (spec.checkpointInterval > 0 && r.interval > r.youngInterval)
        return PlanIssue { "reliability.checkpoint_interval",
            "checkpointing every " + formatDuration(r.interval) + " while the cluster fails every " + mtbf
                + ", a failure nearly always strikes before the next checkpoint, so the expected run takes " + expected
                + " (" + formatCount(r.failureFreeTime / units::day) + " days without failures); Young's interval is "
                + formatDuration(r.youngInterval) };
    if (r.checkpointWrite + r.recovery > M)
        return PlanIssue { spec.storageWriteBandwidth > 0 ? "reliability.storage_write_bandwidth" : "cluster.gpus",
            "writing a checkpoint (" + formatDuration(r.checkpointWrite) + ") and recovering from a failure ("
                + formatDuration(r.recovery) + ") take longer than the cluster runs between failures (" + mtbf
                + "), so the expected run takes " + expected + "; use faster storage, asynchronous checkpoints or fewer GPUs" };
    return PlanIssue { "cluster.gpus",
        "the cluster fails every " + mtbf + ", so the expected run takes " + expected + " with " + formatCount(r.expectedFailures)
            + " failures; use fewer GPUs, faster recovery or more frequent checkpoints" };
}

int affordableTrials(const ReliabilityReport& r, int wanted, int passes)
{
    const double perTrial = std::max(1.0, r.expectedFailures) * std::max(1, passes);
    return std::clamp(static_cast<int>(std::min<double>(wanted, kMonteCarloFailureBudget / perTrial)), 1, std::max(1, wanted));
}

} // namespace dtsim
