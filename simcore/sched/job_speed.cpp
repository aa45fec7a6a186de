#include "job_speed.h"

#include "../memory.h"
#include "../plan_check.h"
#include "../step.h"

#include <algorithm>
#include <numeric>

namespace dtsim {

JobSpeed::JobSpeed(const Scenario& s, const Calibration& c)
    : m_base(s)
    , m_calibration(c)
{
    const ParallelPlan& p = s.plan;
    const int replicas = std::max(1, p.dp);
    m_microbatchesPerReplica = std::max(1, s.training.globalBatch / (replicas * std::max(1, s.training.microBatch)));
    const long long modelParallel = (long long)p.tp * p.pp * p.cp;
    m_granularity = std::lcm<long long>(modelParallel, std::max(1, s.cluster.gpusPerNode));
}

double JobSpeed::tokensPerSecond(long long gpus, int pods)
{
    const auto key = std::make_pair(gpus, pods);
    if (const auto it = m_cache.find(key); it != m_cache.end())
        return it->second;
    Scenario v = m_base;
    ParallelPlan& p = v.plan;
    const long long modelParallel = (long long)p.tp * p.pp * p.cp;
    double speed = 0;
    if (gpus > 0 && gpus % modelParallel == 0) {
        p.dp = static_cast<int>(gpus / modelParallel);
        v.cluster.gpus = gpus;
        // Weak scaling: each replica keeps its micro-batches; the global batch follows.
        v.training.globalBatch = p.dp * m_microbatchesPerReplica * v.training.microBatch;
        // A job split over pods sees the first tier's units as its share of each pod.
        if (pods > 1 && v.cluster.tierCount > 0) {
            const long long node = std::max(1, v.cluster.gpusPerNode);
            v.cluster.tiers[0].spanGpus = static_cast<int>(std::max(node, gpus / pods / node * node));
        }
        if (!checkPlan(v) && memoryPerGpu(v, m_calibration).fits) {
            const StepReport r = predictStep(v, m_calibration);
            speed = r.stepTime > 0 ? v.training.tokensPerStep() / r.stepTime : 0.0;
        }
    }
    m_cache.emplace(key, speed);
    return speed;
}

} // namespace dtsim
