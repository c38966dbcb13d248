#pragma once
// A file that appears under its name only when complete (design.md principle 7).
//
// The data goes into a uniquely named temporary file beside the target (same directory, so the
// final rename never crosses a file system and is atomic on POSIX). Readers of the target see
// either the old file or the whole new one, never a half-written one; a run that fails or is
// abandoned leaves no temporary file and any older target untouched.

#include <string>

namespace terragrid {

class AtomicFile {
public:
    /// Creates `<dir>/.<name>.tmp-XXXXXX` beside `targetPath` (mkstemp), open for reading and
    /// writing, with the permissions a plain new file would get (0666 less the umask).
    /// Throws OutputError("writing '<targetPath>': <strerror>") if it cannot.
    explicit AtomicFile(std::string targetPath);
    /// Removes the temporary file unless commit() succeeded. Never throws.
    ~AtomicFile();

    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    /// The temporary file's descriptor; valid until commit(). Owned by this object: callers
    /// that hand it to a library which closes it must pass a dup() instead.
    int fd() const noexcept { return m_fd; }
    /// Path of the temporary file (in the target's directory).
    const std::string& tempPath() const noexcept { return m_tempPath; }
    /// The path the file will have after commit().
    const std::string& targetPath() const noexcept { return m_targetPath; }
    bool committed() const noexcept { return m_committed; }

    /// Flushes the data to disk (fsync), closes the file and renames it onto targetPath(),
    /// replacing any older file there; then syncs the directory so the rename itself survives
    /// a crash. Call once, after everything is written. Throws OutputError naming the target;
    /// after a failure the temporary file is still removed by the destructor.
    void commit();

private:
    [[noreturn]] void fail(int error) const;

    std::string m_targetPath;
    std::string m_tempPath;
    int m_fd = -1;
    bool m_committed = false;
};

}  // namespace terragrid
