#pragma once
// Reads a file a block at a time, gunzipping it when it is gzip (zlib's gzread passes
// plain files through): profiler traces are usually written as .json.gz.
#include <cstddef>
#include <string>

namespace dtsim {

class CompressedFile {
public:
    explicit CompressedFile(const std::string& path); // InputError if it cannot be opened
    ~CompressedFile();
    CompressedFile(const CompressedFile&) = delete;
    CompressedFile& operator=(const CompressedFile&) = delete;

    // Up to `size` bytes of the (uncompressed) content; 0 at the end. InputError on a
    // corrupt or truncated gzip stream.
    std::size_t read(char* into, std::size_t size);
    std::size_t compressedBytesRead() const; // of the file on disk, for progress
    std::size_t fileSize() const { return m_fileSize; }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    void* m_gz = nullptr; // gzFile
    std::size_t m_fileSize = 0;
};

} // namespace dtsim
