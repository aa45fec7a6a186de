#pragma once
// Small helpers for reading free-text fields: case-insensitive search and number capture.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace dtsim::text {

inline std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

inline bool has(const std::string& lowered, std::string_view needle) { return lowered.find(needle) != std::string::npos; }

} // namespace dtsim::text
