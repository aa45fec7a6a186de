#include "error_band.h"

#include "../precision.h"
#include "../validation/validation.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

std::vector<Residual> residualsOf(const ValidationResult& v)
{
    std::vector<Residual> out;
    for (const ValidationRow& r : v.rows)
        if (!r.skipped && r.quality == "good")
            out.push_back({ r.id, r.generation, r.moe, r.lowPrecision, double(r.gpus), r.relError });
    return out;
}

RunTraits traitsOf(const Scenario& s)
{
    return { s.hardware.generation, s.model.isMoe(), isScaledLowPrecision(s.training.precision), double(s.cluster.gpus), s.model.isLayerTable() };
}

namespace {

double quantile(std::vector<double>& v, double q)
{
    std::sort(v.begin(), v.end());
    const double at = q * double(v.size() - 1);
    const auto i = std::size_t(at);
    return i + 1 < v.size() ? v[i] + (at - double(i)) * (v[i + 1] - v[i]) : v.back();
}

std::string gpuRange(double gpus)
{
    return std::to_string(std::max(1LL, std::llround(gpus / 8))) + "-" + std::to_string(std::llround(gpus * 8)) + " GPUs";
}

} // namespace

ErrorBand errorBand(const std::vector<Residual>& residuals, const RunTraits& t, std::string_view exclude)
{
    // Loosest last: the GPU count, then the precision class.
    for (int relax = 0; relax < 3; ++relax) {
        std::vector<double> errors;
        for (const Residual& r : residuals) {
            if (r.id == exclude || r.generation != t.generation || r.moe != t.moe || r.layerTable != t.layerTable)
                continue;
            if (relax < 2 && r.lowPrecision != t.lowPrecision)
                continue;
            if (relax < 1 && !(std::abs(std::log2(std::max(1.0, r.gpus) / std::max(1.0, t.gpus))) <= 3))
                continue;
            errors.push_back(r.error);
        }
        if (int(errors.size()) < kMinSimilarRuns)
            continue;
        ErrorBand b;
        b.similar = int(errors.size());
        b.lowError = quantile(errors, (1 - kBandCoverage) / 2);
        b.highError = quantile(errors, (1 + kBandCoverage) / 2);
        b.similarity = t.generation + ", " + (t.moe ? "MoE" : "dense") + (relax < 2 ? (t.lowPrecision ? ", 8-bit" : ", 16-bit") : "")
            + (relax < 1 ? ", " + gpuRange(t.gpus) : "");
        return b;
    }
    return {};
}

BandCoverage leaveOneOutCoverage(const std::vector<Residual>& residuals)
{
    BandCoverage c;
    for (const Residual& r : residuals) {
        const ErrorBand b = errorBand(residuals, { r.generation, r.moe, r.lowPrecision, r.gpus }, r.id);
        if (!b.ok())
            continue;
        ++c.banded;
        c.inside += r.error >= b.lowError && r.error <= b.highError;
    }
    return c;
}

Interval bandOf(Headline h, double value, const ErrorBand& b)
{
    const bool throughput = h == Headline::Mfu || h == Headline::TokensPerSecond;
    if (throughput) // measured = predicted / (1 + error)
        return { value / (1 + b.highError), value / (1 + b.lowError) };
    return { value * (1 + b.lowError), value * (1 + b.highError) }; // times scale inversely
}

} // namespace dtsim
