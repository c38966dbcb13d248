#include "io/transaction/output_journal.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/transaction/atomic_file.hpp"
#include "terragrid/io/outputs.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;

constexpr const char* kJournalHeader = "terragrid rollback journal 1";
constexpr const char* kJournalTemporary = "journal.tmp";

std::string in(const std::string& directory, const std::string& name) {
    return (fs::path(directory) / name).string();
}

bool exists(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0;
}

/// A file name this program writes into a journal: no separator, no line break, not a dot
/// name, so a damaged journal can never name a path outside its folders.
bool isPlainName(const std::string& name) {
    return !name.empty() && name != "." && name != ".." &&
           name.find_first_of("/\t\n") == std::string::npos;
}

bool isStagingFileName(const std::string& name) {
    return name.starts_with("new-") || name.starts_with("old-") || name == kJournalName ||
           name == kJournalTemporary;
}

}  // namespace

void writeJournal(const std::string& staging, const std::vector<JournalEntry>& entries) {
    std::string text = std::string(kJournalHeader) + "\n";
    for (const JournalEntry& e : entries)
        text += std::to_string(e.index) + "\t" + (e.hadOld ? "old" : "new") + "\t" + e.staged +
                "\t" + e.name + "\n";
    text += "end\n";  // a journal cut short by a crash lacks it and is not trusted
    const std::string temporary = in(staging, kJournalTemporary);
    const std::string journal = in(staging, kJournalName);
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) throw OutputError("writing '" + journal + "': " + std::strerror(errno));
    const bool written = writeFully(fd, text.data(), text.size()) && ::fsync(fd) == 0;
    const int error = errno;
    ::close(fd);
    if (!written || ::rename(temporary.c_str(), journal.c_str()) != 0) {
        const int cause = written ? errno : error;
        ::unlink(temporary.c_str());
        throw OutputError("writing '" + journal + "': " + std::strerror(cause));
    }
    syncDirectory(staging);
}

std::optional<std::vector<JournalEntry>> readJournal(const std::string& staging) {
    std::ifstream file(in(staging, kJournalName));
    std::string line;
    if (!file || !std::getline(file, line) || line != kJournalHeader) return std::nullopt;
    std::vector<JournalEntry> entries;
    while (std::getline(file, line)) {
        if (line == "end") return entries;
        std::istringstream fields(line);
        JournalEntry e;
        std::string kind;
        if (!(fields >> e.index >> kind >> e.staged >> e.name) || !isPlainName(e.staged) ||
            !e.staged.starts_with("new-") || !isPlainName(e.name) ||
            (kind != "old" && kind != "new"))
            return std::nullopt;
        e.hadOld = kind == "old";
        entries.push_back(e);
    }
    return std::nullopt;
}

bool rollBack(const std::string& directory, const std::string& staging,
              const std::vector<JournalEntry>& entries) {
    bool restored = true;
    for (const JournalEntry& e : entries) {
        const std::string target = in(directory, e.name);
        if (e.hadOld) {
            // Moved aside, or still in place (the commit stopped before it): renaming the
            // backup back replaces the new file when that was already moved in.
            const std::string backup = in(staging, e.backupName());
            if (exists(backup) && ::rename(backup.c_str(), target.c_str()) != 0) restored = false;
        } else if (!exists(in(staging, e.staged))) {
            // The new file is no longer in the staging folder: it was moved in; no older
            // file had that name, so the name goes.
            if (::unlink(target.c_str()) != 0 && errno != ENOENT) restored = false;
        }
    }
    syncDirectory(directory);
    return restored;
}

std::size_t removeStagingFolder(const std::string& staging) noexcept {
    std::size_t removed = 0;
    DIR* dir = ::opendir(staging.c_str());
    if (dir == nullptr) return 0;
    std::vector<std::string> names;
    while (const dirent* entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        if (isStagingFileName(name)) names.push_back(name);
    }
    ::closedir(dir);
    for (const std::string& name : names)
        if (::unlink(in(staging, name).c_str()) == 0) ++removed;
    ::rmdir(staging.c_str());  // fails, and leaves it, when something else is in it
    return removed;
}

void syncDirectory(const std::string& directory) noexcept {
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    (void)::fsync(fd);
    ::close(fd);
}

}  // namespace terragrid
