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

// Lays out the steps of a timeline, one rank per stage, each stage's events apart (merged
// and replicated per rank row by the caller). The durations per micro-batch come from the
// step report and stay fixed; the members below them are the stages' progress through the
// step being laid out.
class TimelineBuilder {
public:
    TimelineBuilder(const Scenario& s, const StepReport& rep, const TimelineOptions& o, int ranksPerStage)
        : m_rep(rep)
        , m_o(o)
        , m_p(s.plan.pp)
        , m_m(rep.microbatches)
        , m_v(std::max(1, rep.pipeline.chunks))
    {
        const int p = m_p, v = m_v;
        m_f = rep.pipeline.forward / v;
        m_bFull = rep.pipeline.backward / v;
        m_r = rep.pipeline.recompute / v;
        m_fColl = rep.pipeline.forwardCollectives / v;
        m_bColl = rep.pipeline.backwardCollectives / v;
        m_hop = rep.pipeline.hop;
        // ZB-H1 splits the backward into input gradients (B) and weight gradients (W), about
        // half each (Qi et al. 2024, "Zero Bubble Pipeline Parallelism").
        m_zb = o.zeroBubble && p > 1;
        m_bPart = m_zb ? m_bFull / 2 : m_bFull;
        m_wPart = m_zb ? m_bFull - m_bPart : 0.0;
        m_layersPerChunk = std::max(1, o.perLayer ? rep.pipeline.layers / v : 1);

        m_dpExposed = rep.breakdown.exposedComm[int(CommGroup::DP)];
        m_dpTotal = rep.comm[int(CommGroup::DP)].totalSeconds;
        // Pipeline sends and the gradient buckets share a NIC when both leave the scale-up
        // domain. Two flows on one link each get half of it (processor sharing): a send
        // during the buckets takes twice as long and delays the buckets by its own length.
        m_sharedNic = o.shareLinks && p > 1 && m_dpTotal > 0 && rep.comm[int(CommGroup::PP)].span.domains > 1
            && rep.comm[int(CommGroup::DP)].span.domains > 1;

        m_stageEvents.resize(static_cast<std::size_t>(p));
        const double perStage = std::min(1e7, estimateTimelineEvents(s, rep, o) / ranksPerStage / p);
        for (auto& st : m_stageEvents)
            st.reserve(std::size_t(perStage));
        // Each stage's task order, and the ready times the passes overwrite.
        const Schedule schedule = v > 1 ? Schedule::Interleaved1F1B : s.plan.schedule;
        m_order.resize(p);
        for (int st = 0; st < p; ++st)
            m_order[st] = stageOrder(schedule, st, p, m_m, v);
        m_fReady.resize(p);
        m_bReady.resize(p);
        m_fDone.resize(p);
    }

    std::vector<std::vector<TraceEvent>>& stageEvents() { return m_stageEvents; }

    // The pipeline's tasks of step `step`, from `stepStart`. The buckets' window depends on
    // when the pipeline drains, which depends on the sends they slow: iterate to a fixed
    // point (two or three passes).
    void layOutPipeline(int step, double stepStart)
    {
        m_step = step;
        m_stepStart = stepStart;
        std::vector<std::size_t> firstEvent;
        for (const auto& st : m_stageEvents)
            firstEvent.push_back(st.size());
        m_bucketsFrom = INFINITY;
        m_bucketDelay.assign(m_p, 0.0);
        m_freeAt.assign(m_p, stepStart);
        for (int pass = 0; pass < 4; ++pass) {
            for (int st = 0; st < m_p; ++st)
                m_stageEvents[std::size_t(st)].resize(firstEvent[std::size_t(st)]);
            std::fill(m_bucketDelay.begin(), m_bucketDelay.end(), 0.0);
            std::fill(m_freeAt.begin(), m_freeAt.end(), stepStart);
            // A pass that cannot be the last (the first one when sends share the NIC: its
            // buckets start at infinity) only times the tasks.
            m_record = !(m_sharedNic && pass == 0);
            runTasks();
            const double drained = *std::max_element(m_freeAt.begin(), m_freeAt.end());
            const double dpFrom = std::max(stepStart, drained - (m_dpTotal - m_dpExposed));
            if (!m_sharedNic || std::abs(dpFrom - m_bucketsFrom) <= 1e-9 * (1 + std::abs(dpFrom)))
                break;
            m_bucketsFrom = dpFrom;
        }
    }

