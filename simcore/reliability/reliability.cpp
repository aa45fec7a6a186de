#include "reliability.h"

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
    // (e^{L/M} - 1)(M + R) on average when failures do not strike during recovery
    // (Daly 2006, Eq. 13, with failures outside recovery only).
    o.exact = std::expm1((tau + C) / M) * (M + R) / tau - 1;
    return o;
}

namespace {

// Step time when one link of a level runs at a share of its bandwidth: a ring runs at
// its slowest link's pace, and so does an all-to-all, so the whole level slows.
double degradedStepTime(Scenario s, const Calibration& c, const ReliabilitySpec& spec)
{
    const double f = spec.degradedLinkFraction;
    if (spec.degradedLinkLevel == LinkLevel::ScaleUp) {
        s.cluster.scaleUpBandwidth *= f;
    } else {
        s.cluster.scaleOutBandwidth *= f;
        for (int i = 0; i < s.cluster.tierCount; ++i)
            s.cluster.tiers[i].uplinkBandwidth *= f;
    }
    return simulate(s, c).step.stepTime;
}

} // namespace

ReliabilityReport analyzeReliability(const Scenario& s, const Calibration& c, const FailureRates& rates)
{
    return analyzeReliability(s, c, rates, simulate(s, c));
}

FailureRates scenarioRates(const FailureRates& shipped, const ReliabilitySpec& spec)
{
    FailureRates r = shipped;
    const double own[] = { spec.mtbfGpu, spec.mtbfHost, spec.mtbfNic, spec.mtbfSwitchOrCable, spec.mtbfSoftware };
    static_assert(std::size(own) == std::size_t(FailureCause::Preemption)); // preemption comes from spot pricing
    for (int i = 0; i < int(FailureCause::Preemption); ++i)
        if (own[i] > 0)
            r.mtbf[std::size_t(i)] = own[i];
    if (spec.drain > 0)
        r.drain = spec.drain;
    if (spec.provision > 0) // whichever applies: a hot spare's swap, or the wait for one
        r.provisionSpare = r.provisionWait = spec.provision;
    if (spec.reinit > 0)
        r.reinit = spec.reinit;
    return r;
}

