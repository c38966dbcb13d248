#include "app/process_limits.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

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

/// The address space the threads a run starts will reserve for their stacks: one per core
/// (TBB's workers) and the signal watcher, each of RLIMIT_STACK (8 MiB by default). A stack
/// is mostly never touched, so the memory plan leaves it out; an address-space limit counts
/// it all the same.
std::uint64_t threadStacksBytes() {
    constexpr std::uint64_t kDefaultStack = 8ull << 20;
    const std::uint64_t stack = std::min(softLimit(RLIMIT_STACK).value_or(kDefaultStack),
                                         kDefaultStack);
    return (std::uint64_t(std::thread::hardware_concurrency()) + 1) * stack;
}

}  // namespace

std::optional<ProcessMemoryHeadroom> processMemoryHeadroom() {
    std::optional<ProcessMemoryHeadroom> lowest;
    const auto consider = [&](int resource, const char* status, const char* name) {
        const auto limit = softLimit(resource);
        if (!limit) return;
        const std::uint64_t used =
            statusBytes(status) + (resource == RLIMIT_AS ? threadStacksBytes() : 0);
        const std::uint64_t left = *limit > used ? *limit - used : 0;
        if (!lowest || left < lowest->bytes) lowest = ProcessMemoryHeadroom{left, name};
    };
    consider(RLIMIT_AS, "VmSize", "ulimit -v (RLIMIT_AS)");
    consider(RLIMIT_DATA, "VmData", "ulimit -d (RLIMIT_DATA)");
    return lowest;
}

}  // namespace terragrid
