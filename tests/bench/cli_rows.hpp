#pragma once
// The noise a height-only CLI run computes, measured in this process: what the whole run is
// compared with ("its rows").

#include <cstdint>

#include "cli_runs.hpp"

namespace terragrid::bench {

/// The built-in default config's height layer on a size x size map, every cell through
/// LayerStackRows, one per generator tile (map.tile_size), tiles in parallel on `threads`
/// threads: exactly the noise of the CLI's height-only run, without its pipeline, conversion
/// to metres or file. Returns the fastest of `repeat` evaluations: wall time and the process
/// CPU time (user + system) it took.
ProcessCost timeHeightRows(std::int64_t size, int threads, int repeat);

}  // namespace terragrid::bench
