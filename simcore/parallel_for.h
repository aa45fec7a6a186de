#pragma once
// simcore's one worker pool (plan search, Monte Carlo, sweeps): items handed out one at
// a time (so uneven items balance), the calling thread working too, and no new item once
// `cancel` is set.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace dtsim {

// Workers for `items` items: `requested` (0: one per core), at most one per item.
inline int workerCount(std::size_t items, int requested)
{
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    const int wanted = requested > 0 ? requested : cores;
    return int(std::max<std::size_t>(1, std::min<std::size_t>(std::size_t(wanted), items)));
}

// body(item, worker) for every item in [0, items), on `workers` threads.
template <class Body>
void parallelFor(std::size_t items, int workers, const std::atomic<bool>* cancel, Body&& body)
{
    std::atomic<std::size_t> next { 0 };
    auto run = [&](int worker) {
        for (std::size_t i = next++; i < items; i = next++) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                break;
            body(i, worker);
        }
    };
    std::vector<std::thread> pool;
    for (int w = 1; w < workers; ++w)
        pool.emplace_back(run, w);
    run(0);
    for (std::thread& t : pool)
        t.join();
}

} // namespace dtsim
