#include "search.h"
#include "../convergence.h"

#include "../parallel_for.h"

#include "../divisors.h"

#include "../memory.h"
#include "../step.h"

#include <algorithm>
#include <map>
#include <atomic>
#include <thread>
#include <tuple>

namespace dtsim {

std::string_view objectiveName(Objective o) { return o == Objective::Time ? "time" : o == Objective::Mfu ? "mfu" : "cost"; }

std::optional<Objective> objectiveFromName(std::string_view n)
{
    if (n == "time")
        return Objective::Time;
    if (n == "mfu")
        return Objective::Mfu;
    if (n == "cost")
        return Objective::Cost;
    return std::nullopt;
}

long long SearchResult::considered() const
{
    long long n = evaluated + rejectedMemory + rejectedUnfinished;
    for (long long r : rejectedByRule)
        n += r;
    return n;
}

namespace {

auto planKey(const PlanCandidate& c)
{
    const ParallelPlan& p = c.plan;
    return std::make_tuple(c.gpus, p.tp, p.pp, p.dp, p.cp, p.ep, int(p.schedule), p.virtualStages, c.microBatch,
        p.zeroStage, int(p.recompute), p.sequenceParallel);
}

// Lower is better: within the limits by cost, then outside them by time.
std::pair<int, double> score(const PlanCandidate& c, Objective o)
{
    switch (o) {
    case Objective::Time: return { 0, c.timeToTrain };
    case Objective::Mfu: return { 0, -c.step.mfu };
    case Objective::Cost: return c.meetsLimits ? std::pair { 0, c.costUsd } : std::pair { 1, c.expectedTime };
    }
    return { 0, 0.0 };
}

std::vector<int> divisors(long long n)
{
    std::vector<int> d;
    for (long long i : divisorsOf(n))
        d.push_back(static_cast<int>(i)); // n is a GPU count, an int
    return d;
}

// Keeps the best N candidates seen by one worker; no allocation after construction.
class TopN {
public:
    TopN(int n, Objective o) : m_n(std::max(1, n)), m_objective(o) { m_items.reserve(m_n + 1); }
    void offer(const PlanCandidate& c)
    {
        if (int(m_items.size()) == m_n && !betterCandidate(c, m_items.back(), m_objective))
            return;
        auto at = std::upper_bound(m_items.begin(), m_items.end(), c,
            [&](const PlanCandidate& a, const PlanCandidate& b) { return betterCandidate(a, b, m_objective); });
        m_items.insert(at, c);
        if (int(m_items.size()) > m_n)
            m_items.pop_back();
    }
    const std::vector<PlanCandidate>& items() const { return m_items; }

private:
    int m_n;
    Objective m_objective;
    std::vector<PlanCandidate> m_items;
};

struct Outer {
    long long gpus;
    int tp, cp, pp;
};

struct WorkerResult {
    explicit WorkerResult(const SearchOptions& o) : top(o.topN, o.objective) {}
    TopN top;
    long long evaluated = 0;
    std::array<long long, kPlanRuleCount> rejected {};
    long long rejectedMemory = 0;
    long long rejectedUnfinished = 0;
};

// Everything below one (gpus, tp, cp, pp) choice. `s` is this worker's own copy.
void searchInner(Scenario& s, const Calibration& c, const SearchOptions& o, const Outer& out, WorkerResult& w,
    const std::vector<int>& virtualChoices)
{
    const ModelSpec& m = s.model;
    ParallelPlan& p = s.plan;
    const int dp = static_cast<int>(out.gpus / (out.tp * out.cp * out.pp));
    s.cluster.gpus = out.gpus;
    p.tp = out.tp;
    p.cp = out.cp;
    p.pp = out.pp;
    p.dp = dp;
    const bool fusedAttention = s.training.fusedAttention();
    const int globalBatch = s.training.globalBatch;
    const double steps = trainingSteps(s, c); // the batch, and so the steps, are the same for every plan
    // Layer tables run large per-GPU batches (256 images, thousands of DLRM samples).
    const int maxMicroBatch = m.isLayerTable() ? globalBatch : o.maxMicroBatch;

    auto count = [&](PlanRule r) { ++w.rejected[static_cast<int>(r)]; };
    const bool zeroDependentRules = p.offload.any() || s.training.gradCompression != GradCompression::None;

    for (const long long ep : m.isMoe() ? divisorsOf(m.moe.experts) : std::vector<long long> { 1 }) {
        p.ep = static_cast<int>(ep);
        for (int mb = 1; mb <= std::min(maxMicroBatch, globalBatch); ++mb) {
            if (globalBatch % (static_cast<long long>(dp) * mb) != 0) {
                if (globalBatch % mb == 0 || mb == 1)
                    count(PlanRule::BatchDivisibility);
                continue;
            }
            s.training.microBatch = mb;
            // Schedules: no pipeline, or GPipe / 1F1B / interleaved with v virtual stages.
            const int scheduleChoices = out.pp == 1 ? 1 : 2 + int(virtualChoices.size());
            for (int sc = 0; sc < scheduleChoices; ++sc) {
                if (out.pp == 1 || sc == 1) {
                    p.schedule = Schedule::OneFOneB;
                    p.virtualStages = 1;
                } else if (sc == 0) {
                    p.schedule = Schedule::GPipe;
                    p.virtualStages = 1;
                } else {
                    p.schedule = Schedule::Interleaved1F1B;
                    p.virtualStages = virtualChoices[sc - 2];
                }
                for (int sp = 0; sp <= (out.tp > 1 ? 1 : 0); ++sp) {
                    p.sequenceParallel = sp == 1;
                    // Offload's and compression's rules depend on the ZeRO stage, which the
                    // loop below varies (they are the last rules checked).
                    const PlanRule rule = firstViolation(s);
                    if (rule != PlanRule::Ok && rule != PlanRule::Offload && rule != PlanRule::GradCompression) {
                        count(rule);
                        continue;
                    }
                    // Under pipeline parallelism ZeRO 3 keeps stage weights gathered and
                    // behaves exactly as ZeRO 2 (step.cpp), so it is not listed twice.
                    // A layer table shards up to ZeRO 2 and recomputes nothing (layers/layer_step.h).
                    const bool table = m.isLayerTable();
                    const int maxZero = out.pp > 1 || table ? 2 : 3;
                    // Memory only falls with the ZeRO stage and with recomputation: if the
                    // leanest variant does not fit, none of the others does.
                    const int variants = (maxZero + 1) * (table ? 1 : fusedAttention ? 2 : 3);
                    p.zeroStage = maxZero;
                    p.recompute = table ? Recompute::None : Recompute::Full;
                    if (!memoryPerGpu(s, c).fits) {
                        w.rejectedMemory += variants;
                        continue;
                    }
                    for (int zero = 0; zero <= maxZero; ++zero) {
                        p.zeroStage = zero;
                        for (Recompute r : { Recompute::None, Recompute::Selective, Recompute::Full }) {
                            // With fused attention, selective recomputation costs and saves nothing.
                            if (r == Recompute::Selective && fusedAttention)
                                continue;
                            if (table && r != Recompute::None)
                                continue;
                            p.recompute = r;
                            if (zeroDependentRules) {
                                if (const PlanRule late = firstViolation(s); late != PlanRule::Ok) {
                                    count(late);
                                    continue;
                                }
                            }
                            if (!memoryPerGpu(s, c).fits) {
                                ++w.rejectedMemory;
                                continue;
                            }
                            PlanCandidate cand;
                            cand.plan = p;
                            cand.microBatch = mb;
                            cand.gpus = out.gpus;
                            cand.step = predictStep(s, c);
                            cand.timeToTrain = cand.step.stepTime * steps;
                            if (o.objective == Objective::Cost && o.cost) {
                                priceCandidate(s, c, *o.cost, cand);
                                if (!cand.finishes) {
                                    ++w.rejectedUnfinished;
                                    continue;
                                }
                            }
                            ++w.evaluated;
                            w.top.offer(cand);
                        }
                    }
                }
            }
        }
    }
}

} // namespace

void priceCandidate(const Scenario& s, const Calibration& c, const CostContext& ctx, PlanCandidate& cand)
{
    Report base;
    base.step = cand.step;
    base.steps = trainingSteps(s, c);
    base.timeToTrain = cand.timeToTrain;
    const ReliabilityReport rel = analyzeReliability(s, c, ctx.rates, base);
    cand.finishes = !runIssue(s, rel);
    if (!cand.finishes) {
        cand.meetsLimits = false; // the price of a run that never ends means nothing
        return;
    }
    const CostReport cost = analyzeCost(s, base, rel, ctx.cost);
    cand.costUsd = cost.totalUsd;
    cand.expectedTime = cost.wallSeconds;
    cand.co2eTonnes = cost.co2eTonnes;
    cand.meetsLimits = (s.training.deadline <= 0 || cand.expectedTime <= s.training.deadline)
        && (s.cost.carbonCapTonnes <= 0 || cand.co2eTonnes <= s.cost.carbonCapTonnes);
}

bool betterCandidate(const PlanCandidate& a, const PlanCandidate& b, Objective o)
{
    const auto sa = score(a, o), sb = score(b, o);
    if (sa != sb)
        return sa < sb;
    return planKey(a) < planKey(b);
}

namespace {

SearchResult searchOnDevice(const Scenario& s, const Calibration& c, const SearchOptions& o);

// Offload from least to most: ZeRO-Offload's optimizer and gradients in CPU memory, then
// ZeRO-Infinity's parameters too, then the activations, then NVMe for the largest states.
std::vector<OffloadSpec> offloadLadder()
{
    OffloadSpec zeroOffload;
    zeroOffload.optimizer = OffloadTarget::Cpu;
    zeroOffload.gradients = OffloadTarget::Cpu;
    OffloadSpec infinityCpu = zeroOffload;
    infinityCpu.parameters = OffloadTarget::Cpu;
    OffloadSpec withActivations = infinityCpu;
    withActivations.activations = OffloadTarget::Cpu;
    OffloadSpec nvme = withActivations;
    nvme.optimizer = OffloadTarget::Nvme;
    nvme.parameters = OffloadTarget::Nvme;
    return { zeroOffload, infinityCpu, withActivations, nvme };
}

} // namespace

// When no plan fits and the scenario offloads nothing, the search climbs the offload
// ladder and keeps the first rung where some plan fits (SearchResult::offload says which).
SearchResult searchPlans(const Scenario& s, const Calibration& c, const SearchOptions& o)
{
    SearchResult result = searchOnDevice(s, c, o);
    if (!result.top.empty() || s.plan.offload.any() || s.model.isLayerTable() || s.hardware.hostLinkBandwidth <= 0 || result.cancelled)
        return result;
    for (const OffloadSpec& rung : offloadLadder()) {
        Scenario offloaded = s;
        offloaded.plan.offload = rung;
        SearchResult tried = searchOnDevice(offloaded, c, o);
        if (!tried.top.empty() || tried.cancelled) {
            tried.offload = rung;
            tried.baseline = result.baseline;
            return tried;
        }
    }
    return result;
}

namespace {

SearchResult searchOnDevice(const Scenario& s, const Calibration& c, const SearchOptions& o)
{
    SearchResult result;
    if (firstViolation(s) == PlanRule::Ok && memoryPerGpu(s, c).fits) {
        PlanCandidate base;
        base.plan = s.plan;
        base.microBatch = s.training.microBatch;
        base.gpus = s.cluster.gpus;
        base.step = predictStep(s, c);
        base.timeToTrain = base.step.stepTime * trainingSteps(s, c);
        if (o.objective == Objective::Cost && o.cost)
            priceCandidate(s, c, *o.cost, base);
        result.baseline = base;
    }

    // Outer choices (GPU count, TP, CP, PP) are independent units of work.
    std::vector<Outer> work;
    std::vector<long long> gpuCounts { s.cluster.gpus };
    if (o.varyGpus)
        for (long long g = s.cluster.gpus / 2; g >= 1 && s.cluster.gpus % g == 0; g /= 2)
            gpuCounts.push_back(g);
    for (long long g : gpuCounts)
        for (int tp : divisors(g))
            for (int cp : divisors(g / tp))
                for (int pp : divisors(g / (tp * cp)))
                    work.push_back({ g, tp, cp, pp });

    // Virtual-stage choices per pipeline depth, made before the workers start (they
    // only read it); keyed by depth, so a model of any depth costs nothing here.
    std::map<int, std::vector<int>> virtualChoices;
    for (const Outer& w : work)
        if (w.pp <= s.model.layers && !virtualChoices.count(w.pp)) {
            std::vector<int>& v = virtualChoices[w.pp];
            for (int vs = 2; vs <= o.maxVirtualStages && static_cast<long long>(w.pp) * vs <= s.model.layers; ++vs)
                v.push_back(vs);
        }
    const std::vector<int> noVirtualStages;

    const int threads = workerCount(work.size(), o.threads);
    std::vector<WorkerResult> results(threads, WorkerResult(o));
    std::vector<Scenario> locals(threads, s);
    parallelFor(work.size(), threads, o.cancel, [&](std::size_t i, int id) {
        Scenario& local = locals[id];
        WorkerResult& w = results[id];
        {
            const Outer& out = work[i];
            // Rules that depend only on these degrees reject the whole family at once
            // (counted once): the plan rule check sees the same degrees below.
            local.plan.tp = out.tp;
            local.plan.cp = out.cp;
            local.plan.pp = out.pp;
            local.plan.ep = 1;
            local.plan.schedule = Schedule::OneFOneB;
            local.plan.virtualStages = 1;
            local.plan.sequenceParallel = false;
            local.plan.dp = static_cast<int>(out.gpus / (out.tp * out.cp * out.pp));
            local.cluster.gpus = out.gpus;
            const PlanRule early = firstViolation(local);
            if (early == PlanRule::TpHeads || early == PlanRule::TpKvHeads || early == PlanRule::TpFfn
                || early == PlanRule::TpExpertFfn || early == PlanRule::PpLayers || early == PlanRule::CpSequence) {
                ++w.rejected[static_cast<int>(early)];
                return;
            }
            const auto v = virtualChoices.find(out.pp);
            searchInner(local, c, o, out, w, v == virtualChoices.end() ? noVirtualStages : v->second);
        }
    });

    TopN merged(o.topN, o.objective);
    for (const WorkerResult& w : results) {
        for (const PlanCandidate& cand : w.top.items())
            merged.offer(cand);
        result.evaluated += w.evaluated;
        result.rejectedMemory += w.rejectedMemory;
        result.rejectedUnfinished += w.rejectedUnfinished;
        for (int i = 0; i < kPlanRuleCount; ++i)
            result.rejectedByRule[i] += w.rejected[i];
    }
    result.top = merged.items();
    result.cancelled = o.cancel && o.cancel->load();
    return result;
}

} // namespace

} // namespace dtsim
