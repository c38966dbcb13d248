#include "io/transaction/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <unordered_set>
#include <utility>
#include <vector>

#include "io/transaction/output_transaction.hpp"
#include "terragrid/io/outputs.hpp"

namespace terragrid {
namespace {

std::string directoryOf(const std::string& path) {
    std::string dir = std::filesystem::path(path).parent_path().string();
    return dir.empty() ? std::string(".") : dir;
}

// mkstemp creates files with mode 0600; a finished output should get the mode any new file
// would get. The umask can only be read race-free from /proc (umask() sets it while reading
// it, which would race with other threads creating files), so the set-and-restore fallback is
// for systems without /proc only.
mode_t currentUmask() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("Umask:", 0) == 0) {
            return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
        }
    }
    const mode_t mask = ::umask(022);
    ::umask(mask);
    return mask;
}

// Every temporary file that exists, so a stopping signal can remove them all. Creating
// (mkstemp), renaming and removing a temporary file each happen under the lock together with
// the registry update, so the removal never misses a file that is being created nor removes
// one that is being renamed into place. Never destroyed: the signal watcher may use it while
// the process exits.
struct TempRegistry {
    std::mutex mutex;
    std::unordered_set<const AtomicFile*> files;
};

TempRegistry& registry() {
    static TempRegistry& r = *new TempRegistry;
    return r;
}

}  // namespace

std::size_t abandonAllTemporaryFiles() noexcept {
    TempRegistry& r = registry();
    r.mutex.lock();  // held until the process ends: see the header
    std::size_t removed = 0;
    for (const AtomicFile* file : r.files)
        if (::unlink(file->tempPath().c_str()) == 0) ++removed;
    r.files.clear();
    return removed + OutputTransaction::abandonAll();
}

std::mutex& outputFilesMutex() { return registry().mutex; }

AtomicFile::AtomicFile(std::string targetPath) : m_targetPath(std::move(targetPath)) {
    const std::string name = std::filesystem::path(m_targetPath).filename().string();
    {
        const std::lock_guard lock(registry().mutex);
        m_transaction = OutputTransaction::forTarget(m_targetPath);
        const std::string pattern =
            m_transaction ? m_transaction->temporaryPattern()
                          : (std::filesystem::path(directoryOf(m_targetPath)) /
                             ("." + name + ".tmp-XXXXXX"))
                                .string();
        std::vector<char> buffer(pattern.begin(), pattern.end());
        buffer.push_back('\0');
        m_fd = ::mkstemp(buffer.data());
        if (m_fd < 0) fail(errno);
        m_tempPath = buffer.data();
        registry().files.insert(this);
    }
    if (::fchmod(m_fd, 0666 & ~currentUmask()) != 0) {
        const int error = errno;
        removeTemporary();
        fail(error);
    }
}

bool writeFully(int fd, const void* data, std::size_t size) noexcept {
    const auto* bytes = static_cast<const unsigned char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, bytes, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        bytes += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

void writeOrThrow(int fd, std::string_view bytes, const std::string& path) {
    if (!writeFully(fd, bytes.data(), bytes.size()))
        throw OutputError("writing '" + path + "': " + std::strerror(errno));
}

void AtomicFile::writeAt(const void* data, std::size_t size, std::uint64_t offset) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    while (size > 0) {
        const ssize_t n = ::pwrite(m_fd, bytes, size, static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail(errno);
        bytes += n;
        size -= static_cast<std::size_t>(n);
        offset += static_cast<std::uint64_t>(n);
    }
}

AtomicFile::~AtomicFile() { removeTemporary(); }

void AtomicFile::removeTemporary() noexcept {
    if (m_fd >= 0) ::close(std::exchange(m_fd, -1));
    if (m_committed || m_tempPath.empty()) return;
    const std::lock_guard lock(registry().mutex);
    ::unlink(m_tempPath.c_str());
    registry().files.erase(this);
    m_tempPath.clear();
}

void AtomicFile::commit() {
    if (m_committed || m_fd < 0) {
        throw std::logic_error("AtomicFile::commit called twice for '" + m_targetPath + "'");
    }
    // fsync before rename: otherwise a crash soon after could leave the new name pointing at
    // a file whose data never reached the disk.
    if (::fsync(m_fd) != 0) fail(errno);
    const int fd = std::exchange(m_fd, -1);
    // close() reports deferred write errors on some file systems (NFS); it is not retried on
    // EINTR because Linux releases the descriptor either way.
    if (::close(fd) != 0) fail(errno);
    {
        const std::lock_guard lock(registry().mutex);
        if (m_transaction) {
            m_transaction->stage(m_tempPath, m_targetPath);  // renamed by its commit
        } else if (::rename(m_tempPath.c_str(), m_targetPath.c_str()) != 0) {
            fail(errno);
        }
        registry().files.erase(this);
        m_committed = true;
    }
    if (m_transaction) return;  // the transaction syncs the directories

    // Best effort: the file is complete and in place whatever happens here; some file systems
    // refuse to fsync a directory (EINVAL), which is no reason to report a failed write.
    const int dirFd = ::open(directoryOf(m_targetPath).c_str(), O_RDONLY | O_DIRECTORY);
    if (dirFd >= 0) {
        (void)::fsync(dirFd);
        ::close(dirFd);
    }
}

void AtomicFile::fail(int error) const {
    throw OutputError("writing '" + m_targetPath + "': " + std::strerror(error));
}

}  // namespace terragrid
