#pragma once
// How a map splits into tiles and where each cell lies in the world.

#include <cstdint>
#include <vector>

#include "terragrid/model/world.hpp"

namespace terragrid {

/// One tile: cells [col0, col0 + width) x [row0, row0 + height) of the map, in map cells.
struct TileRect {
    std::int64_t index = 0;  ///< row-major tile number, 0-based
    std::int64_t col0 = 0;
    std::int64_t row0 = 0;
    std::int64_t width = 0;
    std::int64_t height = 0;

    std::int64_t cellCount() const noexcept { return width * height; }
};

/// The map's cell grid in the world (design.md principle 2). The grid is anchored at world
/// (0, 0): the map's origin must lie on a multiple of the cell size (config validates that), so
/// the map's cell (col, row) is the global cell (originCol + col, originRow - row) and a window
/// of a map, generated alone with its origin shifted, has exactly the same cell centres.
/// Centres are computed from integers in one multiplication, never by accumulating steps.
struct GridGeometry {
    double cellSize = 1;
    std::int64_t originCol = 0;  ///< global column of the map's left edge
    std::int64_t originRow = 0;  ///< global row of the map's top edge (rows count northwards)

    /// World x of the centre of map column `col`.
    double cellX(std::int64_t col) const noexcept {
        return (static_cast<double>(originCol + col) + 0.5) * cellSize;
    }
    /// World y of the centre of map row `row` (rows go south).
    double cellY(std::int64_t row) const noexcept {
        return (static_cast<double>(originRow - row) - 0.5) * cellSize;
    }
};

/// The tiles of a map, in row-major order. Cheap, immutable, thread-safe.
class TileLayout {
public:
    explicit TileLayout(const MapConfig& map);

    std::int64_t mapWidth() const noexcept { return m_width; }
    std::int64_t mapHeight() const noexcept { return m_height; }
    std::int64_t tileSize() const noexcept { return m_tileSize; }
    std::int64_t tilesAcross() const noexcept { return m_across; }
    std::int64_t tilesDown() const noexcept { return m_down; }
    std::int64_t tileCount() const noexcept { return m_across * m_down; }
    const GridGeometry& geometry() const noexcept { return m_geometry; }

    /// Tile `index` (0 <= index < tileCount()); edge tiles are clipped to the map.
    TileRect tile(std::int64_t index) const noexcept;

private:
    std::int64_t m_width;
    std::int64_t m_height;
    std::int64_t m_tileSize;
    std::int64_t m_across;
    std::int64_t m_down;
    GridGeometry m_geometry;
};

/// The global grid index of a world coordinate that config validation has found to lie on the
/// grid (`value` a whole multiple of `cellSize`, up to rounding).
std::int64_t gridIndex(double value, double cellSize) noexcept;

}  // namespace terragrid
