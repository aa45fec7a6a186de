#pragma once
// How fast a job of the workload's class trains on an allocation, from the engine: the
// scenario's model and plan shape with the data-parallel degree set by the GPU count,
// and the network seen by a job spread over several pods (its traffic then crosses the
// spine, oversubscribed). Results are cached: a stream of 10,000 jobs asks a few hundred
// distinct questions.
#include "../calibration.h"
#include "../scenario.h"

#include <map>
#include <utility>

namespace dtsim {

class JobSpeed {
public:
    JobSpeed(const Scenario& s, const Calibration& c);
    // Tokens per second on `gpus` GPUs spread over `pods` pods; 0 when the plan does not
    // fit or divide at that size.
    double tokensPerSecond(long long gpus, int pods);
    long long granularity() const { return m_granularity; } // GPUs a job grows by: a node, or TP x PP

private:
    Scenario m_base;
    const Calibration& m_calibration;
    int m_microbatchesPerReplica = 1;
    long long m_granularity = 8;
    std::map<std::pair<long long, int>, double> m_cache;
};

} // namespace dtsim
