#pragma once
// The memory a process's own limits leave it (setrlimit: `ulimit -v`, `ulimit -d`), for the
// memory plan (plan.hpp). MemAvailable and a cgroup limit tell what the machine and the
// container leave; a process limit is lower still when set, and a run that exceeds it dies of
// std::bad_alloc halfway instead of being refused before it starts.

#include <cstdint>
#include <optional>
#include <string>

namespace terragrid {

struct ProcessMemoryHeadroom {
    std::uint64_t bytes = 0;  ///< what the limit leaves beyond what the process uses now
    std::string limit;        ///< which one: "ulimit -v (RLIMIT_AS)", "ulimit -d (RLIMIT_DATA)"
};

/// The smaller headroom of RLIMIT_AS (address space: limit less VmSize) and RLIMIT_DATA (data
/// segment and private mappings: limit less VmData); nullopt when neither is set.
std::optional<ProcessMemoryHeadroom> processMemoryHeadroom();

}  // namespace terragrid
