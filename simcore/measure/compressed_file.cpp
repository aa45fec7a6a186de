#include "compressed_file.h"

#include "../input_error.h"
#include "../loader/read_file.h"

#include <filesystem>
#include <zlib.h>

namespace dtsim {

CompressedFile::CompressedFile(const std::string& path) : m_path(path)
{
    if (const std::string problem = fileProblem(path, "profiler trace"); !problem.empty())
        throw InputError(path, 0, "", problem);
    std::error_code ec;
    m_fileSize = std::size_t(std::filesystem::file_size(path, ec));
    if (ec)
        throw InputError(path, 0, "", "cannot read its size: " + ec.message());
    if (m_fileSize == 0)
        throw InputError(path, 0, "", "is empty, expected a profiler trace");
    m_gz = gzopen(path.c_str(), "rb");
    if (!m_gz)
        throw InputError(path, 0, "", "cannot be opened");
    gzbuffer(static_cast<gzFile>(m_gz), 1 << 20);
}

CompressedFile::~CompressedFile()
{
    if (m_gz)
        gzclose(static_cast<gzFile>(m_gz));
}

std::size_t CompressedFile::read(char* into, std::size_t size)
{
    const int n = gzread(static_cast<gzFile>(m_gz), into, unsigned(size));
    int code = 0;
    if (n == 0) {
        gzerror(static_cast<gzFile>(m_gz), &code);
        if (code == Z_BUF_ERROR) // the stream ended inside a block
            throw InputError(m_path, 0, "", "the gzip stream is truncated");
    }
    if (n < 0) {
        const char* message = gzerror(static_cast<gzFile>(m_gz), &code);
        throw InputError(m_path, 0, "", std::string("cannot be decompressed: ") + (message ? message : "zlib error"));
    }
    return std::size_t(n);
}

std::size_t CompressedFile::compressedBytesRead() const
{
    const long offset = gzoffset(static_cast<gzFile>(m_gz));
    return offset < 0 ? 0 : std::size_t(offset);
}

} // namespace dtsim
