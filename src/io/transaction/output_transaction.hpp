#pragma once
// The outputs of one run as one transaction on its output directory (design.md principle 7):
// every file of the run in place, or every older file as it was, whatever happens to the run.
//
// - A lock (dir_lock.hpp) for the whole run: a second run into the directory fails at once.
// - One staging folder, `<dir>/.terragrid-tmp-<pid>/`, for every file the run writes there
//   (AtomicFile puts its temporary file in it): same file system, so renames are atomic, and
//   one place to clean.
// - A commit with a rollback journal (output_journal.hpp), as SQLite commits a database:
//   the journal lists the files; then every older file is moved aside into the staging
//   folder, every new file renamed into place, and the journal removed (the commit point).
//   A rename that fails rolls everything back; a process killed meanwhile (SIGKILL, a crash,
//   the OOM killer) leaves the journal, from which the next run restores the older set.
// - The next run, once it holds the lock (so no live run owns them), rolls back what a
//   killed commit left and removes the staging folders of dead runs: only the names this
//   program makes, never anything else.
//
// A stopping signal (stop_signals.hpp) removes the staging folder and the lock file; it waits
// for a commit in progress to end, so it never cuts one in two.
//
// For tests only, TERRAGRID_FAULT_INJECT makes one step of a commit fail or kill the process:
// "commit-fail:N" makes step N fail with EIO, "commit-kill:N" sends SIGKILL to the process
// just before step N. The steps are, in order: moving each older file aside, renaming each new
// file in, removing the journal.

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/transaction/dir_lock.hpp"
#include "io/transaction/output_journal.hpp"

namespace terragrid {

/// A file a transaction will rename into place: its name in the output directory and the
/// staged file holding its bytes.
struct StagedFile {
    std::string name;
    std::string path;
};

class OutputTransaction {
public:
    /// Locks `directory` (which must exist), recovers what dead runs left in it, and creates
    /// this run's staging folder. Throws OutputError (a busy directory names the holder).
    explicit OutputTransaction(const std::string& directory);
    /// Without a successful commit(): removes the staging folder with every new file,
    /// leaving the older files as they are. Then releases the lock. Never throws.
    ~OutputTransaction();
    OutputTransaction(const OutputTransaction&) = delete;
    OutputTransaction& operator=(const OutputTransaction&) = delete;

    /// Puts every staged file in place, as one: on a failure, every older file is restored
    /// and OutputError names the file and the cause. Call once, after every file is staged.
    void commit();

    // For AtomicFile, with outputFilesMutex() held:
    /// The transaction of the directory `targetPath` is in, if one is open; else null.
    static OutputTransaction* forTarget(const std::string& targetPath);
    /// The mkstemp pattern of a new file in the staging folder.
    std::string temporaryPattern() const;
    /// Hands the finished file `temporaryPath` (synced and closed) to the commit, which
    /// renames it onto `targetPath`.
    void stage(const std::string& temporaryPath, const std::string& targetPath);
    /// Every file staged so far, in staging order: the manifest (io/manifest/manifest.hpp)
    /// hashes these exact bytes before the commit renames them.
    std::vector<StagedFile> stagedFiles() const;
    /// The bytes of every file staged so far, for the progress of the writing stage.
    std::uint64_t stagedBytes() const noexcept { return m_stagedBytes; }
    /// For a process about to end by a signal: removes the staging folder of every open
    /// transaction (unless a rollback failed: its journal stays for the next run) and its
    /// lock file. Returns how many files it removed.
    static std::size_t abandonAll() noexcept;

private:
    /// Moves the older files aside and the new ones in, as the journal says.
    void applySteps();
    /// Whether an older file is in the way of `entry`; throws when it is a directory.
    bool hasOlderFile(const JournalEntry& entry) const;

    std::string m_directory;
    DirLock m_lock;
    dev_t m_device = 0;
    ino_t m_inode = 0;
    std::string m_staging;
    std::vector<JournalEntry> m_entries;
    std::uint64_t m_stagedBytes = 0;
    bool m_committed = false;
    bool m_keepJournal = false;  ///< a rollback failed: the next run must finish it
};

}  // namespace terragrid
