#pragma once
// The grid of the whole-map stages (hydrology, climate): hydrology cell (i, j) stands for map
// cells [i f, i f + f) x [j f, j f + f) and was sampled at map cell hydrologySamplePoint(i),
// hydrologySamplePoint(j). How a stage's field reaches a map cell between the sample points.
// Private to src/pipeline.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "terragrid/pipeline/hydrology_stage.hpp"

namespace terragrid {

/// The shape of a stage grid over its map.
struct StageGridShape {
    std::int64_t factor = 1;
    std::int64_t mapWidth = 0, mapHeight = 0;
    std::int64_t gridWidth = 0, gridHeight = 0;
};

/// Bilinear interpolation of `field` (gridWidth x gridHeight, row-major) at map cell (col,
/// row), between the hydrology cells' sample points; clamped at the grid's edges. Pure.
inline float interpolateStageField(const StageGridShape& s, const std::vector<float>& field,
                                   std::int64_t col, std::int64_t row) {
    const auto axis = [&](std::int64_t cell, std::int64_t cells, std::int64_t gridCells,
                          std::int64_t& i0, std::int64_t& i1, double& t) {
        const double u = std::clamp(double(cell - s.factor / 2) / double(s.factor), 0.0,
                                    double(gridCells - 1));
        i0 = static_cast<std::int64_t>(u);
        i1 = std::min(i0 + 1, gridCells - 1);
        // The last sample point may be clamped to the map's edge: the fraction is then taken
        // between the real sample points.
        const double p0 = double(hydrologySamplePoint(i0, s.factor, cells));
        const double p1 = double(hydrologySamplePoint(i1, s.factor, cells));
        t = p1 > p0 ? std::clamp((double(cell) - p0) / (p1 - p0), 0.0, 1.0) : 0.0;
    };
    std::int64_t x0, x1, y0, y1;
    double tx, ty;
    axis(col, s.mapWidth, s.gridWidth, x0, x1, tx);
    axis(row, s.mapHeight, s.gridHeight, y0, y1, ty);
    const auto at = [&](std::int64_t x, std::int64_t y) {
        return double(field[std::size_t(y * s.gridWidth + x)]);
    };
    const double top = at(x0, y0) * (1 - tx) + at(x1, y0) * tx;
    const double bottom = at(x0, y1) * (1 - tx) + at(x1, y1) * tx;
    return static_cast<float>(top * (1 - ty) + bottom * ty);
}

}  // namespace terragrid
