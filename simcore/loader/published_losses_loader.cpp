#include "published_losses_loader.h"

#include "read_file.h"
#include "yaml_reader.h"

namespace dtsim {

std::vector<PublishedLoss> loadPublishedLosses(const std::string& path)
{
    YamlReader r(path);
    const YAML::Node root = r.parse(readTextFile(path, "published losses"));
    r.expectMap(root, "");
    r.checkKeys(root, "", { "version", "runs" });
    if (r.integer(r.required(root, "", "version"), "version", 1, 1) != 1)
        r.fail(root, "version", "unsupported version");
    const YAML::Node runs = r.required(root, "", "runs");
    if (!runs.IsSequence() || runs.size() == 0)
        r.fail(runs, "runs", "expected a list of runs");
    std::vector<PublishedLoss> out;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const std::string at = "runs[" + std::to_string(i) + "]";
        const YAML::Node n = runs[i];
        r.expectMap(n, at);
        r.checkKeys(n, at, { "id", "corpus", "params", "tokens", "loss", "batch_tokens", "source", "note" });
        PublishedLoss p;
        p.id = r.string(r.required(n, at, "id"), at + ".id");
        p.corpus = r.string(r.required(n, at, "corpus"), at + ".corpus");
        p.source = r.string(r.required(n, at, "source"), at + ".source");
        if (p.source.empty())
            r.fail(n, at + ".source", "every run needs a source");
        p.parameters = r.quantity(r.required(n, at, "params"), at + ".params", Dimension::Count, Bound::Positive);
        p.tokens = r.quantity(r.required(n, at, "tokens"), at + ".tokens", Dimension::Count, Bound::Positive);
        p.loss = r.quantity(r.required(n, at, "loss"), at + ".loss", Dimension::Count, Bound::Positive);
        if (const YAML::Node b = n["batch_tokens"])
            p.batchTokens = r.quantity(b, at + ".batch_tokens", Dimension::Count, Bound::Positive);
        out.push_back(std::move(p));
    }
    return out;
}

} // namespace dtsim
