// The seeded Monte Carlo of a whole run under a recovery plan: failures arrive as a
// Poisson process, strike during recovery too, and roll back to the last segment (when
// the plan survives the cause) or the last storage checkpoint; chaos events on top
// (their effects: chaos_effects.h).
#include "reliability.h"

#include "../parallel_for.h"
#include "../random.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dtsim {

namespace {

using Rng = SplitMix64;

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

// What every trial of a run shares, worked out once from the report and its plan.
struct RunInputs {
    RunInputs(const ReliabilityReport& r, const ReliabilitySpec& spec)
        : plan(r.plan)
        , chaos(spec.chaos, r.chaos, r)
    {
        lambda = std::isfinite(r.clusterMtbf) && r.clusterMtbf > 0 ? 1.0 / r.clusterMtbf : 0.0;
        for (int i = 0; i < kComponentCount; ++i)
            cumulative[i] = acc += r.failuresPerDayByCause[i];
        gpuHoursPerSecond = double(r.gpus) / 3600.0;
        T = r.failureFreeTime;
        I = plan.fastInterval > 0 ? plan.fastInterval : std::max(T, 1.0);
        fastStall = plan.fastStall, storageStall = plan.storageStall, n = plan.segmentsPerStorage;
        // Bounded by work: a trial follows at most 50 times the expected failures (the
        // tail of a geometric number of retries), and says so when it stops there.
        const double expectedFailures = lambda > 0 && std::isfinite(r.expectedTime) ? r.expectedTime * lambda : 0.0;
        // Injected failures all happen (each is one event in the list), on top of the cap.
        failureCap = 50 * expectedFailures + 1000 + double(chaos.failures.size());
    }

    const RecoveryPlan& plan;
    const ChaosSchedule chaos;
    double lambda = 0;                                  // failures per second, whole cluster
    std::array<double, kComponentCount> cumulative {}; // failures per day, causes 0..i
    double acc = 0;                                     // ... all causes
    double gpuHoursPerSecond = 0;
    double T = 0;         // failure-free training time
    double I = 0;         // training between fast checkpoints
    double fastStall = 0, storageStall = 0;
    double n = 0;         // segments per storage checkpoint (INFINITY: none)
    double failureCap = 0;
};

// The segment under way at a trial's position: its work, and the stalls after it.
struct Segment {
    double work = 0;
    bool last = false;     // the run's final segment: no checkpoint after it
    bool blockEnd = false; // a storage checkpoint follows the fast one
    bool skipped = false;  // ... but the storage is down: the checkpoint is skipped
    double stalls = 0;
    double end = 0;        // wall clock when it and its checkpoints finish
};

// One trial, from the start of the run to its end (or the failure cap). The loop in run()
// steps from event to event; each kind of step is a member of its own.
class Trial {
public:
    Trial(const RunInputs& in, unsigned long long seed, TraceRecorder trace)
        : m_in(in)
        , m_rng { seed }
        , m_trace(trace)
    {
        m_nextFailure = in.lambda > 0 ? m_rng.exponential(in.lambda) : INFINITY;
    }

