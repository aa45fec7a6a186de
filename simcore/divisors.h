#pragma once
// The divisors of a count, for every sweep over "degrees that divide": O(sqrt n), so
// a sweep costs what the divisors cost (at most 1,344 for any int), whatever n is.
#include <vector>

namespace dtsim {

inline std::vector<long long> divisorsOf(long long n)
{
    std::vector<long long> low, high;
    for (long long d = 1; d * d <= n; ++d)
        if (n % d == 0) {
            low.push_back(d);
            if (d != n / d)
                high.push_back(n / d);
        }
    low.insert(low.end(), high.rbegin(), high.rend());
    return low;
}

} // namespace dtsim
