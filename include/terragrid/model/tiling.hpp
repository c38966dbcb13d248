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

/// A separable set of map cells: cell (cols[i], rows[j]) for every i and j, row-major
/// (rows.size() x cols.size() values). The columns and rows are any cells of the map, in any
/// order, repeats allowed: a tile's consecutive cells (of), every step-th cell of a
/// zoomed-out picture (strided), a margin clamped to the map's edge. Each value is the same
/// bits as the batch run gives that cell (principle 1): only the set of cells differs.
struct CellGrid {
    std::vector<std::int64_t> cols;
    std::vector<std::int64_t> rows;

    std::int64_t cellCount() const noexcept {
        return static_cast<std::int64_t>(cols.size() * rows.size());
    }
    /// The cells of `rect`.
    static CellGrid of(const TileRect& rect);
    /// Cells (col0 + i step, row0 + j step), i < width, j < height. step >= 1.
    static CellGrid strided(std::int64_t col0, std::int64_t row0, std::int64_t width,
                            std::int64_t height, std::int64_t step);
    /// Whether the columns and the rows each run consecutively upwards (a TileRect's cells).
    bool isRect() const noexcept;
};

/// The map's cell grid in the world (design.md principle 2): where its cells sample the noise.
/// The grid is anchored at world (0, 0); the map's cell (col, row) is the global cell
/// (originCol + col, originRow - row), where originCol and originRow are the grid lines nearest
/// the full map's origin (gridIndex). An origin on the grid (a whole multiple of the cell size)
/// is sampled exactly where it lies; any other origin places the raster exactly (the GeoTIFF
/// gets it as given) while its cells sample the noise less than half a cell away, at the
/// nearest grid cells, so that every cell stays a function of its integer index. A window of a
/// map is placed from the full map's origin and its own offset in cells (MapConfig::fullCol0),
/// so it has exactly the same cell centres. Centres are computed from integers in one
/// multiplication, never by accumulating steps.
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

/// The global grid index nearest a world coordinate (`value` / `cellSize` rounded, halves away
/// from zero).
std::int64_t gridIndex(double value, double cellSize) noexcept;

}  // namespace terragrid
