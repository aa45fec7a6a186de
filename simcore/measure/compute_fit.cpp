#include "compute_fit.h"

#include "../step.h"

#include <cmath>

namespace dtsim {

ComputeFit fitComputeScale(Scenario s, const Calibration& c, double measuredStepSeconds)
{
    const double maxScale = Calibration::maxComputeScale(c.forGeneration(s.hardware.generation));
    double lo = kMinComputeScale, hi = maxScale;
    for (int i = 0; i < 100; ++i) {
        const double mid = std::sqrt(lo * hi);
        s.calibration.computeScale = mid;
        (predictStep(s, c).stepTime > measuredStepSeconds ? lo : hi) = mid;
    }
    ComputeFit f;
    f.scale = std::sqrt(lo * hi);
    f.maxScale = maxScale;
    // At either end of the range the measurement was not reached: compute alone cannot
    // explain it (the rest of the step is longer than the measurement even at the GPU's
    // peak, or the speed would be ten times below the model's).
    f.reached = f.scale <= 0.999 * maxScale && f.scale >= 1.01 * kMinComputeScale;
    s.calibration.computeScale = f.scale;
    f.fittedStep = predictStep(s, c).stepTime;
    return f;
}

double stepFromThroughput(const Scenario& s, const Calibration& c, double tokensPerSecond)
{
    // Tokens a step as the engine counts them (the same at any speed).
    const StepReport rep = predictStep(s, c);
    return rep.tokensPerSecond * rep.stepTime / tokensPerSecond;
}

} // namespace dtsim