    // Gradient synchronisation, its hidden part under the last backwards, then the
    // optimizer and the per-step overhead: as the analytical engine accounts them.
    // Returns when the step ends.
    double emitStepTail()
    {
        const StepBreakdown& bd = m_rep.breakdown;
        // Gradient compression's GPU time (training.grad_compression) runs with the overhead.
        // Offload's wait (parallel.offload) is mostly the CPU's optimizer step: drawn with the optimizer.
        const double optimizer = bd.optimizer + bd.offload;
        const double tail = optimizer + bd.overhead + bd.contention + bd.inputStall + bd.compression;
        const double pipelineEnd = *std::max_element(m_freeAt.begin(), m_freeAt.end());
        const Task none { Op::F, -1, 0 };
        // Gradient buckets: up to 16 bars, the first ones hidden under the last backwards,
        // stretched on each stage by the sends that shared its NIC.
        const int buckets = int(std::min(16.0, m_rep.pipeline.gradientBuckets));
        double stepEnd = pipelineEnd;
        for (int st = 0; st < m_p; ++st) {
            // The last bucket waits for the slowest rank (cluster.jitter): the step model's
            // expected wait, on every stage (the Replicas view samples it per replica).
            emit(st, pipelineEnd, bd.straggler, Stream::Compute, TaskKind::BarrierWait, none);
            const double dpStart = std::max(m_stepStart, pipelineEnd - (m_dpTotal - m_dpExposed));
            const double dpEnd = pipelineEnd + bd.straggler + m_dpExposed + m_bucketDelay[st];
            const double bucket = (dpEnd - dpStart) / buckets;
            for (int bk = 0; bk < buckets; ++bk)
                emit(st, dpStart + bk * bucket, bucket, Stream::DataParallelComm, TaskKind::DataParallel, none);
            emit(st, dpEnd, optimizer, Stream::Compute, TaskKind::Optimizer, none);
            emit(st, dpEnd + optimizer, bd.overhead + bd.contention + bd.inputStall + bd.compression, Stream::Compute, TaskKind::Overhead, none);
            stepEnd = std::max(stepEnd, dpEnd + tail);
        }
        return stepEnd;
    }

    // A checkpoint at the end of this step, when one is due, stalls every rank. Returns
    // when it ends (`stepEnd` when none is due).
    double emitCheckpoint(double stepEnd)
    {
        const TimelineOptions& o = m_o;
        if (o.checkpointEverySteps > 0 && (m_step + 1) % o.checkpointEverySteps == 0 && o.checkpointSeconds > 0) {
            const Task none { Op::F, -1, 0 };
            for (int st = 0; st < m_p; ++st)
                emit(st, stepEnd, o.checkpointSeconds, Stream::Compute, TaskKind::Checkpoint, none);
            stepEnd += o.checkpointSeconds;
        }
        return stepEnd;
    }

private:
    int idx(int chunk, int mb) const { return chunk * m_m + mb; }

    void emit(int st, double start, double dur, Stream stream, TaskKind kind, const Task& k)
    {
        if (dur <= 0 || !m_record)
            return;
        TraceEvent e;
        e.start = start;
        e.duration = dur;
        e.row = st;
        e.stream = stream;
        e.kind = kind;
        e.microbatch = k.mb;
        e.chunk = k.chunk;
        e.step = m_step;
        e.seq = m_seq++;
        m_stageEvents[std::size_t(st)].push_back(e);
    }

    // One pipeline send from stage `st` starting at `at`: its duration on the NIC.
    double sendTime(int st, double at)
    {
        if (!m_sharedNic || at < m_bucketsFrom)
            return m_hop;
        m_bucketDelay[st] += m_hop;
        return 2 * m_hop;
    }

    // When task `k`'s input reaches stage `st`; negative while its producer has not run.
    double readyTime(int st, const Task& k) const
    {
        const int i = idx(k.chunk, k.mb);
        if (k.op == Op::F)
            return (st == 0 && k.chunk == 0) ? m_stepStart : m_fReady[st][i];
        if (st == m_p - 1 && k.chunk == m_v - 1)
            return m_fDone[st][i]; // the last stage turns around on its own forward
        return m_bReady[st][i];
    }

