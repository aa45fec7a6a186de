#pragma once
// The teaching panel's content: for a headline figure, its formula in words, the same
// formula with the scenario's current values substituted, and the result. The values
// are the report's own, so substituting and evaluating gives the figure shown (tested).
#include "report.h"
#include "scenario.h"

#include <string>
#include <vector>

namespace dtsim {

struct Explanation {
    std::string title;
    std::string formula;     // in words: "MFU = model FLOPs per step / (step time x GPUs x peak)"
    std::string substituted; // with numbers: "= 2.1e18 FLOP / (5.3 s x 16,384 x 989 TFLOP/s)"
    std::string result;      // "= 41.2%"
    std::string note;        // where the inputs come from, what the figure leaves out
    // The substituted terms as numbers, and how they combine, so a test can recompute it.
    std::vector<double> terms;
    double value = 0;
};

// Figures: "step", "mfu", "tflops", "tokens", "memory", "ttt", "min", "gpuh", "wall",
// "flops" (model FLOPs per step), "bubble". Empty title for an unknown key.
Explanation explainFigure(const std::string& key, const Scenario& s, const Report& r);
std::vector<std::string> explainedFigures();

} // namespace dtsim
