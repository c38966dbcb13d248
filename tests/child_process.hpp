#pragma once
// The terragrid CLI as a child process the test controls, where runCommand (a shell) is not
// enough: its pid to send signals to, a file size limit or another user set up between fork
// and exec, how it ended (exit code or signal) and its peak memory.

#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace terragrid::test {

/// A user to run as.
struct UserIds {
    uid_t uid = 0;
    gid_t gid = 0;
};

struct ChildSetup {
    ChildSetup(std::filesystem::path cwd, std::vector<std::string> args,
               std::optional<rlim_t> fileSizeLimit = std::nullopt,
               std::optional<UserIds> user = std::nullopt)
        : cwd(std::move(cwd)), args(std::move(args)), fileSizeLimit(fileSizeLimit), user(user) {}

    std::filesystem::path cwd;      ///< where it runs
    std::vector<std::string> args;  ///< after the program name
    /// RLIMIT_FSIZE in bytes, as `ulimit -f` sets it (SIGXFSZ left at its default action: it
    /// is terragrid that ignores it, so a write past the limit fails with EFBIG the way a
    /// write to a full disk fails with ENOSPC).
    std::optional<rlim_t> fileSizeLimit;
    /// Runs as this user and group (setgid, setuid): for a test running as root, whose
    /// permission checks the kernel skips.
    std::optional<UserIds> user;
};

/// How a child ended.
struct ChildExit {
    bool signalled = false;  ///< killed by a signal rather than exiting
    int code = 0;            ///< the exit code, or the signal's number
    long maxRssKiB = 0;      ///< peak resident memory (getrusage)

    /// What a shell's $? says: the exit code, or 128 + the signal's number.
    int shellCode() const { return signalled ? 128 + code : code; }
};

class Child {
public:
    /// Starts cliPath() with `setup`; stdout and stderr go to files read by out() and err().
    explicit Child(const ChildSetup& setup);
    /// Kills (SIGKILL) and reaps the child if it is still running.
    ~Child();
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    pid_t pid() const { return m_pid; }
    void signal(int sig) const;
    /// Waits for the child to end.
    ChildExit wait();
    std::string out() const;
    std::string err() const;

private:
    TempDir m_scratch;
    pid_t m_pid = -1;
    std::optional<ChildExit> m_exit;
};

/// Runs the child to its end.
struct ChildResult {
    ChildExit exit;
    std::string out;
    std::string err;
};
ChildResult runChild(const ChildSetup& setup);

/// "nobody", when the test runs as root (which the kernel's permission checks let through);
/// else nullopt.
std::optional<UserIds> unprivilegedUser();

}  // namespace terragrid::test
