#pragma once
// Whole-file read with located errors (missing file, directory, unreadable, too large).
#include <string>

namespace dtsim {

inline constexpr std::size_t kMaxInputBytes = 16u << 20; // scenario/catalogue files are small

std::string readTextFile(const std::string& path, const std::string& what);

} // namespace dtsim
