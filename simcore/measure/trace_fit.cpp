#include "trace_fit.h"

#include "../input_error.h"
#include "../step.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n == 0 ? 0.0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double seconds(const CategoryTimes& c, KernelCategory k) { return c[std::size_t(k)].seconds; }

// One step's kernels by the step model's kinds. Copies, fills and unnamed kernels are
// memory-bound work the model counts with the elementwise kernels (autocast's casts,
// zeroed gradients); communication is left out (a one-GPU fit).
KernelKinds kinds(const CategoryTimes& c)
{
    KernelKinds k;
    k.gemm = seconds(c, KernelCategory::Gemm);
    k.attention = seconds(c, KernelCategory::Attention);
    k.stream = seconds(c, KernelCategory::ElementwiseNorm) + seconds(c, KernelCategory::Memcpy) + seconds(c, KernelCategory::Memset)
        + seconds(c, KernelCategory::Other);
    k.optimizer = seconds(c, KernelCategory::Optimizer);
    return k;
}

KernelKinds kinds(const StepReport& r)
{
    return KernelKinds { r.kernels.gemm, r.kernels.attention, r.kernels.stream, r.breakdown.optimizer };
}

// The iteration converges in a few rounds: a kind's time is its work at the fitted rate
// plus a fixed cost per kernel that no rate changes.
constexpr int kRounds = 8;

} // namespace

bool TraceFit::converged() const
{
    auto close = [](double model, double trace) { return trace <= 0 || std::abs(model / trace - 1) < 0.01; };
    return close(fitted.gemm, measured.gemm) && close(fitted.attention, measured.attention) && close(fitted.stream, measured.stream);
}

TraceFit fitTrace(Scenario s, const Calibration& c, const ProfileSummary& trace)
{
    if (s.model.isLayerTable())
        throw InputError("--scenario", 0, "", "a layer table is priced by its layers' own rates; fit a transformer's trace");
    if (s.plan.pp > 1)
        throw InputError("--scenario", 0, "plan.pp", "a trace of one GPU holds one pipeline stage; fit a scenario with pp 1");

    TraceFit f;
    std::vector<double> gemm, attention, stream, optimizer, span, busy;
    for (const StepFigures& step : trace.steps) {
        const KernelKinds k = kinds(step.categories);
        if (k.gemm + k.attention <= 0)
            continue; // a step of something else (evaluation, a data-loader stall)
        gemm.push_back(k.gemm);
        attention.push_back(k.attention);
        stream.push_back(k.stream);
        optimizer.push_back(k.optimizer);
        span.push_back(step.gpu.span);
        busy.push_back(step.gpu.busy);
    }
    f.steps = int(gemm.size());
    if (trace.activities == 0)
        throw InputError("TRACE", 0, "", "the trace holds no GPU kernels (a CPU-only profile): fit a trace recorded with "
                                         "ProfilerActivity.CUDA on the GPU the scenario names");
    if (f.steps == 0)
        throw InputError("TRACE", 0, "", "no ProfilerStep with GEMM or attention kernels to fit: record the steps with "
                                         "torch.profiler's schedule and prof.step() (docs/calibration.md)");
    f.measured = { median(gemm), median(attention), median(stream), median(optimizer) };
    f.measuredStep = median(span);
    f.measuredBusy = median(busy);

    s.calibration.kernels = MeasuredKernels {};
    const StepReport before = predictStep(s, c);
    f.predicted = kinds(before);
    f.predictedStep = before.stepTime;

    MeasuredKernels& k = s.calibration.kernels;
    k.source = "fitting";
    auto refit = [](double& scale, double predicted, double measured) {
        if (predicted > 0 && measured > 0)
            scale = std::clamp(scale * predicted / measured, kMinComputeScale, kMaxComputeScale);
    };
    for (int round = 0; round < kRounds; ++round) {
        const KernelKinds now = kinds(predictStep(s, c));
        refit(k.gemmScale, now.gemm, f.measured.gemm);
        refit(k.attentionScale, now.attention, f.measured.attention);
        refit(k.memoryScale, now.stream, f.measured.stream);
    }
    // What the traced step spends outside the modelled kernels (launch gaps, the loop's
    // own work) is the step overhead.
    k.stepOverhead = 0;
    const double withoutOverhead = predictStep(s, c).stepTime;
    k.stepOverhead = std::max(0.0, f.measuredStep - withoutOverhead);
    const StepReport after = predictStep(s, c);
    f.fitted = kinds(after);
    f.fittedStep = after.stepTime;
    f.kernels = k;
    f.kernels.source.clear();
    return f;
}

} // namespace dtsim
