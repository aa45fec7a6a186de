#include "anchors_loader.h"

#include "list_file.h"

namespace dtsim {

std::vector<FrontierAnchor> loadFrontierAnchors(const std::string& path)
{
    YamlReader r(path);
    const YAML::Node list = versionedList(r, path, "anchors file", "anchors");
    std::vector<FrontierAnchor> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const YAML::Node n = list[i];
        const std::string field = "anchors[" + std::to_string(i) + "]";
        r.expectMap(n, field);
        r.checkKeys(n, field, { "gpu", "months", "reading", "flop", "gpus", "cost_usd", "plan", "source" });
        FrontierAnchor a;
        a.gpu = r.string(r.required(n, field, "gpu"), field + ".gpu");
        a.months = r.quantity(r.required(n, field, "months"), field + ".months", Dimension::Count, Bound::Positive);
        const std::string reading = r.string(r.required(n, field, "reading"), field + ".reading");
        if (reading == "at_80")
            a.reading = FrontierAnchor::Reading::At80;
        else if (reading == "feasible")
            a.reading = FrontierAnchor::Reading::Feasible;
        else
            r.fail(n["reading"], field + ".reading", "\"" + reading + "\" is not one of: at_80, feasible");
        a.flop = r.quantity(r.required(n, field, "flop"), field + ".flop", Dimension::Flop, Bound::Positive);
        if (const YAML::Node g = r.child(n, field, "gpus"))
            a.gpus = r.quantity(g, field + ".gpus", Dimension::Count, Bound::Positive);
        if (const YAML::Node c = r.child(n, field, "cost_usd"))
            a.costUsd = r.quantity(c, field + ".cost_usd", Dimension::Count, Bound::Positive);
        if (const YAML::Node p = r.child(n, field, "plan"))
            a.plan = r.string(p, field + ".plan");
        a.source = r.string(r.required(n, field, "source"), field + ".source");
        if (a.source.empty())
            r.fail(n["source"], field + ".source", "every anchor needs a source");
        out.push_back(std::move(a));
    }
    return out;
}

} // namespace dtsim
