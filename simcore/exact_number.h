#pragma once
// Number formatting for the YAML writers: the shortest text that reads back to the
// same double, so a saved scenario loads to exactly what was saved.
#include <cstdio>
#include <string>

namespace dtsim {

inline std::string exactNumber(double v)
{
    // The fewest significant digits that read back; numbers a person writes without an
    // exponent (10368000, 0.00025) are written so, not as 1.0368e+07.
    char buf[64];
    int precision = 1;
    for (; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, v);
        if (std::stod(buf) == v)
            break;
    }
    const double size = v < 0 ? -v : v;
    if (size >= 1e-4 && size < 1e15) {
        for (int decimals = 0; decimals <= 20; ++decimals) {
            std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
            if (std::stod(buf) == v)
                return buf;
        }
    }
    return buf;
}

inline std::string exactWithUnit(double v, const char* unit) { return exactNumber(v) + " " + unit; }

} // namespace dtsim
