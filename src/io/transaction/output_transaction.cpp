#include "io/transaction/output_transaction.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <string_view>
#include <thread>

#include "io/transaction/atomic_file.hpp"
#include "terragrid/io/outputs.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;

std::string in(const std::string& directory, const std::string& name) {
    return (fs::path(directory) / name).string();
}

/// The open transactions, guarded by outputFilesMutex(). Never destroyed: the signal watcher
/// may read it while the process exits.
std::vector<OutputTransaction*>& openTransactions() {
    static auto& list = *new std::vector<OutputTransaction*>;
    return list;
}

/// Whether a transaction of this process has passed its commit point; guarded by
/// outputFilesMutex().
bool g_committedAny = false;

/// The test hook of the header: which step of a commit fails, is killed or signalled, if any.
struct InjectedFault {
    enum class Action { None, Fail, Kill, Signal };
    Action action = Action::None;
    int step = 0;

    bool at(int number, Action what) const { return step == number && action == what; }
};

InjectedFault injectedFault() {
    const char* value = std::getenv("TERRAGRID_FAULT_INJECT");
    if (value == nullptr) return {};
    const std::string_view text = value;
    using Action = InjectedFault::Action;
    for (const auto& [prefix, action] : {std::pair{"commit-fail:", Action::Fail},
                                         {"commit-kill:", Action::Kill},
                                         {"commit-signal:", Action::Signal}})
        if (text.starts_with(prefix))
            return {action, std::atoi(value + std::string_view(prefix).size())};
    return {};
}

/// Thrown by a commit step that meets a stop request (a stopping signal): the commit rolls
/// back.
struct CommitStopped {};

