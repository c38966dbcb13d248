#include "child_process.hpp"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <stdexcept>

namespace terragrid::test {

namespace {

// Between fork and exec only async-signal-safe calls are allowed (the test process has
// threads), so everything is prepared before fork and a failure just exits 127.
[[noreturn]] void execChild(const char* cwd, const char* outPath, const char* errPath,
                            const ChildSetup& setup, char* const* argv) {
    const auto redirect = [](const char* path, int fd) {
        const int file = ::open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        return file >= 0 && ::dup2(file, fd) >= 0 && ::close(file) == 0;
    };
    if (::chdir(cwd) != 0 || !redirect(outPath, STDOUT_FILENO) ||
        !redirect(errPath, STDERR_FILENO))
        ::_exit(127);
    // As if started from a terminal: every signal at its default action and none blocked. A
    // test run in the background (where the shell ignores SIGINT) must not hand that on, nor
    // the test process its own ignored SIGPIPE and SIGXFSZ (process_setup.cpp).
    struct sigaction byDefault {};
    byDefault.sa_handler = SIG_DFL;
    sigset_t none;
    sigemptyset(&none);
    for (int sig = 1; sig < NSIG; ++sig)
        if (sig != SIGKILL && sig != SIGSTOP) (void)::sigaction(sig, &byDefault, nullptr);
    if (::sigprocmask(SIG_SETMASK, &none, nullptr) != 0) ::_exit(127);
    // A real `ulimit -f`: a write past it raises SIGXFSZ, which terragrid itself must handle.
    if (setup.fileSizeLimit) {
        const rlimit limit{*setup.fileSizeLimit, *setup.fileSizeLimit};
        if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(127);
    }
    if (setup.user && (::setgroups(0, nullptr) != 0 || ::setgid(setup.user->gid) != 0 ||
                       ::setuid(setup.user->uid) != 0))
        ::_exit(127);
    ::execv(argv[0], argv);
    ::_exit(127);
}

}  // namespace

Child::Child(const ChildSetup& setup) {
    std::vector<std::string> words{cliPath()};
    words.insert(words.end(), setup.args.begin(), setup.args.end());
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    const std::string cwd = setup.cwd.string();
    const std::string outPath = (m_scratch / "stdout").string();
    const std::string errPath = (m_scratch / "stderr").string();
    m_pid = ::fork();
    if (m_pid < 0) throw std::runtime_error("fork failed");
    if (m_pid == 0) execChild(cwd.c_str(), outPath.c_str(), errPath.c_str(), setup, argv.data());
}

Child::~Child() {
    if (m_exit || m_pid <= 0) return;
    ::kill(m_pid, SIGKILL);
    int status = 0;
    ::waitpid(m_pid, &status, 0);
}

void Child::signal(int sig) const { ::kill(m_pid, sig); }

ChildExit Child::wait() {
    if (m_exit) return *m_exit;
    int status = 0;
    rusage usage{};
    while (::wait4(m_pid, &status, 0, &usage) < 0)
        if (errno != EINTR) throw std::runtime_error("wait4 failed");
    ChildExit exit;
    exit.signalled = WIFSIGNALED(status);
    exit.code = exit.signalled ? WTERMSIG(status) : WEXITSTATUS(status);
    exit.maxRssKiB = usage.ru_maxrss;
    m_exit = exit;
    return exit;
}

std::string Child::out() const { return readFile(m_scratch / "stdout"); }
std::string Child::err() const { return readFile(m_scratch / "stderr"); }

ChildResult runChild(const ChildSetup& setup) {
    Child child(setup);
    ChildResult result;
    result.exit = child.wait();
    result.out = child.out();
    result.err = child.err();
    return result;
}

std::optional<UserIds> unprivilegedUser() {
    if (::geteuid() != 0) return std::nullopt;
    const passwd* nobody = ::getpwnam("nobody");
    if (nobody == nullptr || nobody->pw_uid == 0) return std::nullopt;
    return UserIds{nobody->pw_uid, nobody->pw_gid};
}

}  // namespace terragrid::test
