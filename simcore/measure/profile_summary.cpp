#include "profile_summary.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_set>
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

// Kernel time by category, and the FLOPs and bytes of the ops that launched them (each
// op once: a split-K GEMM launches two kernels, an attention backward several).
CategoryTimes categoryTimes(const std::vector<const GpuActivity*>& acts, const KinetoTrace& t)
{
    static_assert(std::tuple_size_v<CategoryTimes> == kKernelCategoryCount);
    CategoryTimes out {};
    std::unordered_set<long long> counted;
    for (const GpuActivity* a : acts) {
        CategoryTime& c = out[std::size_t(a->category)];
        c.seconds += a->duration;
        ++c.count;
        // An op's cost goes to its own category: a cuBLAS workspace memset launched by
        // aten::mm is time, not GEMM FLOPs.
        if (a->op < 0 || a->category == KernelCategory::Memcpy || a->category == KernelCategory::Memset)
            continue;
        const auto op = t.ops.find(a->op);
        if (op == t.ops.end())
            continue;
        const bool shaped = op->second.flops > 0 || (op->second.inputBytes > 0 && a->category != KernelCategory::Gemm
                                                           && a->category != KernelCategory::Attention);
        if (shaped)
            c.opSeconds += a->duration;
        if (!counted.insert(a->op).second)
            continue;
        c.flops += op->second.flops;
        c.inputBytes += op->second.inputBytes;
        ++c.ops;
    }
    return out;
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
    s.categories = categoryTimes(mine, t);
    for (auto& [type, k] : collectives)
        s.collectives.push_back(k);
    s.whole = gpuTimes(mine);

    // Each activity belongs to the step during which the CPU launched it (the GPU may
    // run it after the step's CPU range has closed). A kernel whose launch the trace
    // lacks although it records launches was launched before the recording started (a
    // warm-up step's kernels still queued): no step's. One with no correlation at all, or
    // in a trace that records no launches, belongs to the step its start falls in.
    const bool launchesRecorded = !t.launchTime.empty();
    std::vector<ProfilerStep> steps = t.steps;
    std::sort(steps.begin(), steps.end(), [](const ProfilerStep& a, const ProfilerStep& b) { return a.start < b.start; });
    std::vector<std::vector<const GpuActivity*>> byStep(steps.size());
    for (const GpuActivity* a : mine) {
        const auto launch = t.launchTime.find(a->correlation);
        if (launch == t.launchTime.end() && launchesRecorded && a->correlation >= 0)
            continue;
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
        f.categories = categoryTimes(byStep[i], t);
        s.steps.push_back(std::move(f));
    }
    return s;
}

} // namespace dtsim
