#pragma once
// The memory a process's own limits leave it (setrlimit: `ulimit -v`, `ulimit -d`), for the
// memory plan (plan.hpp). MemAvailable and a cgroup limit tell what the machine and the
// container leave; a process limit is lower still when set, and a run that exceeds it dies of
// std::bad_alloc halfway instead of being refused before it starts.
//
// The plan counts resident memory; RLIMIT_AS counts address space, which is more: the
// libraries mapped (in VmSize when the plan is made), a stack for every thread the run starts
// (RLIMIT_STACK each, 8 MiB by default, mostly never touched) and, by default, a 64 MiB
// reservation for each of glibc malloc's per-thread arenas. A run of 1024^2 cells with every
// output and 2 threads peaked at 342 MiB of address space for 120 MiB resident, and under a
// `ulimit -v` that left the plan room it failed or not depending on which thread reserved its
// arena first (issue 31, item 4). So under RLIMIT_AS malloc keeps one arena (limitMallocArenas),
// and the headroom is the limit less VmSize less the stacks of the threads the run will start.
// RLIMIT_DATA counts private writable mappings: the stacks too, but not the arenas' untouched
// reservations.

#include <cstdint>
#include <optional>
#include <string>

namespace terragrid {

struct ProcessMemoryHeadroom {
    std::uint64_t bytes = 0;  ///< what the limit leaves beyond what the process uses now
    std::string limit;        ///< which one: "ulimit -v (RLIMIT_AS)", "ulimit -d (RLIMIT_DATA)"
};

/// The smaller headroom of RLIMIT_AS (address space: limit less VmSize) and RLIMIT_DATA (data
/// segment and private mappings: limit less VmData), each less `threadStacks`, the address
/// space the threads the run will start reserve for their stacks (threadStackBytes); nullopt
/// when neither limit is set.
std::optional<ProcessMemoryHeadroom> processMemoryHeadroom(std::uint64_t threadStacks = 0);

/// The address space `threads` new threads reserve for their stacks: each the larger of
/// glibc's default thread stack (RLIMIT_STACK, as std::thread and OpenEXR's pool get) and
/// TBB's worker stack (4 MiB), with its guard page.
std::uint64_t threadStackBytes(int threads);

/// Under a limit on the address space (RLIMIT_AS), makes glibc's malloc use a single arena
/// (mallopt M_ARENA_MAX 1): every other arena reserves 64 MiB of address space that the limit
/// counts though almost none of it is used, and which thread gets one first decides whether a
/// run fits. All threads then share one arena's lock (measured in docs/usage.md, Memory
/// limits). Without such a limit nothing changes. Call first in main, before any thread
/// starts. Returns whether it limited them.
bool limitMallocArenas();

/// The sentence for an allocation that failed (std::bad_alloc) anywhere in a run: says so,
/// names the process's memory limit when one is set, that nothing was replaced, and
/// `lessMemory`, what needs less ("fewer threads, ...").
std::string outOfMemoryMessage(const std::string& lessMemory);

}  // namespace terragrid
