#include "wait_queue.h"

namespace dtsim {

void WaitQueue::reset(int capacity)
{
    m_size = std::max(0, capacity);
    m_count = 0;
    m_tree.assign(4 * std::max(1, m_size), WaitNeed {});
    m_counts.assign(4 * std::max(1, m_size), 0);
    m_present.assign(m_size, 0);
}

void WaitQueue::update(int pos, const WaitNeed& need, int present)
{
    // Down to the leaf, then the minima back up.
    int at = 1, lo = 0, hi = m_size;
    int path[64];
    int depth = 0;
    while (hi - lo > 1) {
        path[depth++] = at;
        const int mid = (lo + hi) / 2;
        if (pos < mid)
            at = 2 * at, hi = mid;
        else
            at = 2 * at + 1, lo = mid;
    }
    m_tree[at] = need;
    m_counts[at] = present;
    while (depth > 0) {
        const int up = path[--depth];
        const WaitNeed& a = m_tree[2 * up];
        const WaitNeed& b = m_tree[2 * up + 1];
        m_tree[up] = { std::min(a.gpus, b.gpus), std::min(a.minStart, b.minStart), std::min(a.runtime, b.runtime) };
        m_counts[up] = m_counts[2 * up] + m_counts[2 * up + 1];
    }
}

void WaitQueue::add(int pos, const WaitNeed& need)
{
    if (pos < 0 || pos >= m_size || m_present[pos])
        return;
    m_present[pos] = 1;
    ++m_count;
    update(pos, need, 1);
}

void WaitQueue::remove(int pos)
{
    if (!contains(pos))
        return;
    m_present[pos] = 0;
    --m_count;
    update(pos, WaitNeed {}, 0);
}

std::vector<int> WaitQueue::positions() const
{
    std::vector<int> out;
    out.reserve(m_count);
    for (int p = 0; p < m_size; ++p)
        if (m_present[p])
            out.push_back(p);
    return out;
}

} // namespace dtsim
