// Tile summaries: the statistics made on the generator's workers equal the ones made from the
// cells, for any thread count, and elevationFixed rounds exactly as llround.

#include "terragrid/pipeline/tile_summary.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "terragrid/config/loader.hpp"
#include "terragrid/pipeline/stats.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

std::int64_t reference(float v) { return std::llround(double(v) * kElevationSumScale); }

TEST(TileSummaryTest, ElevationFixedRoundsAsLlroundAcrossMagnitudes) {
    std::mt19937_64 random(7);  // output fixed by the standard
    for (int i = 0; i < 200000; ++i) {
        // Any bit pattern of a finite float up to 2^32 m, so tiny, huge and every mantissa.
        const auto bits = static_cast<std::uint32_t>(random());
        float v;
        std::memcpy(&v, &bits, sizeof v);
        if (!std::isfinite(v) || std::fabs(v) >= 0x1p32f) continue;
        ASSERT_EQ(elevationFixed(v), reference(v)) << v;
    }
}

TEST(TileSummaryTest, ElevationFixedRoundsTiesAwayFromZero) {
    // v = odd * 2^-31 puts the product exactly halfway between two integers.
    for (int odd : {1, 3, 5, 7, 1001, 123457}) {
        const float v = std::ldexp(float(odd), -31);
        EXPECT_EQ(elevationFixed(v), reference(v)) << odd;
        EXPECT_EQ(elevationFixed(-v), reference(-v)) << -odd;
        EXPECT_EQ(elevationFixed(v), (odd + 1) / 2);
    }
    EXPECT_EQ(elevationFixed(0.0f), 0);
    EXPECT_EQ(elevationFixed(-0.0f), 0);
}

/// The statistics of generated cells, figured from the cells themselves.
MapStats statsOfCells(const test::MapCollector& map, std::size_t classes) {
    test::SyntheticMap cells{map.width, map.height, map.elevation, map.classIndex, map.walkable};
    MapStats stats(classes);
    test::feedTiles({&stats}, cells, 1000);
    return stats;
}

TEST(TileSummaryTest, WorkersSummariesEqualTheCellsForAnyThreadCount) {
    const Config config =
        defaultConfig({"map.width=300", "map.height=170", "map.tile_size=64"});
    const Terrain terrain = makeTerrain(config);
    for (int threads : {1, 2, 8}) {
        MapStats stats(terrain.classes().size());
        test::MapCollector map;
        test::inArena(threads, [&] { generateMap(config, &terrain, {&stats, &map}); });
        const MapStats expected = statsOfCells(map, terrain.classes().size());
        EXPECT_EQ(stats.cells(), 300 * 170);
        EXPECT_EQ(stats.elevationMin(), expected.elevationMin()) << threads;
        EXPECT_EQ(stats.elevationMax(), expected.elevationMax()) << threads;
        EXPECT_EQ(stats.elevationMean(), expected.elevationMean()) << threads;
        EXPECT_EQ(stats.classCells(), expected.classCells()) << threads;
        EXPECT_EQ(stats.walkableCells(), expected.walkableCells()) << threads;
    }
}

TEST(TileSummaryTest, PartialStatisticsKeepOnlyTheRange) {
    const Config config = defaultConfig({"map.width=130", "map.height=90", "map.tile_size=32"});
    const Terrain terrain = makeTerrain(config);
    MapStats full(terrain.classes().size());
    MapStats partial(terrain.classes().size(), false);
    generateMap(config, &terrain, {&full, &partial});
    EXPECT_EQ(partial.cells(), full.cells());
    EXPECT_EQ(partial.elevationMin(), full.elevationMin());
    EXPECT_EQ(partial.elevationMax(), full.elevationMax());
    EXPECT_NE(full.elevationMean(), 0.0);
    EXPECT_EQ(partial.elevationMean(), 0.0);
    EXPECT_EQ(partial.walkableCells(), 0);
    EXPECT_GT(full.walkableCells(), 0);
}

// The range is found in vector lanes plus a scalar tail: whatever the tile's length and
// wherever the lowest and highest cells lie (first, last, in the tail), it is theirs.
TEST(TileSummaryTest, RangeIsTheLowestAndHighestCellForAnyLengthAndPosition) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> heights(-500.0f, 2000.0f);
    for (const std::size_t n : {1u, 2u, 3u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 100u}) {
        for (std::size_t at = 0; at < n; ++at) {
            Tile tile;
            tile.elevationMeters.resize(n);
            for (float& v : tile.elevationMeters) v = heights(rng);
            const std::size_t highAt = n - 1 - at == at ? (at + 1) % n : n - 1 - at;
            tile.elevationMeters[highAt] = 9000.0f;
            tile.elevationMeters[at] = -3000.0f;  // one cell: both
            const TileSummary s = summariseTile(tile, false);
            EXPECT_EQ(s.elevationMin, -3000.0f) << n << " cells, lowest at " << at;
            EXPECT_EQ(s.elevationMax, n == 1 ? -3000.0f : 9000.0f)
                << n << " cells, highest at " << highAt;
            EXPECT_EQ(s.cells, static_cast<std::int64_t>(n));
        }
    }
}

}  // namespace
}  // namespace terragrid
