// The seeded Monte Carlo of a whole run under a recovery plan: failures arrive as a
// Poisson process, strike during recovery too, and roll back to the last segment (when
// the plan survives the cause) or the last storage checkpoint; chaos events on top.
#include "reliability.h"

#include "../planner/parallel_for.h"
#include "../random.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dtsim {

namespace {

using Rng = SplitMix64;

FailureCause scopeCause(ChaosEvent::Scope s)
{
    return s == ChaosEvent::Scope::Rack ? FailureCause::Rack : s == ChaosEvent::Scope::Pod ? FailureCause::Pod : FailureCause::Injected;
}

// The chaos events, ready for one pass through a run.
struct Chaos {
    struct Failure {
        double at = 0;
        int like = int(FailureCause::Injected); // the cause whose coverage and recovery it has
    };
    std::vector<Failure> failures;  // injected failures, sorted
    std::vector<double> changes;    // times the pace or checkpoint validity changes, sorted
    std::vector<ChaosEvent> stragglers;
    std::vector<double> corruptions; // sorted

    explicit Chaos(const std::vector<ChaosEvent>& events)
    {
        for (const ChaosEvent& e : events) {
            switch (e.kind) {
            case ChaosEvent::Kind::Failure: failures.push_back({ e.atSeconds, int(scopeCause(e.scope)) }); break;
            case ChaosEvent::Kind::Straggler: stragglers.push_back(e); changes.push_back(e.atSeconds); break;
            case ChaosEvent::Kind::CorruptCheckpoint: corruptions.push_back(e.atSeconds); changes.push_back(e.atSeconds); break;
            }
        }
        std::sort(failures.begin(), failures.end(), [](const Failure& a, const Failure& b) { return a.at < b.at; });
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
// Checkpoints between two events drawn one by one; a longer stretch is drawn as one
// training span (its checkpoints are sub-pixel at any zoom of the whole run).
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
    void addPeriodic(RunPhase::Kind k, double start, double end, double period, double duration)
    {
        if (!m_out || end <= start || duration <= 0 || period <= duration)
            return;
        if (m_out->size() >= kMaxRecordedPhases) {
            *m_truncated = true;
            return;
        }
        m_out->push_back({ k, start, end, -1, period, duration });
    }
    bool on() const { return m_out != nullptr; }

private:
    std::vector<RunPhase>* m_out;
    bool* m_truncated;
};

// Whole segments of `segment` seconds that fit in `avail`, from `pos` segments into a
// block of `n` (INFINITY: no blocks) that ends with a storage stall of `stall`; a
// segment that ends a block fits only with its stall.
double segmentsWithin(double avail, double pos, double n, double segment, double stall)
{
    if (!(avail >= segment))
        return 0;
    if (!std::isfinite(n))
        return std::floor(avail / segment);
    const double toEnd = n - pos;
    const double blockEnd = toEnd * segment + stall;
    if (blockEnd > avail)
        return std::min(std::floor(avail / segment), toEnd - 1);
    double rest = avail - blockEnd;
    const double block = n * segment + stall;
    const double blocks = std::floor(rest / block);
    rest -= blocks * block;
    return toEnd + blocks * n + std::min(std::floor(rest / segment), n - 1);
}

// What one trial adds up to.
struct TrialOutcome {
    double time = 0, failures = 0, checkpointHours = 0;
    std::array<double, kFailureCauseCount> lost {};
    bool capped = false, done = false;
};

// A trial's own stream: the run's seed and the trial's index, mixed (splitmix64's
// finalizer), so neighbouring trials draw unrelated numbers.
unsigned long long trialSeed(unsigned long long seed, int trial)
{
    SplitMix64 mix { seed ^ (0xD1B54A32D192ED03ULL * (unsigned long long)(trial + 1)) };
    return mix.next();
}

// One trial's position: progress, and what a failure would roll back to.
struct TrialState {
    double t = 0;                // wall clock, always at a segment boundary between events
    double done = 0;             // training seconds finished (at the last segment boundary)
    double inBlock = 0;          // segments since the last storage checkpoint
    double sinceStorage = 0;     // wall seconds since the last storage checkpoint (no recovery)
    double doneStorage = 0;      // progress the newest storage checkpoint holds
    double doneStorageBefore = 0; // ... and the one before it
    bool latestCorrupt = false;
};

} // namespace

MonteCarloResult simulateRun(const ReliabilityReport& r, const ReliabilitySpec& spec, int trials,
    unsigned long long seed, bool recordFirstTrial, const std::atomic<bool>* cancel)
{
    MonteCarloResult out;
    trials = std::max(1, trials);
    out.times.reserve(trials);
    const RecoveryPlan& plan = r.plan;
    const double lambda = std::isfinite(r.clusterMtbf) && r.clusterMtbf > 0 ? 1.0 / r.clusterMtbf : 0.0;
    std::array<double, kComponentCount> cumulative {};
    double acc = 0;
    for (int i = 0; i < kComponentCount; ++i)
        cumulative[i] = acc += r.failuresPerDayByCause[i];
    const double gpuHoursPerSecond = double(r.gpus) / 3600.0;
    const double T = r.failureFreeTime;
    const double I = plan.fastInterval > 0 ? plan.fastInterval : std::max(T, 1.0);
    const double fastStall = plan.fastStall, storageStall = plan.storageStall, n = plan.segmentsPerStorage;
    // Bounded by work: a trial follows at most 50 times the expected failures (the
    // tail of a geometric number of retries), and says so when it stops there.
    const double expectedFailures = lambda > 0 && std::isfinite(r.expectedTime) ? r.expectedTime * lambda : 0.0;
    const Chaos chaos(spec.chaos);
    // Injected failures all happen (each is one event in the list), on top of the cap.
    const double failureCap = 50 * expectedFailures + 1000 + double(chaos.failures.size());
    // Each trial draws from its own stream, seeded from the run's seed and its index, so
    // trials run on every core and the result does not depend on how many there are.
    std::vector<TrialOutcome> outcomes(static_cast<std::size_t>(trials));
    parallelFor(std::size_t(trials), workerCount(std::size_t(trials), 0), cancel, [&](std::size_t index, int) {
        const int trial = int(index);
        TrialOutcome& res = outcomes[index];
        Rng rng { trialSeed(seed, trial) };
        auto drawCause = [&] {
            const double u = rng.uniform() * acc;
            return std::min<int>(int(std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin()), kComponentCount - 1);
        };
        TraceRecorder trace(recordFirstTrial && trial == 0 ? &out.firstTrial : nullptr, &out.firstTrialTruncated);
        TrialState st;
        double trialFailures = 0;
        double nextFailure = lambda > 0 ? rng.exponential(lambda) : INFINITY;
        std::size_t injected = 0, change = 0, corruption = 0;

        // A storage checkpoint finished at `at` holding `done`: the first written at or
        // after a corruption event is unreadable.
        auto storageCheckpoint = [&](double done, double at) {
            st.doneStorageBefore = st.doneStorage;
            st.doneStorage = done;
            st.latestCorrupt = corruption < chaos.corruptions.size() && at >= chaos.corruptions[corruption];
            if (st.latestCorrupt)
                ++corruption;
        };

        while (st.done < T) {
            if (trialFailures >= failureCap) {
                res.capped = true;
                break;
            }
            while (change < chaos.changes.size() && chaos.changes[change] <= st.t)
                ++change;
            const double nextChange = change < chaos.changes.size() ? chaos.changes[change] : INFINITY;
            const double pace = 1 + chaos.slowdownAt(st.t);
            const double injectedAt = injected < chaos.failures.size() ? chaos.failures[injected].at : INFINITY;
            const double failAt = std::max(st.t, std::min(nextFailure, injectedAt));
            const double segment = I * pace + fastStall;

            // Whole segments (and the storage checkpoints among them) that finish before
            // the next failure or chaos change; the last segment has no checkpoint.
            const double wholeLeft = std::ceil((T - st.done) / I) - 1;
            const double jump = std::min(wholeLeft, segmentsWithin(std::min(failAt, nextChange) - st.t, st.inBlock, n, segment, storageStall));
            if (jump >= 1) {
                const double crossed = std::isfinite(n) ? std::floor((st.inBlock + jump) / n) : 0.0;
                if (trace.on()) {
                    const double t0 = st.t;
                    if (fastStall > 0 && jump <= kMaxDrawnIntervals) {
                        double t = t0, pos = st.inBlock;
                        for (double k = 0; k < jump; ++k) {
                            trace.add(RunPhase::Kind::Training, t, t + I * pace);
                            trace.add(RunPhase::Kind::Checkpoint, t + I * pace, t + segment);
                            t += segment;
                            if (++pos >= n) {
                                trace.add(RunPhase::Kind::Checkpoint, t, t + storageStall);
                                t += storageStall;
                                pos = 0;
                            }
                        }
                    } else if (crossed <= kMaxDrawnIntervals) {
                        double t = t0, left = jump, pos = st.inBlock;
                        while (left > 0) {
                            const double k = std::isfinite(n) ? std::min(left, n - pos) : left;
                            trace.add(RunPhase::Kind::Training, t, t + k * segment);
                            t += k * segment;
                            left -= k;
                            pos += k;
                            if (pos >= n) {
                                trace.add(RunPhase::Kind::Checkpoint, t, t + storageStall);
                                t += storageStall;
                                pos = 0;
                            }
                        }
                    } else {
                        trace.add(RunPhase::Kind::Training, t0, t0 + jump * segment + crossed * storageStall);
                        // The storage checkpoints of the span, as one periodic phase.
                        const double period = n * segment + storageStall;
                        const double first = t0 + (n - st.inBlock) * segment;
                        trace.addPeriodic(RunPhase::Kind::Checkpoint, first, first + (crossed - 1) * period + storageStall, period, storageStall);
                    }
                }
                if (crossed > 0) {
                    // The newest storage checkpoint ends segment `last` of the jump. Only
                    // a corruption already due can be pending (jumps stop at the next
                    // one), so it strikes the first checkpoint of the jump.
                    const double last = (n - st.inBlock) + (crossed - 1) * n;
                    const double firstAt = st.t + (n - st.inBlock) * segment + storageStall;
                    storageCheckpoint(st.done + (n - st.inBlock) * I, firstAt);
                    if (crossed > 1) {
                        st.doneStorageBefore = st.done + (last - n) * I;
                        st.doneStorage = st.done + last * I;
                        st.latestCorrupt = false;
                    }
                    st.inBlock = st.inBlock + jump - crossed * n;
                    st.sinceStorage = (jump - last) * segment;
                } else {
                    st.inBlock += jump;
                    st.sinceStorage += jump * segment;
                }
                st.t += jump * segment + crossed * storageStall;
                st.done += jump * I;
                res.checkpointHours += (jump * fastStall + crossed * storageStall) * gpuHoursPerSecond;
                // The next segment is the one the failure or change falls in: on to it
                // (the jump crossed no change, so the pace holds).
            }

            const double work = std::min(I, T - st.done);
            const bool last = st.done + work >= T;
            const bool blockEnd = !last && st.inBlock + 1 >= n;
            const double stalls = last ? 0.0 : fastStall + (blockEnd ? storageStall : 0.0);
            const double end = st.t + work * pace + stalls;
            if (failAt < end) {
                const bool isInjected = injectedAt <= nextFailure;
                int cause = isInjected ? int(FailureCause::Injected) : drawCause();
                const int like = isInjected ? chaos.failures[injected].like : cause;
                bool covered = plan.covered[std::size_t(like)];
                // Covered: back to the start of this segment. Otherwise back to the
                // newest readable storage checkpoint.
                double lost = failAt - st.t;
                auto rollBackToStorage = [&] {
                    lost += st.sinceStorage;
                    st.done = st.doneStorage;
                    if (st.latestCorrupt) {
                        const double back = st.doneStorage - st.doneStorageBefore;
                        st.done = st.doneStorage = st.doneStorageBefore;
                        lost += back * pace + back / I * fastStall + storageStall;
                        st.latestCorrupt = false;
                    }
                    st.inBlock = 0;
                    st.sinceStorage = 0;
                };
                if (!covered)
                    rollBackToStorage();
                trace.add(RunPhase::Kind::Lost, failAt - lost, failAt, cause);
                res.lost[std::size_t(cause)] += lost * gpuHoursPerSecond;
                res.failures += 1;
                trialFailures += 1;
                if (isInjected)
                    ++injected;
                else
                    nextFailure = failAt + rng.exponential(lambda); // memoryless: from the failure on
                // Recovery; a failure during it starts it again (and, if the copies do
                // not survive it, from storage).
                double from = failAt;
                double until = from + (covered ? plan.recoveryCovered[std::size_t(like)] : plan.recoveryUncovered[std::size_t(like)]);
                while (nextFailure < until && trialFailures < failureCap) {
                    trace.add(RunPhase::Kind::Recovery, from, nextFailure, cause);
                    res.lost[std::size_t(cause)] += (nextFailure - from) * gpuHoursPerSecond;
                    cause = drawCause();
                    if (covered && !plan.covered[std::size_t(cause)]) {
                        covered = false;
                        lost = 0;
                        rollBackToStorage();
                        res.lost[std::size_t(cause)] += lost * gpuHoursPerSecond;
                    }
                    from = nextFailure;
                    until = from + (covered ? plan.recoveryCovered[std::size_t(cause)] : plan.recoveryUncovered[std::size_t(cause)]);
                    nextFailure = from + rng.exponential(lambda);
                    res.failures += 1;
                    trialFailures += 1;
                }
                trace.add(RunPhase::Kind::Recovery, from, until, cause);
                res.lost[std::size_t(cause)] += (until - from) * gpuHoursPerSecond;
                st.t = until;
            } else {
                trace.add(RunPhase::Kind::Training, st.t, st.t + work * pace);
                trace.add(RunPhase::Kind::Checkpoint, st.t + work * pace, end);
                res.checkpointHours += stalls * gpuHoursPerSecond;
                st.done = last ? T : st.done + work;
                if (blockEnd) {
                    storageCheckpoint(st.done, end);
                    st.inBlock = 0;
                    st.sinceStorage = 0;
                } else {
                    st.inBlock += 1;
                    st.sinceStorage += end - st.t;
                }
                st.t = end;
            }
        }
        if (trace.on())
            for (const ChaosEvent& e : chaos.stragglers)
                if (e.atSeconds < st.t)
                    trace.add(RunPhase::Kind::Slow, e.atSeconds, st.t);
        // A capped trial stopped short of the end: its time is a lower bound, and the
        // work it had left takes at least that long again.
        res.time = st.t + (res.capped ? (T - st.done) : 0.0);
        res.done = true;
    });
    // In trial order, so that sums do not depend on which thread ran what.
    double failures = 0;
    for (const TrialOutcome& o : outcomes) {
        if (!o.done)
            continue; // cancelled before it ran
        out.times.push_back(o.time);
        failures += o.failures;
        out.cappedTrials += o.capped;
        out.checkpointGpuHours += o.checkpointHours;
        for (int i = 0; i < kFailureCauseCount; ++i)
            out.lostGpuHoursByCause[std::size_t(i)] += o.lost[std::size_t(i)];
    }
    if (out.times.empty() || (cancel && cancel->load()))
        return {}; // cancelled
    std::sort(out.times.begin(), out.times.end());
    auto quantile = [&](double f) {
        return out.times[std::min(out.times.size() - 1, std::size_t(f * double(out.times.size() - 1) + 0.5))];
    };
    out.mean = std::accumulate(out.times.begin(), out.times.end(), 0.0) / double(out.times.size());
    out.p50 = quantile(0.5);
    out.p90 = quantile(0.9);
    out.p99 = quantile(0.99);
    out.goodput = out.mean > 0 ? T / out.mean : 0;
    const double trialsRun = double(out.times.size());
    out.failuresMean = failures / trialsRun;
    for (double& h : out.lostGpuHoursByCause)
        h /= trialsRun;
    out.checkpointGpuHours /= trialsRun;
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
