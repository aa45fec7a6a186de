#include "node_pool.h"

#include <algorithm>

namespace dtsim {

void NodePool::reset(int nodes)
{
    m_size = std::max(0, nodes);
    m_free.assign((m_size + 63) / 64, ~std::uint64_t(0));
    if (m_size % 64 != 0)
        m_free.back() = (std::uint64_t(1) << (m_size % 64)) - 1;
    m_lowestFree = 0;
}

void NodePool::takeLowest(int lo, int hi, int count, std::vector<int>& into)
{
    hi = std::min(hi, m_size);
    int node = std::max(lo, m_lowestFree);
    while (count > 0 && node < hi) {
        const int word = node / 64;
        std::uint64_t bits = m_free[word] & (~std::uint64_t(0) << (node % 64));
        if (bits == 0) {
            node = (word + 1) * 64; // 64 busy nodes skipped at once
            continue;
        }
        node = word * 64 + __builtin_ctzll(bits);
        if (node >= hi)
            break;
        m_free[word] &= ~(std::uint64_t(1) << (node % 64));
        into.push_back(node);
        --count;
        ++node;
    }
    // Everything below the first node taken from the start was busy already.
    if (lo <= m_lowestFree)
        while (m_lowestFree < m_size && !(m_free[m_lowestFree / 64] >> (m_lowestFree % 64) & 1)) {
            if (m_free[m_lowestFree / 64] == 0)
                m_lowestFree = (m_lowestFree / 64 + 1) * 64;
            else
                ++m_lowestFree;
        }
}

void NodePool::give(int node)
{
    m_free[node / 64] |= std::uint64_t(1) << (node % 64);
    m_lowestFree = std::min(m_lowestFree, node);
}

} // namespace dtsim
