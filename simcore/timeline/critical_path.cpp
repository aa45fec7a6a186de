#include "critical_path.h"

#include <algorithm>

namespace dtsim {

std::vector<char> criticalPath(const Trace& t)
{
    std::vector<char> critical(t.events.size(), 0);
    if (t.events.empty())
        return critical;
    // Walk back from the event that ends last. Each step takes the event that held the
    // current one back: one ending where it starts (preferring the same row), or, across
    // a gap (a message in flight, a wait), the last one to end before it started.
    const auto& ev = t.events;
    // Ends are computed once: the sort and the searches below then read one array.
    std::vector<double> ends(ev.size());
    for (std::size_t i = 0; i < ev.size(); ++i)
        ends[i] = ev[i].start + ev[i].duration;
    std::vector<std::pair<double, int>> byEndKeys(ev.size());
    for (int i = 0; i < int(ev.size()); ++i)
        byEndKeys[std::size_t(i)] = { ends[std::size_t(i)], i };
    std::sort(byEndKeys.begin(), byEndKeys.end());
    std::vector<int> byEnd(ev.size());
    for (std::size_t i = 0; i < ev.size(); ++i)
        byEnd[i] = byEndKeys[i].second;
    auto end = [&](int i) { return ends[std::size_t(i)]; };
    int cur = byEnd.back();
    const double eps = 1e-9 * std::max(1.0, t.totalTime);
    for (std::size_t guard = 0; guard < ev.size(); ++guard) {
        critical[cur] = 1;
        const double start = ev[cur].start;
        if (start <= eps)
            break;
        // Events ending no later than this one starts: [begin, last).
        const auto last = std::upper_bound(byEnd.begin(), byEnd.end(), start + eps, [&](double time, int i) { return time < end(i); });
        int best = -1;
        double bestEnd = -1;
        for (auto it = last; it != byEnd.begin();) {
            --it;
            if (critical[*it])
                continue; // already on the path (zero-length events at one instant)
            const double e = end(*it);
            if (best >= 0 && e < bestEnd - eps)
                break; // past the latest end
            if (best < 0 || ev[*it].row == ev[cur].row) {
                best = *it;
                bestEnd = std::max(bestEnd, e);
            }
        }
        if (best < 0)
            break;
        cur = best;
    }
    return critical;
}

} // namespace dtsim
