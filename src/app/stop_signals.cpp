#include "terragrid/app/stop_signals.hpp"

#include <pthread.h>
#include <unistd.h>

#include <csignal>
#include <string>
#include <system_error>
#include <thread>

#include "io/atomic_file.hpp"

namespace terragrid {
namespace {

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

std::string signalName(int sig) {
    switch (sig) {
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        case SIGHUP: return "SIGHUP";
        default: return "signal " + std::to_string(sig);
    }
}

[[noreturn]] void stopBy(int sig) {
    const std::size_t removed = abandonAllTemporaryFiles();
    // A progress bar may be half drawn on the terminal's last line.
    const std::string message = std::string(::isatty(STDERR_FILENO) ? "\n" : "") +
                                "terragrid: stopped by " + signalName(sig) + "; removed " +
                                std::to_string(removed) + " temporary file" +
                                (removed == 1 ? "" : "s") + "\n";
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

void stopOnSignals() {
    sigset_t set;
    sigemptyset(&set);
    bool any = false;
    for (const int sig : kStopSignals) {
        struct sigaction old {};
        if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaddset(&set, sig);
        any = true;
    }
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
