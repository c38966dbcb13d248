#pragma once
// The clock of the timings a run reports (GenerationTimes, stats.json's timing_seconds):
// steady, so a change of the system time cannot make a step take negative seconds.

#include <chrono>

namespace terragrid {

using Clock = std::chrono::steady_clock;

/// Seconds from `start` to now.
inline double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace terragrid
