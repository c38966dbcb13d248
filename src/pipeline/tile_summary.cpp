// Tile summaries (terragrid/pipeline/tile_summary.hpp).

#include "terragrid/pipeline/tile_summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "terragrid/pipeline/generator.hpp"

namespace terragrid {

TileSummary TileSummary::empty() noexcept {
    TileSummary s;
    s.elevationMin = std::numeric_limits<float>::infinity();
    s.elevationMax = -std::numeric_limits<float>::infinity();
    return s;
}

TileSummary TileSummary::rangeOnly() const noexcept {
    TileSummary s = empty();
    s.cells = cells;
    s.elevationMin = elevationMin;
    s.elevationMax = elevationMax;
    return s;
}

void TileSummary::add(const TileSummary& other) noexcept {
    cells += other.cells;
    elevationMin = std::min(elevationMin, other.elevationMin);
    elevationMax = std::max(elevationMax, other.elevationMax);
    elevationSumFixed += other.elevationSumFixed;
    for (std::size_t i = 0; i < classCells.size(); ++i) classCells[i] += other.classCells[i];
    walkableCells += other.walkableCells;
}

std::int64_t elevationFixed(float v) noexcept {
    const double p = double(v) * kElevationSumScale;
    // Beyond 2^62 the truncation below could overflow; such elevations (over 4e9 m) take the
    // library's path.
    if (!(std::fabs(p) < 0x1p62)) return std::llround(p);
    const auto t = static_cast<std::int64_t>(p);  // toward zero
    const double rest = p - double(t);            // exact: |rest| < 1 and p, t share a binade
    if (rest >= 0.5) return t + 1;
    if (rest <= -0.5) return t - 1;
    return t;
}

TileSummary summariseTile(const Tile& tile, bool complete) {
    TileSummary s = TileSummary::empty();
    s.cells = static_cast<std::int64_t>(tile.elevationMeters.size());
    // Eight independent lanes the compiler turns into one vector min and max per 8 cells;
    // elevations are never NaN, so the order of comparisons cannot change the result.
    constexpr std::size_t kLanes = 8;
    std::array<float, kLanes> low, high;
    low.fill(s.elevationMin);
    high.fill(s.elevationMax);
    const std::vector<float>& v = tile.elevationMeters;
    std::size_t i = 0;
    for (; i + kLanes <= v.size(); i += kLanes)
        for (std::size_t k = 0; k < kLanes; ++k) {
            low[k] = v[i + k] < low[k] ? v[i + k] : low[k];
            high[k] = v[i + k] > high[k] ? v[i + k] : high[k];
        }
    for (; i < v.size(); ++i) {
        low[0] = std::min(low[0], v[i]);
        high[0] = std::max(high[0], v[i]);
    }
    s.elevationMin = *std::min_element(low.begin(), low.end());
    s.elevationMax = *std::max_element(high.begin(), high.end());
    if (!complete) return s;
    Int128 sum = 0;
    for (float v : tile.elevationMeters) sum += elevationFixed(v);
    s.elevationSumFixed = sum;
    for (std::uint8_t c : tile.classIndex) ++s.classCells[c];
    for (std::uint8_t w : tile.walkable) s.walkableCells += w;
    return s;
}

}  // namespace terragrid
