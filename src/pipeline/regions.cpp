// Walkable regions: a bit raster of the whole map, labelled by scanline flood fill.
//
// No label per cell: a second bit raster records which cells a fill has reached, and regions
// are found in raster order, so each region's first cell (its anchor) names it. Only the
// sizes are kept, tallied as they are found.

#include "terragrid/pipeline/regions.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <chrono>
#include <functional>
#include <utility>

namespace terragrid {

namespace {

constexpr std::int64_t kBitsPerWord = 64;
constexpr std::size_t kLargestSizesKept = 10;

/// A run of set cells [x0, x1] in `row`, already marked visited, whose neighbours in the rows
/// above and below are still to be looked at.
struct Span {
    std::int64_t row;
    std::int64_t x0;
    std::int64_t x1;
};

using Word = std::uint64_t;
constexpr Word kAllBits = ~Word{0};

/// Bits [lo, 63] and [0, hi] of a word.
Word bitsFrom(std::int64_t lo) { return kAllBits << lo; }
Word bitsTo(std::int64_t hi) { return kAllBits >> (63 - hi); }

std::int64_t runStart(const Word* row, std::int64_t x) {
    std::int64_t k = x / 64;
    Word gaps = ~row[k] & bitsTo(x % 64);
    while (gaps == 0) {
        if (k == 0) return 0;
        gaps = ~row[--k];
    }
    return k * 64 + (63 - std::countl_zero(gaps)) + 1;
}

std::int64_t runEnd(const Word* row, std::int64_t words, std::int64_t x) {
    std::int64_t k = x / 64;
    Word gaps = ~row[k] & bitsFrom(x % 64);
    while (gaps == 0) {
        if (++k == words) return k * 64 - 1;
        gaps = ~row[k];
    }
    return k * 64 + std::countr_zero(gaps) - 1;
}

void setBits(Word* row, std::int64_t x0, std::int64_t x1) {
    const std::int64_t k0 = x0 / 64, k1 = x1 / 64;
    if (k0 == k1) {
        row[k0] |= bitsFrom(x0 % 64) & bitsTo(x1 % 64);
        return;
    }
    row[k0] |= bitsFrom(x0 % 64);
    for (std::int64_t k = k0 + 1; k < k1; ++k) row[k] = kAllBits;
    row[k1] |= bitsTo(x1 % 64);
}

std::int64_t firstUnvisited(const Word* mask, const Word* visited, std::int64_t x0,
                            std::int64_t x1) {
    std::int64_t k = x0 / 64;
    const std::int64_t k1 = x1 / 64;
    Word w = mask[k] & ~visited[k] & bitsFrom(x0 % 64);
    for (;;) {
        if (k == k1) w &= bitsTo(x1 % 64);
        if (w) return k * 64 + std::countr_zero(w);
        if (k == k1) return -1;
        ++k;
        w = mask[k] & ~visited[k];
    }
}

Span markRun(const BitRaster& mask, BitRaster& visited, std::vector<Span>& stack,
             std::int64_t col, std::int64_t row) {
    const Word* m = mask.rowWords(row);
    const std::int64_t x0 = runStart(m, col);
    const std::int64_t x1 = std::min(runEnd(m, mask.wordsPerRow(), col), mask.width() - 1);
    setBits(visited.rowWords(row), x0, x1);
    stack.push_back({row, x0, x1});
    return stack.back();
}

std::int64_t markRunsTouching(const BitRaster& mask, BitRaster& visited,
                              std::vector<Span>& stack, std::int64_t row, std::int64_t x0,
                              std::int64_t x1) {
    std::int64_t cells = 0;
    const Word* m = mask.rowWords(row);
    const Word* v = visited.rowWords(row);
    for (std::int64_t x = x0; x <= x1;) {
        x = firstUnvisited(m, v, x, x1);
        if (x < 0) break;
        const Span run = markRun(mask, visited, stack, x, row);
        cells += run.x1 - run.x0 + 1;
        x = run.x1 + 2;
    }
    return cells;
}

/// Marks the 4-connected region of `mask` through the set, unvisited cell (col, row) in
/// `visited`. `stack` is scratch space, empty on entry and on return. Returns the region's size.
std::int64_t fillRegion(const BitRaster& mask, BitRaster& visited, std::vector<Span>& stack,
                        std::int64_t col, std::int64_t row) {
    assert(stack.empty() && mask.get(col, row) && !visited.get(col, row));
    const Span first = markRun(mask, visited, stack, col, row);
    std::int64_t cells = first.x1 - first.x0 + 1;
    while (!stack.empty()) {
        const Span span = stack.back();
        stack.pop_back();
        if (span.row > 0)
            cells += markRunsTouching(mask, visited, stack, span.row - 1, span.x0, span.x1);
        if (span.row + 1 < mask.height())
            cells += markRunsTouching(mask, visited, stack, span.row + 1, span.x0, span.x1);
    }
    return cells;
}

/// Region sizes summarised as regions are found, in raster order (so anchors ascend).
class SizeTally {
public:
    void add(std::int64_t cells, std::int64_t anchor) {
        ++m_stats.regionCount;
        m_stats.walkableCells += cells;
        if (cells > m_stats.largestCells) {  // strict: ties keep the earlier anchor
            m_stats.largestCells = cells;
            m_stats.largestAnchor = anchor;
        }
        const auto bin = static_cast<std::size_t>(std::bit_width(std::uint64_t(cells)) - 1);
        ++m_binRegions[bin];
        m_binCells[bin] += cells;
        keepIfLarge(cells);
    }

