#include "terragrid/model/tiling.hpp"

#include <algorithm>
#include <cmath>

#include "model/ceil_div.hpp"

namespace terragrid {

std::int64_t gridIndex(double value, double cellSize) noexcept {
    return std::llround(value / cellSize);
}

TileLayout::TileLayout(const MapConfig& map)
    : m_width(map.width),
      m_height(map.height),
      m_tileSize(map.tileSizeCells),
      m_across(ceilDiv(map.width, map.tileSizeCells)),
      m_down(ceilDiv(map.height, map.tileSizeCells)),
      // A window's cells from the full map's origin and the window's place in it, so no
      // rounding of the window's own origin can move them (GridGeometry).
      m_geometry{map.cellSize, gridIndex(map.wholeOriginX(), map.cellSize) + map.fullCol0,
                 gridIndex(map.wholeOriginY(), map.cellSize) - map.fullRow0} {}

TileRect TileLayout::tile(std::int64_t index) const noexcept {
    TileRect r;
    r.index = index;
    r.col0 = (index % m_across) * m_tileSize;
    r.row0 = (index / m_across) * m_tileSize;
    r.width = std::min(m_tileSize, m_width - r.col0);
    r.height = std::min(m_tileSize, m_height - r.row0);
    return r;
}

CellGrid CellGrid::of(const TileRect& rect) {
    return strided(rect.col0, rect.row0, rect.width, rect.height, 1);
}

CellGrid CellGrid::strided(std::int64_t col0, std::int64_t row0, std::int64_t width,
                           std::int64_t height, std::int64_t step) {
    CellGrid grid;
    grid.cols.resize(static_cast<std::size_t>(width));
    grid.rows.resize(static_cast<std::size_t>(height));
    // From integer indices, one multiplication each (design.md principle 2).
    for (std::int64_t i = 0; i < width; ++i) grid.cols[std::size_t(i)] = col0 + i * step;
    for (std::int64_t j = 0; j < height; ++j) grid.rows[std::size_t(j)] = row0 + j * step;
    return grid;
}

bool CellGrid::isRect() const noexcept {
    const auto consecutive = [](const std::vector<std::int64_t>& v) {
        for (std::size_t i = 1; i < v.size(); ++i)
            if (v[i] != v[i - 1] + 1) return false;
        return !v.empty();
    };
    return consecutive(cols) && consecutive(rows);
}

}  // namespace terragrid
