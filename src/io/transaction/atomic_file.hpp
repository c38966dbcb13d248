#pragma once
// A file that appears under its name only when complete (design.md principle 7).
//
// The data goes into a uniquely named temporary file beside the target (same directory, so the
// final rename never crosses a file system and is atomic on POSIX). Readers of the target see
// either the old file or the whole new one, never a half-written one; a run that fails or is
// abandoned leaves no temporary file and any older target untouched.

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

namespace terragrid {

/// Writes all `size` bytes to `fd` at its position, through short writes and EINTR. Returns
/// false with errno set when the system refuses: for callers that must not throw (libpng's
/// callbacks).
bool writeFully(int fd, const void* data, std::size_t size) noexcept;

/// Removes the temporary file of every AtomicFile not yet committed, for a process about to end
/// by a signal (stop_signals.hpp). From then on no AtomicFile can be created, committed or
/// removed: those calls wait for good, so no new temporary file appears and none is renamed
/// into place after the removal. Returns how many files it removed. Call once.
std::size_t abandonAllTemporaryFiles() noexcept;

/// The lock under which temporary files are created, renamed and removed, and output
/// transactions (output_transaction.hpp) opened, committed and closed.
std::mutex& outputFilesMutex();

/// writeFully, or OutputError("writing '<path>': <strerror>"); `path` is the output file the
/// bytes belong to.
void writeOrThrow(int fd, std::string_view bytes, const std::string& path);

class OutputTransaction;

class AtomicFile {
public:
    /// Creates `<dir>/.<name>.tmp-XXXXXX` beside `targetPath` (mkstemp), open for reading and
    /// writing, with the permissions a plain new file would get (0666 less the umask). When an
    /// output transaction is open on `<dir>`, the file is `new-XXXXXX` in its staging folder
    /// instead, and commit() hands it to the transaction's commit.
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

    /// Appends `bytes` at the file position. Throws OutputError naming the target.
    void write(std::string_view bytes) { writeOrThrow(m_fd, bytes, m_targetPath); }
    /// Writes `size` bytes at `offset` without moving the file position (pwrite), so tiles can
    /// land in a raw raster in any order. Throws OutputError naming the target.
    void writeAt(const void* data, std::size_t size, std::uint64_t offset);

    /// Flushes the data to disk (fsync), closes the file and renames it onto targetPath(),
    /// replacing any older file there; then syncs the directory so the rename itself survives
    /// a crash. Call once, after everything is written. Throws OutputError naming the target;
    /// after a failure the temporary file is still removed by the destructor.
    void commit();

private:
    [[noreturn]] void fail(int error) const;
    /// Closes the file and, unless committed, removes the temporary file. Idempotent.
    void removeTemporary() noexcept;

    std::string m_targetPath;
    std::string m_tempPath;
    OutputTransaction* m_transaction = nullptr;  ///< the one that renames it into place
    int m_fd = -1;
    bool m_committed = false;
};

}  // namespace terragrid
