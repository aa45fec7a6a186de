#include "convergence_reader.h"

#include <string>

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

} // namespace

void readConvergence(YamlReader& r, const YAML::Node& n, ConvergenceConstants& out)
{
    const std::string field = "convergence";
    r.expectMap(n, field);
    r.checkKeys(n, field, { "loss_laws", "critical_batch" });
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
