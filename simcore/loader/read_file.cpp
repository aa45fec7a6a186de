#include "read_file.h"

#include "../input_error.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace dtsim {

std::string fileProblem(const std::string& path, const std::string& what)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec == std::errc::too_many_symbolic_link_levels)
        return "a symbolic link that loops back on itself, not a " + what;
    if (ec == std::errc::permission_denied)
        return "cannot be reached: permission denied on a folder of its path";
    if (ec || !fs::exists(st))
        return what + " not found";
    if (fs::is_directory(st))
        return "is a directory, expected a " + what;
    if (fs::is_character_file(st) || fs::is_block_file(st))
        return "is a device, not a " + what + " (a device such as /dev/zero or /dev/null has no file to read)";
    if (fs::is_fifo(st))
        return "is a pipe (FIFO), not a " + what + ": save what it carries to a file first";
    if (!fs::is_regular_file(st)) // a socket, or something stranger
        return "is not a regular file, expected a " + what;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return "cannot open " + what + " for reading: " + std::strerror(errno);
    return {};
}

std::string readTextFile(const std::string& path, const std::string& what)
{
    if (const std::string problem = fileProblem(path, what); !problem.empty())
        throw InputError(path, 0, "", problem);
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > kMaxInputBytes)
        throw InputError(path, 0, "", what + " is larger than 16 MiB; refusing to read it");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, 0, "", "cannot open " + what + " for reading");
    std::ostringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    // Text has no NUL bytes; a parser would report what follows one as something else.
    if (const auto nul = text.find('\0'); nul != std::string::npos)
        throw InputError(path, int(std::count(text.begin(), text.begin() + std::ptrdiff_t(nul), '\n')) + 1, "",
            "a NUL byte: not a text file (binary data, or text in UTF-16?)");
    return text;
}

} // namespace dtsim
