#include "units.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

namespace dtsim {

const char* dimensionName(Dimension d)
{
    switch (d) {
    case Dimension::Count: return "a number";
    case Dimension::Bytes: return "a size (e.g. \"80 GiB\")";
    case Dimension::BytesPerSecond: return "a bandwidth (e.g. \"400 Gbps\" or \"3.35 TB/s\")";
    case Dimension::Seconds: return "a time (e.g. \"2 us\" or \"90 days\")";
    case Dimension::Flop: return "a FLOP count (e.g. \"1e26\")";
    case Dimension::FlopPerSecond: return "a FLOP rate (e.g. \"989 TFLOP/s\")";
    case Dimension::Watts: return "a power (e.g. \"700 W\")";
    }
    return "a quantity";
}

namespace {

struct UnitEntry {
    std::string_view name;
    double factor;
};

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Metric prefix at the start of `u`: returns factor and strips it. Case matters for
// m (milli) vs M (mega) only where both are meaningful; callers pass original case.
double siPrefix(std::string_view& u)
{
    if (u.empty())
        return 1.0;
    static constexpr std::array<std::pair<char, double>, 8> prefixes { { { 'k', 1e3 }, { 'K', 1e3 },
        { 'M', 1e6 }, { 'G', 1e9 }, { 'T', 1e12 }, { 'P', 1e15 }, { 'E', 1e18 }, { 'Z', 1e21 } } };
    for (auto [c, f] : prefixes) {
        if (u.front() == c) {
            u.remove_prefix(1);
            return f;
        }
    }
    return 1.0;
}

std::optional<double> bytesUnit(std::string_view u)
{
    if (u == "B" || u == "bytes" || u == "byte")
        return 1.0;
    static constexpr std::array<UnitEntry, 10> table { { { "KiB", 1024.0 }, { "MiB", 1048576.0 },
        { "GiB", 1073741824.0 }, { "TiB", 1099511627776.0 }, { "PiB", 1125899906842624.0 },
        { "kB", 1e3 }, { "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 }, { "TB", 1e12 } } };
    for (auto& e : table)
        if (u == e.name)
            return e.factor;
    if (u == "PB")
        return 1e15;
    return std::nullopt;
}

std::optional<double> rateUnit(std::string_view u)
{
    // Bytes per second: "GB/s", "GiB/s", "B/s", "GBps".
    for (std::string_view suffix : { "/s", "ps" }) {
        if (u.size() > suffix.size() && u.substr(u.size() - suffix.size()) == suffix) {
            std::string_view base = u.substr(0, u.size() - suffix.size());
            if (auto b = bytesUnit(base))
                return *b;
            // Bits per second: "Gb/s", "Gbps", "Gbit/s".
            std::string_view bits = base;
            double f = siPrefix(bits);
            if (bits == "b" || bits == "bit" || bits == "bits")
                return f / 8.0;
        }
    }
    return std::nullopt;
}

std::optional<double> timeUnit(std::string_view u)
{
    static constexpr std::array<UnitEntry, 22> table { {
        { "ns", 1e-9 }, { "us", 1e-6 }, { "\xC2\xB5s", 1e-6 }, { "ms", 1e-3 }, { "s", 1.0 },
        { "sec", 1.0 }, { "seconds", 1.0 }, { "second", 1.0 }, { "min", 60.0 }, { "minutes", 60.0 },
        { "h", 3600.0 }, { "hr", 3600.0 }, { "hour", 3600.0 }, { "hours", 3600.0 },
        { "day", units::day }, { "days", units::day }, { "week", 7 * units::day },
        { "weeks", 7 * units::day }, { "month", units::month }, { "months", units::month },
        { "year", units::year }, { "years", units::year } } };
    for (auto& e : table)
        if (u == e.name)
            return e.factor;
    return std::nullopt;
}

std::optional<double> flopUnit(std::string_view u, bool perSecond)
{
    std::string_view rest = u;
    double f = siPrefix(rest);
    std::string r = lower(rest);
    if (perSecond) {
        if (r == "flop/s" || r == "flops" || r == "flop/sec")
            return f;
        return std::nullopt;
    }
    if (r == "flop" || r == "flops")
        return f;
    return std::nullopt;
}

std::optional<double> wattUnit(std::string_view u)
{
    std::string_view rest = u;
    double f = siPrefix(rest);
    if (rest == "W")
        return f;
    return std::nullopt;
}

std::optional<double> countUnit(std::string_view u)
{
    if (u == "k" || u == "K")
        return 1e3;
    if (u == "M")
        return 1e6;
    if (u == "B" || u == "G")
        return 1e9;
    if (u == "T")
        return 1e12;
    return std::nullopt;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

} // namespace

QuantityParse parseQuantity(std::string_view text, Dimension dim)
{
    std::string_view s = trim(text);
    if (s.empty())
        return { std::nullopt, "is empty; expected " + std::string(dimensionName(dim)) };

    // Number part: from_chars handles sign, decimals and exponents; "1_000" is not allowed.
    double number = 0.0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), number);
    if (ec != std::errc() || ptr == s.data())
        return { std::nullopt,
            "\"" + std::string(s) + "\" is not " + std::string(dimensionName(dim)) };
    if (!std::isfinite(number))
        return { std::nullopt, "\"" + std::string(s) + "\" is not a finite number" };

    std::string_view unit = trim(std::string_view(ptr, static_cast<size_t>(s.data() + s.size() - ptr)));
    if (unit.empty())
        return { number, {} };

    std::optional<double> factor;
    switch (dim) {
    case Dimension::Count: factor = countUnit(unit); break;
    case Dimension::Bytes: factor = bytesUnit(unit); break;
    case Dimension::BytesPerSecond: factor = rateUnit(unit); break;
    case Dimension::Seconds: factor = timeUnit(unit); break;
    case Dimension::Flop: factor = flopUnit(unit, false); break;
    case Dimension::FlopPerSecond: factor = flopUnit(unit, true); break;
    case Dimension::Watts: factor = wattUnit(unit); break;
    }
    if (!factor)
        return { std::nullopt,
            "unknown unit \"" + std::string(unit) + "\"; expected " + std::string(dimensionName(dim)) };
    double value = number * *factor;
    if (!std::isfinite(value))
        return { std::nullopt, "\"" + std::string(s) + "\" overflows" };
    return { value, {} };
}

namespace {
std::string withPrefix(double v, const char* const* names, double step, int count, int precision = 3)
{
    const double original = v;
    int i = 0;
    double a = std::fabs(v);
    // The next unit from where the printed digits would reach 1000: "1 GiB" rather than
    // "1.02e+03 MiB" (binary units span 1024), and 999.7 MB as "1 GB", not "1e+03 MB".
    const double up = 1000 * (1 - 0.5 * std::pow(10.0, -precision));
    while (i + 1 < count && a >= up) {
        a /= step;
        v /= step;
        ++i;
    }
    char buf[64];
    if (a >= up) // past the largest prefix: "1e+20", not "1e+08 T"
        std::snprintf(buf, sizeof buf, "%.*g %s", precision, original, names[0]);
    else
        std::snprintf(buf, sizeof buf, "%.*g %s", precision, v, names[i]);
    return buf;
}
} // namespace

std::string formatBytes(double bytes)
{
    static const char* names[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };
    return withPrefix(bytes, names, 1000.0, 7);
}

std::string formatMemory(double bytes)
{
    static const char* names[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    return withPrefix(bytes, names, 1024.0, 7);
}

std::string formatRate(double bps)
{
    static const char* names[] = { "B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s" };
    return withPrefix(bps, names, 1000.0, 6);
}

std::string formatFlops(double f)
{
    static const char* names[] = { "FLOP/s", "kFLOP/s", "MFLOP/s", "GFLOP/s", "TFLOP/s", "PFLOP/s",
        "EFLOP/s", "ZFLOP/s" };
    return withPrefix(f, names, 1000.0, 8);
}

std::string formatCount(double n)
{
    static const char* names[] = { "", "k", "M", "B", "T" };
    std::string s = withPrefix(n, names, 1000.0, 5);
    if (!s.empty() && s.back() == ' ')
        s.pop_back();
    return s;
}

std::string formatSeconds(double s)
{
    char buf[64];
    double a = std::fabs(s);
    if (a == 0.0)
        return "0 s";
    if (a < 1e-6)
        std::snprintf(buf, sizeof buf, "%.3g ns", s * 1e9);
    else if (a < 1e-3)
        std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
    else if (a < 1.0)
        std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
    else if (a < 120.0)
        std::snprintf(buf, sizeof buf, "%.3g s", s);
    else
        return formatDuration(s);
    return buf;
}

std::string formatDuration(double s)
{
    char buf[64];
    double a = std::fabs(s);
    if (a < 120.0)
        return formatSeconds(s);
    if (a < 2 * units::hour)
        std::snprintf(buf, sizeof buf, "%.3g min", s / 60.0);
    else if (a < 2 * units::day)
        std::snprintf(buf, sizeof buf, "%.3g h", s / units::hour);
    else if (a < 2 * units::year)
        std::snprintf(buf, sizeof buf, "%.3g days", s / units::day);
    else
        std::snprintf(buf, sizeof buf, "%.3g years", s / units::year);
    return buf;
}

PhysicalRange physicalRange(Dimension d)
{
    switch (d) {
    case Dimension::Count: return { 1e-9, 1e20, "" };
    case Dimension::Bytes: return { 1, 1e21, "bytes" };
    case Dimension::BytesPerSecond: return { 1e3, 1e18, "bytes/s" };
    case Dimension::Seconds: return { 1e-12, 1e12, "s" };
    case Dimension::Flop: return { 1, 1e35, "FLOP" };
    case Dimension::FlopPerSecond: return { 1e6, 1e21, "FLOP/s" };
    case Dimension::Watts: return { 1e-3, 1e12, "W" };
    }
    return { 0, INFINITY, "" };
}

DurationsApart formatDurationsApart(const std::vector<double>& seconds)
{
    DurationsApart out;
    if (seconds.empty())
        return out;
    const bool days = seconds.front() >= 2 * units::day;
    const double unit = days ? units::day : units::hour;
    out.unit = days ? "days" : "hours";
    auto text = [&](double v, int d) {
        char b[64];
        std::snprintf(b, sizeof b, "%.*f", d, v / unit);
        return std::string(b);
    };
    auto apart = [&](int d) {
        for (std::size_t i = 0; i + 1 < seconds.size(); ++i)
            if (std::abs(seconds[i + 1] - seconds[i]) > 1e-9 * unit && text(seconds[i], d) == text(seconds[i + 1], d))
                return false;
        return true;
    };
    int decimals = 0;
    while (decimals < 3 && !apart(decimals))
        ++decimals;
    for (double s : seconds)
        out.values.push_back(text(s, decimals));
    return out;
}

} // namespace dtsim
