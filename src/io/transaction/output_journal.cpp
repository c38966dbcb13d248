#include "io/transaction/output_journal.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

#include "io/file_handle.hpp"
#include "io/transaction/atomic_file.hpp"
#include "terragrid/io/outputs.hpp"

namespace terragrid {
namespace {

constexpr const char* kJournalHeader = "terragrid rollback journal 1";
constexpr const char* kJournalTemporary = "journal.tmp";
/// A journal lists one line per output file: far below this. A bigger file is not one.
constexpr std::size_t kMaxJournalBytes = std::size_t{1} << 20;

bool isDigits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// Whether `name` is an entry of the folder open as `fd` (of any kind: never followed).
bool existsIn(int fd, const std::string& name) {
    struct stat st {};
    return ::fstatat(fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
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

/// The whole journal file, or nullopt when it is missing or not a file this user's run wrote.
std::optional<std::string> readJournalText(int stagingFd) {
    const FileHandle file(::openat(stagingFd, kJournalName,
                                   O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    struct stat st {};
    if (!file || ::fstat(file.get(), &st) != 0 || !S_ISREG(st.st_mode) ||
        st.st_uid != ::geteuid() || st.st_nlink != 1 ||
        std::uint64_t(st.st_size) > kMaxJournalBytes)
        return std::nullopt;
    std::string text(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::pread(file.get(), text.data() + done, text.size() - done,
                                  static_cast<off_t>(done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return std::nullopt;
        done += static_cast<std::size_t>(n);
    }
    return text;
}

}  // namespace

bool isStagingFolderName(const std::string& name) {
    if (!name.starts_with(kStagingPrefix)) return false;
    const std::string_view rest = std::string_view(name).substr(std::strlen(kStagingPrefix));
    const auto dash = rest.find('-');
    return dash == std::string_view::npos
               ? isDigits(rest)
               : isDigits(rest.substr(0, dash)) && isDigits(rest.substr(dash + 1));
}

bool isOwnStagingFolder(int fd) {
    struct stat st {};
    return ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid() &&
           (st.st_mode & 077) == 0;
}

void writeJournal(int stagingFd, const std::string& journalPath,
                  const std::vector<JournalEntry>& entries) {
    std::string text = std::string(kJournalHeader) + "\n";
    for (const JournalEntry& e : entries)
        text += std::to_string(e.index) + "\t" + (e.hadOld ? "old" : "new") + "\t" + e.staged +
                "\t" + e.name + "\n";
    text += "end\n";  // a journal cut short by a crash lacks it and is not trusted
    const int fd = ::openat(stagingFd, kJournalTemporary,
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) throw OutputError("writing '" + journalPath + "': " + std::strerror(errno));
    const bool written = writeFully(fd, text.data(), text.size()) && ::fsync(fd) == 0;
    const int error = errno;
    ::close(fd);
    if (!written ||
        ::renameat(stagingFd, kJournalTemporary, stagingFd, kJournalName) != 0) {
        const int cause = written ? errno : error;
        ::unlinkat(stagingFd, kJournalTemporary, 0);
        throw OutputError("writing '" + journalPath + "': " + std::strerror(cause));
    }
    syncDirectory(stagingFd);
}

std::optional<std::vector<JournalEntry>> readJournal(int stagingFd) {
    const auto text = readJournalText(stagingFd);
    if (!text) return std::nullopt;
    std::istringstream file(*text);
    std::string line;
    if (!std::getline(file, line) || line != kJournalHeader) return std::nullopt;
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

bool rollBack(int directoryFd, int stagingFd, const std::vector<JournalEntry>& entries) {
    bool restored = true;
    for (const JournalEntry& e : entries) {
        if (e.hadOld) {
            // Moved aside, or still in place (the commit stopped before it): renaming the
            // backup back replaces the new file when that was already moved in.
            const std::string backup = e.backupName();
            if (existsIn(stagingFd, backup) &&
                ::renameat(stagingFd, backup.c_str(), directoryFd, e.name.c_str()) != 0)
                restored = false;
        } else if (!existsIn(stagingFd, e.staged)) {
            // The new file is no longer in the staging folder: it was moved in; no older
            // file had that name, so the name goes.
            if (::unlinkat(directoryFd, e.name.c_str(), 0) != 0 && errno != ENOENT)
                restored = false;
        }
    }
    syncDirectory(directoryFd);
    return restored;
}

std::size_t removeStagingFolder(int directoryFd, const std::string& stagingName,
                                int stagingFd) noexcept {
    std::size_t removed = 0;
    // A descriptor of its own for the listing: closedir closes it.
    const int listFd = ::openat(stagingFd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR* dir = listFd < 0 ? nullptr : ::fdopendir(listFd);
    if (dir == nullptr) {
        if (listFd >= 0) ::close(listFd);
        return 0;
    }
    std::vector<std::string> names;
    while (const dirent* entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        if (isStagingFileName(name)) names.push_back(name);
    }
    ::closedir(dir);
    for (const std::string& name : names)
        if (::unlinkat(stagingFd, name.c_str(), 0) == 0) ++removed;
    // Only this folder: the name may have been given to another since it was opened. rmdir
    // fails, and leaves it, when something else is in it.
    struct stat open {}, named {};
    if (::fstat(stagingFd, &open) == 0 &&
        ::fstatat(directoryFd, stagingName.c_str(), &named, AT_SYMLINK_NOFOLLOW) == 0 &&
        open.st_dev == named.st_dev && open.st_ino == named.st_ino)
        ::unlinkat(directoryFd, stagingName.c_str(), AT_REMOVEDIR);
    return removed;
}

void syncDirectory(int fd) noexcept { (void)::fsync(fd); }

}  // namespace terragrid