    // A pass over the chunk's layers: each layer's compute, then its exposed in-layer
    // collectives (TP/SP all-reduces or gather/scatter, CP and EP exchanges) on the
    // collective lane while compute waits for them.
    void emitPass(int st, double start, double dur, double collectives, TaskKind kind, const Task& k)
    {
        const double perLayer = dur / m_layersPerChunk, comm = collectives / m_layersPerChunk;
        double at = start;
        for (int l = 0; l < m_layersPerChunk; ++l) {
            emit(st, at, perLayer - comm, Stream::Compute, kind, k);
            emit(st, at + perLayer - comm, comm, Stream::LayerComm, TaskKind::LayerCollective, k);
            at += perLayer;
        }
    }

    // Each stage takes its tasks in order; a task starts once its stage is free and
    // its input has arrived. The stages advance in turns, each as far as its inputs
    // are known, so no event queue is needed: a start is max(free, ready) whatever
    // the turn order.
    void runTasks()
    {
        // Ready times: forward outputs and backward gradients arriving at a stage.
        for (auto* times : { &m_fReady, &m_bReady, &m_fDone })
            for (auto& stage : *times)
                stage.assign(std::size_t(m_m) * std::size_t(m_v), -1);
        m_next.assign(m_p, 0);
        m_pendingW.assign(m_p, {});
        for (bool progressed = true; progressed;) {
            progressed = false;
            for (int st = 0; st < m_p; ++st)
                progressed = advance(st) || progressed;
        }
    }

    void runWeightGrad(int st)
    {
        const Task w = m_pendingW[st].front();
        m_pendingW[st].pop_front();
        emit(st, m_freeAt[st], m_wPart, Stream::Compute, TaskKind::WeightGrad, w);
        m_freeAt[st] += m_wPart;
    }

    // Runs stage `st` until it waits on an input no other stage has produced yet.
    // Returns whether it ran anything.
    bool advance(int st)
    {
        bool ran = false;
        while (true) {
            if (m_next[st] >= m_order[st].size()) {
                if (m_pendingW[st].empty())
                    return ran;
                runWeightGrad(st); // the deferred weight gradients after the last task
                ran = true;
                continue;
            }
            const Task k = m_order[st][m_next[st]];
            const double ready = readyTime(st, k);
            if (ready < 0)
                return ran; // its producer has not run yet
            ran = true;
            if (ready > m_freeAt[st] && !m_pendingW[st].empty()) {
                runWeightGrad(st); // fill the wait with a deferred weight gradient
                continue;
            }
            ++m_next[st];
            const double now = std::max(m_freeAt[st], ready);
            m_freeAt[st] = k.op == Op::F ? runForward(st, k, now) : runBackward(st, k, now);
        }
    }

    // Task `k`'s forward on stage `st` from `now`, then its send to the next stage, or a
    // wrap to stage 0's next chunk. Returns when the stage is free again.
    double runForward(int st, const Task& k, double now)
    {
        const int i = idx(k.chunk, k.mb);
        emitPass(st, now, m_f, m_fColl, TaskKind::Forward, k);
        double end = now + m_f;
        m_fDone[st][i] = end;
        const int consumer = st < m_p - 1 ? st + 1 : (k.chunk < m_v - 1 ? 0 : -1);
        if (consumer >= 0) {
            const double send = sendTime(st, end);
            emit(st, end, send, Stream::PipelineComm, TaskKind::PipelineSend, k);
            end += send;
            m_fReady[consumer][consumer == 0 ? idx(k.chunk + 1, k.mb) : i] = end;
        }
        return end;
    }

