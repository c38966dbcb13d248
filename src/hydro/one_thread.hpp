#pragma once
// Whether a parallel pass will run on one thread: passes whose parallel form needs atomics
// (hydro's walks along the flow) then take a plain form with the same results.

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

namespace terragrid::hydro::detail {

/// Whether TBB may run only one thread here (a one-thread arena, or a global limit of 1).
inline bool runsOnOneThread() {
    return tbb::this_task_arena::max_concurrency() == 1 ||
           tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism) == 1;
}

}  // namespace terragrid::hydro::detail
