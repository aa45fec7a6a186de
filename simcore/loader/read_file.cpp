#include "read_file.h"

#include "../input_error.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace dtsim {

std::string readTextFile(const std::string& path, const std::string& what)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st))
        throw InputError(path, 0, "", what + " not found");
    if (fs::is_directory(st))
        throw InputError(path, 0, "", "is a directory, expected a " + what);
    if (!fs::is_regular_file(st)) // a device or a pipe may never end
        throw InputError(path, 0, "", "is not a regular file, expected a " + what);
    const auto size = fs::file_size(path, ec);
    if (!ec && size > kMaxInputBytes)
        throw InputError(path, 0, "", what + " is larger than 16 MiB; refusing to read it");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, 0, "", "cannot open " + what + " for reading");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace dtsim
