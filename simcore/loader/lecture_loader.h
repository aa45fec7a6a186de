#pragma once
// A lecture script: the steps a speaker clicks through in presentation mode, each a
// preset with a few fields changed, a view, and a caption (docs/teaching.md).
//
//   version: 1
//   title: Why you can't just add more GPUs
//   steps:
//     - preset: gtx580-2012
//       tab: frontier
//       set: { cluster.scale_out_latency: 200 us }
//       caption: The latency wall ...
//
// A step without `preset` keeps the previous step's; `set` changes the preset's fields
// (the paths and texts of --set) for that step only.
#include "scenario_override.h"

#include <string>
#include <vector>

namespace dtsim {

struct LectureStep {
    std::string preset;
    std::string tab;
    std::vector<Override> sets;
    std::string caption;
    int index = 0;             // 0 for the first step
    int line = 0;              // in the script, for messages about the step
    std::vector<int> setLines; // each change's line
};

struct LectureScript {
    std::string file;
    std::string title;
    std::vector<LectureStep> steps;
};

// Refuses, with file, line and field, an unknown key, a missing caption or preset, a
// tab not in `tabs`, or a field path the scenario does not have. Whether each step's
// values load is checked by whoever holds the presets (lectureStepScenario).
LectureScript loadLectureScript(const std::string& path, const std::vector<std::string>& tabs);

} // namespace dtsim
