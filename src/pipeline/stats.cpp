#include "terragrid/pipeline/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace terragrid {

namespace {
constexpr double kFixedScale = 0x1p30;  // elevation sum resolution: 2^-30 m
}

MapStats::MapStats(std::size_t classCount) : m_classCells(classCount, 0) {}

void MapStats::begin(const TileLayout&) {
    m_cells = 0;
    m_min = std::numeric_limits<float>::infinity();
    m_max = -std::numeric_limits<float>::infinity();
    m_sumFixed = 0;
    std::fill(m_classCells.begin(), m_classCells.end(), 0);
    m_walkable = 0;
}

void MapStats::consume(const Tile& tile) {
    for (float v : tile.elevationMeters) {
        m_min = std::min(m_min, v);
        m_max = std::max(m_max, v);
        m_sumFixed += std::llround(double(v) * kFixedScale);
    }
    m_cells += static_cast<std::int64_t>(tile.elevationMeters.size());
    if (m_classCells.empty()) return;
    for (std::uint8_t c : tile.classIndex) ++m_classCells[c];
    for (std::uint8_t w : tile.walkable) m_walkable += w;
}

double MapStats::elevationMean() const noexcept {
    return m_cells == 0 ? 0.0 : double(m_sumFixed) / kFixedScale / double(m_cells);
}

}  // namespace terragrid
