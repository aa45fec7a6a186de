#pragma once
// Per-step jitter: each rank's compute time varies from step to step, and a synchronous
// step waits for the slowest rank. With n ranks whose times are independent and normal
// with coefficient of variation cv, the step's compute is stretched by cv x E[max of n
// standard normals], which grows like sqrt(2 ln n): the straggler share grows with the
// rank count (docs/convergence.md, "Jitter").
namespace dtsim {

// E[max of n independent standard normals]; 0 for one rank. Blom's approximation,
// Phi^-1((n - 0.375) / (n + 0.25)), within 5% of the exact value at n = 2, 0.8% at n = 8 and 0.5% from about n = 16.
double expectedMaxOfNormals(long long n);

// The share of the compute a step adds waiting for its slowest rank.
inline double stragglerShare(double cv, long long ranks) { return cv > 0 ? cv * expectedMaxOfNormals(ranks) : 0.0; }

// Phi^-1(p), the standard normal quantile, for 0 < p < 1 (Acklam's rational
// approximation, relative error below 1.2e-9).
double normalQuantile(double p);

} // namespace dtsim
