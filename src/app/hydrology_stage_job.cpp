#include "terragrid/app/hydrology_stage_job.hpp"

#include <filesystem>

#include "pipeline/stopwatch.hpp"
#include "terragrid/app/plan.hpp"
#include "terragrid/io/hydrology_stage_file.hpp"

namespace terragrid {

StagePlan planStage(const Config& config, const std::string& path) {
    return {.path = path,
            .fileBytes = hydrologyStageFileBound(config),
            .memoryBytes = kProgramMemoryBytes + hydrologyMemoryBytes(config)};
}

std::vector<std::string> stageShortfalls(const StagePlan& plan) {
    const std::filesystem::path parent = std::filesystem::path(plan.path).parent_path();
    const Resources resources = probeResources(parent.empty() ? "." : parent.string());
    std::vector<std::string> problems;
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

StageReport writeStageFile(const Config& config, const std::string& path) {
    const auto start = Clock::now();
    if (const auto problems = stageShortfalls(planStage(config, path)); !problems.empty())
        throw PlanError(problems);
    const HydrologyStage stage = computeHydrology(config);
    StageReport report;
    report.bytes = writeHydrologyStage(config, stage, path);
    report.facts = stage.facts;
    report.seconds = secondsSince(start);
    return report;
}

}  // namespace terragrid