/// What happens just before step `number` of a commit, or (with `number` one past the last)
/// just after its commit point: the test hook's kill or real signal, and, before the commit
/// point, a stop request ends the commit.
void beforeStep(int number, const InjectedFault& fault, bool committed = false) {
    if (fault.at(number, InjectedFault::Action::Kill)) ::kill(::getpid(), SIGKILL);
    if (fault.at(number, InjectedFault::Action::Signal)) {
        ::kill(::getpid(), SIGTERM);
        // The watcher thread takes the signal; the hook places it at this step, so it waits
        // for the request (bounded: a SIGTERM ignored since the start never comes).
        for (int waited = 0; waited < 10000 && !stopRequested(); ++waited)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (!committed && stopRequested()) throw CommitStopped{};
}

/// Step `number` of a commit: `result` is what the step's system call returned, unless the
/// test hook makes it fail. Throws OutputError naming `path`.
void checkStep(int number, const InjectedFault& fault, const std::string& path, int result) {
    const bool injected = fault.at(number, InjectedFault::Action::Fail);
    if (injected || result != 0)
        throw OutputError("writing '" + path + "': " + std::strerror(injected ? EIO : errno));
}

/// What dead runs left in the directory open as `directoryFd` (named `directory`): a commit
/// cut short is rolled back, then their staging folders go. Only called with the directory's
/// lock held, so no live run owns any of it. Only folders this user could have made are
/// touched: a symbolic link, a file or another user's folder of such a name is left alone.
void recoverDeadRuns(int directoryFd, const std::string& directory) {
    std::vector<std::string> folders;
    const int listFd = ::openat(directoryFd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (DIR* dir = listFd < 0 ? nullptr : ::fdopendir(listFd)) {
        while (const dirent* entry = ::readdir(dir))
            if (isStagingFolderName(entry->d_name)) folders.emplace_back(entry->d_name);
        ::closedir(dir);
    } else if (listFd >= 0) {
        ::close(listFd);
    }
    for (const std::string& name : folders) {
        const FileHandle staging(::openat(directoryFd, name.c_str(),
                                          O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!staging || !isOwnStagingFolder(staging.get())) continue;
        if (const auto journal = readJournal(staging.get())) {
            if (!rollBack(directoryFd, staging.get(), *journal))
                throw OutputError("cannot restore the older outputs in '" + directory +
                                  "' that an interrupted run left in '" + in(directory, name) +
                                  "': " + std::strerror(errno));
        }
        removeStagingFolder(directoryFd, name, staging.get());
    }
}

/// Blocks until the process ends: a stopping signal's watcher holds outputFilesMutex() and
/// ends it (stop_signals.hpp).
[[noreturn]] void awaitTheStop() {
    for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

}  // namespace

OutputTransaction::OutputTransaction(const std::string& directory)
    : m_directory(directory),
      m_directoryFd(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    struct stat st {};
    if (!m_directoryFd || ::fstat(m_directoryFd.get(), &st) != 0)
        throw OutputError("cannot open output directory '" + m_directory +
                          "': " + std::strerror(errno));
    m_device = st.st_dev;
    m_inode = st.st_ino;
    // Held throughout: a stopping signal waits until the lock file and the staging folder
    // exist and are registered, or neither does, so it always removes what there is.
    const std::lock_guard lock(outputFilesMutex());
    m_lock.emplace(m_directoryFd.get(), m_directory);
    openTransactions().push_back(this);
    try {
        recoverDeadRuns(m_directoryFd.get(), m_directory);
        createStagingFolder();
    } catch (...) {
        closeLocked();
        throw;
    }
}

OutputTransaction::~OutputTransaction() {
    const std::lock_guard lock(outputFilesMutex());
    closeLocked();
}

void OutputTransaction::closeLocked() noexcept {
    auto& open = openTransactions();
    open.erase(std::remove(open.begin(), open.end(), this), open.end());
    if (m_staging && !m_keepJournal)
        removeStagingFolder(m_directoryFd.get(), m_stagingName, m_staging.get());
    if (m_lock) m_lock->removeFile();
}

void OutputTransaction::createStagingFolder() {
    const std::string base = kStagingPrefix + std::to_string(::getpid());
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string name = attempt == 0 ? base : base + "-" + std::to_string(attempt);
        if (::mkdirat(m_directoryFd.get(), name.c_str(), 0700) != 0) {
            if (errno == EEXIST) continue;  // someone else's: never used
            throw OutputError("cannot create the staging folder '" + in(m_directory, name) +
                              "': " + std::strerror(errno));
        }
        FileHandle staging(::openat(m_directoryFd.get(), name.c_str(),
                                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        // What was made a moment ago, unless someone swapped it meanwhile (then left alone).
        if (!staging || !isOwnStagingFolder(staging.get())) continue;
        m_stagingName = name;
        m_stagingPath = in(m_directory, name);
        m_staging = std::move(staging);
        return;
    }
    throw OutputError("cannot create a staging folder in '" + m_directory + "': the names '" +
                      base + "' to '" + base + "-99' are all taken");
}

OutputTransaction* OutputTransaction::forTarget(const std::string& targetPath) {
    struct stat st {};
    if (openTransactions().empty() || ::stat(directoryOf(targetPath).c_str(), &st) != 0)
        return nullptr;
    for (OutputTransaction* t : openTransactions())
        if (t->m_device == st.st_dev && t->m_inode == st.st_ino) return t;
    return nullptr;
}

void OutputTransaction::stage(const std::string& stagedName, const std::string& targetPath) {
    JournalEntry entry;
    entry.staged = stagedName;
    entry.name = fs::path(targetPath).filename().string();
    entry.index = m_entries.size();
    m_entries.push_back(std::move(entry));
    struct stat st {};
    if (::fstatat(m_staging.get(), stagedName.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0)
        m_stagedBytes += std::uint64_t(st.st_size);
}

std::vector<StagedFile> OutputTransaction::stagedFiles() const {
    std::vector<StagedFile> files;
    for (const JournalEntry& e : m_entries) files.push_back({e.name, e.staged});
    return files;
}

bool OutputTransaction::hasOlderFile(const JournalEntry& entry) const {
    struct stat st {};
    if (::fstatat(m_directoryFd.get(), entry.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
        return false;
    // Moving a directory aside would work, and deleting the backups would then delete it.
    // Anything else (a symbolic link, a FIFO, a device) is an entry the rename replaces; what
    // it points to is never touched.
    if (S_ISDIR(st.st_mode))
        throw OutputError("writing '" + in(m_directory, entry.name) +
                          "': a directory is in the way");
    return true;
}

void OutputTransaction::applySteps() {
    const InjectedFault fault = injectedFault();
    const int directory = m_directoryFd.get(), staging = m_staging.get();
    int step = 0;
    for (const JournalEntry& e : m_entries)
        if (e.hadOld) {
            beforeStep(++step, fault);
            checkStep(step, fault, in(m_directory, e.name),
                      ::renameat(directory, e.name.c_str(), staging, e.backupName().c_str()));
        }
    for (const JournalEntry& e : m_entries) {
        beforeStep(++step, fault);
        checkStep(step, fault, in(m_directory, e.name),
                  ::renameat(staging, e.staged.c_str(), directory, e.name.c_str()));
    }
    syncDirectory(directory);
    // The commit point: without the journal, the next run keeps the new files.
    beforeStep(++step, fault);
    checkStep(step, fault, in(m_stagingPath, kJournalName),
              ::unlinkat(staging, kJournalName, 0));
    g_committedAny = true;
    beforeStep(++step, fault, true);
}

void OutputTransaction::commit() {
    // Held throughout: a stopping signal waits for the commit (or its rollback) to end.
    std::unique_lock lock(outputFilesMutex());
    for (JournalEntry& e : m_entries) e.hadOld = hasOlderFile(e);
    if (stopRequested()) {
        lock.unlock();
        awaitTheStop();
    }
    writeJournal(m_staging.get(), in(m_stagingPath, kJournalName), m_entries);
    const auto restore = [&] {
        const bool restored = rollBack(m_directoryFd.get(), m_staging.get(), m_entries);
        if (restored) ::unlinkat(m_staging.get(), kJournalName, 0);
        m_keepJournal = !restored;
        return restored;
    };
    try {
        applySteps();
        // A signal met after the commit point ends the process too, once the commit is done:
        // its watcher waits for this lock, and the run must not return and exit 0 before it
        // says which set is in place and dies by the signal.
        if (stopRequested()) {
            lock.unlock();
            awaitTheStop();
        }
    } catch (const CommitStopped&) {
        // Before the commit point: the older set goes back, and the signal ends the process.
        restore();
        lock.unlock();
        awaitTheStop();
    } catch (const OutputError& e) {
        if (!restore())
            throw OutputError(std::string(e.what()) +
                              "; some older outputs could not be put back yet: the next run "
                              "into '" + m_directory + "' restores them from '" +
                              in(m_stagingPath, kJournalName) + "'");
        throw OutputError(std::string(e.what()) + "; no file of the run was put in place and "
                                                  "every older output is as it was");
    }
}

OutputTransaction::Abandoned OutputTransaction::abandonAll() noexcept {
    Abandoned abandoned;
    for (OutputTransaction* t : openTransactions()) {
        if (t->m_staging && !t->m_keepJournal)
            abandoned.removedFiles +=
                removeStagingFolder(t->m_directoryFd.get(), t->m_stagingName, t->m_staging.get());
        if (t->m_lock) t->m_lock->removeFile();
    }
    abandoned.committed = g_committedAny;
    return abandoned;
}

}  // namespace terragrid
