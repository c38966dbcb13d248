#include "io/transaction/dir_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include "terragrid/io/outputs.hpp"

namespace terragrid {
namespace {

[[noreturn]] void failToLock(const std::string& path, int error) {
    throw OutputError("cannot lock the output directory with '" + path +
                      "': " + std::strerror(error));
}

/// The pid the holder wrote into the lock file. The holder writes it right after taking the
/// lock, so a file still empty is read again a few times before giving up on it.
std::string holderPid(int fd) {
    for (int attempt = 0; attempt < 20; ++attempt) {
        char buffer[32] = {};
        const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
        std::string text = n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "";
        while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
        if (!text.empty()) return text;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return "unknown";
}

/// Whether `fd` is still the file at `path`: a run that ended removed its lock file, and a run
/// that opened that file before the removal has locked a file nobody else will see.
bool isFileAt(int fd, const std::string& path) {
    struct stat open {}, named {};
    return ::fstat(fd, &open) == 0 && ::stat(path.c_str(), &named) == 0 &&
           open.st_dev == named.st_dev && open.st_ino == named.st_ino;
}

}  // namespace

DirLock::DirLock(const std::string& directory)
    : m_path((std::filesystem::path(directory) / kFileName).string()) {
    for (;;) {
        m_fd = ::open(m_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (m_fd < 0) failToLock(m_path, errno);
        if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            const std::string pid = error == EWOULDBLOCK ? holderPid(m_fd) : "";
            ::close(m_fd);
            if (error != EWOULDBLOCK) failToLock(m_path, error);
            throw OutputError("output directory '" + directory +
                              "' is in use by another terragrid run (pid " + pid +
                              ", lock file '" + m_path +
                              "'); wait for it to end or give another --out-dir");
        }
        if (isFileAt(m_fd, m_path)) break;
        ::close(m_fd);
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(m_fd, 0) != 0 || ::pwrite(m_fd, pid.data(), pid.size(), 0) < 0) {
        const int error = errno;
        removeFile();
        ::close(m_fd);
        failToLock(m_path, error);
    }
}

DirLock::~DirLock() {
    // Removed while still locked: a run waiting on this file then sees it is gone (isFileAt).
    removeFile();
    ::close(m_fd);
}

void DirLock::removeFile() noexcept { ::unlink(m_path.c_str()); }

}  // namespace terragrid
