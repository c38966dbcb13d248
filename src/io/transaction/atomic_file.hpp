#pragma once
// A file that appears under its name only when complete (design.md principle 7).
//
// The data goes into a uniquely named temporary file beside the target (same directory, so the
// final rename never crosses a file system and is atomic on POSIX). Readers of the target see
// either the old file or the whole new one, never a half-written one; a run that fails or is
// abandoned leaves no temporary file and any older target untouched.
//
// The temporary file is created with O_EXCL | O_NOFOLLOW relative to a descriptor of its
// directory, and removed and renamed relative to it (design.md principle 8): no entry of that
// name that someone else put there is ever opened, and a directory swapped for a symbolic link
// after it was opened is never followed.

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

namespace terragrid {

/// The directory `path` is in: "." for a bare file name.
std::string directoryOf(const std::string& path);

/// Writes all `size` bytes to `fd` at its position, through short writes and EINTR. Returns
/// false with errno set when the system refuses: for callers that must not throw (libpng's
/// callbacks).
bool writeFully(int fd, const void* data, std::size_t size) noexcept;

/// What abandonAllTemporaryFiles did, for the message of a process stopped by a signal.
struct AbandonedOutputs {
    std::size_t removedFiles = 0;  ///< temporary and staged files removed
    /// An output transaction of this process had passed its commit point: its files are in
    /// place, and stay.
    bool committed = false;
};

/// Removes the temporary file of every AtomicFile not yet committed, for a process about to end
/// by a signal (stop_signals.hpp). From then on no AtomicFile can be created, committed or
/// removed: those calls wait for good, so no new temporary file appears and none is renamed
/// into place after the removal; a commit in progress rolls back unless it has passed its
/// commit point (output_transaction.hpp). Call once.
AbandonedOutputs abandonAllTemporaryFiles() noexcept;

/// Whether abandonAllTemporaryFiles has been called: the process is about to end by a signal.
/// Thread-safe.
bool stopRequested() noexcept;

/// The lock under which temporary files are created, renamed and removed, and output
/// transactions (output_transaction.hpp) opened, committed and closed.
std::mutex& outputFilesMutex();

/// writeFully, or OutputError("writing '<path>': <strerror>"); `path` is the output file the
/// bytes belong to.
void writeOrThrow(int fd, std::string_view bytes, const std::string& path);

/// Creates a new file `<prefix><6 random letters and digits>` in the directory open as `dirFd`
/// with O_CREAT | O_EXCL | O_NOFOLLOW and mode 0600, trying other names while one is taken.
/// Returns its descriptor (read and write) and sets `name`; -1 with errno set when it cannot.
int createUniqueFile(int dirFd, const std::string& prefix, std::string& name) noexcept;

class OutputTransaction;

class AtomicFile {
public:
    /// Creates `<dir>/.<name>.tmp-XXXXXX` beside `targetPath`, open for reading and writing,
    /// with the permissions a plain new file would get (0666 less the umask). When an output
    /// transaction is open on `<dir>`, the file is `new-XXXXXX` in its staging folder instead,
    /// and commit() hands it to the transaction's commit.
    /// Throws OutputError("writing '<targetPath>': <strerror>") if it cannot.
    explicit AtomicFile(std::string targetPath);
    /// Removes the temporary file unless commit() succeeded. Never throws.
    ~AtomicFile();

    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    /// The temporary file's descriptor; valid until commit(). Owned by this object: callers
    /// that hand it to a library which closes it must pass a dup() instead.
    int fd() const noexcept { return m_fd; }
    /// Path of the temporary file (in the target's directory, or the staging folder), for
    /// messages: the file itself is reached only through a descriptor of its directory.
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
    /// replacing any older entry there (a symbolic link is replaced, never written through);
    /// then syncs the directory so the rename itself survives a crash. Call once, after
    /// everything is written. Throws OutputError naming the target; after a failure the
    /// temporary file is still removed by the destructor.
    void commit();

private:
    friend AbandonedOutputs abandonAllTemporaryFiles() noexcept;

    [[noreturn]] void fail(int error) const;
    /// Closes the file and, unless committed, removes the temporary file. Idempotent.
    void removeTemporary() noexcept;

    std::string m_targetPath;
    std::string m_tempPath;
    std::string m_tempName;  ///< its name in the directory of m_dirFd
    int m_dirFd = -1;        ///< the directory the temporary file is in (owned)
    OutputTransaction* m_transaction = nullptr;  ///< the one that renames it into place
    int m_fd = -1;
    bool m_committed = false;
};

}  // namespace terragrid
