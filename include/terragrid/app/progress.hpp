#pragma once
// Progress of a run on stderr: a bar redrawn in place for people at a terminal, or one JSON
// object per line for programs (--progress=json). Only reads the tile count the generator
// reports, so it cannot change any output. The clock and the stream are injected, so the
// formatting and the redraw rules are tested without a terminal or a wait.

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include "terragrid/pipeline/generator.hpp"
#include "terragrid/model/tiling.hpp"

namespace terragrid {

/// Where a run stands.
struct ProgressSnapshot {
    std::int64_t tilesDone = 0;
    std::int64_t tilesTotal = 0;
    std::int64_t cellsDone = 0;
    std::int64_t cellsTotal = 0;
    double elapsedSeconds = 0;

    /// Cells per second so far; 0 before any time has passed.
    double cellsPerSecond() const noexcept;
    /// Seconds left at the rate so far; negative when unknown (no cell done yet).
    double etaSeconds() const noexcept;
};

/// Cells in the first `tilesDone` tiles of `layout` (tiles finish in row-major order).
/// Precondition: 0 <= tilesDone <= layout.tileCount().
std::int64_t cellsInFirstTiles(const TileLayout& layout, std::int64_t tilesDone) noexcept;

/// "12.3 Mcells/s": a rate with an SI prefix, three significant digits.
std::string formatRate(double cellsPerSecond);

/// "0:07", "12:34", "1:02:03"; "--:--" when negative (unknown).
std::string formatDuration(double seconds);

/// One bar line, without the carriage return:
/// "[###########.........]  55%  11/20 tiles  3.1 Mcells/s  elapsed 0:02  ETA 0:01".
/// `barWidth` is the number of characters between the brackets.
std::string formatProgressBar(const ProgressSnapshot& s, int barWidth = 30);

/// One JSON object, without the newline: {"event":"progress"|"done", "tiles_done",
/// "tiles_total", "cells_done", "cells_total", "elapsed_s", "cells_per_s", "eta_s"}; eta_s is
/// null while unknown. Seconds to the millisecond, rates to the cell.
std::string formatProgressJson(const ProgressSnapshot& s, bool done);

enum class ProgressStyle : std::uint8_t { Bar, Json };

/// How often a ProgressReporter writes.
struct ProgressPacing {
    double firstBarAfterSeconds = 1.0;  ///< runs shorter than this never show a bar
    double barIntervalSeconds = 0.1;    ///< at most 10 redraws a second
    double jsonIntervalSeconds = 1.0;   ///< at most a line a second (plus the first and last)
};

/// Seconds on a monotonic clock; the reporter only takes differences.
using SecondsClock = std::function<double()>;

/// std::chrono::steady_clock in seconds.
double steadySeconds();

/// Writes a run's progress to `out`. update() is the generator's ProgressFn (called from its
/// serial stage, one call at a time); finish() and the destructor come after the run, on the
/// caller's thread. Not otherwise thread-safe.
class ProgressReporter {
public:
    /// `layout` is the layout of the map being generated (for cell counts); the clock starts
    /// now.
    ProgressReporter(ProgressStyle style, std::ostream& out, const TileLayout& layout,
                     SecondsClock clock = steadySeconds, ProgressPacing pacing = {});
    /// Ends a bar's line if the run failed before finish(), so an error starts on a line of
    /// its own.
    ~ProgressReporter();
    ProgressReporter(const ProgressReporter&) = delete;
    ProgressReporter& operator=(const ProgressReporter&) = delete;

    /// Records `tilesDone` of `tilesTotal` and writes if the pacing allows.
    void update(std::int64_t tilesDone, std::int64_t tilesTotal);
    /// This reporter's update as a ProgressFn for generateMap / runMap.
    ProgressFn callback();
    /// The writing stage: `path` (an output's main file) is finished and `bytes` long, with
    /// its companions. JSON writes {"event":"file","file","bytes","elapsed_s"} for each; a bar
    /// shown (or due) names the file and its size. Once every tile is done, before the first
    /// file, the bar says "writing files".
    void fileWritten(const std::string& path, std::uint64_t bytes);
    /// This reporter's fileWritten as a FileWrittenFn for runMap.
    std::function<void(const std::string&, std::uint64_t)> fileCallback();
    /// The run succeeded: a bar that was shown is drawn full and its line ended; JSON writes
    /// the "done" line (always, however short the run).
    void finish();

private:
    ProgressSnapshot snapshot() const;
    void write(bool done);

    ProgressStyle m_style;
    std::ostream& m_out;
    TileLayout m_layout;
    SecondsClock m_clock;
    ProgressPacing m_pacing;
    double m_start;
    double m_lastWrite = 0;
    bool m_written = false;     ///< anything written yet
    bool m_lineOpen = false;    ///< a bar is on screen without its newline
    std::int64_t m_tilesDone = 0;
    std::string m_barNote;      ///< what the bar says after its figures ("writing files")
};

}  // namespace terragrid
