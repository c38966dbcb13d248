#pragma once
// What a run will take, known before it starts: the cells and tiles it generates, every file
// it writes with an upper bound on its size, and an estimate of its peak memory; and whether
// the disk and memory the machine has can hold that. A run that cannot fit is refused before
// it creates anything, instead of failing hours later with a full disk.
//
// Disk: each bound is the file's uncompressed size plus headers, plus the worst growth of its
// codec on incompressible data (LZW: half again; deflate and zstd: a fraction of a percent).
// A compressed file can only be bounded that way; it is usually much smaller. Every new file
// is written beside the older one it replaces, which is removed only at the end, so the free
// space must hold all of them at once.
//
// Memory: a sum of what the run holds at most (tiles in flight, preview pictures, the walkable
// bit rasters, the writers' buffers, a fixed part for the program): an estimate of the peak
// RSS that errs high, not a guarantee.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "terragrid/io/config.hpp"
#include "terragrid/io/output_drivers.hpp"
#include "terragrid/model/window.hpp"

namespace terragrid {

/// The program, its libraries and TBB's threads, as measured on small runs, and PROJ's
/// database while output.crs is looked up (about 14 MiB of the peak): the memory estimate's
/// fixed part.
inline constexpr std::uint64_t kProgramMemoryBytes = std::uint64_t{32} << 20;

/// One part of the memory estimate.
struct MemoryPart {
    std::string what;  ///< "tiles in flight", "previews", ...
    std::uint64_t bytes = 0;
};

struct RunPlan {
    std::int64_t mapWidth = 0;   ///< the configured map
    std::int64_t mapHeight = 0;
    CellWindow window;           ///< the cells generated: the whole map, or a piece of it
    std::int64_t tileSize = 0;
    std::int64_t tiles = 0;      ///< tiles generated (the window's)
    int threads = 1;
    std::string directory;       ///< output.directory
    std::vector<PlannedOutput> outputs;  ///< output.files order
    /// manifest.json (output.manifest: the commit's last file, listing every other one): its
    /// path and the most bytes it can take; empty and 0 when the run writes none.
    std::string manifestPath;
    std::uint64_t manifestBytes = 0;
    std::vector<MemoryPart> memory;
    /// Address space the threads the run starts reserve for their stacks (TBB's workers, the
    /// signal watcher, OpenEXR's pool): counted against a process limit (ulimit -v, -d), not
    /// in `memory`, since a stack is mostly never touched.
    std::uint64_t threadStackBytes = 0;

    bool isWindow() const noexcept { return window != CellWindow{0, 0, mapWidth, mapHeight}; }
    /// The upper bound on disk: every output at its bound, and manifest.json at its.
    std::uint64_t diskBytes() const noexcept;
    /// What the run writes for certain: the uncompressed outputs (their bounds are their
    /// sizes up to headers); compressed outputs may shrink to almost nothing.
    std::uint64_t certainDiskBytes() const noexcept;
    std::uint64_t memoryBytes() const noexcept;
};

/// The plan of generating `window` of config's map with `threads` worker threads (at least
/// 1). `stageFromFile`: the run reads its hydrology stage from a file (--hydrology-stage)
/// and holds the finished stage only, not what computing it takes. Pure: looks at no file.
/// Precondition: checkWindow(config, window) passed.
RunPlan planRun(const Config& config, const MapWindow& window, int threads,
                bool stageFromFile = false);

/// What the machine offers a run; unset where it cannot be told.
struct Resources {
    /// Bytes an unprivileged process may still write on the file system of the output
    /// directory (statvfs f_bavail), or of its nearest existing parent when it is missing.
    std::optional<std::uint64_t> freeDiskBytes;
    std::string diskPath;  ///< the directory statvfs looked at
    /// /proc/meminfo's MemAvailable, lowered to what a cgroup memory limit leaves, and to what
    /// the process's own limits leave (RLIMIT_AS, RLIMIT_DATA) once the run's thread stacks are
    /// set aside.
    std::optional<std::uint64_t> availableMemoryBytes;
    /// The process limit that set availableMemoryBytes ("ulimit -v (RLIMIT_AS)"), else empty.
    std::string memoryLimit = {};
};

/// Looks up the free space for `directory` and the available memory, a process limit's
/// headroom less `threadStackBytes` (RunPlan::threadStackBytes). Never throws.
Resources probeResources(const std::string& directory, std::uint64_t threadStackBytes = 0);

/// What the run risks but is not refused for: compressed outputs whose bounds do not fit the
/// free disk space (while the uncompressed outputs do). One sentence each.
std::vector<std::string> planWarnings(const RunPlan& plan, const Resources& resources);

/// One sentence for each resource the plan needs more of than there is, with the estimate
/// ("the run needs up to 12.3 GiB on disk in 'out', but only 4.1 GiB are free there ...");
/// empty when the plan fits or the resource cannot be told. Then outputNameProblems.
std::vector<std::string> planShortfalls(const RunPlan& plan, const Resources& resources);

/// One sentence for each output name the run could not replace: a directory in the way of
/// a file it writes, an output directory it cannot write into. Looks at the file system.
std::vector<std::string> outputNameProblems(const RunPlan& plan);

/// A run refused before it started because it cannot fit (exit code 2). what() holds every
/// shortfall, one per line.
class PlanError : public std::runtime_error {
public:
    explicit PlanError(std::vector<std::string> shortfalls);
    const std::vector<std::string>& shortfalls() const noexcept { return m_shortfalls; }

private:
    std::vector<std::string> m_shortfalls;
};

/// `bytes` for people: "730 B", "512.0 KiB", "12.3 GiB" (powers of 1024).
std::string formatBytes(std::uint64_t bytes);

/// " under the process's ulimit -v (RLIMIT_AS), with 40.0 MiB of thread stacks set aside" when
/// a process limit set resources.availableMemoryBytes, else "": what --dry-run adds to the
/// available memory.
std::string limitNote(const Resources& resources, std::uint64_t threadStackBytes);

/// The plan as --dry-run prints it: map, tiles, threads, each output with its bound, the disk
/// and memory estimates against what is free, and any shortfall. Lines end in '\n'.
std::string planText(const RunPlan& plan, const Resources& resources);

/// The same as one JSON object (--dry-run=json), bytes as integers.
std::string planJson(const RunPlan& plan, const Resources& resources);

}  // namespace terragrid
