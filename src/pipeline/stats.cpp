#include "terragrid/pipeline/stats.hpp"

namespace terragrid {

MapStats::MapStats(std::size_t classCount, bool complete)
    : m_complete(complete), m_total(TileSummary::empty()), m_classCells(classCount, 0) {}

void MapStats::begin(const TileLayout&) {
    m_total = TileSummary::empty();
    std::fill(m_classCells.begin(), m_classCells.end(), 0);
}

void MapStats::consume(const Tile& tile) {
    TileSummary summary = tile.summary ? *tile.summary : summariseTile(tile, m_complete);
    // Another sink may have asked the generator for the complete summary.
    if (!m_complete) summary = summary.rangeOnly();
    m_total.add(summary);
    for (std::size_t i = 0; i < m_classCells.size(); ++i) m_classCells[i] = m_total.classCells[i];
}

double MapStats::elevationMean() const noexcept {
    return terragrid::elevationMean(m_total.elevationSumFixed, m_total.cells);
}

}  // namespace terragrid
