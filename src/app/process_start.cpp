#include "terragrid/app/process_start.hpp"

#include <atomic>

#include "pipeline/stopwatch.hpp"

namespace terragrid {
namespace {

// Nanoseconds of the steady clock at the mark; 0: not marked. Atomic because a library user
// may mark from one thread and run from another.
std::atomic<Clock::rep> gStart{0};

}  // namespace

void markProcessStart() { gStart.store(Clock::now().time_since_epoch().count()); }

double secondsSinceProcessStart() {
    const Clock::rep start = gStart.load();
    if (start == 0) return 0;
    return secondsSince(Clock::time_point(Clock::duration(start)));
}

}  // namespace terragrid
