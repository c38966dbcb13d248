#include "terragrid/pipeline/regions.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "terragrid/model/tiling.hpp"

namespace terragrid {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

using Art = std::vector<std::string>;

/// A mask from ASCII art: '#' set, anything else clear. Rows must have equal lengths.
BitRaster fromArt(const Art& rows) {
    const auto width = rows.empty() ? 0 : std::int64_t(rows[0].size());
    BitRaster mask(width, std::int64_t(rows.size()));
    for (std::int64_t r = 0; r < mask.height(); ++r)
        for (std::int64_t c = 0; c < width; ++c) mask.set(c, r, rows[r][c] == '#');
    return mask;
}

Art toArt(const BitRaster& mask) {
    Art rows;
    for (std::int64_t r = 0; r < mask.height(); ++r) {
        std::string row;
        for (std::int64_t c = 0; c < mask.width(); ++c) row += mask.get(c, r) ? '#' : '.';
        rows.push_back(row);
    }
    return rows;
}

/// A random mask with about `density` of its cells set, the same on every platform.
BitRaster randomMask(std::int64_t width, std::int64_t height, int densityPercent,
                     std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    BitRaster mask(width, height);
    for (std::int64_t r = 0; r < height; ++r)
        for (std::int64_t c = 0; c < width; ++c) mask.set(c, r, int(rng() % 100) < densityPercent);
    return mask;
}

using BinTuple = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>;

std::vector<BinTuple> binTuples(const RegionStats& stats) {
    std::vector<BinTuple> out;
    for (const RegionSizeBin& b : stats.sizeBins)
        out.emplace_back(b.minCells, b.maxCells, b.regions, b.cells);
    return out;
}

void expectSameStats(const RegionStats& a, const RegionStats& b) {
    EXPECT_EQ(a.walkableCells, b.walkableCells);
    EXPECT_EQ(a.regionCount, b.regionCount);
    EXPECT_EQ(a.largestCells, b.largestCells);
    EXPECT_EQ(a.largestAnchor, b.largestAnchor);
    EXPECT_EQ(binTuples(a), binTuples(b));
    EXPECT_EQ(a.largestSizes, b.largestSizes);
}

/// The reference: union-find over every cell, then each region's size by its smallest index.
struct ReferenceLabels {
    std::vector<std::int64_t> root;                ///< per cell, -1 when not set
    std::map<std::int64_t, std::int64_t> sizes;    ///< anchor (smallest index) -> cells
};

ReferenceLabels referenceLabels(const BitRaster& mask) {
    const std::int64_t w = mask.width(), h = mask.height();
    std::vector<std::int64_t> parent(std::size_t(w * h));
    std::iota(parent.begin(), parent.end(), 0);
    const std::function<std::int64_t(std::int64_t)> find = [&](std::int64_t i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    };
    const auto unite = [&](std::int64_t a, std::int64_t b) {
        a = find(a);
        b = find(b);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);  // root = smallest index
    };
    for (std::int64_t r = 0; r < h; ++r)
        for (std::int64_t c = 0; c < w; ++c) {
            if (!mask.get(c, r)) continue;
            if (c + 1 < w && mask.get(c + 1, r)) unite(r * w + c, r * w + c + 1);
            if (r + 1 < h && mask.get(c, r + 1)) unite(r * w + c, (r + 1) * w + c);
        }
    ReferenceLabels labels;
    labels.root.assign(std::size_t(w * h), -1);
    for (std::int64_t i = 0; i < w * h; ++i) {
        if (!mask.get(i % w, i / w)) continue;
        labels.root[i] = find(i);
        ++labels.sizes[labels.root[i]];
    }
    return labels;
}

/// RegionStats computed the slow, obvious way from the reference labels.
RegionStats referenceStats(const ReferenceLabels& labels) {
    RegionStats stats;
    std::vector<std::int64_t> sizes;
    for (const auto& [anchor, cells] : labels.sizes) {  // anchors ascending
        ++stats.regionCount;
        stats.walkableCells += cells;
        if (cells > stats.largestCells) {
            stats.largestCells = cells;
            stats.largestAnchor = anchor;
        }
        sizes.push_back(cells);
    }
    std::sort(sizes.begin(), sizes.end(), std::greater<>());
    stats.largestSizes.assign(sizes.begin(), sizes.begin() + std::min<std::size_t>(10, sizes.size()));
    for (std::int64_t low = 1; low <= stats.walkableCells; low *= 2) {
        RegionSizeBin bin{low, 2 * low - 1, 0, 0};
        for (std::int64_t s : sizes)
            if (s >= bin.minCells && s <= bin.maxCells) ++bin.regions, bin.cells += s;
        if (bin.regions > 0) stats.sizeBins.push_back(bin);
    }
    return stats;
}

