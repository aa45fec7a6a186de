#include "atomic_file.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace dtsim {

namespace {

const char* kindOf(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO (named pipe)";
    if (S_ISCHR(m) || S_ISBLK(m))
        return "a device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a regular file";
}

std::string folderOf(const std::string& path)
{
    const auto slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// The regular file `path` stands for (a symbolic link followed), or the reason there is none.
bool resolveTarget(const std::string& path, std::string* target, std::string* why)
{
    struct stat link {};
    if (::lstat(path.c_str(), &link) != 0) {
        if (errno != ENOENT) {
            *why = std::strerror(errno);
            return false;
        }
        // A new file: its folder must be there to hold it.
        struct stat folder {};
        if (::stat(folderOf(path).c_str(), &folder) != 0 || !S_ISDIR(folder.st_mode)) {
            *why = "cannot be created: the folder " + folderOf(path) + " does not exist";
            return false;
        }
        *target = path;
        return true;
    }
    if (S_ISLNK(link.st_mode)) {
        char resolved[PATH_MAX];
        if (!::realpath(path.c_str(), resolved)) {
            *why = "is a symbolic link to a file that does not exist";
            return false;
        }
        struct stat st {};
        if (::stat(resolved, &st) != 0 || !S_ISREG(st.st_mode)) {
            *why = std::string("is a symbolic link to ") + kindOf(st.st_mode) + ", not a regular file";
            return false;
        }
        *target = resolved;
        if (::access(resolved, W_OK) != 0) {
            *why = std::string("links to a read-only file: ") + std::strerror(errno);
            return false;
        }
        return true;
    }
    if (!S_ISREG(link.st_mode)) {
        *why = std::string("is ") + kindOf(link.st_mode) + "; dtsim writes regular files only (or - for standard output)";
        return false;
    }
    *target = path;
    // A file its owner made read-only is not replaced behind their back (root may).
    if (::access(path.c_str(), W_OK) != 0) {
        *why = std::string("is read-only: ") + std::strerror(errno);
        return false;
    }
    return true;
}

} // namespace

AtomicFile::AtomicFile(std::string path) : m_path(std::move(path)) {}

AtomicFile::~AtomicFile()
{
    if (!m_committed)
        discard();
}

bool AtomicFile::fail(const std::string& what, int err)
{
    m_failed = true;
    m_error = what + (err ? std::string(": ") + std::strerror(err) : std::string());
    discard();
    return false;
}

void AtomicFile::discard()
{
    if (m_fd >= 0 && !m_stdout)
        ::close(m_fd);
    m_fd = -1;
    if (!m_temp.empty())
        ::unlink(m_temp.c_str());
    m_temp.clear();
}

bool AtomicFile::open()
{
    if (m_path == "-") {
        m_stdout = true;
        m_fd = STDOUT_FILENO;
        return true;
    }
    std::string why;
    if (m_path.empty() || !resolveTarget(m_path, &m_target, &why))
        return fail(m_path.empty() ? "no file name given" : m_path + " " + why, 0);
    // The temporary lives next to the target: a rename within one file system is atomic.
    const std::string folder = folderOf(m_target);
    std::string base = m_target.substr(m_target.rfind('/') == std::string::npos ? 0 : m_target.rfind('/') + 1);
    std::random_device seed;
    std::mt19937_64 rng(seed());
    for (int attempt = 0; attempt < 100 && m_fd < 0; ++attempt) {
        m_temp = folder + "/." + base + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(rng() % 1000000000);
        m_fd = ::open(m_temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (m_fd < 0 && errno != EEXIST) {
            const int err = errno;
            m_temp.clear();
            return fail("cannot create a file in " + folder, err);
        }
    }
    if (m_fd < 0) {
        m_temp.clear();
        return fail("cannot create a temporary file in " + folder, EEXIST);
    }
    // A replaced file keeps its permissions.
    struct stat old {};
    if (::stat(m_target.c_str(), &old) == 0 && ::fchmod(m_fd, old.st_mode & 07777) != 0)
        return fail("cannot set the permissions of " + m_path, errno);
    return true;
}

bool AtomicFile::write(std::string_view bytes)
{
    if (m_failed || m_fd < 0)
        return m_failed ? false : fail("write to " + m_path + " before open()", 0);
    while (!bytes.empty()) {
        const ssize_t n = ::write(m_fd, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return fail("cannot write " + m_path, errno);
        }
        bytes.remove_prefix(std::size_t(n));
    }
    return true;
}

bool AtomicFile::commit()
{
    if (m_failed || m_fd < 0)
        return m_failed ? false : fail("commit of " + m_path + " before open()", 0);
    if (m_stdout) {
        m_committed = true;
        return true;
    }
    if (::fsync(m_fd) != 0)
        return fail("cannot write " + m_path, errno);
    const int fd = m_fd;
    m_fd = -1;
    if (::close(fd) != 0)
        return fail("cannot write " + m_path, errno);
    if (::rename(m_temp.c_str(), m_target.c_str()) != 0)
        return fail("cannot replace " + m_path, errno);
    m_temp.clear();
    m_committed = true;
    // The rename itself reaches the disk with its folder; best effort (not every file
    // system can sync a directory).
    const int dir = ::open(folderOf(m_target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return true;
}

bool writeFileAtomically(const std::string& path, std::string_view bytes, std::string* error)
{
    AtomicFile f(path);
    if (f.open() && f.write(bytes) && f.commit())
        return true;
    if (error)
        *error = f.error();
    return false;
}

std::string unwritableTarget(const std::string& path)
{
    if (path == "-")
        return {};
    std::string target, why;
    if (path.empty())
        return "no file name given";
    return resolveTarget(path, &target, &why) ? std::string() : path + " " + why;
}

} // namespace dtsim
