#include "terragrid/app/hydrology_stage_job.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "io/transaction/dir_lock.hpp"
#include "io/transaction/output_transaction.hpp"
#include "pipeline/stopwatch.hpp"
#include "terragrid/app/plan.hpp"
#include "terragrid/io/hydrology_stage_file.hpp"
#include "terragrid/io/outputs.hpp"

namespace terragrid {

StagePlan planStage(const Config& config, const std::string& path) {
    const std::int64_t factor = hydrologyFactor(config);
    const std::int64_t width = config.map.wholeWidth(), height = config.map.wholeHeight();
    return {.path = path,
            .mapWidth = width,
            .mapHeight = height,
            .factor = factor,
            .gridWidth = (width + factor - 1) / factor,
            .gridHeight = (height + factor - 1) / factor,
            .fileBytes = hydrologyStageFileBound(config),
            .memoryBytes = kProgramMemoryBytes + hydrologyMemoryBytes(config)};
}

Resources probeStageResources(const StagePlan& plan) {
    const std::filesystem::path parent = std::filesystem::path(plan.path).parent_path();
    return probeResources(parent.empty() ? "." : parent.string());
}

std::vector<std::string> stageShortfalls(const StagePlan& plan, const Resources& resources) {
    std::vector<std::string> problems;
    // The stage is written under the directory's lock (writeStageFile): what keeps the lock
    // out is told before the long computation.
    const std::string directory = std::filesystem::path(plan.path).parent_path().string();
    if (auto problem = lockEntryProblem(directory.empty() ? "." : directory))
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

namespace {
std::string unknownOr(const std::optional<std::uint64_t>& bytes, const std::string& what) {
    return bytes ? formatBytes(*bytes) + " " + what : what + " unknown";
}
nlohmann::ordered_json optionalBytes(const std::optional<std::uint64_t>& bytes) {
    return bytes ? nlohmann::ordered_json(*bytes) : nlohmann::ordered_json(nullptr);
}
}  // namespace

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
            unknownOr(resources.availableMemoryBytes, "available") + "\n";
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
                   {"available_bytes", optionalBytes(resources.availableMemoryBytes)}};
    const auto problems = stageShortfalls(plan, resources);
    j["fits"] = problems.empty();
    j["problems"] = problems;
    return j.dump(2) + "\n";
}

StageReport writeStageFile(const Config& config, const std::string& path) {
    const auto start = Clock::now();
    const StagePlan plan = planStage(config, path);
    if (const auto problems = stageShortfalls(plan, probeStageResources(plan)); !problems.empty())
        throw PlanError(problems);
    const HydrologyStage stage = computeHydrology(config);
    // The file is written as a run writes its outputs: in an output transaction on its
    // directory (output_transaction.hpp), so its temporary file lies in the transaction's
    // staging folder, which a stopping signal removes and which the next run or stage job
    // into that directory removes after a SIGKILL (a bare `.stage.tgh.tmp-XXXXXX` would tell
    // no one whether its writer is still alive). Taken once the stage is computed, as a run
    // takes its own, so the directory is not locked during the long part.
    const std::string directory = std::filesystem::path(path).parent_path().string();
    const std::string dir = directory.empty() ? "." : directory;
    if (struct stat st{}; ::stat(dir.c_str(), &st) != 0)
        throw OutputError("writing '" + path + "': " + std::strerror(errno));
    OutputTransaction transaction(dir);
    StageReport report;
    report.bytes = writeHydrologyStage(config, stage, path);
    transaction.commit();
    report.facts = stage.facts;
    report.seconds = secondsSince(start);
    return report;
}

}  // namespace terragrid
