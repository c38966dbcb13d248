#include "terragrid/app/stop_signals.hpp"

#include <pthread.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <string>
#include <system_error>
#include <thread>

#include "io/transaction/atomic_file.hpp"

namespace terragrid {
namespace {

// Every asynchronous signal whose default action ends the process, but SIGPIPE and SIGXFSZ
// (ignoreWriteSignals) and SIGKILL (cannot be caught). The synchronous ones (SIGSEGV, SIGBUS,
// SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS) hit the faulting thread and cannot be waited for:
// like SIGKILL, what they leave is cleaned up by the next run (output_transaction.hpp).
constexpr int kStopSignals[] = {SIGINT,  SIGTERM,   SIGHUP,  SIGQUIT, SIGUSR1,   SIGUSR2,
                                SIGALRM, SIGVTALRM, SIGPROF, SIGPOLL, SIGXCPU,   SIGPWR,
                                SIGSTKFLT};

std::string signalName(int sig) {
    if (const char* abbrev = ::sigabbrev_np(sig)) return std::string("SIG") + abbrev;
    if (sig >= SIGRTMIN && sig <= SIGRTMAX) return "SIGRTMIN+" + std::to_string(sig - SIGRTMIN);
    return "signal " + std::to_string(sig);
}

[[noreturn]] void stopBy(int sig) {
    const AbandonedOutputs abandoned = abandonAllTemporaryFiles();
    const std::size_t removed = abandoned.removedFiles;
    // A progress bar may be half drawn on the terminal's last line. Which set of outputs is in
    // place is decided by the commit point (output_transaction.hpp): the message says which
    // when it is the new one.
    const std::string message =
        std::string(::isatty(STDERR_FILENO) ? "\n" : "") + "terragrid: stopped by " +
        signalName(sig) + "; removed " + std::to_string(removed) + " temporary file" +
        (removed == 1 ? "" : "s") +
        (abandoned.committed ? "; the run's outputs were committed before the signal and are "
                               "in place"
                             : "") +
        "\n";
    (void)!::write(STDERR_FILENO, message.data(), message.size());
    // Die by the signal itself: a shell running terragrid in a script stops the script on
    // Ctrl-C only when its child was killed by SIGINT, not when it merely exited 130.
    std::signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
    ::raise(sig);
    ::_exit(128 + sig);  // still here: PID 1 of a container ignores default-action signals
}

}  // namespace

void ignoreWriteSignals() {
    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGXFSZ, SIG_IGN);
}

void stopOnSignals() {
    ignoreWriteSignals();
    sigset_t set;
    sigemptyset(&set);
    bool any = false;
    const auto add = [&](int sig) {
        struct sigaction old {};
        if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) return;
        sigaddset(&set, sig);
        any = true;
    };
    for (const int sig : kStopSignals) add(sig);
    // The real-time signals also end a process by default; SIGRTMIN already leaves out the
    // ones glibc keeps for its threads.
    for (int sig = SIGRTMIN; sig <= SIGRTMAX; ++sig) add(sig);
    if (!any || pthread_sigmask(SIG_BLOCK, &set, nullptr) != 0) return;
    try {
        std::thread([set] {
            int sig = 0;
            while (sigwait(&set, &sig) != 0) {
            }
            stopBy(sig);
        }).detach();
    } catch (const std::system_error&) {
        // No watcher: give the signals their default action back rather than ignore them.
        pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    }
}

}  // namespace terragrid