    TrialOutcome run()
    {
        const RunInputs& in = m_in;
        while (m_st.done < in.T) {
            if (m_trialFailures >= in.failureCap) {
                m_res.capped = true;
                break;
            }
            while (m_change < in.chaos.changes.size() && in.chaos.changes[m_change] <= m_st.t)
                ++m_change;
            const double nextChange = m_change < in.chaos.changes.size() ? in.chaos.changes[m_change] : INFINITY;
            const double pace = in.chaos.paceAt(m_st.t);
            const double injectedAt = m_injected < in.chaos.failures.size() ? in.chaos.failures[m_injected].at : INFINITY;
            const double drainAt = m_drain < in.chaos.drains.size() ? std::max(m_st.t, in.chaos.drains[m_drain].at) : INFINITY;
            const double failAt = std::max(m_st.t, std::min(m_nextFailure, injectedAt));
            const double segment = in.I * pace + in.fastStall;
            // A storage outage changes each storage checkpoint due in it: they are taken
            // one at a time there (the fast segments between them still jump).
            const bool outage = in.chaos.outageAt(m_st.t) != nullptr;
            advanceWholeSegments(std::min(failAt, nextChange), pace, segment, outage ? in.n - m_st.inBlock - 1 : INFINITY);
            // The next segment is the one the failure, drain or change falls in.
            const Segment next = segmentAt(pace);
            if (drainAt < m_st.t + next.work * pace && drainAt < failAt)
                drainNode(drainAt, pace);
            else if (failAt < next.end)
                failAndRecover(failAt, injectedAt <= m_nextFailure, pace);
            else
                finish(next, pace);
        }
        traceSlowSpans();
        // A capped trial stopped short of the end: its time is a lower bound, and the
        // work it had left takes at least that long again.
        m_res.time = m_st.t + (m_res.capped ? (in.T - m_st.done) : 0.0);
        m_res.done = true;
        return m_res;
    }

private:
    int drawCause()
    {
        const double u = m_rng.uniform() * m_in.acc;
        return std::min<int>(int(std::lower_bound(m_in.cumulative.begin(), m_in.cumulative.end(), u) - m_in.cumulative.begin()),
            kComponentCount - 1);
    }

    // Stragglers from their start, degraded links over their window, to the trial's end.
    void traceSlowSpans()
    {
        if (!m_trace.on())
            return;
        for (const ChaosEvent& e : m_in.chaos.stragglers)
            if (e.atSeconds < m_st.t)
                m_trace.add(RunPhase::Kind::Slow, e.atSeconds, m_st.t);
        for (const ChaosSchedule::Window& w : m_in.chaos.links)
            if (w.from < m_st.t)
                m_trace.add(RunPhase::Kind::Slow, w.from, std::min(w.until, m_st.t));
    }

    // A planned drain at `d`, inside the current segment's training: the work so far is
    // checkpointed (none is lost), then the job is away for the drain's downtime.
    void drainNode(double d, double pace)
    {
        const ChaosSchedule::Drain& drain = m_in.chaos.drains[m_drain++];
        m_trace.add(RunPhase::Kind::Training, m_st.t, d);
        m_st.done = std::min(m_in.T, m_st.done + (d - m_st.t) / pace);
        const double saved = d + drain.checkpoint;
        m_trace.add(RunPhase::Kind::Checkpoint, d, saved);
        m_res.checkpointHours += drain.checkpoint * m_in.gpuHoursPerSecond;
        storageCheckpoint(m_st.done, saved);
        m_st.inBlock = 0;
        m_st.sinceStorage = 0;
        const int injected = int(FailureCause::Injected);
        m_trace.add(RunPhase::Kind::Recovery, saved, saved + drain.downtime, injected);
        m_res.lost[std::size_t(injected)] += drain.downtime * m_in.gpuHoursPerSecond;
        m_st.t = saved + drain.downtime;
        // Nothing of the job ran meanwhile for a failure to strike; failures are
        // memoryless, so the next is drawn from the restart.
        if (m_nextFailure < m_st.t)
            m_nextFailure = m_st.t + m_rng.exponential(m_in.lambda);
    }

    // A storage checkpoint finished at `at` holding `done`: the first written at or
    // after a corruption event is unreadable.
    void storageCheckpoint(double done, double at)
    {
        m_st.doneStorageBefore = m_st.doneStorage;
        m_st.doneStorage = done;
        m_st.latestCorrupt = m_corruption < m_in.chaos.corruptions.size() && at >= m_in.chaos.corruptions[m_corruption];
        if (m_st.latestCorrupt)
            ++m_corruption;
    }

