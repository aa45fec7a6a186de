#pragma once
// Number formatting for the YAML writers: the shortest text that reads back to the
// same double, so a saved scenario loads to exactly what was saved.
#include <cstdio>
#include <string>

namespace dtsim {

inline std::string exactNumber(double v)
{
    char buf[64];
    for (int precision = 6; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, v);
        if (std::stod(buf) == v)
            break;
    }
    return buf;
}

inline std::string exactWithUnit(double v, const char* unit) { return exactNumber(v) + " " + unit; }

} // namespace dtsim
