#include "frontier.h"

#include "../parallel_for.h"

#include "../convergence.h"
#include "../memory.h"
#include "../scenario_rules.h"
#include "../plan_check.h"
#include "../scenario.h"
#include "../step.h"
#include "../units.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

namespace dtsim {

namespace {

long long powerOfTwoAtMost(double x) { return x < 1 ? 1 : 1LL << static_cast<int>(std::floor(std::log2(x))); }

} // namespace

Scenario frontierScenario(const FrontierOptions& o, double flop, const Calibration& cal)
{
    Scenario s;
    s.hardware = o.hardware;
    ComputeOptimalModel co = computeOptimalModel(flop, o.rule);
    ModelSpec& m = co.model;
    // Heads rounded to a multiple of a power of two so that wide TP divides them.
    const int align = static_cast<int>(std::min<long long>(64, powerOfTwoAtMost(m.heads / 2.0)));
    m.heads = std::max(align, (m.heads + align / 2) / align * align);
    m.kvHeads = m.heads;
    m.hidden = m.heads * m.headDim;
    m.ffnHidden = 4 * m.hidden;
    if (o.moe) {
        // Sized on active parameters: 8 experts of the dense FFN width, 2 active.
        m.moe.experts = 8;
        m.moe.topK = 2;
        m.moe.expertFfnHidden = m.ffnHidden / 2;
    }
    m.name = "compute-optimal";
    s.model = m;

    TrainingSpec& t = s.training;
    t.seqLen = o.rule.seqLen;
    t.precision = fallbackPrecision(o.hardware, Precision::BF16);
    t.masterWeightsFp32 = storageBytes(t.precision) < 4.0;
    t.gradReduce = Precision::FP32;
    const double batchTokens = o.batch.coefficient * std::pow(flop, o.batch.exponent);
    t.globalBatch = static_cast<int>(std::min<long long>(1LL << 30, powerOfTwoAtMost(batchTokens / t.seqLen)));
    t.microBatch = 1;
    t.tokens = co.tokens;
    if (o.chargeCriticalBatch && cal.convergence.law(t.lossLaw).known) {
        t.target = TrainingTarget::Loss;
        t.targetLoss = cal.convergence.law(t.lossLaw).loss(lossLawParameters(m, t.seqLen), co.tokens);
    }

    ClusterSpec& c = s.cluster;
    const HardwareSpec& net = o.network ? *o.network : o.hardware;
    setLinksFromGpu(c, net);
    s.plan.sequenceParallel = true;
    s.plan.zeroStage = 1;
    s.plan.tpCommOverlap = true; // modern stacks pipeline TP collectives with GEMMs
    return s;
}

Frontier computeFrontier(const FrontierOptions& o, const Calibration& cal)
{
    Frontier f;
    const int n = std::max(2, o.points);
    f.points.resize(n);
    const double duration = o.months * units::month;
    const StepOptions stepOptions { o.mode == FrontierMode::Idealized };
    const double maxGpus = o.maxGpus > 0 ? o.maxGpus : 1e12;

    auto solve = [&](int i) {
        const double flop = o.minFlop * std::pow(o.maxFlop / o.minFlop, double(i) / (n - 1));
        Scenario s = frontierScenario(o, flop, cal);
        FrontierPoint best;
        best.flop = flop;
        best.batchTokens = double(s.training.globalBatch) * s.training.seqLen;
        best.parameters = countParameters(s.model, s.training.seqLen).total;
        best.layers = s.model.layers;
        best.hidden = s.model.hidden;
        const double steps = trainingSteps(s, cal);
        ParallelPlan& p = s.plan;
        for (int tp = 1; tp <= std::min(4096, s.model.heads * 64); tp *= 2) {
            for (bool twoD : { false, true }) {
                if (twoD && tp < 16)
                    continue;
                p.tp = tp;
                p.tp2d = twoD;
                const int headSplit = twoD ? p.tpColumns() : tp;
                if (s.model.heads % headSplit != 0)
                    continue;
                for (int pp = 1; pp <= s.model.layers; pp *= 2) {
                    for (long long dp = 1; dp <= s.training.globalBatch; dp *= 2) {
                        const double gpus = double(tp) * pp * dp;
                        if (gpus > maxGpus)
                            break;
                        p.pp = pp;
                        p.dp = static_cast<int>(dp);
                        s.cluster.gpus = static_cast<long long>(gpus);
                        const int micro = static_cast<int>(s.training.globalBatch / dp);
                        for (int ep : { 1, 2, 4, 8 }) {
                            if (ep > 1 && (!o.moe || dp % ep != 0))
                                break;
                            p.ep = ep;
                            for (Recompute r : { Recompute::None, Recompute::Full }) {
                                p.recompute = r;
                                // The deepest interleaving the layers and micro-batches allow.
                                p.schedule = Schedule::OneFOneB;
                                p.virtualStages = 1;
                                if (pp > 1 && micro % pp == 0) {
                                    const int v = std::min(8, s.model.layers / pp);
                                    if (v >= 2) {
                                        p.schedule = Schedule::Interleaved1F1B;
                                        p.virtualStages = v;
                                    }
                                }
                                if (firstViolation(s) != PlanRule::Ok || !memoryPerGpu(s, cal).fits)
                                    continue;
                                const StepReport rep = predictStep(s, cal, stepOptions);
                                const double time = rep.stepTime * steps;
                                if (time > duration)
                                    continue;
                                const bool better = !best.feasible || rep.mfu > best.mfu
                                    || (rep.mfu == best.mfu && gpus < best.gpus);
                                if (!better)
                                    continue;
                                best.feasible = true;
                                best.mfu = rep.mfu;
                                best.gpus = static_cast<long long>(gpus);
                                best.tp = tp;
                                best.tp2d = twoD;
                                best.pp = pp;
                                best.dp = static_cast<int>(dp);
                                best.ep = ep;
                                best.stepTime = rep.stepTime;
                                best.days = time / units::day;
                                best.costUsd = gpus * o.hardware.launchPriceUsd;
                                best.plan = p;
                            }
                        }
                    }
                }
            }
        }
        f.points[i] = best;
    };

    parallelFor(std::size_t(n), workerCount(std::size_t(std::max(0, n)), o.threads), o.cancel,
        [&](std::size_t i, int) { solve(int(i)); });

    for (const FrontierPoint& p : f.points)
        if (p.feasible) {
            f.bestMfu = std::max(f.bestMfu, p.mfu);
            f.maxFlopAny = std::max(f.maxFlopAny, p.flop);
        }
    for (const FrontierPoint& p : f.points)
        if (p.feasible && p.mfu >= 0.8 * f.bestMfu)
            f.maxFlopAt80 = std::max(f.maxFlopAt80, p.flop);
    return f;
}

} // namespace dtsim
