#pragma once
// The headline numbers a what-if compares, sweeps and advises on: one name, one value
// from a Report, one way to print it, and which direction is better.
#include "../report.h"

#include <optional>
#include <string>
#include <string_view>

namespace dtsim {

enum class Headline { StepTime, Mfu, TokensPerSecond, TimeToTrain, MemoryPerGpu, GpuHours };
inline constexpr int kHeadlineCount = 6;

struct HeadlineInfo {
    const char* key;   // "step_time", as on the command line and in JSON
    const char* label; // "Step time"
    bool higherIsBetter;
};
const HeadlineInfo& headlineInfo(Headline h);
std::optional<Headline> headlineFromName(std::string_view name);
std::string headlineNames(); // "step_time, mfu, ..." for messages

double headlineValue(const Report& r, Headline h);
std::string formatHeadline(Headline h, double value);

} // namespace dtsim
