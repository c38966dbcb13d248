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

#include <string>

namespace terragrid {

class DirLock {
public:
    static constexpr const char* kFileName = ".terragrid.lock";

    /// Locks `directory` (which must exist). Throws OutputError when another run holds it:
    /// "output directory 'out' is in use by another terragrid run (pid 4242, lock file
    /// 'out/.terragrid.lock'); wait for it to end or give another --out-dir", or when the lock
    /// file cannot be created (naming it and the system's reason).
    explicit DirLock(const std::string& directory);
    /// Removes the lock file and releases the lock. Never throws.
    ~DirLock();
    DirLock(const DirLock&) = delete;
    DirLock& operator=(const DirLock&) = delete;

    /// Removes the lock file for a process about to end by a signal (the kernel releases the
    /// lock itself when the process ends). Never throws.
    void removeFile() noexcept;

private:
    std::string m_path;
    int m_fd = -1;
};

}  // namespace terragrid
