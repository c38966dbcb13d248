#include "app/process_limits.hpp"

#include <malloc.h>
#include <pthread.h>
#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "terragrid/app/plan.hpp"

namespace terragrid {
namespace {

/// A "VmSize:   123456 kB" line of /proc/self/status, in bytes; 0 when it cannot be read
/// (the headroom then errs high, as the limit alone).
std::uint64_t statusBytes(const std::string& key) {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);) {
        if (!line.starts_with(key + ":")) continue;
        std::istringstream fields(line.substr(key.size() + 1));
        std::uint64_t kib = 0;
        if (fields >> kib) return kib * 1024;
    }
    return 0;
}

std::optional<std::uint64_t> softLimit(int resource) {
    rlimit limit{};
    if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
    return static_cast<std::uint64_t>(limit.rlim_cur);
}

/// The stack a new thread gets from glibc (pthread_attr defaults: RLIMIT_STACK, or 2 MiB
/// when it is unlimited); 8 MiB when it cannot be told.
std::uint64_t defaultThreadStack() {
    std::size_t size = 0;
    pthread_attr_t attributes;
    if (::pthread_getattr_default_np(&attributes) == 0) {
        ::pthread_attr_getstacksize(&attributes, &size);
        ::pthread_attr_destroy(&attributes);
    }
    return size > 0 ? std::uint64_t(size) : std::uint64_t{8} << 20;
}

/// TBB's worker stacks (oneTBB's default thread_stack_size on 64-bit systems).
constexpr std::uint64_t kTbbWorkerStack = std::uint64_t{4} << 20;
constexpr std::uint64_t kGuardPage = 4096;

}  // namespace

std::uint64_t threadStackBytes(int threads) {
    return std::uint64_t(std::max(threads, 0)) *
           (std::max(defaultThreadStack(), kTbbWorkerStack) + kGuardPage);
}

std::optional<ProcessMemoryHeadroom> processMemoryHeadroom(std::uint64_t threadStacks) {
    std::optional<ProcessMemoryHeadroom> lowest;
    const auto consider = [&](int resource, const char* status, const char* name) {
        const auto limit = softLimit(resource);
        if (!limit) return;
        const std::uint64_t used = statusBytes(status) + threadStacks;
        const std::uint64_t left = *limit > used ? *limit - used : 0;
        if (!lowest || left < lowest->bytes) lowest = ProcessMemoryHeadroom{left, name};
    };
    consider(RLIMIT_AS, "VmSize", "ulimit -v (RLIMIT_AS)");
    consider(RLIMIT_DATA, "VmData", "ulimit -d (RLIMIT_DATA)");
    return lowest;
}

bool limitMallocArenas() {
    if (!softLimit(RLIMIT_AS)) return false;
    return ::mallopt(M_ARENA_MAX, 1) == 1;
}

std::string outOfMemoryMessage(const std::string& lessMemory) {
    std::string text = "out of memory: an allocation failed";
    rlimit as{}, data{};
    const bool asSet = ::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY;
    const bool dataSet = ::getrlimit(RLIMIT_DATA, &data) == 0 && data.rlim_cur != RLIM_INFINITY;
    if (asSet) text += " under the process's ulimit -v (RLIMIT_AS) of " + formatBytes(as.rlim_cur);
    else if (dataSet)
        text += " under the process's ulimit -d (RLIMIT_DATA) of " + formatBytes(data.rlim_cur);
    return text + "; nothing was replaced, older files are as they were (" + lessMemory +
           " need less; --dry-run shows the plan)";
}

}  // namespace terragrid
