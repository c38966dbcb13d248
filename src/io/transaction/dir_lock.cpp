#include "io/transaction/dir_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include "terragrid/io/foreign_entry_error.hpp"

namespace terragrid {
namespace {

[[noreturn]] void failToLock(const std::string& path, int error) {
    throw OutputError("cannot lock the output directory with '" + path +
                      "': " + std::strerror(error));
}

/// What an entry is, as a message names it; empty for a regular file with one link, the only
/// kind a run may lock (and then never writes).
std::string foreignKind(const struct stat& st) {
    if (S_ISREG(st.st_mode))
        return st.st_nlink == 1 ? std::string()
                                : "a file with " + std::to_string(st.st_nlink) + " hard links";
    if (S_ISLNK(st.st_mode)) return "a symbolic link";
    if (S_ISDIR(st.st_mode)) return "a directory";
    if (S_ISFIFO(st.st_mode)) return "a FIFO";
    if (S_ISCHR(st.st_mode)) return "a character device";
    if (S_ISBLK(st.st_mode)) return "a block device";
    if (S_ISSOCK(st.st_mode)) return "a socket";
    return "an entry of an unknown kind";
}

std::string foreignMessage(const std::string& directory, const std::string& kind) {
    return "output directory '" + directory + "' holds " + kind + " named '" +
           DirLock::kFileName +
           "', the name of terragrid's lock file; terragrid does not follow, write or remove an "
           "entry it did not make (remove it, or give another output.directory)";
}

/// The pid the holder wrote into the lock file. The holder writes it right after taking the
/// lock, so a file still empty is read again a few times before giving up on it. Only digits
/// are shown: the file may be anyone's.
std::string holderPid(int fd) {
    for (int attempt = 0; attempt < 20; ++attempt) {
        char buffer[32] = {};
        const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
        std::string text = n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "";
        while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
        if (!text.empty())
            return std::all_of(text.begin(), text.end(),
                               [](unsigned char c) { return std::isdigit(c) != 0; })
                       ? text
                       : "unknown";
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return "unknown";
}

/// Whether `fd` is still the file named kFileName in the directory: a run that ended removed
/// its lock file, and a run that opened that file before the removal has locked a file nobody
/// else will see.
bool isFileAt(int fd, int directoryFd) {
    struct stat open {}, named {};
    return ::fstat(fd, &open) == 0 &&
           ::fstatat(directoryFd, DirLock::kFileName, &named, AT_SYMLINK_NOFOLLOW) == 0 &&
           open.st_dev == named.st_dev && open.st_ino == named.st_ino;
}

}  // namespace

std::optional<std::string> lockEntryProblem(const std::string& directory) {
    struct stat st {};
    const std::string path = (std::filesystem::path(directory) / DirLock::kFileName).string();
    if (::lstat(path.c_str(), &st) != 0) return std::nullopt;
    const std::string kind = foreignKind(st);
    if (kind.empty()) return std::nullopt;
    return foreignMessage(directory, kind);
}

FileHandle DirLock::openOrCreate(const std::string& directory, bool& created) const {
    FileHandle file(::openat(m_directory.get(), kFileName,
                             O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    created = bool(file);
    if (created) return file;
    if (errno != EEXIST) failToLock(m_path, errno);
    // Looked at before it is opened, so no device is ever opened; and again once it is, in
    // case the entry was swapped in between.
    struct stat st {};
    if (::fstatat(m_directory.get(), kFileName, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) return {};
        failToLock(m_path, errno);
    }
    std::string kind = foreignKind(st);
    if (kind.empty()) {
        // Read-only: a file the run did not make is never written.
        file.reset(::openat(m_directory.get(), kFileName,
                            O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
        if (!file && errno == ENOENT) return {};
        if (!file && errno != ELOOP) failToLock(m_path, errno);
        if (!file) kind = "a symbolic link";
        else if (::fstat(file.get(), &st) == 0) kind = foreignKind(st);
    }
    if (!kind.empty()) throw ForeignEntryError(foreignMessage(directory, kind));
    return file;
}

DirLock::DirLock(int directoryFd, const std::string& directory)
    : m_path((std::filesystem::path(directory) / kFileName).string()),
      m_directory(::fcntl(directoryFd, F_DUPFD_CLOEXEC, 0)) {
    if (!m_directory) failToLock(m_path, errno);
    // A pass that meets a name that changed under it (removed, replaced by a run that ended or
    // began) starts again.
    for (int pass = 0; !m_file; ++pass) {
        if (pass == 1000) failToLock(m_path, EAGAIN);
        bool created = false;
        FileHandle file = openOrCreate(directory, created);
        if (!file) continue;
        if (::flock(file.get(), LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            if (error != EWOULDBLOCK) failToLock(m_path, error);
            if (!isFileAt(file.get(), m_directory.get())) continue;  // its holder removed it
            throw OutputError("output directory '" + directory +
                              "' is in use by another terragrid run (pid " +
                              holderPid(file.get()) + ", lock file '" + m_path +
                              "'); wait for it to end or give another --out-dir");
        }
        if (!isFileAt(file.get(), m_directory.get())) continue;
        if (created) {
            m_file = std::move(file);
            break;
        }
        // No live run holds it: a lock file a dead run left (or a file put there). It is not
        // this run's file, so it is not written into: its name goes, and the next pass creates
        // this run's own. Removed while locked, so a run waiting on it sees it is gone.
        if (::unlinkat(m_directory.get(), kFileName, 0) != 0 && errno != ENOENT)
            throw OutputError("cannot remove '" + m_path +
                              "', the lock file of a terragrid run that has ended: " +
                              std::strerror(errno));
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::pwrite(m_file.get(), pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
        const int error = errno;
        removeFile();
        failToLock(m_path, error);
    }
}

DirLock::~DirLock() { removeFile(); }

void DirLock::removeFile() noexcept {
    if (m_removed) return;
    m_removed = true;
    // Only the file this lock created: whatever took the name since is not this run's.
    if (isFileAt(m_file.get(), m_directory.get())) ::unlinkat(m_directory.get(), kFileName, 0);
}

}  // namespace terragrid
