#include "convergence_reader.h"

#include "../grad_compression.h"

#include <string>
#include <vector>

namespace dtsim {

namespace {

void requireSource(YamlReader& r, const YAML::Node& n, const std::string& field)
{
    const YAML::Node source = n["source"];
    if (!source || !source.IsScalar() || source.Scalar().empty())
        r.fail(n, field + ".source", "every value needs a source");
}

double number(YamlReader& r, const YAML::Node& map, const std::string& field, const char* key, Bound bound)
{
    return r.quantity(r.required(map, field, key), field + "." + key, Dimension::Count, bound);
}

LossLawConstants readLaw(YamlReader& r, const YAML::Node& n, const std::string& field)
{
    r.expectMap(n, field);
    r.checkKeys(n, field, { "e", "a", "b", "alpha", "beta", "se", "corpus", "source", "note" });
    requireSource(r, n, field);
    LossLawConstants law;
    law.known = true;
    law.e = number(r, n, field, "e", Bound::NonNegative);
    law.a = number(r, n, field, "a", Bound::Positive);
    law.b = number(r, n, field, "b", Bound::Positive);
    law.alpha = number(r, n, field, "alpha", Bound::Positive);
    law.beta = number(r, n, field, "beta", Bound::Positive);
    if (const YAML::Node se = n["se"]) {
        const std::string at = field + ".se";
        r.expectMap(se, at);
        r.checkKeys(se, at, { "e", "a", "b", "alpha", "beta" });
        law.eSe = number(r, se, at, "e", Bound::NonNegative);
        law.aSe = number(r, se, at, "a", Bound::NonNegative);
        law.bSe = number(r, se, at, "b", Bound::NonNegative);
        law.alphaSe = number(r, se, at, "alpha", Bound::NonNegative);
        law.betaSe = number(r, se, at, "beta", Bound::NonNegative);
    }
    return law;
}

// diloco: {inner_steps, fits: [{workers, a, alpha}, ...], source}: workers 0 first, ascending.
void readDiloco(YamlReader& r, const YAML::Node& n, const std::string& field, DilocoConstants& out)
{
    r.expectMap(n, field);
    r.checkKeys(n, field, { "inner_steps", "fits", "source", "note" });
    requireSource(r, n, field);
    out.known = true;
    out.innerSteps = int(r.integer(r.required(n, field, "inner_steps"), field + ".inner_steps", 1, 1000000));
    const YAML::Node fits = r.required(n, field, "fits");
    if (!fits.IsSequence() || fits.size() < 2)
        r.fail(fits, field + ".fits", "expected a list: the data-parallel baseline (workers 0) and at least one worker count");
    for (std::size_t i = 0; i < fits.size(); ++i) {
        const std::string at = field + ".fits[" + std::to_string(i) + "]";
        r.expectMap(fits[i], at);
        r.checkKeys(fits[i], at, { "workers", "a", "alpha" });
        DilocoFit fit;
        fit.workers = int(r.integer(r.required(fits[i], at, "workers"), at + ".workers", 0, 1 << 20));
        fit.a = number(r, fits[i], at, "a", Bound::Positive);
        fit.alpha = number(r, fits[i], at, "alpha", Bound::Any);
        if ((i == 0) != (fit.workers == 0) || (i > 0 && fit.workers <= out.fits.back().workers))
            r.fail(fits[i], at + ".workers", "the list starts with workers 0 (data parallel) and then ascends");
        out.fits.push_back(fit);
    }
}

// grad_compression: {powersgd: {token_factor, source}, onebit: ..., fp8: ..., int8: ...}
void readCompressionCosts(YamlReader& r, const YAML::Node& n, const std::string& field, ConvergenceConstants& out)
{
    r.expectMap(n, field);
    std::vector<std::string_view> names;
    for (GradCompression m : kAllGradCompressions)
        if (m != GradCompression::None)
            names.push_back(gradCompressionName(m));
    r.checkKeys(n, field, names);
    for (GradCompression m : kAllGradCompressions) {
        const std::string name(gradCompressionName(m));
        if (m == GradCompression::None)
            continue;
        const YAML::Node cost = n[name];
        if (!cost)
            continue;
        const std::string at = field + "." + name;
        r.expectMap(cost, at);
        r.checkKeys(cost, at, { "token_factor", "source", "note" });
        requireSource(r, cost, at);
        CompressionCost& c = out.compression[std::size_t(m)];
        c.known = true;
        c.tokenFactor = number(r, cost, at, "token_factor", Bound::Positive);
    }
}

} // namespace

void readConvergence(YamlReader& r, const YAML::Node& n, ConvergenceConstants& out)
{
    const std::string field = "convergence";
    r.expectMap(n, field);
    r.checkKeys(n, field, { "loss_laws", "critical_batch", "diloco", "grad_compression" });
    if (const YAML::Node d = n["diloco"])
        readDiloco(r, d, field + ".diloco", out.diloco);
    if (const YAML::Node g = n["grad_compression"])
        readCompressionCosts(r, g, field + ".grad_compression", out);
    if (const YAML::Node laws = n["loss_laws"]) {
        const std::string at = field + ".loss_laws";
        r.expectMap(laws, at);
        static_assert(kLossLawCount == 2, "list every law here");
        r.checkKeys(laws, at, { lossLawName(LossLaw::Hoffmann2022), lossLawName(LossLaw::Besiroglu2024) });
        for (int i = 0; i < kLossLawCount; ++i) {
            const std::string name(lossLawName(LossLaw(i)));
            if (const YAML::Node law = laws[name])
                out.laws[i] = readLaw(r, law, at + "." + name);
        }
    }
    if (const YAML::Node cb = n["critical_batch"]) {
        const std::string at = field + ".critical_batch";
        r.expectMap(cb, at);
        r.checkKeys(cb, at, { "scale", "exponent", "source", "note" });
        requireSource(r, cb, at);
        out.criticalBatch.known = true;
        out.criticalBatch.scaleTokens = number(r, cb, at, "scale", Bound::Positive);
        out.criticalBatch.exponent = number(r, cb, at, "exponent", Bound::Positive);
    }
}

} // namespace dtsim
