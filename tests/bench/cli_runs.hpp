#pragma once
// Running the terragrid CLI as a child process and reading the timings its stats.json reports.

#include <filesystem>
#include <string>
#include <vector>

namespace terragrid::bench {

/// stats.json's timing_seconds (what the run itself measured, in seconds).
struct StageTimes {
    double terrain = 0;           ///< resolving the class thresholds (coverage sampling)
    double generateCpu = 0;       ///< noise, classification, tile summaries: CPU over threads
    double outputsStreaming = 0;  ///< sinks consuming tiles, serial stage, wall
    double outputsParallelCpu = 0;  ///< the sinks' compression jobs on workers, CPU
    double outputsFinish = 0;     ///< sinks finishing their files, serial
    double regions = 0;           ///< walkable-region analysis
    double generationWall = 0;    ///< the whole tile pipeline, wall clock
    double commit = 0;            ///< the outputs' fsync and staging
    double totalWall = 0;         ///< the run from its start to stats.json
};

/// What one child process cost: its wall time seen from outside (start to exit) and the CPU
/// it used (user + system, from the kernel's accounting of the child).
struct ProcessCost {
    double wallSeconds = 0;
    double cpuSeconds = 0;
};

/// One run of the CLI: its cost and, when it wrote stats.json, its own breakdown.
struct CliRun {
    ProcessCost cost;
    StageTimes stages;
};

/// Runs `program` with `args` (no shell), waits for it and returns its cost. Throws
/// std::runtime_error when it cannot start or exits with anything but 0.
ProcessCost runTimed(const std::string& program, const std::vector<std::string>& args);

/// timing_seconds of a stats.json. Throws std::runtime_error naming the file when it is
/// missing or has no such object.
StageTimes readStageTimes(const std::filesystem::path& statsJson);

/// A fresh directory under the system's temporary directory, removed with everything in it
/// when the object goes.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const noexcept { return m_path; }

private:
    std::filesystem::path m_path;
};

}  // namespace terragrid::bench
