#include "timeline.h"

#include "../step.h"

#include <algorithm>
#include <cmath>
#include <deque>
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

bool startsBefore(const TraceEvent& a, const TraceEvent& b) { return a.start != b.start ? a.start < b.start : a.seq < b.seq; }

// One stage's events by (start, seq). A stage emits them nearly in order (it runs one
// task at a time); only the gradient buckets, hidden under the last backwards, reach
// back. So the runs already in order are merged: O(n log runs), not a full sort.
void sortStage(std::vector<TraceEvent>& events)
{
    std::vector<std::size_t> runStarts { 0 };
    for (std::size_t i = 1; i < events.size(); ++i)
        if (startsBefore(events[i], events[i - 1]))
            runStarts.push_back(i);
    runStarts.push_back(events.size());
    while (runStarts.size() > 2) {
        std::vector<std::size_t> merged { 0 };
        for (std::size_t r = 0; r + 2 < runStarts.size(); r += 2) {
            std::inplace_merge(events.begin() + std::ptrdiff_t(runStarts[r]), events.begin() + std::ptrdiff_t(runStarts[r + 1]),
                events.begin() + std::ptrdiff_t(runStarts[r + 2]), startsBefore);
            merged.push_back(runStarts[r + 2]);
        }
        if (merged.back() != events.size())
            merged.push_back(events.size());
        runStarts = std::move(merged);
    }
}