    // Whole segments (and the storage checkpoints among them) that finish before `until`,
    // the next failure or chaos change, taken in one step; the last segment has no
    // checkpoint. The step crosses no change, so the pace holds throughout; it takes at
    // most `maxJump` segments.
    void advanceWholeSegments(double until, double pace, double segment, double maxJump)
    {
        const RunInputs& in = m_in;
        const double n = in.n;
        const double wholeLeft = std::ceil((in.T - m_st.done) / in.I) - 1;
        const double jump = std::min({ wholeLeft, maxJump, segmentsWithin(until - m_st.t, m_st.inBlock, n, segment, in.storageStall) });
        if (!(jump >= 1))
            return;
        const double crossed = std::isfinite(n) ? std::floor((m_st.inBlock + jump) / n) : 0.0;
        if (m_trace.on())
            traceWholeSegments(jump, crossed, pace, segment);
        if (crossed > 0) {
            // The newest storage checkpoint ends segment `last` of the jump. Only
            // a corruption already due can be pending (jumps stop at the next
            // one), so it strikes the first checkpoint of the jump.
            const double last = (n - m_st.inBlock) + (crossed - 1) * n;
            const double firstAt = m_st.t + (n - m_st.inBlock) * segment + in.storageStall;
            storageCheckpoint(m_st.done + (n - m_st.inBlock) * in.I, firstAt);
            if (crossed > 1) {
                m_st.doneStorageBefore = m_st.done + (last - n) * in.I;
                m_st.doneStorage = m_st.done + last * in.I;
                m_st.latestCorrupt = false;
            }
            m_st.inBlock = m_st.inBlock + jump - crossed * n;
            m_st.sinceStorage = (jump - last) * segment;
        } else {
            m_st.inBlock += jump;
            m_st.sinceStorage += jump * segment;
        }
        m_st.t += jump * segment + crossed * in.storageStall;
        m_st.done += jump * in.I;
        m_res.checkpointHours += (jump * in.fastStall + crossed * in.storageStall) * in.gpuHoursPerSecond;
    }

    // The phases of a step of `jump` whole segments: each segment and checkpoint while
    // they are few enough to draw, else each block between storage checkpoints, else one
    // training span with its storage checkpoints as one periodic phase.
    void traceWholeSegments(double jump, double crossed, double pace, double segment)
    {
        const RunInputs& in = m_in;
        const double n = in.n;
        const double t0 = m_st.t;
        if (in.fastStall > 0 && jump <= kMaxDrawnIntervals) {
            double t = t0, pos = m_st.inBlock;
            for (double k = 0; k < jump; ++k) {
                m_trace.add(RunPhase::Kind::Training, t, t + in.I * pace);
                m_trace.add(RunPhase::Kind::Checkpoint, t + in.I * pace, t + segment);
                t += segment;
                if (++pos >= n) {
                    m_trace.add(RunPhase::Kind::Checkpoint, t, t + in.storageStall);
                    t += in.storageStall;
                    pos = 0;
                }
            }
        } else if (crossed <= kMaxDrawnIntervals) {
            double t = t0, left = jump, pos = m_st.inBlock;
            while (left > 0) {
                const double k = std::isfinite(n) ? std::min(left, n - pos) : left;
                m_trace.add(RunPhase::Kind::Training, t, t + k * segment);
                t += k * segment;
                left -= k;
                pos += k;
                if (pos >= n) {
                    m_trace.add(RunPhase::Kind::Checkpoint, t, t + in.storageStall);
                    t += in.storageStall;
                    pos = 0;
                }
            }
        } else {
            m_trace.add(RunPhase::Kind::Training, t0, t0 + jump * segment + crossed * in.storageStall);
            // The storage checkpoints of the span, as one periodic phase.
            const double period = n * segment + in.storageStall;
            const double first = t0 + (n - m_st.inBlock) * segment;
            m_trace.addPeriodic(RunPhase::Kind::Checkpoint, first, first + (crossed - 1) * period + in.storageStall, period,
                in.storageStall);
        }
    }

