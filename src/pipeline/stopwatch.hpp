#pragma once
// The clocks of the timings a run reports (GenerationTimes, stats.json's timing_seconds).
// Wall time on the steady clock, so a change of the system time cannot make a step take
// negative seconds; CPU time on the calling thread's own clock, so work counted on a worker
// does not grow when other processes take the core from it.

#include <time.h>

#include <chrono>

namespace terragrid {

using Clock = std::chrono::steady_clock;

/// Seconds from `start` to now.
inline double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

/// CPU time the calling thread has used, in nanoseconds (0 where the clock is missing).
inline long long threadCpuNanos() noexcept {
    timespec t{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
    return static_cast<long long>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

/// CPU time (user + system) the whole process has used, in seconds.
inline double processCpuSeconds() noexcept {
    timespec t{};
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return 0;
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

}  // namespace terragrid
