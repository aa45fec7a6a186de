#pragma once
// Published readings of another model's frontier (Epoch AI's), shown next to dtsim's
// own: a GPU, a duration, and where on the curve the reading falls.
#include <string>
#include <vector>

namespace dtsim {

struct FrontierAnchor {
    enum class Reading {
        At80,     // the largest run at >= 80% of the best utilization
        Feasible, // the largest run that finishes in time at all (the latency wall)
    };
    std::string gpu; // hardware catalogue id
    double months = 3;
    Reading reading = Reading::At80;
    double flop = 0;
    double gpus = 0;    // 0: not published
    double costUsd = 0; // 0: not published
    std::string plan;   // "" : not published
    std::string source;
};

const char* anchorReadingText(FrontierAnchor::Reading r); // "largest run at >= 80% utilization", ...

// The anchors for this GPU whose duration is within 10% of `months` (a reading for
// three months says nothing about four).
std::vector<FrontierAnchor> anchorsFor(const std::vector<FrontierAnchor>& all, const std::string& gpu, double months);

} // namespace dtsim
