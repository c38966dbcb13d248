// Whether a plan fits the machine: free disk space under the output directory, available
// memory, and the refusal when it does not.

#include <sys/statvfs.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/process_limits.hpp"
#include "terragrid/app/plan.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;

// The output directory is created by the run, so before it exists the space that counts is
// its nearest existing parent's (the file system it will be created on).
fs::path nearestExisting(fs::path path) {
    if (path.empty()) path = ".";
    std::error_code ec;
    while (!fs::exists(path, ec)) {
        const fs::path parent = path.has_relative_path() ? path.parent_path() : path;
        if (parent == path || parent.empty()) return ".";
        path = parent;
    }
    return path;
}

std::optional<std::uint64_t> readNumber(const fs::path& file) {
    std::ifstream in(file);
    std::uint64_t value = 0;
    if (in >> value) return value;
    return std::nullopt;  // missing, or "max" (no limit)
}

std::optional<std::uint64_t> memAvailable() {
    std::ifstream in("/proc/meminfo");
    std::string key, unit;
    std::uint64_t kib = 0;
    while (in >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    return std::nullopt;
}

// What a cgroup memory limit leaves (v2: memory.max and memory.current of the process's own
// cgroup; v1: the memory controller's limit and usage), as containers and batch schedulers
// set it; /proc/meminfo shows the whole machine.
std::optional<std::uint64_t> cgroupHeadroom() {
    std::ifstream in("/proc/self/cgroup");
    for (std::string line; std::getline(in, line);) {
        // "ID:CONTROLLERS:PATH"; v2 has no controllers.
        const auto first = line.find(':');
        const auto second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const fs::path path = fs::path(line.substr(second + 1)).relative_path();
        std::optional<std::uint64_t> limit, usage;
        if (controllers.empty()) {
            limit = readNumber("/sys/fs/cgroup" / path / "memory.max");
            usage = readNumber("/sys/fs/cgroup" / path / "memory.current");
        } else if (controllers == "memory") {
            limit = readNumber("/sys/fs/cgroup/memory" / path / "memory.limit_in_bytes");
            usage = readNumber("/sys/fs/cgroup/memory" / path / "memory.usage_in_bytes");
        }
        // v1 reports "no limit" as a number near 2^63.
        if (limit && usage && *limit < (std::uint64_t{1} << 60))
            return *limit > *usage ? *limit - *usage : 0;
    }
    return std::nullopt;
}

std::string quoted(const std::string& path) { return "'" + path + "'"; }

}  // namespace

Resources probeResources(const std::string& directory, std::uint64_t threadStackBytes) {
    Resources r;
    try {
        const fs::path checked = nearestExisting(directory);
        r.diskPath = checked.string();
        struct statvfs fs {};
        if (::statvfs(r.diskPath.c_str(), &fs) == 0)
            r.freeDiskBytes = std::uint64_t(fs.f_bavail) * std::uint64_t(fs.f_frsize);
        r.availableMemoryBytes = memAvailable();
        if (const auto headroom = cgroupHeadroom())
            if (!r.availableMemoryBytes || *headroom < *r.availableMemoryBytes)
                r.availableMemoryBytes = headroom;
        if (const auto own = processMemoryHeadroom(threadStackBytes))
            if (!r.availableMemoryBytes || own->bytes < *r.availableMemoryBytes) {
                r.availableMemoryBytes = own->bytes;
                r.memoryLimit = own->limit;
            }
    } catch (const std::exception&) {
        // A probe that fails leaves the resource unknown: the run is then not refused for it.
    }
    return r;
}

namespace {

std::string freeSpaceText(const RunPlan& plan, const Resources& resources) {
    const bool missing = fs::path(resources.diskPath) != fs::path(plan.directory);
    return formatBytes(*resources.freeDiskBytes) + " are free there" +
           (missing ? " (on " + quoted(resources.diskPath) + ")" : std::string());
}

}  // namespace

std::vector<std::string> planWarnings(const RunPlan& plan, const Resources& resources) {
    // Refused by planShortfalls when even the certain part does not fit.
    if (!resources.freeDiskBytes || plan.diskBytes() <= *resources.freeDiskBytes ||
        plan.certainDiskBytes() > *resources.freeDiskBytes)
        return {};
    return {"the run may need up to " + formatBytes(plan.diskBytes()) + " on disk in " +
            quoted(plan.directory) + " if its compressed outputs do not compress" +
            (std::any_of(plan.outputs.begin(), plan.outputs.end(),
                         [](const PlannedOutput& o) { return o.mostWater; })
                 ? " and its water fills the map"
                 : "") +
            ", and only " +
            freeSpaceText(plan, resources) + "; it may fail with a full disk (older outputs "
            "then stay as they are)"};
}

std::vector<std::string> planShortfalls(const RunPlan& plan, const Resources& resources) {
    std::vector<std::string> problems;
    // Only what the run certainly writes refuses it: compressed outputs are often a fraction
    // of their bound, and refusing a run that would fit is as wrong as starting one that
    // cannot (planWarnings tells of the rest).
    const std::uint64_t disk = plan.certainDiskBytes();
    if (resources.freeDiskBytes && disk > *resources.freeDiskBytes) {
        problems.push_back(
            "the run needs " + formatBytes(disk) + " on disk in " + quoted(plan.directory) +
            " for its uncompressed outputs alone, but only " + freeSpaceText(plan, resources) +
            "; older outputs are replaced only at the end (see --dry-run)");
    }
    const std::uint64_t memory = plan.memoryBytes();
    if (resources.availableMemoryBytes && memory > *resources.availableMemoryBytes) {
        problems.push_back("the run needs up to " + formatBytes(memory) +
                           " of memory, but only " +
                           formatBytes(*resources.availableMemoryBytes) + " are available" +
                           (resources.memoryLimit.empty()
                                ? std::string()
                                : " under the process's " + resources.memoryLimit) +
                           "; fewer threads, a smaller output.preview_max_size, "
                           "fewer outputs or --shard need less (see --dry-run)");
    }
    for (std::string& problem : outputNameProblems(plan)) problems.push_back(std::move(problem));
    return problems;
}

namespace {
std::string joinLines(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines) text += (text.empty() ? "" : "\n") + line;
    return text;
}
}  // namespace

PlanError::PlanError(std::vector<std::string> shortfalls)
    : std::runtime_error(joinLines(shortfalls)), m_shortfalls(std::move(shortfalls)) {}

std::string formatBytes(std::uint64_t bytes) {
    if (bytes < 1024) return std::to_string(bytes) + " B";
    const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = double(bytes) / 1024.0;
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < std::size(units)) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
    return text;
}

}  // namespace terragrid
