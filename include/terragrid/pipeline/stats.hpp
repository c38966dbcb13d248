#pragma once
// Whole-map statistics gathered while the tiles stream past.

#include <cstdint>
#include <vector>

#include "terragrid/pipeline/generator.hpp"

namespace terragrid {

__extension__ using Int128 = __int128;  // GCC/Clang; exact sums of up to 2^40 fixed-point cells

/// Elevation range and mean, cells per class, walkable cells. Every figure is independent of
/// tile size and thread count: counts are integers and the elevation sum is kept in fixed
/// point (2^-30 m), where addition is associative, so the mean does not depend on tile order.
class MapStats : public TileSink {
public:
    /// `classCount`: number of terrain classes (0 when the run classifies nothing).
    explicit MapStats(std::size_t classCount);

    void begin(const TileLayout& layout) override;
    void consume(const Tile& tile) override;
    void finish() override {}

    std::int64_t cells() const noexcept { return m_cells; }
    float elevationMin() const noexcept { return m_min; }
    float elevationMax() const noexcept { return m_max; }
    double elevationMean() const noexcept;
    const std::vector<std::int64_t>& classCells() const noexcept { return m_classCells; }
    /// Cells whose class is walkable (before any connectivity rule).
    std::int64_t walkableCells() const noexcept { return m_walkable; }

private:
    std::int64_t m_cells = 0;
    float m_min = 0;
    float m_max = 0;
    Int128 m_sumFixed = 0;
    std::vector<std::int64_t> m_classCells;
    std::int64_t m_walkable = 0;
};

}  // namespace terragrid