    // Task `k`'s recompute and backward (input gradients only under zero bubble, the
    // weight gradients deferred) on stage `st` from `now`, then its send to the previous
    // stage, or a wrap to the last stage's previous chunk. Returns when the stage is free.
    double runBackward(int st, const Task& k, double now)
    {
        const int i = idx(k.chunk, k.mb);
        emit(st, now, m_r, Stream::Compute, TaskKind::Recompute, k);
        emitPass(st, now + m_r, m_bPart, m_bColl * (m_bPart / std::max(1e-30, m_bFull)), TaskKind::Backward, k);
        double end = now + m_r + m_bPart;
        const int consumer = st > 0 ? st - 1 : (k.chunk > 0 ? m_p - 1 : -1);
        if (consumer >= 0) {
            const double send = sendTime(st, end);
            emit(st, end, send, Stream::PipelineComm, TaskKind::PipelineSend, k);
            end += send;
            m_bReady[consumer][consumer == m_p - 1 ? idx(k.chunk - 1, k.mb) : i] = end;
        }
        if (m_zb)
            m_pendingW[st].push_back(k);
        return end;
    }

    const StepReport& m_rep;
    const TimelineOptions& m_o;
    const int m_p, m_m, m_v; // stages, micro-batches, chunks per stage
    // Per micro-batch and chunk: forward, backward (whole, and its B and W parts),
    // recompute, in-layer collectives; and one pipeline hop.
    double m_f = 0, m_bFull = 0, m_bPart = 0, m_wPart = 0, m_r = 0, m_fColl = 0, m_bColl = 0, m_hop = 0;
    bool m_zb = false;
    int m_layersPerChunk = 1;
    double m_dpExposed = 0, m_dpTotal = 0;
    bool m_sharedNic = false;
    std::vector<std::vector<Task>> m_order;
    std::vector<std::vector<TraceEvent>> m_stageEvents;
    long long m_seq = 0;

    // The step being laid out.
    int m_step = 0;
    double m_stepStart = 0;
    double m_bucketsFrom = INFINITY;
    std::vector<double> m_bucketDelay, m_freeAt;
    bool m_record = true;
    // The pass under way.
    std::vector<std::vector<double>> m_fReady, m_bReady, m_fDone;
    std::vector<std::size_t> m_next;
    std::vector<std::deque<Task>> m_pendingW;
};

} // namespace

double estimateTimelineEvents(const Scenario& s, const StepReport& rep, const TimelineOptions& o)
{
    // Per stage and step, as simulateTimeline emits them: each forward a compute and a
    // collective bar per layer of its chunk and a send; each backward the same plus a
    // recompute bar (and a deferred weight gradient under zero bubble); then up to 16
    // gradient buckets, the wait for the slowest rank, the optimizer, the overhead and a
    // checkpoint.
    const double p = std::max(1, s.plan.pp), m = std::max(1, rep.microbatches), v = std::max(1, rep.pipeline.chunks);
    const double layersPerChunk = std::max(1.0, o.perLayer ? std::floor(double(rep.pipeline.layers) / v) : 1.0);
    const double passes = m * v;
    const double perStage = passes * (2 * layersPerChunk + 1) + passes * (2 * layersPerChunk + 2 + (o.zeroBubble ? 1 : 0)) + 16 + 4;
    const double ranks = o.perRankRows ? std::max(1, s.plan.tp) : 1;
    return std::max(1, o.steps) * p * perStage * ranks;
}

Trace simulateTimeline(const Scenario& s, const Calibration& c, const TimelineOptions& o)
{
    const StepReport rep = predictStep(s, c);
    const int p = s.plan.pp;
    Trace t;
    t.stages = p;
    t.ranksPerStage = o.perRankRows ? s.plan.tp : 1;
    TimelineBuilder builder(s, rep, o, t.ranksPerStage);
    double stepStart = 0;
    for (int step = 0; step < std::max(1, o.steps); ++step) {
        builder.layOutPipeline(step, stepStart);
        const double stepEnd = builder.emitStepTail();
        if (step == 0)
            t.stepTime = stepEnd - stepStart;
        stepStart = builder.emitCheckpoint(stepEnd);
    }
    t.totalTime = stepStart;

    // Rows: one per stage, or one per TP rank of each stage (identical without stragglers).
    const int ranks = t.ranksPerStage;
    t.events = mergeStages(builder.stageEvents(), ranks);
    for (int st = 0; st < p; ++st)
        for (int rk = 0; rk < ranks; ++rk)
            t.rowNames.push_back(ranks > 1 ? "stage " + std::to_string(st) + " / TP rank " + std::to_string(rk)
                                           : "stage " + std::to_string(st));
    return t;
}

} // namespace dtsim
