#include "convergence_law.h"

#include <cmath>
#include <limits>

namespace dtsim {

std::string_view lossLawName(LossLaw l)
{
    switch (l) {
    case LossLaw::Hoffmann2022:
        return "hoffmann2022";
    case LossLaw::Besiroglu2024:
        return "besiroglu2024";
    }
    return "?";
}

double LossLawConstants::pow(double x, double y) { return std::pow(x, y); }

double LossLawConstants::loss(double params, double tokens) const
{
    return e + a / pow(params, alpha) + b / pow(tokens, beta);
}

double LossLawConstants::tokensFor(double params, double target) const
{
    const double dataTerm = target - floor(params);
    if (!(dataTerm > 0))
        return std::numeric_limits<double>::infinity();
    return pow(b / dataTerm, 1.0 / beta);
}

double LossLawConstants::lossError(double params, double tokens) const
{
    const double modelTerm = a / pow(params, alpha), dataTerm = b / pow(tokens, beta);
    // d/da (a N^-alpha) = N^-alpha; d/dalpha = -ln N a N^-alpha; likewise for b, beta.
    const double fromModel = modelTerm * std::hypot(a > 0 ? aSe / a : 0, std::log(params) * alphaSe);
    const double fromData = dataTerm * std::hypot(b > 0 ? bSe / b : 0, std::log(tokens) * betaSe);
    return std::sqrt(eSe * eSe + fromModel * fromModel + fromData * fromData);
}

double DilocoConstants::lossRatio(double params, int workers) const
{
    if (!known || fits.size() < 2 || workers < 1 || workers > maxWorkers())
        return std::numeric_limits<double>::quiet_NaN();
    auto loss = [&](const DilocoFit& f) { return f.a * std::pow(params, f.alpha); };
    const double baseline = loss(fits.front());
    for (std::size_t i = 1; i < fits.size(); ++i) {
        const DilocoFit& hi = fits[i];
        if (workers > hi.workers)
            continue;
        const DilocoFit& lo = fits[i - 1].workers >= 1 ? fits[i - 1] : hi;
        const double t = hi.workers == lo.workers ? 0.0 : std::log2(double(workers) / lo.workers) / std::log2(double(hi.workers) / lo.workers);
        return std::exp((1 - t) * std::log(loss(lo)) + t * std::log(loss(hi))) / baseline;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

double CriticalBatchConstants::tokensAt(double loss) const
{
    return scaleTokens / std::pow(loss, 1.0 / exponent);
}

} // namespace dtsim
