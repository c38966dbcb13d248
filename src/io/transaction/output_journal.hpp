#pragma once
// The rollback journal of an output commit (output_transaction.hpp), and the staging folder it
// lives in.
//
// The staging folder `<dir>/.terragrid-tmp-<pid>/` holds a run's files until its commit: the
// new files (`new-XXXXXX`), the older files moved aside by the commit (`old-<k>`) and the
// journal. The journal is written, and synced, before the commit touches the first name in
// the output directory, and removed after the last new file is in place: while it exists, the
// directory may hold a mix of older and new files, and rollBack() restores the older set from
// what it lists and what is still in the staging folder. As SQLite's rollback journal, its
// removal is the commit point.
//
// Every function works on descriptors of the output directory and of the staging folder
// (openat, renameat, unlinkat), never on paths through them: a folder swapped for a symbolic
// link after it was opened is never followed (design.md principle 8).

#include <sys/types.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace terragrid {

/// One file of a commit.
struct JournalEntry {
    std::string staged;   ///< the new file's name in the staging folder ("new-a8Zk3q")
    std::string name;     ///< its name in the output directory ("height.tif")
    bool hadOld = false;  ///< an older file of that name is moved aside to backupName()
    std::size_t index = 0;

    std::string backupName() const { return "old-" + std::to_string(index); }
};

inline constexpr const char* kStagingPrefix = ".terragrid-tmp-";
inline constexpr const char* kJournalName = "journal";

/// Whether `name` is one a staging folder gets: kStagingPrefix, then a pid, then, when the
/// pid's name was taken, "-" and a number (".terragrid-tmp-4242", ".terragrid-tmp-4242-1").
bool isStagingFolderName(const std::string& name);

/// Whether the folder open as `fd` is one this process could have made as a staging folder:
/// a directory owned by the effective user, with no access for anyone else (mkdir 0700). A
/// folder of another user, or one others may write into, is never trusted: its journal could
/// name any file of the output directory.
bool isOwnStagingFolder(int fd);

/// Writes the journal of `entries` into the staging folder open as `stagingFd` durably (a
/// temporary name created with O_EXCL | O_NOFOLLOW, fsync, rename, fsync of the folder).
/// `journalPath` names it in messages. Throws OutputError naming the journal.
void writeJournal(int stagingFd, const std::string& journalPath,
                  const std::vector<JournalEntry>& entries);

/// The entries of the journal in the staging folder open as `stagingFd`; nullopt when there
/// is none or it is not one this program wrote whole (not a regular file of the effective
/// user with one link, cut short, damaged): then nothing is touched on its account.
std::optional<std::vector<JournalEntry>> readJournal(int stagingFd);

/// Puts every older file back under its name in the directory open as `directoryFd` and
/// removes every new file that had no older one, as far as they were moved: what is still in
/// the staging folder (`stagingFd`) says how far. Then syncs the directory. Returns false when
/// a rename failed (the journal must stay for the next try).
bool rollBack(int directoryFd, int stagingFd, const std::vector<JournalEntry>& entries);

/// Removes the files terragrid makes in the staging folder open as `stagingFd` (new-*, old-*,
/// the journal and its temporary: the entries themselves, never what a symbolic link among
/// them points to) and, once empty, the folder, named `stagingName` in the directory open as
/// `directoryFd`, if that name is still this folder. Nothing else. Returns how many files it
/// removed. Never throws.
std::size_t removeStagingFolder(int directoryFd, const std::string& stagingName,
                                int stagingFd) noexcept;

/// fsync of the directory open as `fd`, so that renames in it survive a crash. Best effort:
/// some file systems refuse it (EINVAL), which is no reason to fail a run.
void syncDirectory(int fd) noexcept;

}  // namespace terragrid
