#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// `terragrid hydrology-stage`: the shared first step of a job array. Computes the whole-map
// hydrology stage of a config once and writes it to a stage file
// (io/hydrology_stage_file.hpp) that every shard then reads with --hydrology-stage.

#include <cstdint>
#include <string>
#include <vector>

#include "terragrid/app/plan.hpp"
#include "terragrid/io/config.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"

namespace terragrid {

/// What writing a stage file takes, known before it starts.
struct StagePlan {
    std::string path;             ///< the stage file
    std::int64_t mapWidth = 0, mapHeight = 0;    ///< the whole map
    std::int64_t factor = 1;                     ///< map cells per hydrology cell along a side
    std::int64_t gridWidth = 0, gridHeight = 0;  ///< the hydrology grid
    std::uint64_t fileBytes = 0;  ///< upper bound on its size (hydrologyStageFileBound)
    std::uint64_t memoryBytes = 0;  ///< the program and the stage at its peak
    /// Address space the threads it starts reserve for their stacks (RunPlan's likewise).
    std::uint64_t threadStackBytes = 0;
};

/// The plan of writing config's stage to `path` with `threads` worker threads. Pure.
StagePlan planStage(const Config& config, const std::string& path, int threads);

/// The free disk beside plan.path and the available memory, a process limit's less the
/// plan's thread stacks (probeResources). Never throws.
Resources probeStageResources(const StagePlan& plan);

/// Why the stage file cannot be written at `path` (hydrology-stage's --out), looked at before
/// anything is computed: '' or a name of a directory ('.', 'dir/'), a name of the output
/// transaction's own ('.terragrid.lock'), a directory that is missing, not a directory or not
/// writable, or anything but a regular file under the name (a directory, a symbolic link, a
/// FIFO, a device, a socket), or a file of another user in a sticky directory.
/// A regular file there is replaced, atomically, once the new one is complete. One sentence
/// naming --out, the path and the rule; empty when it can be written.
std::vector<std::string> stageOutProblems(const std::string& path);

/// One sentence for each reason the stage cannot be written: stageOutProblems, then each
/// resource it needs more of than the machine has (free disk beside `plan.path`, available
/// memory); empty when it fits or cannot be told.
std::vector<std::string> stageShortfalls(const StagePlan& plan, const Resources& resources);

/// The plan as `hydrology-stage --dry-run` prints it: the grid, the file's bound, the memory,
/// against what is free. Lines end in '\n'.
std::string stagePlanText(const StagePlan& plan, const Resources& resources);

/// The same as one JSON object (--dry-run=json), bytes as integers.
std::string stagePlanJson(const StagePlan& plan, const Resources& resources);

/// What the stage job did, for the summary line.
struct StageReport {
    std::uint64_t bytes = 0;  ///< the file's size
    double seconds = 0;       ///< computing and writing
    HydrologyFacts facts;
};

/// Computes the stage of config's whole map in the calling thread's TBB arena (of `threads`
/// threads, for the plan) and writes it to
/// `path` atomically: the file appears complete or not at all, an older one stays as it was
/// on failure. It is written in an output transaction on its directory, like a run's outputs:
/// a stopping signal leaves nothing of it, and what a SIGKILL leaves (the staging folder) is
/// removed by the next run or stage job into that directory. Precondition:
/// config.hydrology.enabled. Throws PlanError (before computing anything) when the plan does
/// not fit or --out cannot take the file (stageShortfalls), and again, nothing replaced, when
/// the name turns out otherwise once the stage is computed; OutputError when the file cannot
/// be written or its directory is another run's.
StageReport writeStageFile(const Config& config, const std::string& path, int threads);

}  // namespace terragrid
