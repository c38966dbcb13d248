#pragma once
// The rivers of a map with hydrology at every zoom below the highest: per pixel of each
// level, the highest river order among the pixel's cells (Tile::riverOrder), as preview.png
// gathers it at that scale (PreviewRivers). A zoomed-out tile then shows every river however
// thin, at the cost of a lookup per pixel rather than of its 4^k cells. Built once per config
// in the background after the hydrology stage. Private to src/serve.

#include <cstdint>
#include <functional>
#include <vector>

#include "terragrid/pipeline/generator.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"

namespace terragrid::serve {

class RiverPyramid {
public:
    /// Levels 1 .. `levels` (level L: pixels of 2^L x 2^L cells) of the map of `fields`, whose
    /// hydrology stage is `stage`. `fields` gives the noise heights of the cells a river line
    /// crosses (riverOrders). `stopRequested` is polled between bands of rows; when it returns
    /// true the build throws std::runtime_error("stopped"). Memory: about width x height / 3
    /// bytes.
    RiverPyramid(const HydrologyStage& stage, const MapFields& fields, int levels,
                 const std::function<bool()>& stopRequested = {});

    int levels() const noexcept { return static_cast<int>(m_levels.size()); }
    /// Pixels across and down at `level` (>= 1).
    std::int64_t width(int level) const noexcept;
    std::int64_t height(int level) const noexcept;
    /// The highest river order among the cells of pixel (x, y) at `level` (>= 1); 0 outside.
    std::uint8_t at(int level, std::int64_t x, std::int64_t y) const noexcept;
    /// The highest order anywhere on the map.
    std::uint8_t maxOrder() const noexcept { return m_maxOrder; }
    std::uint64_t bytes() const noexcept;

private:
    struct Level {
        std::int64_t width = 0, height = 0;
        std::vector<std::uint8_t> order;
    };
    std::vector<Level> m_levels;  ///< [0] is level 1
    std::uint8_t m_maxOrder = 0;
};

}  // namespace terragrid::serve
