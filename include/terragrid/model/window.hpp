#pragma once
// A window of the configured map: the rectangle of cells a run generates when it makes one
// piece of a bigger map (--region X,Y,W,H, or --shard K/N, one of N bands of tile rows).
//
// Each cell is a pure function of the config and its global grid index (design.md principle
// 1), and the grid is anchored at world (0, 0) (GridGeometry), so the window generated alone,
// with its origin moved by whole cells, holds exactly the cells of the full map, bit for bit,
// and georeferenced where they lie in the full map: the pieces mosaic into the single run.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "terragrid/model/world.hpp"

namespace terragrid {

/// A bad --region or --shard, or one the map or config cannot take (exit 2). what() names the
/// option, the rule and the value.
class WindowError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Map cells [col0, col0 + width) x [row0, row0 + height).
struct CellWindow {
    std::int64_t col0 = 0;
    std::int64_t row0 = 0;
    std::int64_t width = 0;
    std::int64_t height = 0;

    std::int64_t cellCount() const noexcept { return width * height; }
    bool operator==(const CellWindow&) const = default;
};

/// Shard `index` of `count`, numbered from 0 (as Kubernetes indexed jobs and Slurm's
/// `--array=0-(N-1)` number their tasks).
struct Shard {
    std::int64_t index = 0;
    std::int64_t count = 1;
};

/// The most shards --shard takes: one per row of the largest map.
inline constexpr std::int64_t kMaxShards = std::int64_t{1} << 20;

/// What part of the configured map a run generates, and how it was asked for.
struct MapWindow {
    CellWindow cells;
    std::optional<Shard> shard;  ///< set when chosen by --shard, else --region
    /// How messages name a window that no option chose (the library's "window"); empty for
    /// --region and --shard.
    std::string_view label = {};

    /// "--shard", "--region" or the label, for messages.
    std::string_view optionName() const noexcept {
        return !label.empty() ? label : shard ? "--shard" : "--region";
    }
};

/// Every cell of `map`.
CellWindow wholeMap(const MapConfig& map) noexcept;

/// Parses --region's "X,Y,WIDTH,HEIGHT" (cells; X, Y >= 0, WIDTH, HEIGHT >= 1). Does not look
/// at a map: see regionWindow. Throws WindowError.
CellWindow parseRegion(std::string_view text);

/// Parses --shard's "K/N" (0 <= K < N <= kMaxShards). Throws WindowError.
Shard parseShard(std::string_view text);

/// Shard `shard`'s band of `map`: whole tile rows, the R rows of tiles split into `count`
/// bands whose sizes differ by at most one tile row (band k is tile rows
/// [floor(kR/N), floor((k+1)R/N))). Bands of every index 0..count-1 partition the map; a band
/// is empty (height 0) when count exceeds R. Precondition: 0 <= index < count <= kMaxShards.
CellWindow shardWindow(const MapConfig& map, const Shard& shard) noexcept;

/// `region` of `config`'s map as a run's window, checked: it must lie inside the map, and a
/// config that needs the whole map (terrain.connectivity "largest") only takes the whole map.
/// Throws WindowError.
MapWindow regionWindow(const World& config, const CellWindow& region);

/// `shard`'s band of `config`'s map as a run's window, checked: there must be at least as many
/// tile rows as shards, and the config must not need the whole map (as regionWindow). Throws
/// WindowError.
MapWindow shardMapWindow(const World& config, const Shard& shard);

/// Throws WindowError when `window` does not lie inside `config`'s map, is empty, or is not the
/// whole map while the config needs the whole map (terrain.connectivity "largest").
void checkWindow(const World& config, const MapWindow& window);

/// The map of `window` generated alone: the window's size, its origin moved by whole cells
/// (so every cell, and its georeferencing, equals the full map's), everything else (tile size
/// included) unchanged. Precondition: checkWindow passed.
MapConfig windowMap(const MapConfig& whole, const CellWindow& window);

}  // namespace terragrid