    RegionStats finish() {
        for (std::size_t k = 0; k < m_binRegions.size(); ++k) {
            if (m_binRegions[k] == 0) continue;
            const std::int64_t low = std::int64_t{1} << k;
            m_stats.sizeBins.push_back({low, 2 * low - 1, m_binRegions[k], m_binCells[k]});
        }
        return std::move(m_stats);
    }

private:
    /// Keeps largestSizes the (up to) ten largest sizes so far, descending.
    void keepIfLarge(std::int64_t cells) {
        std::vector<std::int64_t>& top = m_stats.largestSizes;
        if (top.size() == kLargestSizesKept && cells <= top.back()) return;
        top.insert(std::upper_bound(top.begin(), top.end(), cells, std::greater<>()), cells);
        if (top.size() > kLargestSizesKept) top.pop_back();
    }

    RegionStats m_stats;
    std::array<std::int64_t, 64> m_binRegions{};
    std::array<std::int64_t, 64> m_binCells{};
};

}  // namespace

BitRaster::BitRaster(std::int64_t width, std::int64_t height)
    : m_width(width),
      m_height(height),
      m_wordsPerRow((width + kBitsPerWord - 1) / kBitsPerWord),
      m_words(static_cast<std::size_t>(m_wordsPerRow * height), 0) {
    assert(width >= 0 && height >= 0);
}

bool BitRaster::get(std::int64_t col, std::int64_t row) const noexcept {
    assert(col >= 0 && col < m_width && row >= 0 && row < m_height);
    const std::uint64_t word = m_words[std::size_t(row * m_wordsPerRow + col / kBitsPerWord)];
    return (word >> (col % kBitsPerWord)) & 1;
}

void BitRaster::set(std::int64_t col, std::int64_t row, bool value) noexcept {
    assert(col >= 0 && col < m_width && row >= 0 && row < m_height);
    std::uint64_t& word = m_words[std::size_t(row * m_wordsPerRow + col / kBitsPerWord)];
    const std::uint64_t bit = std::uint64_t{1} << (col % kBitsPerWord);
    word = value ? (word | bit) : (word & ~bit);
}

std::int64_t BitRaster::count() const noexcept {
    // Bits past the width are never set, so whole words can be counted.
    std::int64_t total = 0;
    for (const std::uint64_t word : m_words) total += std::popcount(word);
    return total;
}

double RegionStats::largestShare() const noexcept {
    return walkableCells == 0 ? 0.0 : double(largestCells) / double(walkableCells);
}

RegionStats analyseRegions(const BitRaster& mask) {
    BitRaster visited(mask.width(), mask.height());
    std::vector<Span> stack;
    SizeTally tally;
    for (std::int64_t row = 0; row < mask.height(); ++row) {
        const Word* m = mask.rowWords(row);
        const Word* v = visited.rowWords(row);
        for (std::int64_t k = 0; k < mask.wordsPerRow(); ++k) {
            for (Word w; (w = m[k] & ~v[k]) != 0;) {
                const std::int64_t col = k * 64 + std::countr_zero(w);
                tally.add(fillRegion(mask, visited, stack, col, row), row * mask.width() + col);
            }
        }
    }
    return tally.finish();
}

void keepOnlyRegion(BitRaster& mask, std::int64_t anchor) {
    BitRaster kept(mask.width(), mask.height());
    if (anchor >= 0) {
        assert(anchor < mask.width() * mask.height());
        const std::int64_t col = anchor % mask.width();
        const std::int64_t row = anchor / mask.width();
        std::vector<Span> stack;
        if (mask.get(col, row)) fillRegion(mask, kept, stack, col, row);
    }
    mask = std::move(kept);
}

WalkableRegions::WalkableRegions(bool keepLargestOnly) : m_keepLargestOnly(keepLargestOnly) {}

void WalkableRegions::begin(const TileLayout& layout) {
    m_mask = BitRaster(layout.mapWidth(), layout.mapHeight());
    m_stats = RegionStats{};
    m_walkableAfter = 0;
    m_seconds = 0;
}

void WalkableRegions::consume(const Tile& tile) {
    const TileRect& rect = tile.rect;
    // A run without classes has no walkable flags: its cells stay unwalkable.
    if (tile.walkable.empty()) return;
    assert(std::int64_t(tile.walkable.size()) == rect.cellCount());
    assert(rect.col0 + rect.width <= m_mask.width() && rect.row0 + rect.height <= m_mask.height());
    for (std::int64_t r = 0; r < rect.height; ++r) {
        const std::uint8_t* walkable = tile.walkable.data() + r * rect.width;
        for (std::int64_t c = 0; c < rect.width; ++c)
            if (walkable[c]) m_mask.set(rect.col0 + c, rect.row0 + r, true);
    }
}

void WalkableRegions::finish() {
    const auto start = std::chrono::steady_clock::now();
    m_stats = analyseRegions(m_mask);
    if (m_keepLargestOnly) keepOnlyRegion(m_mask, m_stats.largestAnchor);
    m_walkableAfter = m_mask.count();
    m_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace terragrid
