// A plan as --dry-run shows it: text for people, JSON for scripts.

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

#include "app/plan_format.hpp"
#include "terragrid/app/plan.hpp"

namespace terragrid {
namespace {

using Json = nlohmann::ordered_json;

std::string number(std::int64_t n) { return std::to_string(n); }

std::string sizeLine(const RunPlan& plan) {
    const CellWindow& w = plan.window;
    std::string line = number(w.width) + " x " + number(w.height) + " cells";
    if (plan.isWindow())
        line += " (window " + number(w.col0) + "," + number(w.row0) + "," + number(w.width) + "," +
                number(w.height) + " of " + number(plan.mapWidth) + " x " + number(plan.mapHeight) +
                ")";
    return line + ", " + number(plan.tiles) + " tiles of " + number(plan.tileSize) + ", " +
           number(plan.threads) + (plan.threads == 1 ? " thread" : " threads");
}

std::string outputLine(const PlannedOutput& o, std::size_t pathWidth) {
    std::string line = "  " + o.path;
    line += std::string(pathWidth - o.path.size() + 2, ' ');
    line += "up to " + formatBytes(o.bytes);
    if (o.files > 1) line += " in " + number(o.files) + " files";
    if (o.compressed) line += " (compressed)";
    if (o.mostWater) line += " (most water)";
    return line + "\n";
}

std::string memoryParts(const RunPlan& plan) {
    std::string text;
    for (const MemoryPart& part : plan.memory)
        text += (text.empty() ? "" : ", ") + part.what + " " + formatBytes(part.bytes);
    return text;
}

}  // namespace

std::string unknownOr(const std::optional<std::uint64_t>& bytes, const std::string& what) {
    return bytes ? formatBytes(*bytes) + " " + what : what + " unknown";
}

Json optionalBytes(const std::optional<std::uint64_t>& bytes) {
    return bytes ? Json(*bytes) : Json(nullptr);
}

std::string limitNote(const Resources& resources, std::uint64_t threadStackBytes) {
    if (resources.memoryLimit.empty()) return {};
    return " under the process's " + resources.memoryLimit + ", with " +
           formatBytes(threadStackBytes) + " of thread stacks set aside";
}

std::string planText(const RunPlan& plan, const Resources& resources) {
    std::string text = "terragrid: dry run, nothing is written\n";
    text += "map:     " + sizeLine(plan) + "\n";
    text += "outputs: into '" + plan.directory + "', each an upper bound; (compressed): bounded by "
            "its uncompressed size, usually much smaller\n";
    if (std::any_of(plan.outputs.begin(), plan.outputs.end(),
                    [](const PlannedOutput& o) { return o.mostWater; }))
        text += "         (most water): bounded by the most water the map can hold (a river "
                "through every hydrology cell, lakes around them), usually much smaller\n";
    std::size_t pathWidth = 0;
    for (const PlannedOutput& o : plan.outputs) pathWidth = std::max(pathWidth, o.path.size());
    pathWidth = std::max(pathWidth, plan.manifestPath.size());
    for (const PlannedOutput& o : plan.outputs) text += outputLine(o, pathWidth);
    if (!plan.manifestPath.empty())
        text += "  " + plan.manifestPath + std::string(pathWidth - plan.manifestPath.size() + 2, ' ') +
                "up to " + formatBytes(plan.manifestBytes) + "\n";
    text += "disk:    up to " + formatBytes(plan.diskBytes()) + "; " +
            unknownOr(resources.freeDiskBytes, "free") +
            (resources.diskPath.empty() ? "" : " in '" + resources.diskPath + "'") + "\n";
    text += "memory:  up to " + formatBytes(plan.memoryBytes()) + " (" + memoryParts(plan) + "); " +
            unknownOr(resources.availableMemoryBytes, "available") +
            limitNote(resources, plan.threadStackBytes) + "\n";
    const auto shortfalls = planShortfalls(plan, resources);
    text += shortfalls.empty() ? "fits:    yes\n" : "fits:    no\n";
    return text;
}

std::string planJson(const RunPlan& plan, const Resources& resources) {
    Json outputs = Json::array();
    for (const PlannedOutput& o : plan.outputs)
        outputs.push_back({{"file", kOutputFileNames[static_cast<std::size_t>(o.file)]},
                           {"path", o.path},
                           {"files", o.files},
                           {"bytes", o.bytes},
                           {"compressed", o.compressed},
                           {"most_water", o.mostWater}});
    Json parts = Json::array();
    for (const MemoryPart& part : plan.memory)
        parts.push_back({{"what", part.what}, {"bytes", part.bytes}});
    const CellWindow& w = plan.window;
    Json j;
    j["map"] = {{"width", plan.mapWidth}, {"height", plan.mapHeight}};
    j["window"] = {{"col", w.col0}, {"row", w.row0}, {"width", w.width}, {"height", w.height}};
    j["tile_size"] = plan.tileSize;
    j["tiles"] = plan.tiles;
    j["threads"] = plan.threads;
    j["directory"] = plan.directory;
    j["outputs"] = outputs;
    j["manifest"] = plan.manifestPath.empty()
                        ? Json(nullptr)
                        : Json{{"path", plan.manifestPath}, {"bytes", plan.manifestBytes}};
    j["disk"] = {{"bytes", plan.diskBytes()},
                 {"free_bytes", optionalBytes(resources.freeDiskBytes)},
                 {"checked_path", resources.diskPath}};
    j["memory"] = {{"bytes", plan.memoryBytes()},
                   {"parts", parts},
                   {"available_bytes", optionalBytes(resources.availableMemoryBytes)},
                   {"process_limit", resources.memoryLimit.empty()
                                         ? Json(nullptr)
                                         : Json(resources.memoryLimit)},
                   {"thread_stack_bytes", plan.threadStackBytes}};
    const auto shortfalls = planShortfalls(plan, resources);
    j["fits"] = shortfalls.empty();
    j["problems"] = shortfalls;
    return j.dump(2) + "\n";
}

}  // namespace terragrid