    Segment segmentAt(double pace) const
    {
        Segment s;
        s.work = std::min(m_in.I, m_in.T - m_st.done);
        s.last = m_st.done + s.work >= m_in.T;
        s.blockEnd = !s.last && m_st.inBlock + 1 >= m_in.n;
        double storage = m_in.storageStall;
        // A storage checkpoint due in an outage is skipped or stalls longer.
        if (const ChaosSchedule::Window* o = s.blockEnd ? m_in.chaos.outageAt(m_st.t + s.work * pace) : nullptr) {
            s.skipped = o->value < 0;
            storage = s.skipped ? 0.0 : o->value;
        }
        s.stalls = s.last ? 0.0 : m_in.fastStall + (s.blockEnd ? storage : 0.0);
        s.end = m_st.t + s.work * pace + s.stalls;
        return s;
    }

    // The segment and its checkpoints finish before any failure.
    void finish(const Segment& s, double pace)
    {
        m_trace.add(RunPhase::Kind::Training, m_st.t, m_st.t + s.work * pace);
        m_trace.add(RunPhase::Kind::Checkpoint, m_st.t + s.work * pace, s.end);
        m_res.checkpointHours += s.stalls * m_in.gpuHoursPerSecond;
        m_st.done = s.last ? m_in.T : m_st.done + s.work;
        if (s.blockEnd && s.skipped) {
            // The schedule goes on: the next checkpoint is a whole block later, and until
            // then a failure goes back to the last one written before the outage.
            m_st.inBlock = 0;
            m_st.sinceStorage += s.end - m_st.t;
        } else if (s.blockEnd) {
            storageCheckpoint(m_st.done, s.end);
            m_st.inBlock = 0;
            m_st.sinceStorage = 0;
        } else {
            m_st.inBlock += 1;
            m_st.sinceStorage += s.end - m_st.t;
        }
        m_st.t = s.end;
    }

    // Back to the newest readable storage checkpoint, adding what that undoes to `lost`.
    void rollBackToStorage(double& lost, double pace)
    {
        lost += m_st.sinceStorage;
        m_st.done = m_st.doneStorage;
        if (m_st.latestCorrupt) {
            const double back = m_st.doneStorage - m_st.doneStorageBefore;
            m_st.done = m_st.doneStorage = m_st.doneStorageBefore;
            lost += back * pace + back / m_in.I * m_in.fastStall + m_in.storageStall;
            m_st.latestCorrupt = false;
        }
        m_st.inBlock = 0;
        m_st.sinceStorage = 0;
    }

    // A failure (drawn, or injected by chaos) at `failAt`, within the current segment.
    void failAndRecover(double failAt, bool isInjected, double pace)
    {
        int cause = isInjected ? int(FailureCause::Injected) : drawCause();
        const int like = isInjected ? m_in.chaos.failures[m_injected].like : cause;
        // A partition holds the restart until it heals (and the timeout has fired).
        const double heal = isInjected ? failAt + m_in.chaos.failures[m_injected].hold : 0.0;
        // The segment's in-memory copies are gone when a host lost them since it began.
        const bool covered = m_in.plan.covered[std::size_t(like)] && !m_in.chaos.copiesLostIn(m_st.t, failAt);
        // Covered: back to the start of this segment. Otherwise back to the
        // newest readable storage checkpoint.
        double lost = failAt - m_st.t;
        if (!covered)
            rollBackToStorage(lost, pace);
        m_trace.add(RunPhase::Kind::Lost, failAt - lost, failAt, cause);
        m_res.lost[std::size_t(cause)] += lost * m_in.gpuHoursPerSecond;
        m_res.failures += 1;
        m_trialFailures += 1;
        if (isInjected)
            ++m_injected;
        else
            m_nextFailure = failAt + m_rng.exponential(m_in.lambda); // memoryless: from the failure on
        recover(failAt, cause, like, covered, pace, heal);
    }

