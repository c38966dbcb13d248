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

/// Writes the journal of `entries` into `staging` durably (a temporary name, fsync, rename,
/// fsync of the folder). Throws OutputError naming the journal.
void writeJournal(const std::string& staging, const std::vector<JournalEntry>& entries);

/// The entries of the journal in `staging`; nullopt when there is none or it is not one this
/// program wrote whole (then nothing is touched on its account).
std::optional<std::vector<JournalEntry>> readJournal(const std::string& staging);

/// Puts every older file back under its name in `directory` and removes every new file that
/// had no older one, as far as they were moved: what is still in `staging` says how far. Then
/// syncs `directory`. Returns false when a rename failed (the journal must stay for the next
/// try).
bool rollBack(const std::string& directory, const std::string& staging,
              const std::vector<JournalEntry>& entries);

/// Removes the files terragrid makes in `staging` (new-*, old-*, the journal and its
/// temporary) and, once empty, the folder itself; nothing else. Returns how many files it
/// removed. Never throws.
std::size_t removeStagingFolder(const std::string& staging) noexcept;

/// fsync of a directory, so that renames in it survive a crash. Best effort: some file
/// systems refuse it (EINVAL), which is no reason to fail a run.
void syncDirectory(const std::string& directory) noexcept;

}  // namespace terragrid
