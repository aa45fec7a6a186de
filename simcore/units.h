#pragma once
// Physical quantities as they appear in scenario and catalogue files ("80 GiB",
// "400 Gbps", "3.35 TB/s", "2 us", "989 TFLOP/s") and their conversion to SI base
// values: bytes, bytes/s, seconds, FLOP, FLOP/s, watts, plain counts.
#include <optional>
#include <string>
#include <vector>
#include <string_view>

namespace dtsim {

// Which values a field accepts besides its type.
enum class Bound { Positive, NonNegative, Any };

enum class Dimension {
    Count,          // plain number; accepts k/M/B/G/T suffixes ("15.6T" tokens)
    Bytes,          // B, kB, MB, GB, TB (powers of 1000), KiB, MiB, GiB, TiB (powers of 1024)
    BytesPerSecond, // B/s, GB/s, TB/s, and bits: Gbps, Gb/s, Tbps
    Seconds,        // ns, us, ms, s, min, h, day(s), week(s), month(s) (30.44 days), year(s)
    Flop,           // FLOP with k..E prefixes
    FlopPerSecond,  // FLOP/s, TFLOP/s, TFLOPS, PFLOP/s
    Watts,          // W, kW, MW
};

const char* dimensionName(Dimension d);

struct QuantityParse {
    std::optional<double> value; // set on success, in SI base units
    std::string error;           // why parsing failed, for the user
};

// Parses "number [unit]". A bare number is taken in the base unit of `dim`.
QuantityParse parseQuantity(std::string_view text, Dimension dim);

// Human-readable output with sensible prefixes ("1.37 GB", "27.3 ms").
std::string formatBytes(double bytes);
// Device memory in binary units, the ones it is sold in: an "80 GB" H100 holds 80 GiB
// (85.9 decimal GB, which read as a different part).
std::string formatMemory(double bytes);
std::string formatSeconds(double seconds);
std::string formatDuration(double seconds); // long spans: "34.2 days"
// Durations side by side in one unit (days from two days up, else hours) with the fewest
// decimals, up to three, that keep apart those that differ: P50, P90 and P99 printed as
// "105, 105, 105 days" while the trials spanned 104.5 to 105.6 days.
struct DurationsApart {
    std::vector<std::string> values; // numbers only
    std::string unit;                // "days" or "hours"
};
DurationsApart formatDurationsApart(const std::vector<double>& seconds);
std::string formatRate(double bytesPerSecond);
std::string formatFlops(double flopPerSecond);
std::string formatCount(double n);

namespace units {
    inline constexpr double KB = 1e3, MB = 1e6, GB = 1e9, TB = 1e12;
    inline constexpr double KiB = 1024.0, MiB = KiB * 1024, GiB = MiB * 1024, TiB = GiB * 1024;
    inline constexpr double us = 1e-6, ms = 1e-3;
    inline constexpr double minute = 60, hour = 3600, day = 86400;
    inline constexpr double month = 30.436875 * day; // mean Gregorian month
    inline constexpr double year = 365.2425 * day;
    inline constexpr double TFLOPS = 1e12;
}

// The magnitudes dtsim models per dimension (base units); beyond them a figure is a typo,
// not a machine: 1e-300 B/s or a latency of 1e308 s would only turn results into inf/NaN.
struct PhysicalRange {
    double lowest, highest;
    const char* unit;
};
PhysicalRange physicalRange(Dimension d);

} // namespace dtsim