// All stages' events in one list by start, then stage, then the stage's own order; each
// repeated once per rank row, the copies side by side. A k-way merge of the stages'
// sorted lists; `seq` becomes the place in the list.
std::vector<TraceEvent> mergeStages(std::vector<std::vector<TraceEvent>>& stages, int ranks)
{
    std::size_t total = 0;
    for (auto& st : stages) {
        sortStage(st);
        total += st.size();
    }
    std::vector<TraceEvent> out;
    out.reserve(total * std::size_t(ranks));
    // Each stage's next event, its start held in the heap (no lookups while sifting).
    struct Head {
        double start;
        std::size_t stage, at;
        bool operator>(const Head& o) const { return start != o.start ? start > o.start : stage > o.stage; }
    };
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    for (std::size_t st = 0; st < stages.size(); ++st)
        if (!stages[st].empty())
            heads.push({ stages[st][0].start, st, 0 });
    while (!heads.empty()) {
        const Head h = heads.top();
        heads.pop();
        const std::vector<TraceEvent>& stage = stages[h.stage];
        const TraceEvent& e = stage[h.at];
        for (int rk = 0; rk < ranks; ++rk) {
            out.push_back(e);
            out.back().row = e.row * ranks + rk;
            out.back().seq = static_cast<long long>(out.size() - 1);
        }
        if (h.at + 1 < stage.size())
            heads.push({ stage[h.at + 1].start, h.stage, h.at + 1 });
    }
    return out;
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
    // One rank per stage, each stage's events apart; merged and replicated at the end.
    std::vector<std::vector<TraceEvent>> stageEvents(static_cast<std::size_t>(p));
    const double perStage = std::min(1e7, estimateTimelineEvents(s, rep, o) / t.ranksPerStage / p);
    for (auto& st : stageEvents)
        st.reserve(std::size_t(perStage));

    const StepBreakdown& bd = rep.breakdown;
    const double dpExposed = bd.exposedComm[int(CommGroup::DP)];
    const double dpTotal = rep.comm[int(CommGroup::DP)].totalSeconds;
    const double tail = bd.optimizer + bd.overhead + bd.contention + bd.inputStall;

    // Pipeline sends and the gradient buckets share a NIC when both leave the scale-up
    // domain. Two flows on one link each get half of it (processor sharing): a send
    // during the buckets takes twice as long and delays the buckets by its own length.
    const bool sharedNic = o.shareLinks && p > 1 && dpTotal > 0 && rep.comm[int(CommGroup::PP)].span.domains > 1
        && rep.comm[int(CommGroup::DP)].span.domains > 1;

    // Each stage's task order, and the ready times the passes below overwrite.
    std::vector<std::vector<Task>> order(p);
    for (int st = 0; st < p; ++st)
        order[st] = stageOrder(schedule, st, p, m, v);
    std::vector<std::vector<double>> fReady(p), bReady(p), fDone(p);

    double stepStart = 0;
    for (int step = 0; step < std::max(1, o.steps); ++step) {
        // The buckets' window depends on when the pipeline drains, which depends on the
        // sends they slow: iterate to a fixed point (two or three passes).
        std::vector<std::size_t> firstEvent;
        for (const auto& st : stageEvents)
            firstEvent.push_back(st.size());
        double bucketsFrom = INFINITY;
        std::vector<double> bucketDelay(p, 0.0);
        std::vector<double> freeAt(p, stepStart);
        // A pass that cannot be the last (the first one when sends share the NIC: its
        // buckets start at infinity) only times the tasks.
        bool record = true;
        auto emit = [&](int st, double start, double dur, Stream stream, TaskKind kind, const Task& k) {
            if (dur <= 0 || !record)
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
            stageEvents[std::size_t(st)].push_back(e);
        };
        // One pipeline send from stage `st` starting at `at`: its duration on the NIC.
        auto sendTime = [&](int st, double at) {
            if (!sharedNic || at < bucketsFrom)
                return hop;
            bucketDelay[st] += hop;
            return 2 * hop;
        };
        for (int pass = 0; pass < 4; ++pass) {
            for (int st = 0; st < p; ++st)
                stageEvents[std::size_t(st)].resize(firstEvent[std::size_t(st)]);
            std::fill(bucketDelay.begin(), bucketDelay.end(), 0.0);
            std::fill(freeAt.begin(), freeAt.end(), stepStart);
            record = !(sharedNic && pass == 0);
            // Ready times: forward outputs and backward gradients arriving at a stage.
            auto idx = [&](int chunk, int mb) { return chunk * m + mb; };
            for (auto* times : { &fReady, &bReady, &fDone })
                for (auto& stage : *times)
                    stage.assign(std::size_t(m) * std::size_t(v), -1);
            std::vector<std::size_t> next(p, 0);
            std::vector<std::deque<Task>> pendingW(p);

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


            // Each stage takes its tasks in order; a task starts once its stage is free and
            // its input has arrived. The stages advance in turns, each as far as its inputs
            // are known, so no event queue is needed: a start is max(free, ready) whatever
            // the turn order.
            auto runWeightGrad = [&](int st) {
                const Task w = pendingW[st].front();
                pendingW[st].pop_front();
                emit(st, freeAt[st], wPart, Stream::Compute, TaskKind::WeightGrad, w);
                freeAt[st] += wPart;
            };
            // Runs stage `st` until it waits on an input no other stage has produced yet.
            // Returns whether it ran anything.
            auto advance = [&](int st) {
                bool ran = false;
                while (true) {
                    if (next[st] >= order[st].size()) {
                        if (pendingW[st].empty())
                            return ran;
                        runWeightGrad(st); // the deferred weight gradients after the last task
                        ran = true;
                        continue;
                    }
                    const Task k = order[st][next[st]];
                    const double ready = readyTime(st, k);
                    if (ready < 0)
                        return ran; // its producer has not run yet
                    ran = true;
                    if (ready > freeAt[st] && !pendingW[st].empty()) {
                        runWeightGrad(st); // fill the wait with a deferred weight gradient
                        continue;
                    }
                    ++next[st];
                    const double now = std::max(freeAt[st], ready);
                    const int i = idx(k.chunk, k.mb);
                    double end = now;
                    if (k.op == Op::F) {
                        emitPass(st, now, f, fColl, TaskKind::Forward, k);
                        end = now + f;
                        fDone[st][i] = end;
                        // Send to the next stage, or wrap to stage 0's next chunk.
                        const int consumer = st < p - 1 ? st + 1 : (k.chunk < v - 1 ? 0 : -1);
                        if (consumer >= 0) {
                            const double send = sendTime(st, end);
                            emit(st, end, send, Stream::PipelineComm, TaskKind::PipelineSend, k);
                            end += send;
                            fReady[consumer][consumer == 0 ? idx(k.chunk + 1, k.mb) : i] = end;
                        }
                    } else {
                        emit(st, now, r, Stream::Compute, TaskKind::Recompute, k);
                        emitPass(st, now + r, bPart, bColl * (bPart / std::max(1e-30, bFull)), TaskKind::Backward, k);
                        end = now + r + bPart;
                        const int consumer = st > 0 ? st - 1 : (k.chunk > 0 ? p - 1 : -1);
                        if (consumer >= 0) {
                            const double send = sendTime(st, end);
                            emit(st, end, send, Stream::PipelineComm, TaskKind::PipelineSend, k);
                            end += send;
                            bReady[consumer][consumer == p - 1 ? idx(k.chunk - 1, k.mb) : i] = end;
                        }
                        if (zb)
                            pendingW[st].push_back(k);
                    }
                    freeAt[st] = end;
                }
            };
            for (bool progressed = true; progressed;) {
                progressed = false;
                for (int st = 0; st < p; ++st)
                    progressed = advance(st) || progressed;
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
            emit(st, dpEnd + bd.optimizer, bd.overhead + bd.contention + bd.inputStall, Stream::Compute, TaskKind::Overhead, none);
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
    t.events = mergeStages(stageEvents, ranks);
    for (int st = 0; st < p; ++st)
        for (int rk = 0; rk < ranks; ++rk)
            t.rowNames.push_back(ranks > 1 ? "stage " + std::to_string(st) + " / TP rank " + std::to_string(rk)
                                           : "stage " + std::to_string(st));
    return t;
}

} // namespace dtsim