// --- BitRaster -------------------------------------------------------------------------------

TEST(RegionsTest, BitRasterSetsGetsAndCounts) {
    BitRaster mask(70, 3);
    EXPECT_EQ(mask.width(), 70);
    EXPECT_EQ(mask.height(), 3);
    EXPECT_EQ(mask.count(), 0);
    mask.set(0, 0, true);
    mask.set(63, 1, true);
    mask.set(64, 1, true);
    mask.set(69, 2, true);
    EXPECT_TRUE(mask.get(63, 1));
    EXPECT_TRUE(mask.get(64, 1));
    EXPECT_FALSE(mask.get(62, 1));
    EXPECT_FALSE(mask.get(0, 1));
    EXPECT_EQ(mask.count(), 4);
    mask.set(63, 1, false);
    mask.set(0, 0, true);  // setting twice changes nothing
    EXPECT_FALSE(mask.get(63, 1));
    EXPECT_EQ(mask.count(), 3);
}

TEST(RegionsTest, BitRasterRowsArePaddedToWholeWords) {
    EXPECT_EQ(BitRaster(1000, 1000).bytes(), std::size_t(1000 * 1024 / 8));
    EXPECT_EQ(BitRaster(64, 1).bytes(), 8u);
    EXPECT_EQ(BitRaster(65, 1).bytes(), 16u);
    EXPECT_EQ(BitRaster(0, 0).bytes(), 0u);
}

// --- analyseRegions on hand-made masks ---------------------------------------------------------

TEST(RegionsTest, CountsRegionsAndSizes) {
    const BitRaster mask = fromArt({"##.#.",  //
                                    "#..#.",  //
                                    "####.",  //
                                    "....#",  //
                                    "##..#"});
    const RegionStats s = analyseRegions(mask);
    EXPECT_EQ(s.walkableCells, 13);
    EXPECT_EQ(s.regionCount, 3);
    EXPECT_EQ(s.largestCells, 9);
    EXPECT_EQ(s.largestAnchor, 0);
    EXPECT_THAT(s.largestSizes, ElementsAre(9, 2, 2));
    EXPECT_THAT(binTuples(s), ElementsAre(BinTuple{2, 3, 2, 4}, BinTuple{8, 15, 1, 9}));
    EXPECT_DOUBLE_EQ(s.largestShare(), 9.0 / 13.0);
}

TEST(RegionsTest, DiagonalNeighboursAreSeparateRegions) {
    const RegionStats s = analyseRegions(fromArt({"#.#",  //
                                                  ".#.",  //
                                                  "#.#"}));
    EXPECT_EQ(s.regionCount, 5);
    EXPECT_EQ(s.largestCells, 1);
    EXPECT_EQ(s.largestAnchor, 0);
    EXPECT_THAT(binTuples(s), ElementsAre(BinTuple{1, 1, 5, 5}));
}

TEST(RegionsTest, RegionReachedFromBelowIsOneRegion) {
    // The right arm is found only by going down the left arm and back up.
    const RegionStats s = analyseRegions(fromArt({"#.#",  //
                                                  "#.#",  //
                                                  "###"}));
    EXPECT_EQ(s.regionCount, 1);
    EXPECT_EQ(s.largestCells, 7);
}

TEST(RegionsTest, SpiralIsOneRegion) {
    const Art spiral{"#########",  //
                     "........#",  //
                     "#######.#",  //
                     "#.....#.#",  //
                     "#.###.#.#",  //
                     "#.#...#.#",  //
                     "#.#####.#",  //
                     "#.......#",  //
                     "#########"};
    const BitRaster mask = fromArt(spiral);
    const RegionStats s = analyseRegions(mask);
    EXPECT_EQ(s.regionCount, 1);
    EXPECT_EQ(s.largestCells, mask.count());
    EXPECT_EQ(s.largestAnchor, 0);

    // Cutting the spiral's path in one place splits it in two.
    Art cut = spiral;
    cut[8][4] = '.';
    const RegionStats split = analyseRegions(fromArt(cut));
    EXPECT_EQ(split.regionCount, 2);
    EXPECT_EQ(split.walkableCells, mask.count() - 1);
}

TEST(RegionsTest, NoWalkableCell) {
    BitRaster mask(5, 4);
    const RegionStats s = analyseRegions(mask);
    EXPECT_EQ(s.walkableCells, 0);
    EXPECT_EQ(s.regionCount, 0);
    EXPECT_EQ(s.largestCells, 0);
    EXPECT_EQ(s.largestAnchor, -1);
    EXPECT_EQ(s.largestShare(), 0.0);
    EXPECT_THAT(s.sizeBins, IsEmpty());
    EXPECT_THAT(s.largestSizes, IsEmpty());
    keepOnlyRegion(mask, s.largestAnchor);
    EXPECT_EQ(mask.count(), 0);
    EXPECT_EQ(mask.width(), 5);
    EXPECT_EQ(mask.height(), 4);

    EXPECT_EQ(analyseRegions(BitRaster(0, 0)).regionCount, 0);
}

