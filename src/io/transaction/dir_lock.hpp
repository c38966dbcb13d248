#pragma once
// The exclusive lock a run holds on its output directory, so that two runs into one directory
// never mix their files (design.md principle 7).
//
// The lock is an flock(2) on `<dir>/.terragrid.lock`, a file holding the holder's pid for the
// message of a run that finds the directory busy. flock, unlike a lock file whose mere
// existence is the lock (git's index.lock), is released by the kernel when its holder dies
// however it dies (SIGKILL, the OOM killer, a crash), so a dead run never blocks the next one
// and no one has to remove a stale lock by hand. A second run fails at once rather than wait:
// a script that starts two runs into one directory has a bug that waiting would hide, and a
// run may take hours.
//
// The directory is hostile ground (design.md principle 8). The lock file is created with
// O_CREAT | O_EXCL | O_NOFOLLOW relative to a descriptor of the directory, and only a file the
// run created is ever written. An entry of that name that the run did not make is:
// - a regular file with one link (a lock file left by a run that died, or any file someone
//   put there): locked, never written; unless a live run holds it, its name is removed and
//   the run creates its own;
// - anything else (a symbolic link, dangling or not, a FIFO, a device, a socket, a directory,
//   a file with more than one link): refused with ForeignEntryError, untouched.

#include <optional>
#include <string>

#include "io/file_handle.hpp"

namespace terragrid {

class DirLock {
public:
    static constexpr const char* kFileName = ".terragrid.lock";

    /// Locks the directory open as `directoryFd` (which it duplicates), named `directory` in
    /// messages. Throws OutputError when another run holds it: "output directory 'out' is in
    /// use by another terragrid run (pid 4242, lock file 'out/.terragrid.lock'); wait for it
    /// to end or give another --out-dir", or when the lock file cannot be created (naming it
    /// and the system's reason); ForeignEntryError (lockEntryProblem) when an entry of its
    /// name is not one it may use.
    DirLock(int directoryFd, const std::string& directory);
    /// Removes the lock file (removeFile) and releases the lock. Never throws.
    ~DirLock();
    DirLock(const DirLock&) = delete;
    DirLock& operator=(const DirLock&) = delete;

    /// Removes the lock file, if the name is still this lock's file, while the lock is still
    /// held: a run waiting on the file then sees it is gone. For a process about to end by a
    /// signal too (the kernel releases the lock itself when the process ends). Idempotent;
    /// never throws.
    void removeFile() noexcept;

private:
    /// The file of the name when it may be locked (created by this pass when `created`); empty
    /// when the name changed under this pass and the next must look again. Throws as the
    /// constructor.
    FileHandle openOrCreate(const std::string& directory, bool& created) const;

    std::string m_path;
    FileHandle m_directory;
    FileHandle m_file;
    bool m_removed = false;
};

/// Why the entry named DirLock::kFileName in `directory` keeps a run out (the message of
/// ForeignEntryError: what it is and what to do), or nullopt when there is none or it is a
/// regular file with one link. For the plan, before anything is computed; DirLock applies the
/// same rule when it locks.
std::optional<std::string> lockEntryProblem(const std::string& directory);

}  // namespace terragrid
