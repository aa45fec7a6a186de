#include "report_check.h"

#include <cmath>
#include <initializer_list>
#include <utility>

namespace dtsim {

namespace {

bool good(double v) { return std::isfinite(v) && v >= 0; }

std::optional<std::string> firstBad(std::initializer_list<std::pair<const char*, double>> values, const std::string& prefix)
{
    for (const auto& [name, v] : values)
        if (!good(v))
            return prefix + name;
    return std::nullopt;
}

} // namespace

std::optional<std::string> badQuantity(const StepReport& r)
{
    const StepBreakdown& b = r.breakdown;
    if (auto bad = firstBad({ { "stepTime", r.stepTime }, { "bubbleFraction", r.bubbleFraction },
                                { "modelFlopsPerStep", r.modelFlopsPerStep }, { "hardwareFlopsPerStep", r.hardwareFlopsPerStep },
                                { "peakFlopsPerGpu", r.peakFlopsPerGpu }, { "mfu", r.mfu }, { "hfu", r.hfu },
                                { "tflopsPerGpu", r.tflopsPerGpu }, { "tokensPerSecond", r.tokensPerSecond } },
            "step."))
        return bad;
    if (auto bad = firstBad({ { "forward", b.forward }, { "backward", b.backward }, { "recompute", b.recompute },
                                { "bubble", b.bubble }, { "optimizer", b.optimizer }, { "overhead", b.overhead },
                                { "contention", b.contention }, { "input stall", b.inputStall } },
            "step.breakdown."))
        return bad;
    for (int g = 0; g < kCommGroupCount; ++g) {
        const CommReport& c = r.comm[g];
        const std::string prefix = "step.comm[" + std::string(commGroupName(CommGroup(g))) + "].";
        if (!good(b.exposedComm[g]))
            return "step.breakdown.exposedComm[" + std::string(commGroupName(CommGroup(g))) + "]";
        if (auto bad = firstBad({ { "totalSeconds", c.totalSeconds }, { "exposedSeconds", c.exposedSeconds },
                                    { "bytesPerGpu", c.bytesPerGpu } },
                prefix))
            return bad;
    }
    const MemoryReport& m = r.memory;
    if (auto bad = firstBad({ { "weights", m.weights }, { "gradients", m.gradients }, { "optimizer", m.optimizer },
                                { "activations", m.activations }, { "logits", m.logits }, { "reserved", m.reserved },
                                { "total", m.total }, { "capacity", m.capacity } },
            "step.memory."))
        return bad;
    const auto& p = r.pipeline;
    if (auto bad = firstBad({ { "forward", p.forward }, { "backward", p.backward }, { "recompute", p.recompute }, { "hop", p.hop } },
            "step.pipeline."))
        return bad;
    for (int l = 0; l < r.levelCount; ++l)
        if (!good(r.levels[l].bytesPerStep) || !good(r.levels[l].utilization))
            return "step.levels[" + std::to_string(l) + "]";
    return std::nullopt;
}

std::optional<std::string> badQuantity(const Report& r)
{
    if (auto bad = badQuantity(r.step))
        return bad;
    return firstBad({ { "steps", r.steps }, { "timeToTrain", r.timeToTrain }, { "theoreticalMinTime", r.theoreticalMinTime },
                        { "gpuHours", r.gpuHours }, { "syncWallTimeToTrain", r.syncWallTimeToTrain } },
        "");
}

std::string badQuantityMessage(const std::string& quantity)
{
    return "the simulation gave " + quantity + " a value that is not a finite, non-negative number: an input lies beyond "
           "what dtsim computes (look for one far outside its usual range), or this is a bug; please report the scenario";
}

} // namespace dtsim
