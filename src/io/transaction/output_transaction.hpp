#pragma once
// The outputs of one run as one transaction on its output directory (design.md principle 7):
// every file of the run in place, or every older file as it was, whatever happens to the run.
//
// - A lock (dir_lock.hpp) for the whole run: a second run into the directory fails at once.
// - One staging folder, `<dir>/.terragrid-tmp-<pid>/`, for every file the run writes there
//   (AtomicFile puts its temporary file in it): same file system, so renames are atomic, and
//   one place to clean. It is created afresh (mkdirat): when the name is taken by anything,
//   the run takes `.terragrid-tmp-<pid>-1` (-2, ...) instead, and never uses what it found.
// - A commit with a rollback journal (output_journal.hpp), as SQLite commits a database:
//   the journal lists the files; then every older file is moved aside into the staging
//   folder, every new file renamed into place, and the journal removed (the commit point).
//   A rename that fails rolls everything back; a process killed meanwhile (SIGKILL, a crash,
//   the OOM killer) leaves the journal, from which the next run restores the older set.
// - The next run, once it holds the lock (so no live run owns them), rolls back what a
//   killed commit left and removes the staging folders of dead runs: only folders this user
//   could have made (isOwnStagingFolder: never a symbolic link, never another user's), and in
//   them only the names this program makes, never anything else.
//
// The output directory is hostile ground (design.md principle 8): it is opened once, and every
// name in it is reached relative to that descriptor (openat, renameat, unlinkat), as are the
// names in the staging folder, which is never reached through a path.
//
// A stopping signal (stop_signals.hpp) removes the staging folder and the lock file. A commit
// it meets checks for it before each step and rolls back; once the journal is removed (the
// commit point) the commit ends, its files stay, and then the signal ends the process (a run
// never returns past a signal it met). Either way it never leaves a mixed set.
//
// For tests only, TERRAGRID_FAULT_INJECT makes one step of a commit fail, kill the process or
// send it a real SIGTERM: "commit-fail:N" makes step N fail with EIO, "commit-kill:N" sends
// SIGKILL to the process just before step N, "commit-signal:N" sends SIGTERM just before step
// N and waits until the signal watcher has seen it. The steps are, in order: moving each older
// file aside, renaming each new file in, removing the journal; N one past the last is the
// moment just after the commit point.

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/file_handle.hpp"
#include "io/transaction/dir_lock.hpp"
#include "io/transaction/output_journal.hpp"

namespace terragrid {

/// A file a transaction will rename into place: its name in the output directory and the
/// name of the staged file holding its bytes, in the staging folder.
struct StagedFile {
    std::string name;
    std::string stagedName;
};

class OutputTransaction {
public:
    /// Locks `directory` (which must exist), recovers what dead runs left in it, and creates
    /// this run's staging folder. Throws OutputError (a busy directory names the holder),
    /// ForeignEntryError when an entry named like the lock is not one it may use.
    explicit OutputTransaction(const std::string& directory);
    /// Without a successful commit(): removes the staging folder with every new file,
    /// leaving the older files as they are. Then removes the lock file and releases the lock.
    /// Never throws.
    ~OutputTransaction();
    OutputTransaction(const OutputTransaction&) = delete;
    OutputTransaction& operator=(const OutputTransaction&) = delete;

    /// Puts every staged file in place, as one: on a failure, every older file is restored
    /// and OutputError names the file and the cause. Call once, after every file is staged.
    /// When a stopping signal arrives before the commit point, restores the older files and
    /// waits for the signal to end the process.
    void commit();

    // For AtomicFile, with outputFilesMutex() held:
    /// The transaction of the directory `targetPath` is in, if one is open; else null.
    static OutputTransaction* forTarget(const std::string& targetPath);
    /// The staging folder: a descriptor to create its files with (openat), and its path for
    /// messages.
    int stagingFd() const noexcept { return m_staging.get(); }
    const std::string& stagingPath() const noexcept { return m_stagingPath; }
    /// Hands the finished file `stagedName` (in the staging folder, synced and closed) to the
    /// commit, which renames it onto `targetPath`.
    void stage(const std::string& stagedName, const std::string& targetPath);
    /// Every file staged so far, in staging order: the manifest (terragrid/io/manifest.hpp)
    /// hashes these exact bytes (in stagingFd()) before the commit renames them.
    std::vector<StagedFile> stagedFiles() const;
    /// The bytes of every file staged so far, for the progress of the writing stage.
    std::uint64_t stagedBytes() const noexcept { return m_stagedBytes; }

    /// What abandonAll did.
    struct Abandoned {
        std::size_t removedFiles = 0;
        bool committed = false;  ///< a transaction of this process passed its commit point
    };
    /// For a process about to end by a signal: removes the staging folder of every open
    /// transaction (unless a rollback failed: its journal stays for the next run) and its
    /// lock file.
    static Abandoned abandonAll() noexcept;

private:
    /// Creates this run's staging folder, under a name nothing has.
    void createStagingFolder();
    /// Moves the older files aside and the new ones in, as the journal says.
    void applySteps();
    /// Whether an older entry is in the way of `entry`; throws when it is a directory.
    bool hasOlderFile(const JournalEntry& entry) const;
    /// Takes this transaction out of the open ones, removes its staging folder (unless its
    /// journal must stay) and its lock file: with outputFilesMutex() held, so a stopping
    /// signal finds either the transaction or neither of them.
    void closeLocked() noexcept;

    std::string m_directory;
    FileHandle m_directoryFd;
    dev_t m_device = 0;
    ino_t m_inode = 0;
    std::optional<DirLock> m_lock;
    std::string m_stagingName;
    std::string m_stagingPath;
    FileHandle m_staging;
    std::vector<JournalEntry> m_entries;
    std::uint64_t m_stagedBytes = 0;
    bool m_keepJournal = false;  ///< a rollback failed: the next run must finish it
};

}  // namespace terragrid