TEST(RegionsTest, AnchorMinusOneClearsEverything) {
    BitRaster mask = fromArt({"##.", ".##"});
    keepOnlyRegion(mask, -1);
    EXPECT_EQ(mask.count(), 0);
}

TEST(RegionsTest, FullMapIsOneRegion) {
    BitRaster mask(70, 5);
    for (std::int64_t r = 0; r < 5; ++r)
        for (std::int64_t c = 0; c < 70; ++c) mask.set(c, r, true);
    const RegionStats s = analyseRegions(mask);
    EXPECT_EQ(s.regionCount, 1);
    EXPECT_EQ(s.largestCells, 350);
    EXPECT_EQ(s.largestAnchor, 0);
    EXPECT_EQ(s.largestShare(), 1.0);
    EXPECT_THAT(binTuples(s), ElementsAre(BinTuple{256, 511, 1, 350}));
    EXPECT_THAT(s.largestSizes, ElementsAre(350));
}

TEST(RegionsTest, TiesForLargestGoToTheRegionThatStartsFirst) {
    const RegionStats s = analyseRegions(fromArt({"..#.",  //
                                                  "#.#.",  //
                                                  "#..."}));
    EXPECT_EQ(s.regionCount, 2);
    EXPECT_EQ(s.largestCells, 2);
    EXPECT_EQ(s.largestAnchor, 2);
    EXPECT_DOUBLE_EQ(s.largestShare(), 0.5);
}

TEST(RegionsTest, SizeBinsByPowersOfTwo) {
    const RegionStats s = analyseRegions(fromArt({"#.#.##.###",  // sizes 1, 1, 2, 3
                                                  "..........",  //
                                                  "####......",  // 4
                                                  "..........",  //
                                                  "#######...",  // 7
                                                  "..........",  //
                                                  "########.."}));  // 8
    EXPECT_THAT(binTuples(s), ElementsAre(BinTuple{1, 1, 2, 2}, BinTuple{2, 3, 2, 5},
                                          BinTuple{4, 7, 2, 11}, BinTuple{8, 15, 1, 8}));
    EXPECT_THAT(s.largestSizes, ElementsAre(8, 7, 4, 3, 2, 1, 1));
}

TEST(RegionsTest, TopTenLargestSizesDescending) {
    Art art;
    for (int size : {5, 12, 1, 7, 3, 9, 2, 11, 4, 10, 6, 8}) {
        art.push_back(std::string(size, '#') + std::string(12 - size, '.'));
        art.push_back(std::string(12, '.'));
    }
    const RegionStats s = analyseRegions(fromArt(art));
    EXPECT_EQ(s.regionCount, 12);
    EXPECT_THAT(s.largestSizes, ElementsAre(12, 11, 10, 9, 8, 7, 6, 5, 4, 3));
    EXPECT_EQ(s.largestCells, 12);
    EXPECT_EQ(s.largestAnchor, 2 * 12);
}

TEST(RegionsTest, RowsDoNotWrapAtWordBoundaries) {
    BitRaster edge(64, 2);
    edge.set(63, 0, true);  // last cell of row 0 and first of row 1 share no edge
    edge.set(0, 1, true);
    EXPECT_EQ(analyseRegions(edge).regionCount, 2);

    BitRaster across(130, 2);
    for (std::int64_t c = 60; c < 70; ++c) across.set(c, 0, true);  // a run over a word edge
    across.set(127, 1, true);
    across.set(128, 1, true);
    across.set(129, 1, true);
    const RegionStats s = analyseRegions(across);
    EXPECT_EQ(s.regionCount, 2);
    EXPECT_THAT(s.largestSizes, ElementsAre(10, 3));
}

TEST(RegionsTest, KeepOnlyRegionKeepsExactlyTheLargest) {
    BitRaster mask = fromArt({"#.##.",  //
                              "#..#.",  //
                              "####.",  //
                              "....#",  //
                              "##..#"});
    keepOnlyRegion(mask, analyseRegions(mask).largestAnchor);
    EXPECT_EQ(toArt(mask), (Art{"#.##.",  //
                                "#..#.",  //
                                "####.",  //
                                ".....",  //
                                "....."}));

    BitRaster small = fromArt({"#.#", "#.#"});
    keepOnlyRegion(small, 2);  // any cell of a region names it
    EXPECT_EQ(toArt(small), (Art{"..#", "..#"}));
    keepOnlyRegion(small, 5);
    EXPECT_EQ(toArt(small), (Art{"..#", "..#"}));
}

