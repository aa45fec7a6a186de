#pragma once
// Shipped network topologies (resources/topologies/*.yaml): a cluster layout without a
// GPU count, which a scenario names with `cluster.topology` and may override field by
// field.
#include "../cluster.h"

#include <string>
#include <vector>

namespace dtsim {

struct Topology {
    std::string id;
    std::string name;
    ClusterSpec cluster; // gpus left 0; scenario fields override
    bool hasScaleUpBandwidth = false, hasScaleOutBandwidth = false; // else the GPU's own
    bool hasScaleUpLatency = false, hasScaleOutLatency = false;
    bool hasScaleUpDomain = false;
};

std::vector<Topology> loadTopologyCatalog(const std::string& directory);
const Topology* findTopology(const std::vector<Topology>& catalog, const std::string& id);

} // namespace dtsim
