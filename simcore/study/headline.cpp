#include "headline.h"

#include "../units.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace dtsim {

namespace {

constexpr std::array<HeadlineInfo, kHeadlineCount> kInfo { {
    { "step_time", "Step time", false },
    { "mfu", "MFU", true },
    { "tokens_per_s", "Tokens/s", true },
    { "time_to_train", "Time to train", false },
    { "memory_per_gpu", "Memory per GPU", false },
    { "gpu_hours", "GPU-hours", false },
} };

} // namespace

const HeadlineInfo& headlineInfo(Headline h) { return kInfo[std::size_t(h)]; }

std::optional<Headline> headlineFromName(std::string_view name)
{
    for (int i = 0; i < kHeadlineCount; ++i)
        if (name == kInfo[std::size_t(i)].key)
            return Headline(i);
    return std::nullopt;
}

std::string headlineNames()
{
    std::string out;
    for (const HeadlineInfo& i : kInfo)
        out += (out.empty() ? "" : ", ") + std::string(i.key);
    return out;
}

double headlineValue(const Report& r, Headline h)
{
    switch (h) {
    case Headline::StepTime: return r.step.stepTime;
    case Headline::Mfu: return r.step.mfu;
    case Headline::TokensPerSecond: return r.step.tokensPerSecond;
    case Headline::TimeToTrain: return r.timeToTrain;
    case Headline::MemoryPerGpu: return r.step.memory.total;
    case Headline::GpuHours: return r.gpuHours;
    }
    return 0;
}

std::string formatHeadline(Headline h, double v)
{
    char buf[64];
    switch (h) {
    case Headline::StepTime: return formatSeconds(v);
    case Headline::Mfu:
        std::snprintf(buf, sizeof buf, "%.1f%%", 100 * v);
        return buf;
    case Headline::TokensPerSecond: return formatCount(v);
    case Headline::TimeToTrain: return formatDuration(v);
    case Headline::MemoryPerGpu: return formatMemory(v); // as the dashboard: GiB, the unit memory is sold in
    case Headline::GpuHours: return formatCount(v);
    }
    return {};
}

} // namespace dtsim