TEST(RegionsTest, AgreesWithReferenceLabellingOnRandomMasks) {
    struct Case {
        std::int64_t width, height;
        int densityPercent;
    };
    for (const Case& k : {Case{97, 61, 55}, Case{97, 61, 30}, Case{97, 61, 70}, Case{64, 64, 60},
                          Case{65, 9, 60}, Case{1, 50, 60}, Case{50, 1, 60}, Case{130, 40, 58}}) {
        SCOPED_TRACE(std::to_string(k.width) + "x" + std::to_string(k.height) + " at " +
                     std::to_string(k.densityPercent) + "%");
        BitRaster mask = randomMask(k.width, k.height, k.densityPercent, 97);
        const ReferenceLabels labels = referenceLabels(mask);
        const RegionStats stats = analyseRegions(mask);
        expectSameStats(stats, referenceStats(labels));

        keepOnlyRegion(mask, stats.largestAnchor);
        for (std::int64_t i = 0; i < k.width * k.height; ++i) {
            const bool inLargest = labels.root[i] >= 0 && labels.root[i] == stats.largestAnchor;
            ASSERT_EQ(mask.get(i % k.width, i / k.width), inLargest) << "cell " << i;
        }
    }
}

// --- WalkableRegions as a sink -----------------------------------------------------------------

/// Feeds `walkable` (row-major, width x height) to `sink` as the tiles of `tileSize`.
void feedTiles(WalkableRegions& sink, const std::vector<std::uint8_t>& walkable,
               std::int64_t width, std::int64_t height, std::int64_t tileSize) {
    MapConfig map;
    map.width = width;
    map.height = height;
    map.tileSizeCells = tileSize;
    map.cellSize = 1;
    const TileLayout layout(map);
    sink.begin(layout);
    Tile tile;
    for (std::int64_t i = 0; i < layout.tileCount(); ++i) {
        tile.rect = layout.tile(i);
        tile.walkable.clear();
        for (std::int64_t r = 0; r < tile.rect.height; ++r)
            for (std::int64_t c = 0; c < tile.rect.width; ++c)
                tile.walkable.push_back(
                    walkable[std::size_t((tile.rect.row0 + r) * width + tile.rect.col0 + c)]);
        tile.classIndex.assign(tile.walkable.size(), 0);
        sink.consume(tile);
    }
    sink.finish();
}

std::vector<std::uint8_t> randomWalkable(std::int64_t width, std::int64_t height) {
    std::mt19937_64 rng(2024);
    std::vector<std::uint8_t> cells(std::size_t(width * height));
    for (auto& cell : cells) cell = rng() % 100 < 58 ? 1 : 0;
    return cells;
}

TEST(RegionsTest, WalkableRegionsSameWhateverTheTileSize) {
    const std::int64_t w = 150, h = 97;
    const std::vector<std::uint8_t> walkable = randomWalkable(w, h);
    BitRaster expected(w, h);
    for (std::int64_t i = 0; i < w * h; ++i) expected.set(i % w, i / w, walkable[i] != 0);
    const RegionStats expectedStats = analyseRegions(expected);

    for (std::int64_t tileSize : {7, 16, 64}) {
        SCOPED_TRACE("tile size " + std::to_string(tileSize));
        WalkableRegions sink(false);
        feedTiles(sink, walkable, w, h, tileSize);
        EXPECT_EQ(toArt(sink.mask()), toArt(expected));
        expectSameStats(sink.stats(), expectedStats);
        EXPECT_EQ(sink.walkableCellsAfter(), expectedStats.walkableCells);
        EXPECT_GE(sink.analysisSeconds(), 0.0);
    }
}

TEST(RegionsTest, WalkableRegionsLargestModeKeepsOnlyTheLargestRegion) {
    const std::int64_t w = 150, h = 97;
    const std::vector<std::uint8_t> walkable = randomWalkable(w, h);
    BitRaster expected(w, h);
    for (std::int64_t i = 0; i < w * h; ++i) expected.set(i % w, i / w, walkable[i] != 0);
    const RegionStats before = analyseRegions(expected);
    ASSERT_GT(before.regionCount, 1);
    keepOnlyRegion(expected, before.largestAnchor);

    for (std::int64_t tileSize : {7, 16, 64}) {
        WalkableRegions sink(true);
        feedTiles(sink, walkable, w, h, tileSize);
        EXPECT_EQ(toArt(sink.mask()), toArt(expected));
        expectSameStats(sink.stats(), before);  // stats describe the mask as generated
        EXPECT_EQ(sink.walkableCellsAfter(), before.largestCells);
        const RegionStats after = analyseRegions(sink.mask());
        EXPECT_EQ(after.regionCount, 1);
        EXPECT_EQ(after.largestCells, before.largestCells);
    }
}

}  // namespace
}  // namespace terragrid
