#pragma once
// The waiting jobs of a shared cluster, in arrival order, searchable by what they need.
// A segment tree over arrival positions keeps, for every range, the smallest GPU
// request, the smallest size a job may start at (elastic jobs shrink) and the shortest
// estimated runtime, so "the first waiting job after this one that could start with
// G GPUs" costs O(log n) instead of a walk over the whole queue. That keeps a pass of a
// scheduling policy proportional to what it starts, whatever the queue's length.
#include <algorithm>
#include <limits>
#include <vector>

namespace dtsim {

struct WaitNeed {
    long long gpus = std::numeric_limits<long long>::max();     // requested
    long long minStart = std::numeric_limits<long long>::max(); // the fewest it may start on
    double runtime = std::numeric_limits<double>::infinity();   // estimated, at its request
};

class WaitQueue {
public:
    void reset(int capacity);
    void add(int pos, const WaitNeed& need);
    void remove(int pos);
    bool contains(int pos) const { return pos >= 0 && pos < m_size && m_present[pos]; }
    int size() const { return m_count; }
    bool empty() const { return m_count == 0; }
    int first() const { return firstAfter(-1, [](const WaitNeed&) { return true; }, [](const WaitNeed&) { return true; }); }

    // The first waiting position after `after` whose need passes `leaf`. `node` is a
    // necessary condition on a range's minima: ranges that fail it are skipped whole.
    template <typename NodeTest, typename LeafTest>
    int firstAfter(int after, NodeTest node, LeafTest leaf) const
    {
        return m_size == 0 ? -1 : find(1, 0, m_size, after, node, leaf);
    }
    // The waiting positions in order (for observers; O(waiting)).
    std::vector<int> positions() const;

private:
    template <typename NodeTest, typename LeafTest>
    int find(int at, int lo, int hi, int after, NodeTest& node, LeafTest& leaf) const
    {
        if (hi <= after + 1 || m_counts[at] == 0 || !node(m_tree[at]))
            return -1; // all before `after`, empty, or no job in it could pass
        if (hi - lo == 1)
            return m_present[lo] && leaf(m_tree[at]) ? lo : -1;
        const int mid = (lo + hi) / 2;
        const int left = find(2 * at, lo, mid, after, node, leaf);
        return left >= 0 ? left : find(2 * at + 1, mid, hi, after, node, leaf);
    }
    void update(int pos, const WaitNeed& need, int present);

    int m_size = 0, m_count = 0;
    std::vector<WaitNeed> m_tree; // 1-based heap layout; leaves hold the jobs' needs
    std::vector<int> m_counts;    // waiting jobs under each node
    std::vector<char> m_present;
};

} // namespace dtsim
