#pragma once
// The tile pipeline: tiles generated in parallel (TBB), handed to sinks in tile order.

#include <cstdint>
#include <functional>
#include <vector>

#include "terragrid/config.hpp"
#include "terragrid/noise.hpp"
#include "terragrid/tiling.hpp"

namespace terragrid {

/// One generated tile. Owned by the pipeline; valid only during TileSink::consume.
struct Tile {
    TileRect rect;
    std::vector<float> elevationMeters;  ///< row-major, rect.width x rect.height
};

/// Receives the tiles of a map, one at a time, in tile order (row-major), from one thread at a
/// time. A sink keeps what it needs; it must not hold on to the Tile.
class TileSink {
public:
    virtual ~TileSink() = default;
    /// Called once before the first tile.
    virtual void begin(const TileLayout& layout) = 0;
    virtual void consume(const Tile& tile) = 0;
    /// Called once after the last tile.
    virtual void finish() = 0;
};

/// Called from the serial stage after each tile: (tiles done, tiles in all).
using ProgressFn = std::function<void(std::int64_t, std::int64_t)>;

/// Fills `tile` for `rect`: a pure function of (config, cell), see design.md principle 1.
/// Thread-safe; `tile` is resized as needed (so callers can reuse its storage).
void generateTile(const Config& config, const NoiseField& height, const GridGeometry& grid,
                  const TileRect& rect, Tile& tile);

/// Generates every tile of config.map in parallel in the calling thread's TBB arena (use
/// tbb::global_control or tbb::task_arena to set the thread count) and hands them to every
/// sink in tile order. At most a few tiles per thread are alive at once. Exceptions from sinks
/// propagate after the pipeline stops.
void generateMap(const Config& config, const std::vector<TileSink*>& sinks,
                 const ProgressFn& progress = {});

}  // namespace terragrid
