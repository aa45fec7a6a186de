#include "profile_summary.h"

#include <algorithm>
#include <map>
#include <utility>

namespace dtsim {

namespace {

using Interval = std::pair<double, double>; // start, end

// Sorted, disjoint intervals covering the input's.
std::vector<Interval> unite(std::vector<Interval> v)
{
    std::sort(v.begin(), v.end());
    std::vector<Interval> out;
    for (const Interval& i : v) {
        if (!out.empty() && i.first <= out.back().second)
            out.back().second = std::max(out.back().second, i.second);
        else
            out.push_back(i);
    }
    return out;
}

double length(const std::vector<Interval>& v)
{
    double s = 0;
    for (const Interval& i : v)
        s += i.second - i.first;
    return s;
}

// Length of the intersection of two sorted disjoint interval lists.
double common(const std::vector<Interval>& a, const std::vector<Interval>& b)
{
    double s = 0;
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const double lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
        if (hi > lo)
            s += hi - lo;
        (a[i].second < b[j].second ? i : j)++;
    }
    return s;
}

GpuTimes gpuTimes(const std::vector<const GpuActivity*>& acts)
{
    GpuTimes g;
    if (acts.empty())
        return g;
    std::vector<Interval> all, compute, comm;
    double first = acts.front()->start, last = first;
    for (const GpuActivity* a : acts) {
        const Interval i { a->start, a->start + a->duration };
        first = std::min(first, i.first);
        last = std::max(last, i.second);
        all.push_back(i);
        if (a->category == KernelCategory::Communication)
            comm.push_back(i);
        else if (a->category != KernelCategory::Memcpy && a->category != KernelCategory::Memset)
            compute.push_back(i);
    }
    const auto c = unite(std::move(compute)), n = unite(std::move(comm));
    g.span = last - first;
    g.busy = length(unite(std::move(all)));
    g.compute = length(c);
    g.communication = length(n);
    g.overlapped = common(c, n);
    return g;
}

} // namespace

ProfileSummary summarizeProfile(const KinetoTrace& t)
{
    ProfileSummary s;
    // The GPU with the most activity: a rank's trace may show a stray copy on another.
    std::map<int, long long> perDevice;
    for (const GpuActivity& a : t.gpu)
        ++perDevice[a.device];
    if (!perDevice.empty())
        s.device = std::max_element(perDevice.begin(), perDevice.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;

    std::vector<const GpuActivity*> mine;
    std::map<std::string, CollectiveStats> collectives;
    for (const GpuActivity& a : t.gpu) {
        if (a.device != s.device)
            continue;
        mine.push_back(&a);
        CategoryTime& c = s.categories[int(a.category)];
        c.seconds += a.duration;
        ++c.count;
        if (a.category == KernelCategory::Communication) {
            CollectiveStats& k = collectives[a.collective];
            k.type = a.collective;
            ++k.count;
            k.seconds += a.duration;
            if (a.bytes > 0) {
                k.bytes += a.bytes;
                ++k.sized;
            }
        }
    }
    s.activities = (long long)mine.size();
    for (auto& [type, k] : collectives)
        s.collectives.push_back(k);
    s.whole = gpuTimes(mine);

    // Each activity belongs to the step during which the CPU launched it (the GPU may
    // run it after the step's CPU range has closed); without a launch record, to the
    // step its start falls in.
    std::vector<ProfilerStep> steps = t.steps;
    std::sort(steps.begin(), steps.end(), [](const ProfilerStep& a, const ProfilerStep& b) { return a.start < b.start; });
    std::vector<std::vector<const GpuActivity*>> byStep(steps.size());
    for (const GpuActivity* a : mine) {
        const auto launch = t.launchTime.find(a->correlation);
        const double at = launch != t.launchTime.end() ? launch->second : a->start;
        // The last step starting at or before it (steps do not overlap), if it is inside.
        const auto after = std::upper_bound(steps.begin(), steps.end(), at, [](double x, const ProfilerStep& st) { return x < st.start; });
        if (after != steps.begin()) {
            const std::size_t i = std::size_t(after - steps.begin()) - 1;
            if (at < steps[i].start + steps[i].duration)
                byStep[i].push_back(a);
        }
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
        StepFigures f;
        f.name = steps[i].name;
        f.cpuSeconds = steps[i].duration;
        f.activities = (long long)byStep[i].size();
        f.gpu = gpuTimes(byStep[i]);
        s.steps.push_back(std::move(f));
    }
    return s;
}

} // namespace dtsim
