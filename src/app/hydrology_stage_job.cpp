#include "terragrid/app/hydrology_stage_job.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "app/plan_format.hpp"
#include "app/process_limits.hpp"
#include "io/safe_open.hpp"
#include "io/transaction/dir_lock.hpp"
#include "io/transaction/output_journal.hpp"
#include "io/transaction/output_transaction.hpp"
#include "pipeline/stopwatch.hpp"
#include "terragrid/app/plan.hpp"
#include "terragrid/io/hydrology_stage_file.hpp"
#include "terragrid/io/outputs.hpp"

namespace terragrid {

StagePlan planStage(const Config& config, const std::string& path, int threads) {
    const std::int64_t factor = hydrologyFactor(config);
    const std::int64_t width = config.map.wholeWidth(), height = config.map.wholeHeight();
    return {.path = path,
            .mapWidth = width,
            .mapHeight = height,
            .factor = factor,
            .gridWidth = (width + factor - 1) / factor,
            .gridHeight = (height + factor - 1) / factor,
            .fileBytes = hydrologyStageFileBound(config),
            .memoryBytes = kProgramMemoryBytes + hydrologyMemoryBytes(config),
            // TBB's workers and the signal watcher.
            .threadStackBytes = threadStackBytes(std::max(threads, 1))};
}

namespace {

/// The directory the stage file goes into: --out's parent, "." for a bare name.
std::string stageDirectory(const std::string& path) {
    const std::string parent = std::filesystem::path(path).parent_path().string();
    return parent.empty() ? "." : parent;
}

/// Whether a file of another owner in the sticky directory `dir` (as /tmp) keeps this
/// process from replacing it: rename(2) refuses unless it owns the file or the directory
/// (or has CAP_FOWNER, which root has).
bool stickyKeepsOut(const struct stat& dir, const struct stat& file) {
    const uid_t self = ::geteuid();
    return (dir.st_mode & S_ISVTX) != 0 && self != 0 && file.st_uid != self &&
           dir.st_uid != self;
}

/// What is under --out's name when it is not a regular file: "a symbolic link" (looked at
/// with lstat, never followed), "a FIFO", "a character device", ...; nullopt for nothing or a
/// regular file.
std::optional<std::string> entryInTheWay(const std::string& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return std::nullopt;
    return fileTypeName(st.st_mode);
}

}  // namespace

std::vector<std::string> stageOutProblems(const std::string& path) {
    const std::string named = "'--out " + path + "'";
    if (path.empty()) return {"'--out' needs the name of the stage file to write (got '')"};
    const std::filesystem::path file(path);
    const std::string name = file.filename().string();
    if (name.empty() || name == "." || name == "..")
        return {named + " names a directory, not a file: give the stage file's name, such as '" +
                (std::filesystem::path(path) / "stage.tgh").lexically_normal().string() + "'"};
    // The output transaction's own names (its lock, its staging folders): the commit would
    // put the stage there and then remove it with them.
    if (name == DirLock::kFileName || name.starts_with(kStagingPrefix))
        return {named + " takes a name terragrid's output transaction uses ('" + name +
                "'): give the stage file another name"};
    const std::string dir = stageDirectory(path);
    struct stat dirStat {};
    if (::stat(dir.c_str(), &dirStat) != 0)
        return {"the directory of " + named + ", '" + dir + "', " +
                (errno == ENOENT ? std::string("does not exist (hydrology-stage creates no "
                                               "directory)")
                                 : "cannot be looked at: " + std::string(std::strerror(errno)))};
    if (!S_ISDIR(dirStat.st_mode))
        return {"the directory of " + named + ", '" + dir + "', is " +
                fileTypeName(dirStat.st_mode) + ", not a directory"};
    if (::faccessat(AT_FDCWD, dir.c_str(), W_OK | X_OK, AT_EACCESS) != 0)
        return {"cannot write into '" + dir + "', the directory of " + named + ": " +
                std::strerror(errno)};
    struct stat fileStat {};
    if (::lstat(path.c_str(), &fileStat) != 0) {
        if (errno == ENOENT) return {};
        return {"cannot look at " + named + ": " + std::string(std::strerror(errno))};
    }
    // Anything but a regular file was not made by terragrid: a device or a FIFO would be
    // deleted by the commit (renamed over), a link cut (never written through).
    if (const auto entry = entryInTheWay(path))
        return {named + " is " + *entry + ": hydrology-stage replaces a regular file only "
                "(remove it, or give another name)"};
    if (stickyKeepsOut(dirStat, fileStat))
        return {named + " belongs to another user in the sticky directory '" + dir +
                "', so it cannot be replaced: give another name"};
    return {};
}

Resources probeStageResources(const StagePlan& plan) {
    return probeResources(stageDirectory(plan.path), plan.threadStackBytes);
}

std::vector<std::string> stageShortfalls(const StagePlan& plan, const Resources& resources) {
    std::vector<std::string> problems = stageOutProblems(plan.path);
    // The stage is written under the directory's lock (writeStageFile): what keeps the lock
    // out is told before the long computation.
    if (auto problem = lockEntryProblem(stageDirectory(plan.path)))
        problems.push_back(std::move(*problem));
    if (resources.freeDiskBytes && plan.fileBytes > *resources.freeDiskBytes)
        problems.push_back("the hydrology stage file '" + plan.path + "' may take up to " +
                           formatBytes(plan.fileBytes) + ", but only " +
                           formatBytes(*resources.freeDiskBytes) + " are free in '" +
                           resources.diskPath + "'");
    if (resources.availableMemoryBytes && plan.memoryBytes > *resources.availableMemoryBytes)
        problems.push_back("computing the hydrology stage needs up to " +
                           formatBytes(plan.memoryBytes) + " of memory, but only " +
                           formatBytes(*resources.availableMemoryBytes) + " are available" +
                           (resources.memoryLimit.empty()
                                ? std::string()
                                : " under the process's " + resources.memoryLimit) +
                           "; a coarser hydrology.resolution needs less");
    return problems;
}

std::string stagePlanText(const StagePlan& plan, const Resources& resources) {
    const auto n = [](std::int64_t v) { return std::to_string(v); };
    std::string text = "terragrid: dry run, nothing is written\n";
    text += "stage:   " + n(plan.gridWidth) + " x " + n(plan.gridHeight) +
            " hydrology cells (" + n(plan.factor) + " map cells a side each) of a " +
            n(plan.mapWidth) + " x " + n(plan.mapHeight) + " map\n";
    text += "file:    '" + plan.path + "' up to " + formatBytes(plan.fileBytes) + "; " +
            unknownOr(resources.freeDiskBytes, "free") +
            (resources.diskPath.empty() ? "" : " in '" + resources.diskPath + "'") + "\n";
    text += "memory:  up to " + formatBytes(plan.memoryBytes) + " (program " +
            formatBytes(kProgramMemoryBytes) + ", hydrology stage " +
            formatBytes(plan.memoryBytes - kProgramMemoryBytes) + "); " +
            unknownOr(resources.availableMemoryBytes, "available") +
            limitNote(resources, plan.threadStackBytes) + "\n";
    text += stageShortfalls(plan, resources).empty() ? "fits:    yes\n" : "fits:    no\n";
    return text;
}

std::string stagePlanJson(const StagePlan& plan, const Resources& resources) {
    nlohmann::ordered_json j;
    j["map"] = {{"width", plan.mapWidth}, {"height", plan.mapHeight}};
    j["grid"] = {{"factor", plan.factor}, {"width", plan.gridWidth}, {"height", plan.gridHeight}};
    j["file"] = {{"path", plan.path},
                 {"bytes", plan.fileBytes},
                 {"free_bytes", optionalBytes(resources.freeDiskBytes)},
                 {"checked_path", resources.diskPath}};
    j["memory"] = {{"bytes", plan.memoryBytes},
                   {"parts", {{{"what", "program"}, {"bytes", kProgramMemoryBytes}},
                              {{"what", "hydrology stage"},
                               {"bytes", plan.memoryBytes - kProgramMemoryBytes}}}},
                   {"available_bytes", optionalBytes(resources.availableMemoryBytes)},
                   {"process_limit", resources.memoryLimit.empty()
                                         ? nlohmann::ordered_json(nullptr)
                                         : nlohmann::ordered_json(resources.memoryLimit)},
                   {"thread_stack_bytes", plan.threadStackBytes}};
    const auto problems = stageShortfalls(plan, resources);
    j["fits"] = problems.empty();
    j["problems"] = problems;
    return j.dump(2) + "\n";
}

StageReport writeStageFile(const Config& config, const std::string& path, int threads) {
    const auto start = Clock::now();
    const StagePlan plan = planStage(config, path, threads);
    if (const auto problems = stageShortfalls(plan, probeStageResources(plan)); !problems.empty())
        throw PlanError(problems);
    const HydrologyStage stage = computeHydrology(config);
    // The file is written as a run writes its outputs: in an output transaction on its
    // directory (output_transaction.hpp), so its temporary file lies in the transaction's
    // staging folder, which a stopping signal removes and which the next run or stage job
    // into that directory removes after a SIGKILL (a bare `.stage.tgh.tmp-XXXXXX` would tell
    // no one whether its writer is still alive). Taken once the stage is computed, as a run
    // takes its own, so the directory is not locked during the long part.
    OutputTransaction transaction(stageDirectory(path));
    StageReport report;
    report.bytes = writeHydrologyStage(config, stage, path);
    // The name is looked at again just before the commit replaces what is there: a device,
    // a FIFO or a link put there while the stage was computed is refused as it would have
    // been at the start, and nothing is put in place (the transaction removes the new file).
    if (auto problems = stageOutProblems(path); !problems.empty())
        throw PlanError(std::move(problems));
    transaction.commit();
    report.facts = stage.facts;
    report.seconds = secondsSince(start);
    return report;
}

}  // namespace terragrid
