#include "report_check.h"

#include "input_error.h"

#include <cmath>
#include <cstdio>
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

// Rounding may put a share a hair above 1; a real excess is far larger.
constexpr double kShareSlack = 1e-9;

std::optional<std::string> firstAboveOne(std::initializer_list<std::pair<const char*, double>> values, const std::string& prefix)
{
    for (const auto& [name, v] : values)
        if (v > 1 + kShareSlack)
            return prefix + name;
    return std::nullopt;
}

} // namespace

std::optional<std::string> badQuantity(const StepReport& r)
{
    const StepBreakdown& b = r.breakdown;
    // A step takes time; no GPU runs above its peak.
    if (!(r.stepTime > 0))
        return std::string("step.stepTime");
    if (auto bad = firstAboveOne({ { "mfu", r.mfu }, { "hfu", r.hfu } }, "step."))
        return bad;
    if (auto bad = firstBad({ { "stepTime", r.stepTime }, { "bubbleFraction", r.bubbleFraction },
                                { "modelFlopsPerStep", r.modelFlopsPerStep }, { "hardwareFlopsPerStep", r.hardwareFlopsPerStep },
                                { "peakFlopsPerGpu", r.peakFlopsPerGpu }, { "mfu", r.mfu }, { "hfu", r.hfu },
                                { "tflopsPerGpu", r.tflopsPerGpu }, { "tokensPerSecond", r.tokensPerSecond } },
            "step."))
        return bad;
    if (auto bad = firstBad({ { "forward", b.forward }, { "backward", b.backward }, { "recompute", b.recompute },
                                { "bubble", b.bubble }, { "optimizer", b.optimizer }, { "overhead", b.overhead },
                                { "contention", b.contention }, { "input stall", b.inputStall }, { "straggler", b.straggler }, { "outer sync", b.outerSync },
                                { "gradient compression", b.compression } },
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

std::optional<std::string> badQuantity(const ReliabilityReport& r)
{
    if (auto bad = firstBad({ { "failureFreeTime", r.failureFreeTime }, { "checkpointBytes", r.checkpointBytes },
                                { "checkpointWrite", r.checkpointWrite }, { "checkpointLoad", r.checkpointLoad }, { "recovery", r.recovery },
                                { "expectedTime", r.expectedTime }, { "expectedFailures", r.expectedFailures } },
            "run."))
        return bad;
    // Failures and checkpoints only ever add time.
    if (r.expectedTime < r.failureFreeTime * (1 - kShareSlack))
        return std::string("run.expectedTime");
    return std::nullopt;
}

std::optional<std::string> badQuantity(const MonteCarloResult& m, const ReliabilityReport& r)
{
    if (m.times.empty())
        return std::nullopt; // cancelled: nothing to print
    if (auto bad = firstBad({ { "mean", m.mean }, { "p50", m.p50 }, { "p90", m.p90 }, { "p99", m.p99 }, { "goodput", m.goodput },
                                { "failuresMean", m.failuresMean } },
            "monteCarlo."))
        return bad;
    if (m.goodput > 1 + kShareSlack)
        return std::string("monteCarlo.goodput");
    if (m.times.front() < r.failureFreeTime * (1 - kShareSlack))
        return std::string("monteCarlo.times");
    return std::nullopt;
}

std::string badQuantityMessage(const std::string& quantity)
{
    return "the simulation gave " + quantity + " a value that cannot be (not finite, negative, a share above 100%, or a run "
           "shorter than without failures): an input lies beyond what dtsim computes (look for one far outside its usual range), "
           "or this is a bug; please report the scenario";
}

void checkOverlay(const Scenario& s, const Calibration& c)
{
    const CalibrationOverlay& o = s.calibration;
    if (o.empty())
        return;
    const double limit = Calibration::maxComputeScale(c.forGeneration(s.hardware.generation));
    if (o.computeScale > limit * (1 + kShareSlack)) {
        char text[240];
        std::snprintf(text, sizeof text,
            "x%.3g would run %s's fastest kernels at %.0f%% of its peak; at most x%.3g keeps them within it (a measurement this "
            "fast was of another GPU or another scenario)",
            o.computeScale, s.hardware.name.c_str(), 100 * o.computeScale / limit, limit);
        throw InputError(o.path.empty() ? o.file : o.path, o.computeLine, "compute_scale.value", text);
    }
}

} // namespace dtsim
