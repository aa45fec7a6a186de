#include "residuals_loader.h"

#include "list_file.h"

namespace dtsim {

std::vector<Residual> loadResiduals(const std::string& path)
{
    YamlReader r(path);
    const YAML::Node list = versionedList(r, path, "residuals file", "runs");
    std::vector<Residual> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const YAML::Node n = list[i];
        const std::string field = "runs[" + std::to_string(i) + "]";
        r.expectMap(n, field);
        r.checkKeys(n, field, { "id", "generation", "moe", "low_precision", "gpus", "error", "source" });
        Residual x;
        x.id = r.string(r.required(n, field, "id"), field + ".id");
        x.generation = r.string(r.required(n, field, "generation"), field + ".generation");
        x.moe = r.boolean(r.required(n, field, "moe"), field + ".moe");
        x.lowPrecision = r.boolean(r.required(n, field, "low_precision"), field + ".low_precision");
        x.gpus = r.quantity(r.required(n, field, "gpus"), field + ".gpus", Dimension::Count, Bound::Positive);
        x.error = r.quantity(r.required(n, field, "error"), field + ".error", Dimension::Count, Bound::Any);
        if (!(x.error > -1))
            r.fail(n["error"], field + ".error", "a relative error is above -1 (the prediction is positive)");
        if (r.string(r.required(n, field, "source"), field + ".source").empty())
            r.fail(n["source"], field + ".source", "every residual names its source");
        out.push_back(std::move(x));
    }
    return out;
}

} // namespace dtsim
