#pragma once
// Every file dtsim writes (scenarios, autosaves, exports, traces) goes through here, so
// that a file is either the whole new content or the old one, never a mix or nothing:
// the bytes go to a temporary in the target's folder, every write, flush and close is
// checked, and only then is the temporary renamed over the target. On any failure the
// temporary is removed, the target is untouched, and error() says why in the system's
// words ("No space left on device").
//
// Output goes to regular files only: a FIFO, a device, a directory or a socket at the
// path is refused (writing there would hang, or replace the node with a file). "-" is
// standard output. A symbolic link to a regular file is kept; the file it names is
// replaced. Plain POSIX, no Qt, so the CLI and the window share it.
#include <string>
#include <string_view>

namespace dtsim {

class AtomicFile {
public:
    explicit AtomicFile(std::string path);
    ~AtomicFile(); // an uncommitted temporary is removed
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    // Each returns false once anything failed; error() then holds the reason.
    bool open();
    bool write(std::string_view bytes);
    bool commit();

    const std::string& error() const { return m_error; }
    const std::string& path() const { return m_path; }

private:
    bool fail(const std::string& what, int err);
    void discard();

    std::string m_path;   // as given
    std::string m_target; // the regular file replaced (a symbolic link resolved)
    std::string m_temp;
    int m_fd = -1;
    bool m_stdout = false;
    bool m_failed = false;
    bool m_committed = false;
    std::string m_error;
};

// One call for an output already in memory.
bool writeFileAtomically(const std::string& path, std::string_view bytes, std::string* error);

// The reason `path` cannot be written to (not a regular file, a link to nothing), or
// an empty string; checked before any work, so a trace is not computed for a FIFO.
std::string unwritableTarget(const std::string& path);

} // namespace dtsim
