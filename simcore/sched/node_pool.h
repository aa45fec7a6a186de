#pragma once
// The free nodes of a shared cluster, as bits: taking and giving back a node is O(1)
// (elastic jobs resize often, moving hundreds of nodes), and the lowest free nodes of a
// range (a pod) are found 64 at a time, starting past the nodes known to be busy. Jobs
// take the lowest-numbered free nodes, so placements stay compact and reproducible.
#include <cstdint>
#include <vector>

namespace dtsim {

class NodePool {
public:
    void reset(int nodes); // all free
    // Takes up to `count` of the lowest free nodes in [lo, hi), appending them to `into`.
    void takeLowest(int lo, int hi, int count, std::vector<int>& into);
    void give(int node);

private:
    std::vector<std::uint64_t> m_free; // bit n: node n is free
    int m_size = 0;
    int m_lowestFree = 0; // no node below it is free
};

} // namespace dtsim
