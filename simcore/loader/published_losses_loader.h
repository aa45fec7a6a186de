#pragma once
// Reads tests/convergence/published-losses.yaml: final losses of published runs with their
// model size, tokens and corpus (docs/convergence.md).
#include <string>
#include <vector>

namespace dtsim {

struct PublishedLoss {
    std::string id;
    std::string corpus; // the loss is only comparable with a law fitted on this corpus
    double parameters = 0;
    double tokens = 0;
    double loss = 0;
    double batchTokens = 0; // 0: not stated
    std::string source;
};

std::vector<PublishedLoss> loadPublishedLosses(const std::string& path);

} // namespace dtsim
