#pragma once
// The hydrology stage's water in preview.png: rivers drawn wider as their Strahler order grows,
// lakes and the sea as level water.
//
// Rivers are gathered per picture pixel while the tiles stream past (the highest order among a
// pixel's cells, so every river shows however far the map is shrunk) and widened once the last
// tile is in, on the picture's own grid: a pixel's river is a function of the per-pixel
// maxima alone, and a maximum does not depend on how the map was cut into tiles, nor on their
// order, so neither does the picture.

#include <cstdint>
#include <vector>

#include "io/png/preview.hpp"
#include "terragrid/model/tiling.hpp"

namespace terragrid {

/// The radius, in map cells, of the disk a river of Strahler `order` is drawn with: 0 (one
/// cell wide) for orders 1 and 2, 2^(order - 3) above, so the drawn width 2r + 1 (3, 5, 9,
/// 17 ... cells for orders 3, 4, 5, 6 ...) about doubles with each order, as a river's width
/// grows with the square root of its discharge and the discharge about fourfold per order.
/// 0 for order 0 (no river). Capped at 2^30.
std::int64_t riverRadiusCells(std::uint8_t order) noexcept;

/// The river drawn over every pixel of a width x height region of a picture at `scale` map
/// cells per pixel, from `orders`, each pixel's highest river order among its cells (0: none),
/// row-major: a pixel takes the highest order o of the pixels of the region within
/// riverRadiusCells(o) / scale pixels of it (its own included) whose cells hold a river of
/// order o. Distances between pixel centres, compared in integers (dx^2 + dy^2) scale^2 <=
/// r^2, so every platform draws the same. A region that is the whole picture gives the whole
/// picture's rivers; a part of it gives the same pixels wherever it holds every pixel within
/// the reach of the highest order of its own pixels (the explorer's tiles with a margin).
std::vector<std::uint8_t> widenRivers(const std::vector<std::uint8_t>& orders,
                                      std::int64_t width, std::int64_t height,
                                      std::int64_t scale);

/// Pixels of a picture at `scale` cells per pixel that a river of order `order` reaches
/// beyond its own: riverRadiusCells(order) / scale.
std::int64_t riverReachPixels(std::uint8_t order, std::int64_t scale) noexcept;

/// Rivers of a preview, gathered tile by tile. Memory: one byte per pixel.
class PreviewRivers {
public:
    PreviewRivers(std::int64_t mapWidth, std::int64_t mapHeight, const PreviewGeometry& geometry);

    /// The highest river order among the cells of one tile in each pixel it touches
    /// (0: none), row-major, width x height pixels from (px0, py0).
    struct TileOrders {
        std::int64_t px0 = 0, py0 = 0, width = 0, height = 0;
        std::vector<std::uint8_t> order;
    };

    /// `riverOrder`: the rect's cells (Tile::riverOrder), row-major. Thread-safe (reads only
    /// the geometry), so it can run on the worker that generated the tile.
    TileOrders gather(const TileRect& rect, const std::uint8_t* riverOrder) const;

    /// Takes the per-pixel maxima of what gather() made; tiles in any order.
    void add(const TileOrders& orders);

    /// The order of the river drawn over every pixel, row-major (0: none): widenRivers of the
    /// whole picture.
    std::vector<std::uint8_t> drawn() const;

private:
    std::int64_t m_mapWidth;
    std::int64_t m_mapHeight;
    PreviewGeometry m_geometry;
    std::vector<std::uint8_t> m_orders;  // per pixel, the highest order among its cells
};

/// height.png's lakes: the water depth (metres) of every pixel's centre cell (the cell at
/// offset scale / 2 on both axes, clipped to the map, as PreviewDownsampler's classes), 0 where
/// it is not lake or sea. Memory: four bytes per pixel.
class PreviewLakes {
public:
    PreviewLakes(std::int64_t mapWidth, std::int64_t mapHeight, const PreviewGeometry& geometry);

    /// Takes the depths of the pixels whose centre cell lies in `rect`; `water` and `depth`
    /// are the rect's cells (Tile::water, Tile::waterDepth). Tiles in any order.
    void add(const TileRect& rect, const std::uint8_t* water, const float* depth);

    const std::vector<float>& depths() const noexcept { return m_depths; }

private:
    std::int64_t m_mapWidth;
    std::int64_t m_mapHeight;
    PreviewGeometry m_geometry;
    std::vector<float> m_depths;
};

}  // namespace terragrid
