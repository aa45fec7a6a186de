#pragma once
// The engine's one random-number generator: splitmix64 (Steele, Lea, Flood 2014), small,
// fast and the same on every platform, so a seed reproduces a run anywhere.
#include <cmath>

namespace dtsim {

struct SplitMix64 {
    unsigned long long state = 1;

    unsigned long long next()
    {
        unsigned long long z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Uniform on [0, 1), 53 random bits.
    double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
    // Exponentially distributed with the given rate (an event's waiting time).
    double exponential(double rate) { return -std::log1p(-uniform()) / rate; }
};

} // namespace dtsim