ReliabilityReport analyzeReliability(const Scenario& s, const Calibration& c, const FailureRates& shipped, const Report& base)
{
    const ReliabilitySpec& spec = s.reliability;
    const FailureRates rates = scenarioRates(shipped, spec);
    ReliabilityReport r;
    const double gpus = double(s.cluster.gpus);
    const double nodes = std::ceil(gpus / std::max(1, s.cluster.gpusPerNode));
    const double levels = 1 + s.cluster.tierCount; // the leaf, then each tier

    // Cluster failure rate: every unit of every component fails independently.
    double lambda = 0;
    for (int i = 0; i < kComponentCount; ++i) {
        const double units = rates.unit[i] == FailureRates::Unit::Node ? nodes
            : rates.unit[i] == FailureRates::Unit::PortLevel                ? gpus * levels
                                                                            : gpus;
        const double li = rates.mtbf[i] > 0 ? units / rates.mtbf[i] : 0.0;
        r.failuresPerDayByCause[i] = li * 86400.0;
        lambda += li;
    }
    r.clusterMtbf = lambda > 0 ? 1.0 / lambda : INFINITY;

    // Checkpoint: weights and optimizer states; every shard is written once, and
    // data-parallel replicas split the writing between them (as torch DCP does).
    const ParameterCounts params = countParameters(s.model, s.training.seqLen);
    const bool mixed = s.training.precision != Precision::FP32 && s.training.precision != Precision::TF32;
    const double stateBytes = (s.training.optimizer == Optimizer::Adam ? 8.0 : 4.0)
        + (mixed && s.training.masterWeightsFp32 ? 4.0 : 0.0);
    r.checkpointBytes = params.total * (storageBytes(s.training.precision) + stateBytes);
    const double write = spec.storageWriteBandwidth > 0 ? spec.storageWriteBandwidth : gpus * rates.writeBandwidthPerGpu;
    const double read = spec.storageReadBandwidth > 0 ? spec.storageReadBandwidth : gpus * rates.readBandwidthPerGpu;
    const double syncWrite = r.checkpointBytes / write;
    if (spec.asyncCheckpoint) {
        // Training pauses only to copy each GPU's share to host memory.
        const double staging = spec.stagingBandwidth > 0 ? spec.stagingBandwidth : rates.stagingBandwidthPerGpu;
        r.checkpointWrite = r.checkpointBytes / gpus / staging;
        r.checkpointFlush = syncWrite;
    } else {
        r.checkpointWrite = syncWrite;
    }
    r.checkpointLoad = r.checkpointBytes / read;
    r.drain = rates.drain;
    r.provision = spec.spares ? rates.provisionSpare : rates.provisionWait;
    r.reinit = rates.reinit;
    r.recovery = r.drain + r.provision + r.checkpointLoad + r.reinit;

    r.youngInterval = youngInterval(r.checkpointWrite, r.clusterMtbf);
    r.dalyInterval = dalyInterval(r.checkpointWrite, r.clusterMtbf);
    r.interval = spec.checkpointInterval > 0 ? spec.checkpointInterval : r.youngInterval;
    // An asynchronous flush must finish before the next checkpoint starts.
    r.interval = std::max(r.interval, r.checkpointFlush);
    if (!std::isfinite(r.interval))
        r.interval = base.timeToTrain; // nothing ever fails: one checkpoint at the end
    // Checkpoints fall between steps: a whole number of steps, at least one.
    const double step = base.step.stepTime;
    if (step > 0) {
        r.intervalSteps = std::max(1.0, std::round(r.interval / step));
        if (r.intervalSteps * step < r.checkpointFlush)
            r.intervalSteps = std::ceil(r.checkpointFlush / step);
        r.interval = r.intervalSteps * step;
    }

    // Stragglers: a synchronous step runs at the slowest GPU's pace, unless backup
    // workers drop the slowest (at the price of more GPUs). A degraded link slows the
    // collectives that cross it.
    const double straggler = spec.backupWorkers ? 0.0 : spec.stragglerSlowdown;
    const double link = spec.degradedLinkFraction < 1 && base.step.stepTime > 0
        ? degradedStepTime(s, c, spec) / base.step.stepTime - 1 : 0.0;
    r.stepSlowdown = (1 + straggler) * (1 + link) - 1;
    r.gpus = static_cast<long long>(std::llround(gpus * (spec.backupWorkers ? 1 + rates.backupWorkerFraction : 1.0)));
    r.cleanTime = base.timeToTrain;
    r.failureFreeTime = base.timeToTrain * (1 + r.stepSlowdown);

    const RunOverhead o = runOverhead(r.clusterMtbf, r.checkpointWrite, r.recovery, r.interval);
    r.firstOrderOverhead = o.firstOrder;
    r.overheadFraction = o.exact;
    r.expectedTime = r.failureFreeTime * (1 + o.exact);
    r.expectedFailures = std::isfinite(r.clusterMtbf) ? r.expectedTime / (r.clusterMtbf + r.recovery) : 0.0;

    const double perNode = std::max(1, s.cluster.gpusPerNode);
    r.spareGpus = spec.spares ? std::ceil(rates.spareFraction * gpus / perNode) * perNode : 0.0;
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
    const double M = r.clusterMtbf;
    const bool tooManyFailures = !(r.expectedFailures <= kMaxExpectedFailures);
    if (!tooManyFailures && r.overheadFraction <= kMaxRunOverhead && std::isfinite(r.expectedTime))
        return std::nullopt;
    const std::string mtbf = formatDuration(M);
    // Too long before any failure or overhead: the run itself.
    if (!(r.cleanTime / M <= kMaxExpectedFailures))
        return PlanIssue { "training.tokens",
            "the run takes " + years(r.cleanTime) + " with no failures (" + formatCount(s.training.steps()) + " steps of "
                + formatDuration(r.cleanTime / std::max(1.0, s.training.steps())) + "); with the cluster failing every " + mtbf + " it would see "
                + formatCount(r.cleanTime / M) + " failures, more than any run survives (dtsim follows up to "
                + formatCount(kMaxExpectedFailures) + "); train fewer tokens or on more GPUs" };
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

namespace {

using Rng = SplitMix64;

// The chaos events, ready for one pass through a run.
struct Chaos {
    std::vector<double> failures;   // injected failure times, sorted
    std::vector<double> changes;    // times the pace or checkpoint validity changes, sorted
    std::vector<ChaosEvent> stragglers;
    std::vector<double> corruptions; // sorted

    explicit Chaos(const std::vector<ChaosEvent>& events)
    {
        for (const ChaosEvent& e : events) {
            switch (e.kind) {
            case ChaosEvent::Kind::Failure: failures.push_back(e.atSeconds); break;
            case ChaosEvent::Kind::Straggler: stragglers.push_back(e); changes.push_back(e.atSeconds); break;
            case ChaosEvent::Kind::CorruptCheckpoint: corruptions.push_back(e.atSeconds); changes.push_back(e.atSeconds); break;
            }
        }
        std::sort(failures.begin(), failures.end());
        std::sort(changes.begin(), changes.end());
        std::sort(corruptions.begin(), corruptions.end());
    }
    double slowdownAt(double t) const
    {
        double s = 0;
        for (const ChaosEvent& e : stragglers)
            if (t >= e.atSeconds)
                s = std::max(s, e.slowdown);
        return s;
    }
};

// Phases of the first trial kept for the run timeline; more could not be told apart on
// any chart and would only cost memory.
constexpr std::size_t kMaxRecordedPhases = 200000;
// Checkpoint intervals between two events drawn one by one; a longer stretch is drawn
// as one training span (its checkpoints are sub-pixel at any zoom of the whole run).
constexpr double kMaxDrawnIntervals = 2000;

class TraceRecorder {
public:
    TraceRecorder(std::vector<RunPhase>* out, bool* truncated) : m_out(out), m_truncated(truncated) {}
    void add(RunPhase::Kind k, double start, double end, int cause = -1)
    {
        if (!m_out || end <= start)
            return;
        if (m_out->size() >= kMaxRecordedPhases) {
            *m_truncated = true;
            return;
        }
        if (k == RunPhase::Kind::Training && !m_out->empty() && m_out->back().kind == k && m_out->back().end >= start) {
            m_out->back().end = end;
            return;
        }
        m_out->push_back({ k, start, end, cause });
    }
    bool on() const { return m_out != nullptr; }

private:
    std::vector<RunPhase>* m_out;
    bool* m_truncated;
};

} // namespace

MonteCarloResult simulateRun(const ReliabilityReport& r, const ReliabilitySpec& spec, int trials,
    unsigned long long seed, bool recordFirstTrial, const std::atomic<bool>* cancel)
{
    MonteCarloResult out;
    trials = std::max(1, trials);
    out.times.reserve(trials);
    const double lambda = std::isfinite(r.clusterMtbf) && r.clusterMtbf > 0 ? 1.0 / r.clusterMtbf : 0.0;
    std::array<double, kComponentCount> cumulative {};
    double acc = 0;
    for (int i = 0; i < kComponentCount; ++i)
        cumulative[i] = acc += r.failuresPerDayByCause[i];
    const double gpuHoursPerSecond = double(r.gpus) / 3600.0;
    const double T = r.failureFreeTime, I = r.interval, C = r.checkpointWrite, R = r.recovery;
    // Bounded by work: a trial follows at most 50 times the expected failures (the
    // tail of a geometric number of retries), and says so when it stops there.
    const double expectedFailures = lambda > 0 && std::isfinite(r.expectedTime) ? r.expectedTime / (r.clusterMtbf + R) : 0.0;
    const double failureCap = 50 * expectedFailures + 1000;
    const Chaos chaos(spec.chaos);
    Rng rng { seed };
    double failures = 0;
    auto drawCause = [&] {
        const double u = rng.uniform() * acc;
        return std::min<int>(int(std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin()), kComponentCount - 1);
    };

    for (int trial = 0; trial < trials; ++trial) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            break;
        TraceRecorder trace(recordFirstTrial && trial == 0 ? &out.firstTrial : nullptr, &out.firstTrialTruncated);
        double t = 0, done = 0, trialFailures = 0;
        double nextFailure = lambda > 0 ? rng.exponential(lambda) : INFINITY;
        std::size_t injected = 0, change = 0, corruption = 0;
        bool latestCorrupt = false;
        while (done < T) {
            if (trialFailures >= failureCap) {
                ++out.cappedTrials;
                break;
            }
            while (change < chaos.changes.size() && chaos.changes[change] <= t)
                ++change;
            const double nextChange = change < chaos.changes.size() ? chaos.changes[change] : INFINITY;
            const double pace = 1 + chaos.slowdownAt(t);
            const double injectedAt = injected < chaos.failures.size() ? chaos.failures[injected] : INFINITY;
            const double failAt = std::max(t, std::min(nextFailure, injectedAt));

            // Whole intervals that finish before the next failure or chaos change.
            const double fullLeft = std::ceil((T - done) / I) - 1; // the last one has no checkpoint
            const double segment = I * pace + C;
            const double jump = std::min(fullLeft, std::floor((std::min(failAt, nextChange) - t) / segment));
            if (jump >= 1) {
                if (trace.on() && jump > kMaxDrawnIntervals)
                    trace.add(RunPhase::Kind::Training, t, t + jump * segment);
                else if (trace.on())
                    for (double k = 0; k < jump; ++k) {
                        trace.add(RunPhase::Kind::Training, t + k * segment, t + k * segment + I * pace);
                        trace.add(RunPhase::Kind::Checkpoint, t + k * segment + I * pace, t + (k + 1) * segment);
                    }
                t += jump * segment;
                done += jump * I;
                out.checkpointGpuHours += jump * C * gpuHoursPerSecond;
                latestCorrupt = false;
                continue;
            }

            const double work = std::min(I, T - done);
            const bool last = done + work >= T;
            const double end = t + work * pace + (last ? 0.0 : C);
            if (failAt < end) {
                const bool isInjected = injectedAt <= nextFailure;
                const int cause = isInjected ? int(FailureCause::Injected) : drawCause();
                double lost = failAt - t;
                trace.add(RunPhase::Kind::Lost, t, failAt, cause);
                if (latestCorrupt) {
                    // The newest checkpoint is unreadable: restart from the one before.
                    const double back = std::min(done, I);
                    done -= back;
                    lost += back * pace + C;
                    trace.add(RunPhase::Kind::Lost, t - back * pace - C, t, cause);
                    latestCorrupt = false;
                }
                out.lostGpuHoursByCause[cause] += (lost + R) * gpuHoursPerSecond;
                trace.add(RunPhase::Kind::Recovery, failAt, failAt + R, cause);
                t = failAt + R;
                failures += 1;
                trialFailures += 1;
                if (isInjected)
                    ++injected;
                if (!isInjected || nextFailure < t)
                    nextFailure = lambda > 0 ? t + rng.exponential(lambda) : INFINITY;
            } else {
                trace.add(RunPhase::Kind::Training, t, t + work * pace);
                if (!last) {
                    trace.add(RunPhase::Kind::Checkpoint, t + work * pace, end);
                    out.checkpointGpuHours += C * gpuHoursPerSecond;
                }
                t = end;
                done += work;
                // The first checkpoint written after a corruption event is the bad one.
                latestCorrupt = corruption < chaos.corruptions.size() && t >= chaos.corruptions[corruption];
                if (latestCorrupt)
                    ++corruption;
            }
        }
        if (trace.on())
            for (const ChaosEvent& e : chaos.stragglers)
                if (e.atSeconds < t)
                    trace.add(RunPhase::Kind::Slow, e.atSeconds, t);
        out.times.push_back(t);
    }
    if (out.times.empty())
        return out; // cancelled
    std::sort(out.times.begin(), out.times.end());
    auto quantile = [&](double f) {
        return out.times[std::min(out.times.size() - 1, std::size_t(f * double(out.times.size() - 1) + 0.5))];
    };
    out.mean = std::accumulate(out.times.begin(), out.times.end(), 0.0) / double(out.times.size());
    out.p50 = quantile(0.5);
    out.p90 = quantile(0.9);
    out.p99 = quantile(0.99);
    out.goodput = out.mean > 0 ? T / out.mean : 0;
    const double n = double(out.times.size());
    out.failuresMean = failures / n;
    for (double& h : out.lostGpuHoursByCause)
        h /= n;
    out.checkpointGpuHours /= n;
    return out;
}

double deadlineProbability(const MonteCarloResult& m, double deadline)
{
    if (m.times.empty())
        return 0;
    // times is sorted; capped trials are among them at their lower bounds, so a deadline
    // past such a bound would count them as met: take them out of the met ones.
    const auto met = std::upper_bound(m.times.begin(), m.times.end(), deadline) - m.times.begin();
    const double unsure = std::min<double>(double(met), double(m.cappedTrials));
    return std::max(0.0, double(met) - unsure) / double(m.times.size());
}

double deadlineAtOdds(const MonteCarloResult& m, double odds)
{
    if (m.times.empty())
        return 0;
    const std::size_t i = std::min(m.times.size() - 1, std::size_t(std::ceil(odds * double(m.times.size()))) - (odds > 0 ? 1 : 0));
    return m.times[i];
}

} // namespace dtsim
