#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// Connected walkable regions (4-connected) over the whole map.
//
// Regions are a whole-map property, so this is the one place that holds something per cell:
// one bit for the walkable mask, and one more while regions are labelled (see BitRaster).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "terragrid/pipeline/generator.hpp"

namespace terragrid {

/// A width x height raster of bits, packed 64 to a word, row by row. Not thread-safe for
/// writes to the same word; the pipeline's serial sink stage writes it.
class BitRaster {
public:
    BitRaster() = default;
    BitRaster(std::int64_t width, std::int64_t height);

    std::int64_t width() const noexcept { return m_width; }
    std::int64_t height() const noexcept { return m_height; }
    bool get(std::int64_t col, std::int64_t row) const noexcept;
    void set(std::int64_t col, std::int64_t row, bool value) noexcept;
    /// Number of set bits.
    std::int64_t count() const noexcept;
    /// The words of `row`, wordsPerRow() of them: bit c of word k is column 64k + c. Bits past
    /// width() are 0 and must stay 0. For scanning runs a word at a time.
    std::int64_t wordsPerRow() const noexcept { return m_wordsPerRow; }
    const std::uint64_t* rowWords(std::int64_t row) const noexcept {
        return m_words.data() + row * m_wordsPerRow;
    }
    std::uint64_t* rowWords(std::int64_t row) noexcept {
        return m_words.data() + row * m_wordsPerRow;
    }
    /// Memory held, in bytes.
    std::size_t bytes() const noexcept { return m_words.size() * sizeof(std::uint64_t); }

private:
    std::int64_t m_width = 0;
    std::int64_t m_height = 0;
    std::int64_t m_wordsPerRow = 0;
    std::vector<std::uint64_t> m_words;
};

/// Regions whose sizes lie in [minCells, maxCells] (powers of two: 1, 2-3, 4-7, ...).
struct RegionSizeBin {
    std::int64_t minCells = 0;
    std::int64_t maxCells = 0;
    std::int64_t regions = 0;
    std::int64_t cells = 0;
};

struct RegionStats {
    std::int64_t walkableCells = 0;
    std::int64_t regionCount = 0;
    std::int64_t largestCells = 0;
    /// Row-major index of the largest region's first cell (ties: the region that starts first),
    /// -1 when nothing is walkable.
    std::int64_t largestAnchor = -1;
    std::vector<RegionSizeBin> sizeBins;     ///< non-empty bins only, ascending
    std::vector<std::int64_t> largestSizes;  ///< the ten largest region sizes, descending

    /// largestCells / walkableCells, 0 when nothing is walkable.
    double largestShare() const noexcept;
};

/// Labels the 4-connected regions of set bits. Pure; uses one more bit per cell and a stack
/// of spans while it runs.
RegionStats analyseRegions(const BitRaster& mask);

/// Clears every set bit outside the region that contains cell `anchor` (row-major index).
/// With anchor -1, clears everything.
void keepOnlyRegion(BitRaster& mask, std::int64_t anchor);

/// A sink that collects the walkable mask from the tiles (Tile::walkable) and, after the last
/// tile, analyses its regions and applies `connectivity` (Largest: only the largest region
/// stays walkable). Later outputs (walkable.tif, stats) read the results after finish().
class WalkableRegions : public TileSink {
public:
    explicit WalkableRegions(bool keepLargestOnly);

    void begin(const TileLayout& layout) override;
    void consume(const Tile& tile) override;
    void finish() override;

    /// The walkable mask after connectivity was applied. Valid after finish().
    const BitRaster& mask() const noexcept { return m_mask; }
    /// Regions of the mask as generated (before `largest` pruned it). Valid after finish().
    const RegionStats& stats() const noexcept { return m_stats; }
    /// Walkable cells after connectivity was applied.
    std::int64_t walkableCellsAfter() const noexcept { return m_walkableAfter; }
    /// Seconds finish() spent labelling regions.
    double analysisSeconds() const noexcept { return m_seconds; }

private:
    bool m_keepLargestOnly;
    BitRaster m_mask;
    RegionStats m_stats;
    std::int64_t m_walkableAfter = 0;
    double m_seconds = 0;
};

}  // namespace terragrid
