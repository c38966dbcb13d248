#pragma once
// One whole job: resolve the terrain, generate the map into every output, analyse regions,
// write stats.json, and put every file in place only when all of them are complete.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "terragrid/io/config.hpp"
#include "terragrid/pipeline/generator.hpp"
#include "terragrid/model/window.hpp"

namespace terragrid {

/// What a run produced, for the summary line.
struct RunReport {
    std::vector<std::string> files;  ///< main path of each output, files order, stats.json last
    /// Every file of each output (OutputSink::files: its main file first, then the other
    /// images of a set and the sidecars), in the order of `files`; then manifest.json alone,
    /// when output.manifest wrote it.
    std::vector<std::vector<std::string>> outputFiles;
    std::int64_t tiles = 0;
    float elevationMin = 0;
    float elevationMax = 0;
    double seconds = 0;
};

/// Told, in the writing stage, of each output finished and handed to the commit: its main
/// file's path and the bytes it takes with its companions (progress.hpp).
using FileWrittenFn = std::function<void(const std::string& path, std::uint64_t bytes)>;

/// Runs config in the calling thread's TBB arena. Creates config.output.directory if missing.
/// Throws ConfigError (a coverage target that cannot be reached) or OutputError; on any
/// failure no new file is left behind and older outputs are intact.
/// `hydrologyStageFile`: with config.hydrology.enabled, the stage file (hydrology-stage) the run
/// reads its whole-map stage from, before anything is created, instead of computing it; empty:
/// the run computes it. A file that is not this config's stage throws HydrologyStageFileError.
RunReport runMap(const Config& config, const ProgressFn& progress = {},
                 const FileWrittenFn& written = {}, const std::string& hydrologyStageFile = {});

/// Runs only `window` of config's map, as if windowConfig(config, window.cells) had been run,
/// except that what must hold for the whole map is taken from the whole map: coverage
/// thresholds are estimated on config's full map, so every window classifies its cells as the
/// single run does. stats.json then describes the window (its counts, shares, elevation and
/// walkable regions, cut at its edges) and says so in a "window" object; "map" stays the
/// configured map. Throws WindowError (checkWindow) before anything else, then as runMap.
RunReport runMap(const Config& config, const MapWindow& window, const ProgressFn& progress = {},
                 const FileWrittenFn& written = {}, const std::string& hydrologyStageFile = {});

}  // namespace terragrid
