#include "terragrid/pipeline/stats.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "test_support.hpp"

namespace terragrid {
namespace {

/// Pseudo-random elevations of mixed magnitude (not exact in binary, so summation order would
/// show in a floating-point mean) and classes 0..2, with class 0 not walkable.
test::SyntheticMap randomMap(std::int64_t width, std::int64_t height) {
    std::mt19937_64 random(42);  // output fixed by the standard
    test::SyntheticMap map{width, height, {}, {}, {}};
    for (std::int64_t i = 0; i < width * height; ++i) {
        map.elevation.push_back(float(double(random() % 2000001) / 1000.0 - 1000.0) * 0.1f);
        map.classIndex.push_back(std::uint8_t(random() % 3));
        map.walkable.push_back(map.classIndex.back() != 0 ? 1 : 0);
    }
    return map;
}

MapStats statsOf(const test::SyntheticMap& map, std::int64_t tileSize) {
    MapStats stats(3);
    test::feedTiles({&stats}, map, tileSize);
    return stats;
}

TEST(StatsTest, FiguresMatchTheCells) {
    const test::SyntheticMap map = randomMap(97, 61);
    const MapStats stats = statsOf(map, 16);
    EXPECT_EQ(stats.cells(), 97 * 61);
    EXPECT_EQ(stats.elevationMin(), *std::min_element(map.elevation.begin(), map.elevation.end()));
    EXPECT_EQ(stats.elevationMax(), *std::max_element(map.elevation.begin(), map.elevation.end()));
    double sum = 0;
    for (float v : map.elevation) sum += v;
    EXPECT_NEAR(stats.elevationMean(), sum / double(map.elevation.size()), 1e-6);
    for (std::uint8_t c = 0; c < 3; ++c)
        EXPECT_EQ(stats.classCells()[c],
                  std::count(map.classIndex.begin(), map.classIndex.end(), c));
    EXPECT_EQ(stats.walkableCells(), stats.classCells()[1] + stats.classCells()[2]);
}

TEST(StatsTest, EveryFigureIsIndependentOfTileSize) {
    const test::SyntheticMap map = randomMap(203, 117);
    const MapStats reference = statsOf(map, 1000);
    for (std::int64_t tile : {1, 7, 16, 64}) {
        const MapStats stats = statsOf(map, tile);
        // Bitwise equality, the mean included: a plain floating-point sum would differ.
        EXPECT_EQ(stats.elevationMean(), reference.elevationMean()) << "tile " << tile;
        EXPECT_EQ(stats.elevationMin(), reference.elevationMin());
        EXPECT_EQ(stats.elevationMax(), reference.elevationMax());
        EXPECT_EQ(stats.classCells(), reference.classCells());
    }
}

TEST(StatsTest, BeginResetsForAnotherRun) {
    const test::SyntheticMap map = randomMap(20, 10);
    MapStats stats(3);
    test::feedTiles({&stats}, map, 8);
    test::feedTiles({&stats}, map, 8);
    EXPECT_EQ(stats.cells(), 200);
}

}  // namespace
}  // namespace terragrid
