#include "timeline.h"

#include "../step.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <vector>

namespace dtsim {

namespace {

enum class Op { F, B, W };

struct Task {
    Op op;
    int mb;
    int chunk;
};

// The order in which one stage runs its tasks (Narayanan et al. 2021 for 1F1B and the
// interleaved schedule; GPipe runs every forward before any backward).
std::vector<Task> stageOrder(Schedule schedule, int stage, int p, int m, int v)
{
    std::vector<Task> order;
    if (schedule == Schedule::GPipe || p == 1) {
        for (int i = 0; i < m; ++i)
            order.push_back({ Op::F, i, 0 });
        for (int i = 0; i < m; ++i)
            order.push_back({ Op::B, i, 0 });
        return order;
    }
    const int total = m * v;
    auto forwardAt = [&](int k) { return Task { Op::F, (k / (p * v)) * p + k % p, (k / p) % v }; };
    auto backwardAt = [&](int k) { return Task { Op::B, (k / (p * v)) * p + k % p, v - 1 - (k / p) % v }; };
    const int warmup = v == 1 ? std::min(m, p - stage - 1) : std::min(total, (p - stage - 1) * 2 + (v - 1) * p);
    int f = 0, b = 0;
    for (; f < warmup; ++f)
        order.push_back(forwardAt(f));
    while (f < total) {
        order.push_back(forwardAt(f++));
        order.push_back(backwardAt(b++));
    }
    while (b < total)
        order.push_back(backwardAt(b++));
    return order;
}

struct Event {
    double time;
    long long seq;
    int stage;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

// Orders events by (start, seq). Small keys are sorted and the 64-byte events moved
// once: sorting the events themselves took a third of a 40,000-bar timeline's time.
// The events come in seq order, so a key's index breaks ties as seq would.
void sortByStart(std::vector<TraceEvent>& events)
{
    std::vector<std::pair<double, int>> keys(events.size());
    for (std::size_t i = 0; i < events.size(); ++i)
        keys[i] = { events[i].start, int(i) };
    std::sort(keys.begin(), keys.end());
    std::vector<TraceEvent> sorted;
    sorted.reserve(events.size());
    for (const auto& k : keys)
        sorted.push_back(events[std::size_t(k.second)]);
    events = std::move(sorted);
}

} // namespace

double estimateTimelineEvents(const Scenario& s, const StepReport& rep, const TimelineOptions& o)
{
    // Per stage and step, as simulateTimeline emits them: each forward a compute and a
    // collective bar per layer of its chunk and a send; each backward the same plus a
    // recompute bar (and a deferred weight gradient under zero bubble); then up to 16
    // gradient buckets, the optimizer, the overhead and a checkpoint.
    const double p = std::max(1, s.plan.pp), m = std::max(1, rep.microbatches), v = std::max(1, rep.pipeline.chunks);
    const double layersPerChunk = std::max(1.0, o.perLayer ? std::floor(double(rep.pipeline.layers) / v) : 1.0);
    const double passes = m * v;
    const double perStage = passes * (2 * layersPerChunk + 1) + passes * (2 * layersPerChunk + 2 + (o.zeroBubble ? 1 : 0)) + 16 + 3;
    const double ranks = o.perRankRows ? std::max(1, s.plan.tp) : 1;
    return std::max(1, o.steps) * p * perStage * ranks;
}

Trace simulateTimeline(const Scenario& s, const Calibration& c, const TimelineOptions& o)
{
    const StepReport rep = simulateStep(s, c);
    const ParallelPlan& plan = s.plan;
    const int p = plan.pp, m = rep.microbatches, v = std::max(1, rep.pipeline.chunks);
    const Schedule schedule = v > 1 ? Schedule::Interleaved1F1B : plan.schedule;
    const double f = rep.pipeline.forward / v;
    const double bFull = rep.pipeline.backward / v;
    const double r = rep.pipeline.recompute / v;
    const double fColl = rep.pipeline.forwardCollectives / v;
    const double bColl = rep.pipeline.backwardCollectives / v;
    const double hop = rep.pipeline.hop;
    // ZB-H1 splits the backward into input gradients (B) and weight gradients (W), about
    // half each (Qi et al. 2024, "Zero Bubble Pipeline Parallelism").
    const bool zb = o.zeroBubble && p > 1;
    const double bPart = zb ? bFull / 2 : bFull;
    const double wPart = zb ? bFull - bPart : 0.0;

    Trace t;
    t.stages = p;
    t.ranksPerStage = o.perRankRows ? plan.tp : 1;
    long long seq = 0;
    std::vector<TraceEvent> stageEvents; // one rank per stage; replicated at the end
    stageEvents.reserve(std::size_t(std::min(1e7, estimateTimelineEvents(s, rep, o) / t.ranksPerStage)));

    const StepBreakdown& bd = rep.breakdown;
    const double dpExposed = bd.exposedComm[int(CommGroup::DP)];
    const double dpTotal = rep.comm[int(CommGroup::DP)].totalSeconds;
    const double tail = bd.optimizer + bd.overhead + bd.contention;

    // Pipeline sends and the gradient buckets share a NIC when both leave the scale-up
    // domain. Two flows on one link each get half of it (processor sharing): a send
    // during the buckets takes twice as long and delays the buckets by its own length.
    const bool sharedNic = o.shareLinks && p > 1 && dpTotal > 0 && rep.comm[int(CommGroup::PP)].span.domains > 1
        && rep.comm[int(CommGroup::DP)].span.domains > 1;

    double stepStart = 0;
    for (int step = 0; step < std::max(1, o.steps); ++step) {
        // The buckets' window depends on when the pipeline drains, which depends on the
        // sends they slow: iterate to a fixed point (two or three passes).
        const std::size_t firstEvent = stageEvents.size();
        double bucketsFrom = INFINITY;
        std::vector<double> bucketDelay(p, 0.0);
        std::vector<double> freeAt(p, stepStart);
        auto emit = [&](int st, double start, double dur, Stream stream, TaskKind kind, const Task& k) {
            if (dur <= 0)
                return;
            TraceEvent e;
            e.start = start;
            e.duration = dur;
            e.row = st;
            e.stream = stream;
            e.kind = kind;
            e.microbatch = k.mb;
            e.chunk = k.chunk;
            e.step = step;
            e.seq = seq++;
            stageEvents.push_back(e);
        };
        // One pipeline send from stage `st` starting at `at`: its duration on the NIC.
        auto sendTime = [&](int st, double at) {
            if (!sharedNic || at < bucketsFrom)
                return hop;
            bucketDelay[st] += hop;
            return 2 * hop;
        };
        for (int pass = 0; pass < 4; ++pass) {
            stageEvents.resize(firstEvent);
            std::fill(bucketDelay.begin(), bucketDelay.end(), 0.0);
            std::fill(freeAt.begin(), freeAt.end(), stepStart);
            std::vector<std::vector<Task>> order(p);
            for (int st = 0; st < p; ++st)
                order[st] = stageOrder(schedule, st, p, m, v);
            // Ready times: forward outputs and backward gradients arriving at a stage.
            auto idx = [&](int chunk, int mb) { return chunk * m + mb; };
            std::vector<std::vector<double>> fReady(p, std::vector<double>(m * v, -1));
            std::vector<std::vector<double>> bReady(p, std::vector<double>(m * v, -1));
            std::vector<std::vector<double>> fDone(p, std::vector<double>(m * v, -1));
            std::vector<std::size_t> next(p, 0);
            std::vector<std::vector<Task>> pendingW(p);
            std::priority_queue<Event, std::vector<Event>, std::greater<>> heap;
            for (int st = 0; st < p; ++st)
                heap.push({ stepStart, seq++, st });

            auto readyTime = [&](int st, const Task& k) -> double {
                const int i = idx(k.chunk, k.mb);
                if (k.op == Op::F)
                    return (st == 0 && k.chunk == 0) ? stepStart : fReady[st][i];
                if (st == p - 1 && k.chunk == v - 1)
                    return fDone[st][i]; // the last stage turns around on its own forward
                return bReady[st][i];
            };
            // A pass over the chunk's layers: each layer's compute, then its exposed in-layer
            // collectives (TP/SP all-reduces or gather/scatter, CP and EP exchanges) on the
            // collective lane while compute waits for them.
            const int layersPerChunk = std::max(1, o.perLayer ? rep.pipeline.layers / v : 1);
            auto emitPass = [&](int st, double start, double dur, double collectives, TaskKind kind, const Task& k) {
                const double perLayer = dur / layersPerChunk, comm = collectives / layersPerChunk;
                double at = start;
                for (int l = 0; l < layersPerChunk; ++l) {
                    emit(st, at, perLayer - comm, Stream::Compute, kind, k);
                    emit(st, at + perLayer - comm, comm, Stream::LayerComm, TaskKind::LayerCollective, k);
                    at += perLayer;
                }
            };


            while (!heap.empty()) {
                const Event ev = heap.top();
                heap.pop();
                const int st = ev.stage;
                if (ev.time < freeAt[st])
                    continue; // stale: the stage is busy
                const bool orderedLeft = next[st] < order[st].size();
                if (!orderedLeft && pendingW[st].empty())
                    continue;
                double now = ev.time;
                if (orderedLeft) {
                    const Task k = order[st][next[st]];
                    const double ready = readyTime(st, k);
                    if (ready < 0 || ready > now) {
                        // Not ready: fill the wait with a deferred weight gradient, or sleep.
                        if (!pendingW[st].empty()) {
                            const Task w = pendingW[st].front();
                            pendingW[st].erase(pendingW[st].begin());
                            emit(st, now, wPart, Stream::Compute, TaskKind::WeightGrad, w);
                            freeAt[st] = now + wPart;
                            heap.push({ freeAt[st], seq++, st });
                        } else if (ready > now) {
                            heap.push({ ready, seq++, st });
                        }
                        continue; // a producer's completion wakes this stage otherwise
                    }
                    ++next[st];
                    const int i = idx(k.chunk, k.mb);
                    double end = now;
                    int consumer = -1;
                    if (k.op == Op::F) {
                        emitPass(st, now, f, fColl, TaskKind::Forward, k);
                        end = now + f;
                        fDone[st][i] = end;
                        // Send to the next stage, or wrap to stage 0's next chunk.
                        if (st < p - 1)
                            consumer = st + 1;
                        else if (k.chunk < v - 1)
                            consumer = 0;
                        if (consumer >= 0) {
                            const double send = sendTime(st, end);
                            emit(st, end, send, Stream::PipelineComm, TaskKind::PipelineSend, k);
                            end += send;
                            const int ci = consumer == 0 ? idx(k.chunk + 1, k.mb) : i;
                            fReady[consumer][ci] = end;
                        }
                    } else {
                        emit(st, now, r, Stream::Compute, TaskKind::Recompute, k);
                        emitPass(st, now + r, bPart, bColl * (bPart / std::max(1e-30, bFull)), TaskKind::Backward, k);
                        end = now + r + bPart;
                        if (st > 0)
                            consumer = st - 1;
                        else if (k.chunk > 0)
                            consumer = p - 1;
                        if (consumer >= 0) {
                            const double send = sendTime(st, end);
                            emit(st, end, send, Stream::PipelineComm, TaskKind::PipelineSend, k);
                            end += send;
                            const int ci = consumer == p - 1 ? idx(k.chunk - 1, k.mb) : i;
                            bReady[consumer][ci] = end;
                        }
                        if (zb)
                            pendingW[st].push_back(k);
                    }
                    freeAt[st] = end;
                    heap.push({ end, seq++, st });
                    if (consumer >= 0)
                        heap.push({ end, seq++, consumer });
                } else {
                    const Task w = pendingW[st].front();
                    pendingW[st].erase(pendingW[st].begin());
                    emit(st, now, wPart, Stream::Compute, TaskKind::WeightGrad, w);
                    freeAt[st] = now + wPart;
                    heap.push({ freeAt[st], seq++, st });
                }
            }

            const double drained = *std::max_element(freeAt.begin(), freeAt.end());
            const double dpFrom = std::max(stepStart, drained - (dpTotal - dpExposed));
            if (!sharedNic || std::abs(dpFrom - bucketsFrom) <= 1e-9 * (1 + std::abs(dpFrom)))
                break;
            bucketsFrom = dpFrom;
        }

        // Gradient synchronisation, its hidden part under the last backwards, then the
        // optimizer and the per-step overhead: as the analytical engine accounts them.
        const double pipelineEnd = *std::max_element(freeAt.begin(), freeAt.end());
        const Task none { Op::F, -1, 0 };
        // Gradient buckets: up to 16 bars, the first ones hidden under the last backwards,
        // stretched on each stage by the sends that shared its NIC.
        const int buckets = int(std::min(16.0, rep.pipeline.gradientBuckets));
        double stepEnd = pipelineEnd;
        for (int st = 0; st < p; ++st) {
            const double dpStart = std::max(stepStart, pipelineEnd - (dpTotal - dpExposed));
            const double dpEnd = pipelineEnd + dpExposed + bucketDelay[st];
            const double bucket = (dpEnd - dpStart) / buckets;
            for (int bk = 0; bk < buckets; ++bk)
                emit(st, dpStart + bk * bucket, bucket, Stream::DataParallelComm, TaskKind::DataParallel, none);
            emit(st, dpEnd, bd.optimizer, Stream::Compute, TaskKind::Optimizer, none);
            emit(st, dpEnd + bd.optimizer, bd.overhead + bd.contention, Stream::Compute, TaskKind::Overhead, none);
            stepEnd = std::max(stepEnd, dpEnd + tail);
        }
        if (step == 0)
            t.stepTime = stepEnd - stepStart;
        // A checkpoint at the end of this step stalls every rank.
        if (o.checkpointEverySteps > 0 && (step + 1) % o.checkpointEverySteps == 0 && o.checkpointSeconds > 0) {
            for (int st = 0; st < p; ++st)
                emit(st, stepEnd, o.checkpointSeconds, Stream::Compute, TaskKind::Checkpoint, none);
            stepEnd += o.checkpointSeconds;
        }
        stepStart = stepEnd;
    }
    t.totalTime = stepStart;

    // Rows: one per stage, or one per TP rank of each stage (identical without stragglers).
    const int ranks = t.ranksPerStage;
    t.events.reserve(stageEvents.size() * ranks);
    for (const TraceEvent& e : stageEvents)
        for (int rk = 0; rk < ranks; ++rk) {
            TraceEvent copy = e;
            copy.row = e.row * ranks + rk;
            copy.seq = e.seq * ranks + rk;
            t.events.push_back(copy);
        }
    sortByStart(t.events);
    for (int st = 0; st < p; ++st)
        for (int rk = 0; rk < ranks; ++rk)
            t.rowNames.push_back(ranks > 1 ? "stage " + std::to_string(st) + " / TP rank " + std::to_string(rk)
                                           : "stage " + std::to_string(st));
    return t;
}

} // namespace dtsim
