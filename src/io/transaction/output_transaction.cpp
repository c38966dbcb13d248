#include "io/transaction/output_transaction.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <string_view>

#include "io/transaction/atomic_file.hpp"
#include "terragrid/io/outputs.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;

std::string in(const std::string& directory, const std::string& name) {
    return (fs::path(directory) / name).string();
}

std::string directoryOf(const std::string& path) {
    const std::string dir = fs::path(path).parent_path().string();
    return dir.empty() ? std::string(".") : dir;
}

/// The open transactions, guarded by outputFilesMutex(). Never destroyed: the signal watcher
/// may read it while the process exits.
std::vector<OutputTransaction*>& openTransactions() {
    static auto& list = *new std::vector<OutputTransaction*>;
    return list;
}

/// The test hook of the header: which step of a commit fails or is killed, if any.
struct InjectedFault {
    bool kill = false;
    int step = 0;  ///< 0: none
};

InjectedFault injectedFault() {
    const char* value = std::getenv("TERRAGRID_FAULT_INJECT");
    if (value == nullptr) return {};
    const std::string_view text = value;
    for (const auto& [prefix, kill] : {std::pair{"commit-fail:", false}, {"commit-kill:", true}})
        if (text.starts_with(prefix))
            return {kill, std::atoi(value + std::string_view(prefix).size())};
    return {};
}

/// Step `number` of a commit, renaming `from` onto `to` (or, without `to`, removing `from`),
/// unless the test hook says otherwise. Throws OutputError naming `path`.
void commitStep(int number, const InjectedFault& fault, const std::string& path,
                const std::string& from, const std::string& to = {}) {
    if (fault.step == number && fault.kill) ::kill(::getpid(), SIGKILL);
    const bool failed = fault.step == number ||
                        (to.empty() ? ::unlink(from.c_str()) : ::rename(from.c_str(), to.c_str())) != 0;
    if (failed)
        throw OutputError("writing '" + path +
                          "': " + std::strerror(fault.step == number ? EIO : errno));
}

/// What dead runs left in `directory`: a commit cut short is rolled back, then their staging
/// folders go. Only called with the directory's lock held, so no live run owns any of it.
void recoverDeadRuns(const std::string& directory) {
    std::vector<std::string> folders;
    if (DIR* dir = ::opendir(directory.c_str())) {
        while (const dirent* entry = ::readdir(dir)) {
            const std::string name = entry->d_name;
            const std::string_view rest = std::string_view(name).substr(
                std::min(name.size(), std::strlen(kStagingPrefix)));
            if (name.starts_with(kStagingPrefix) && !rest.empty() &&
                std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; }))
                folders.push_back(in(directory, name));
        }
        ::closedir(dir);
    }
    for (const std::string& staging : folders) {
        if (const auto journal = readJournal(staging)) {
            if (!rollBack(directory, staging, *journal))
                throw OutputError("cannot restore the older outputs in '" + directory +
                                  "' that an interrupted run left in '" + staging +
                                  "': " + std::strerror(errno));
        }
        removeStagingFolder(staging);
    }
}

}  // namespace

OutputTransaction::OutputTransaction(const std::string& directory)
    : m_directory(directory), m_lock(directory) {
    recoverDeadRuns(m_directory);
    struct stat st {};
    if (::stat(m_directory.c_str(), &st) != 0)
        throw OutputError("cannot open output directory '" + m_directory +
                          "': " + std::strerror(errno));
    m_device = st.st_dev;
    m_inode = st.st_ino;
    m_staging = in(m_directory, kStagingPrefix + std::to_string(::getpid()));
    if (::mkdir(m_staging.c_str(), 0700) != 0 && errno != EEXIST)
        throw OutputError("cannot create the staging folder '" + m_staging +
                          "': " + std::strerror(errno));
    const std::lock_guard lock(outputFilesMutex());
    openTransactions().push_back(this);
}

OutputTransaction::~OutputTransaction() {
    const std::lock_guard lock(outputFilesMutex());
    auto& open = openTransactions();
    open.erase(std::remove(open.begin(), open.end(), this), open.end());
    if (!m_keepJournal) removeStagingFolder(m_staging);
}

OutputTransaction* OutputTransaction::forTarget(const std::string& targetPath) {
    struct stat st {};
    if (openTransactions().empty() || ::stat(directoryOf(targetPath).c_str(), &st) != 0)
        return nullptr;
    for (OutputTransaction* t : openTransactions())
        if (t->m_device == st.st_dev && t->m_inode == st.st_ino) return t;
    return nullptr;
}

std::string OutputTransaction::temporaryPattern() const { return in(m_staging, "new-XXXXXX"); }

void OutputTransaction::stage(const std::string& temporaryPath, const std::string& targetPath) {
    JournalEntry entry;
    entry.staged = fs::path(temporaryPath).filename().string();
    entry.name = fs::path(targetPath).filename().string();
    entry.index = m_entries.size();
    m_entries.push_back(std::move(entry));
    struct stat st {};
    if (::stat(temporaryPath.c_str(), &st) == 0) m_stagedBytes += std::uint64_t(st.st_size);
}

std::vector<StagedFile> OutputTransaction::stagedFiles() const {
    std::vector<StagedFile> files;
    for (const JournalEntry& e : m_entries) files.push_back({e.name, in(m_staging, e.staged)});
    return files;
}

bool OutputTransaction::hasOlderFile(const JournalEntry& entry) const {
    struct stat st {};
    const std::string target = in(m_directory, entry.name);
    if (::lstat(target.c_str(), &st) != 0) return false;
    // Moving a directory aside would work, and deleting the backups would then delete it.
    if (S_ISDIR(st.st_mode))
        throw OutputError("writing '" + target + "': a directory is in the way");
    return true;
}

void OutputTransaction::applySteps() {
    const InjectedFault fault = injectedFault();
    int step = 0;
    for (const JournalEntry& e : m_entries)
        if (e.hadOld) {
            const std::string target = in(m_directory, e.name);
            commitStep(++step, fault, target, target, in(m_staging, e.backupName()));
        }
    for (const JournalEntry& e : m_entries) {
        const std::string target = in(m_directory, e.name);
        commitStep(++step, fault, target, in(m_staging, e.staged), target);
    }
    syncDirectory(m_directory);
    // The commit point: without the journal, the next run keeps the new files.
    const std::string journal = in(m_staging, kJournalName);
    commitStep(++step, fault, journal, journal);
}

void OutputTransaction::commit() {
    // Held throughout: a stopping signal waits for the commit (or its rollback) to end.
    const std::lock_guard lock(outputFilesMutex());
    for (JournalEntry& e : m_entries) e.hadOld = hasOlderFile(e);
    writeJournal(m_staging, m_entries);
    try {
        applySteps();
    } catch (const OutputError& e) {
        if (!rollBack(m_directory, m_staging, m_entries)) {
            m_keepJournal = true;
            throw OutputError(std::string(e.what()) +
                              "; some older outputs could not be put back yet: the next run "
                              "into '" + m_directory + "' restores them from '" +
                              in(m_staging, kJournalName) + "'");
        }
        ::unlink(in(m_staging, kJournalName).c_str());
        throw OutputError(std::string(e.what()) + "; no file of the run was put in place and "
                                                  "every older output is as it was");
    }
    m_committed = true;
}

std::size_t OutputTransaction::abandonAll() noexcept {
    std::size_t removed = 0;
    for (OutputTransaction* t : openTransactions()) {
        if (!t->m_keepJournal) removed += removeStagingFolder(t->m_staging);
        t->m_lock.removeFile();
    }
    return removed;
}

}  // namespace terragrid
