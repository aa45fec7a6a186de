#pragma once
// Catalogue and calibration numbers are written {value: ..., source: ..., note: ...}:
// a value without a source is refused, so every figure stays traceable.
#include "yaml_reader.h"

namespace dtsim {

inline double sourcedQuantity(const YamlReader& r, const YAML::Node& n, const std::string& field,
    Dimension dim, Bound bound)
{
    r.expectMap(n, field);
    r.checkKeys(n, field, { "value", "source", "note", "date" });
    const YAML::Node value = n["value"];
    if (!value)
        r.fail(n, field + ".value", "is required");
    const YAML::Node source = n["source"];
    if (!source || !source.IsScalar() || source.Scalar().empty())
        r.fail(n, field + ".source", "every value needs a source");
    return r.quantity(value, field + ".value", dim, bound);
}

} // namespace dtsim
