#pragma once
// Whole-file read with located errors (missing file, directory, device, pipe, link loop,
// unreadable, too large, not text).
#include <string>

namespace dtsim {

inline constexpr std::size_t kMaxInputBytes = 16u << 20; // scenario/catalogue files are small

// Why `path` cannot be read as a `what` ("scenario file"): not there, a link that loops,
// a directory, a device or a pipe (which may never end), not readable. Empty when it is
// a regular file that can be opened. Shared by every reader of user files.
std::string fileProblem(const std::string& path, const std::string& what);

// The file's text. InputError (file, and the line of a NUL byte) for files that cannot
// be read or are not text.
std::string readTextFile(const std::string& path, const std::string& what);

} // namespace dtsim
