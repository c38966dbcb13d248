#include "io/transaction/atomic_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <unordered_set>
#include <utility>

#include "io/transaction/output_transaction.hpp"
#include "terragrid/io/outputs.hpp"

namespace terragrid {
namespace {

// mkstemp-like files are created with mode 0600; a finished output should get the mode any new
// file would get. The umask can only be read race-free from /proc (umask() sets it while
// reading it, which would race with other threads creating files), so the set-and-restore
// fallback is for systems without /proc only.
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

// Every temporary file that exists, so a stopping signal can remove them all. Creating,
// renaming and removing a temporary file each happen under the lock together with the
// registry update, so the removal never misses a file that is being created nor removes one
// that is being renamed into place. Never destroyed: the signal watcher may use it while the
// process exits.
struct TempRegistry {
    std::mutex mutex;
    std::unordered_set<const AtomicFile*> files;
};

TempRegistry& registry() {
    static TempRegistry& r = *new TempRegistry;
    return r;
}

std::atomic<bool> g_stopRequested{false};

}  // namespace

std::string directoryOf(const std::string& path) {
    std::string dir = std::filesystem::path(path).parent_path().string();
    return dir.empty() ? std::string(".") : dir;
}

AbandonedOutputs abandonAllTemporaryFiles() noexcept {
    // Before taking the lock: a commit holding it sees the request at its next step and rolls
    // back, unless it has passed its commit point.
    g_stopRequested = true;
    TempRegistry& r = registry();
    r.mutex.lock();  // held until the process ends: see the header
    AbandonedOutputs abandoned;
    for (const AtomicFile* file : r.files)
        if (::unlinkat(file->m_dirFd, file->m_tempName.c_str(), 0) == 0) ++abandoned.removedFiles;
    r.files.clear();
    const OutputTransaction::Abandoned transactions = OutputTransaction::abandonAll();
    abandoned.removedFiles += transactions.removedFiles;
    abandoned.committed = transactions.committed;
    return abandoned;
}

bool stopRequested() noexcept { return g_stopRequested; }

std::mutex& outputFilesMutex() { return registry().mutex; }

int createUniqueFile(int dirFd, const std::string& prefix, std::string& name) noexcept {
    static constexpr char kLetters[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    for (int attempt = 0; attempt < 1000; ++attempt) {
        unsigned char random[6];
        if (::getrandom(random, sizeof random, 0) != static_cast<ssize_t>(sizeof random))
            return -1;
        name = prefix;
        for (const unsigned char byte : random) name += kLetters[byte % (sizeof kLetters - 1)];
        const int fd = ::openat(dirFd, name.c_str(),
                                O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

AtomicFile::AtomicFile(std::string targetPath) : m_targetPath(std::move(targetPath)) {
    const std::string name = std::filesystem::path(m_targetPath).filename().string();
    {
        const std::lock_guard lock(registry().mutex);
        m_transaction = OutputTransaction::forTarget(m_targetPath);
        const std::string directory =
            m_transaction ? m_transaction->stagingPath() : directoryOf(m_targetPath);
        m_dirFd = m_transaction
                      ? ::fcntl(m_transaction->stagingFd(), F_DUPFD_CLOEXEC, 0)
                      : ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (m_dirFd < 0) fail(errno);
        m_fd = createUniqueFile(m_dirFd, m_transaction ? "new-" : "." + name + ".tmp-",
                                m_tempName);
        if (m_fd < 0) {
            const int error = errno;
            ::close(std::exchange(m_dirFd, -1));
            fail(error);
        }
        m_tempPath = (std::filesystem::path(directory) / m_tempName).string();
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

AtomicFile::~AtomicFile() {
    removeTemporary();
    if (m_dirFd >= 0) ::close(m_dirFd);
}

void AtomicFile::removeTemporary() noexcept {
    if (m_fd >= 0) ::close(std::exchange(m_fd, -1));
    if (m_committed || m_tempName.empty()) return;
    const std::lock_guard lock(registry().mutex);
    ::unlinkat(m_dirFd, m_tempName.c_str(), 0);
    registry().files.erase(this);
    m_tempName.clear();
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
            m_transaction->stage(m_tempName, m_targetPath);  // renamed by its commit
        } else {
            const std::string name = std::filesystem::path(m_targetPath).filename().string();
            if (::renameat(m_dirFd, m_tempName.c_str(), m_dirFd, name.c_str()) != 0)
                fail(errno);
        }
        registry().files.erase(this);
        m_committed = true;
    }
    // The transaction syncs the directories. Otherwise best effort: the file is complete and
    // in place whatever happens here; some file systems refuse to fsync a directory (EINVAL),
    // which is no reason to report a failed write.
    if (!m_transaction) (void)::fsync(m_dirFd);
}

void AtomicFile::fail(int error) const {
    throw OutputError("writing '" + m_targetPath + "': " + std::strerror(error));
}

}  // namespace terragrid
