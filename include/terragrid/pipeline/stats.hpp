#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// Whole-map statistics gathered while the tiles stream past.

#include <cstdint>
#include <vector>

#include "terragrid/pipeline/generator.hpp"
#include "terragrid/pipeline/tile_summary.hpp"

namespace terragrid {


/// Elevation range and mean, cells per class, walkable cells. Every figure is independent of
/// tile size and thread count: counts are integers and the elevation sum is kept in fixed
/// point (2^-30 m), where addition is associative, so the mean does not depend on tile order.
class MapStats : public TileSink {
public:
    /// `classCount`: number of terrain classes (0 when the run classifies nothing).
    /// `complete` false: only the cell count and elevation range are kept (what a run without
    /// stats.json reports); elevationMean, classCells and walkableCells are then 0.
    explicit MapStats(std::size_t classCount, bool complete = true);

    void begin(const TileLayout& layout) override;
    /// Adds the tile's summary: the generator's (Tile::summary, made on its worker) when it
    /// has one, else one made here.
    void consume(const Tile& tile) override;
    void finish() override {}
    bool wantsSummary() const override { return true; }
    bool wantsCompleteSummary() const override { return m_complete; }

    std::int64_t cells() const noexcept { return m_total.cells; }
    float elevationMin() const noexcept { return m_total.elevationMin; }
    float elevationMax() const noexcept { return m_total.elevationMax; }
    double elevationMean() const noexcept;
    /// The exact elevation sum the mean comes from, in 2^-30 m.
    Int128 elevationSumFixed() const noexcept { return m_total.elevationSumFixed; }
    const std::vector<std::int64_t>& classCells() const noexcept { return m_classCells; }
    /// Cells whose class is walkable (before any connectivity rule).
    std::int64_t walkableCells() const noexcept { return m_total.walkableCells; }

private:
    bool m_complete;
    TileSummary m_total;
    std::vector<std::int64_t> m_classCells;
};

}  // namespace terragrid