    // Recovery from a failure at `from`; a failure during it starts it again (and, if the
    // copies do not survive it, from storage). Nothing restarts before `heal`.
    void recover(double from, int cause, int like, bool covered, double pace, double heal)
    {
        const RecoveryPlan& plan = m_in.plan;
        double until = std::max(from, heal) + (covered ? plan.recoveryCovered[std::size_t(like)] : plan.recoveryUncovered[std::size_t(like)]);
        while (m_nextFailure < until && m_trialFailures < m_in.failureCap) {
            m_trace.add(RunPhase::Kind::Recovery, from, m_nextFailure, cause);
            m_res.lost[std::size_t(cause)] += (m_nextFailure - from) * m_in.gpuHoursPerSecond;
            cause = drawCause();
            if (covered && !plan.covered[std::size_t(cause)]) {
                covered = false;
                double lost = 0;
                rollBackToStorage(lost, pace);
                m_res.lost[std::size_t(cause)] += lost * m_in.gpuHoursPerSecond;
            }
            from = m_nextFailure;
            until = std::max(from, heal) + (covered ? plan.recoveryCovered[std::size_t(cause)] : plan.recoveryUncovered[std::size_t(cause)]);
            m_nextFailure = from + m_rng.exponential(m_in.lambda);
            m_res.failures += 1;
            m_trialFailures += 1;
        }
        m_trace.add(RunPhase::Kind::Recovery, from, until, cause);
        m_res.lost[std::size_t(cause)] += (until - from) * m_in.gpuHoursPerSecond;
        m_st.t = until;
    }

    const RunInputs& m_in;
    Rng m_rng;
    TraceRecorder m_trace;
    TrialState m_st;
    TrialOutcome m_res;
    double m_trialFailures = 0;
    double m_nextFailure = INFINITY;
    std::size_t m_injected = 0, m_change = 0, m_corruption = 0, m_drain = 0; // next chaos event of each list
};

// The trials' sums into `out`, in trial order so that they do not depend on which thread
// ran what. Returns the failures of all trials run.
double addUpTrials(const std::vector<TrialOutcome>& outcomes, MonteCarloResult& out)
{
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
    return failures;
}

// Sorted times, their quantiles, and the sums as means per trial.
void summarize(MonteCarloResult& out, double failures, double failureFreeTime)
{
    std::sort(out.times.begin(), out.times.end());
    auto quantile = [&](double f) {
        return out.times[std::min(out.times.size() - 1, std::size_t(f * double(out.times.size() - 1) + 0.5))];
    };
    out.mean = std::accumulate(out.times.begin(), out.times.end(), 0.0) / double(out.times.size());
    out.p50 = quantile(0.5);
    out.p90 = quantile(0.9);
    out.p99 = quantile(0.99);
    out.goodput = out.mean > 0 ? failureFreeTime / out.mean : 0;
    const double trialsRun = double(out.times.size());
    out.failuresMean = failures / trialsRun;
    for (double& h : out.lostGpuHoursByCause)
        h /= trialsRun;
    out.checkpointGpuHours /= trialsRun;
}

} // namespace

MonteCarloResult sampleRuns(const ReliabilityReport& r, const ReliabilitySpec& spec, int trials,
    unsigned long long seed, bool recordFirstTrial, const std::atomic<bool>* cancel)
{
    MonteCarloResult out;
    trials = std::max(1, trials);
    out.times.reserve(trials);
    const RunInputs in(r, spec);
    // Each trial draws from its own stream, seeded from the run's seed and its index, so
    // trials run on every core and the result does not depend on how many there are.
    std::vector<TrialOutcome> outcomes(static_cast<std::size_t>(trials));
    parallelFor(std::size_t(trials), workerCount(std::size_t(trials), 0), cancel, [&](std::size_t index, int) {
        const int trial = int(index);
        const TraceRecorder trace(recordFirstTrial && trial == 0 ? &out.firstTrial : nullptr, &out.firstTrialTruncated);
        outcomes[index] = Trial(in, trialSeed(seed, trial), trace).run();
    });
    const double failures = addUpTrials(outcomes, out);
    if (out.times.empty() || (cancel && cancel->load()))
        return {}; // cancelled
    summarize(out, failures, in.T);
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
