#pragma once
// Writes may not grow a file past `bytes` while this lives: the kernel fails the write
// with EFBIG, as a full disk fails it with ENOSPC. SIGXFSZ is ignored so that the
// write fails instead of the process dying. For tests of "nothing is lost on a full disk".
#include <csignal>
#include <sys/resource.h>

namespace dtsim::test {

class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        std::signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &m_old);
        rlimit limit = m_old;
        limit.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    ~FileSizeLimit() { setrlimit(RLIMIT_FSIZE, &m_old); }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit m_old {};
};

} // namespace dtsim::test
