#include "terragrid/pipeline/generator.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "test_support.hpp"

namespace terragrid {
namespace {

using test::MapCollector;

Config smallConfig(std::vector<std::string> overrides = {}) {
    overrides.insert(overrides.begin(),
                     {"map.width=320", "map.height=272", "map.tile_size=64"});
    return defaultConfig(overrides);
}

/// The whole map, classified when the config's outputs need classes.
MapCollector generate(const Config& config, int threads = 2) {
    MapCollector map;
    std::optional<Terrain> terrain;
    if (config.needsClasses()) terrain.emplace(makeTerrain(config));
    test::inArena(threads, [&] { generateMap(config, terrain ? &*terrain : nullptr, {&map}); });
    return map;
}

using test::sameBits;

TEST(GeneratorTest, SinksSeeEveryTileOnceInOrder) {
    const Config config = smallConfig({"map.tile_size=48"});
    const MapCollector map = generate(config, 8);
    EXPECT_TRUE(map.begun);
    EXPECT_TRUE(map.finished);
    const TileLayout layout(config.map);
    ASSERT_EQ(map.tileOrder.size(), std::size_t(layout.tileCount()));
    for (std::size_t i = 0; i < map.tileOrder.size(); ++i) EXPECT_EQ(map.tileOrder[i], std::int64_t(i));
    for (int c : map.coverage) ASSERT_EQ(c, 1);
}

TEST(GeneratorTest, BitIdenticalForOneTwoAndEightThreads) {
    const Config config = smallConfig({"map.tile_size=16"});
    const MapCollector one = generate(config, 1);
    EXPECT_TRUE(sameBits(one.elevation, generate(config, 2).elevation));
    EXPECT_TRUE(sameBits(one.elevation, generate(config, 8).elevation));
}

TEST(GeneratorTest, BitIdenticalForEveryTileSize) {
    const MapCollector reference = generate(smallConfig({"map.tile_size=1000"}));
    for (int tile : {16, 64, 256, 1000, 7, 100}) {
        const MapCollector map = generate(smallConfig({"map.tile_size=" + std::to_string(tile)}));
        EXPECT_TRUE(sameBits(reference.elevation, map.elevation)) << "tile size " << tile;
    }
}

TEST(GeneratorTest, WindowOfABigMapEqualsTheWindowGeneratedAlone) {
    const Config big = smallConfig({"map.cell_size=0.1", "map.origin=[-1000.5, 2000.3]"});
    const MapCollector whole = generate(big);
    // The window starts at map cell (col 37, row 23): its origin moves east and south.
    const std::int64_t col0 = 37, row0 = 23, w = 101, h = 77;
    char origin[128];
    std::snprintf(origin, sizeof origin, "map.origin=[%.17g, %.17g]", -1000.5 + col0 * 0.1,
                  2000.3 - row0 * 0.1);
    const MapCollector window = generate(smallConfig(
        {"map.cell_size=0.1", origin, "map.width=" + std::to_string(w),
         "map.height=" + std::to_string(h), "map.tile_size=32"}));
    for (std::int64_t y = 0; y < h; ++y)
        for (std::int64_t x = 0; x < w; ++x)
            ASSERT_EQ(window.elevation[y * w + x], whole.elevation[(row0 + y) * whole.width + col0 + x])
                << "cell " << x << "," << y;
}

TEST(GeneratorTest, OriginShiftTranslatesTheMap) {
    // Moving the origin one tile east shows the same terrain one tile further west.
    const MapCollector a = generate(smallConfig());
    const MapCollector b = generate(smallConfig({"map.origin=[1920, 0]"}));  // 64 cells of 30 m
    for (std::int64_t y = 0; y < a.height; ++y)
        for (std::int64_t x = 0; x + 64 < a.width; ++x)
            ASSERT_EQ(b.elevation[y * a.width + x], a.elevation[y * a.width + x + 64]);
    EXPECT_FALSE(sameBits(a.elevation, b.elevation));
}

TEST(GeneratorTest, OriginOffTheGridSamplesTheNearestGridCells) {
    // 500000 / 30 and 5000000 / 30 are 2/3 of a cell past a grid line: the map's cells sample
    // the noise at the nearest grid cells, i.e. those of the map whose origin is 10 m further
    // east and north, while the raster stays where its origin says.
    const Config off = smallConfig({"map.origin=[500000, 5000000]"});
    const MapCollector a = generate(off);
    const MapCollector b = generate(smallConfig({"map.origin=[500010, 5000010]"}));
    EXPECT_TRUE(sameBits(a.elevation, b.elevation));
    EXPECT_EQ(off.map.originX, 500000.0);
    EXPECT_EQ(off.map.originY, 5000000.0);
    // A third of a cell rounds the other way: the grid line below.
    const MapCollector c = generate(smallConfig({"map.origin=[499990, 4999990]"}));
    EXPECT_FALSE(sameBits(a.elevation, c.elevation));
    const MapCollector d = generate(smallConfig({"map.origin=[499980, 4999980]"}));
    EXPECT_TRUE(sameBits(c.elevation, d.elevation));
}

TEST(GeneratorTest, NoSeamsAtTileBorders) {
    // Neighbouring cells across a tile border differ no more than neighbours inside a tile.
    const MapCollector map = generate(smallConfig({"map.tile_size=16", "height.octaves=8"}));
    double border = 0, inside = 0;
    std::int64_t borderCount = 0, insideCount = 0;
    for (std::int64_t y = 0; y < map.height; ++y)
        for (std::int64_t x = 0; x + 1 < map.width; ++x) {
            const double d = std::fabs(map.elevation[y * map.width + x + 1] -
                                       map.elevation[y * map.width + x]);
            const bool crosses = (x + 1) % 16 == 0;
            (crosses ? border : inside) += d;
            ++(crosses ? borderCount : insideCount);
        }
    const double borderMean = border / borderCount, insideMean = inside / insideCount;
    EXPECT_GT(insideMean, 0.0);
    EXPECT_NEAR(borderMean / insideMean, 1.0, 0.25);
}

TEST(GeneratorTest, ElevationStaysWithinTheConfiguredRange) {
    for (const char* fractal : {"none", "fbm", "turbulence", "ridged"}) {
        const MapCollector map = generate(smallConfig(
            {std::string("height.fractal=") + fractal, "elevation.min=-250", "elevation.max=4000"}));
        for (float v : map.elevation) {
            ASSERT_GE(v, -250.0f) << fractal;
            ASSERT_LE(v, 4000.0f) << fractal;
        }
    }
}

TEST(GeneratorTest, SeedChangesTheMap) {
    EXPECT_FALSE(sameBits(generate(smallConfig()).elevation,
                          generate(smallConfig({"seed=8"})).elevation));
}

TEST(GeneratorTest, SinkExceptionStopsTheRunAndPropagates) {
    struct FailingSink : TileSink {
        void begin(const TileLayout&) override {}
        void consume(const Tile& t) override {
            if (t.rect.index == 3) throw std::runtime_error("disk full");
        }
        void finish() override { finished = true; }
        bool finished = false;
    } sink;
    const Config config = smallConfig();
    EXPECT_THAT([&] { generateMap(config, nullptr, {&sink}); },
                testing::ThrowsMessage<std::runtime_error>(testing::HasSubstr("disk full")));
    EXPECT_FALSE(sink.finished);
}

TEST(GeneratorTest, ClassesAndWalkabilityAreBitIdenticalForAnyThreadsAndTileSize) {
    const MapCollector reference = generate(smallConfig({"map.tile_size=1000"}), 1);
    ASSERT_EQ(reference.classIndex.size(), reference.elevation.size());
    for (int threads : {1, 2, 8})
        for (int tile : {16, 64, 256, 1000}) {
            const MapCollector map =
                generate(smallConfig({"map.tile_size=" + std::to_string(tile)}), threads);
            EXPECT_EQ(map.classIndex, reference.classIndex) << threads << " threads, tile " << tile;
            EXPECT_EQ(map.walkable, reference.walkable) << threads << " threads, tile " << tile;
        }
}

TEST(GeneratorTest, EveryCellIsClassifiedFromItsOwnHeightAndMoisture) {
    const Config config = smallConfig({"map.tile_size=48"});
    const Terrain terrain = makeTerrain(config);
    const MapCollector map = generate(config);
    const TileLayout layout(config.map);
    const NoiseField height(config.height.base, config.seed);
    const NoiseField moisture(config.moisture.base, config.seed);
    std::vector<std::int64_t> seen(terrain.classes().size(), 0);
    for (std::int64_t row = 0; row < map.height; row += 3)
        for (std::int64_t col = 0; col < map.width; col += 5) {
            const double x = layout.geometry().cellX(col), y = layout.geometry().cellY(row);
            const std::uint8_t expected = terrain.classify(height.sample(x, y), moisture.sample(x, y));
            const auto at = static_cast<std::size_t>(row * map.width + col);
            ASSERT_EQ(map.classIndex[at], expected) << "cell " << col << "," << row;
            ASSERT_EQ(map.walkable[at], terrain.walkable(expected) ? 1 : 0);
            ++seen[expected];
        }
    // A map of one class would make the check above trivially true.
    EXPECT_GE(std::count_if(seen.begin(), seen.end(), [](std::int64_t n) { return n > 0; }), 3);
}

TEST(GeneratorTest, HeightOnlyRunsClassifyNothing) {
    const Config config = smallConfig({R"(output.files=["height.tif"])"});
    EXPECT_FALSE(config.needsClasses());
    const MapCollector map = generate(config);
    EXPECT_TRUE(map.classIndex.empty());
}

TEST(GeneratorTest, CoverageSampleIsEveryCellOfSmallMapsAndAnEvenGridOfBigOnes) {
    EXPECT_EQ(sampleForCoverage(smallConfig()).height.size(), std::size_t(320 * 272));
    const Config big = defaultConfig({"map.width=4096", "map.height=3000"});
    const CoverageSample sample = sampleForCoverage(big);
    EXPECT_LE(sample.height.size(), std::size_t(kCoverageSampleCells));
    EXPECT_GE(sample.height.size(), std::size_t(kCoverageSampleCells / 2));
    EXPECT_EQ(sample.height.size(), sample.moisture.size());
}

// The sample is computed by rows in parallel: the same values on any thread count, and each
// one the field's value at the centre cell of its block.
TEST(GeneratorTest, CoverageSampleIsTheFieldAtItsCellsOnAnyThreadCount) {
    const Config big = defaultConfig({"map.width=3001", "map.height=2003"});
    const auto sampleWith = [&](int threads) {
        return test::inArena(threads, [&] { return sampleForCoverage(big); });
    };
    const CoverageSample one = sampleWith(1);
    const CoverageSample eight = sampleWith(8);
    EXPECT_TRUE(one.height == eight.height);
    EXPECT_TRUE(one.moisture == eight.moisture);
    // 3001 x 2003 cells / 2^20 -> blocks of 3 x 3: columns 1, 4, ..., 2998, rows 1, ..., 2002
    const MapFields fields(big, nullptr);
    const std::size_t width = 1000;
    ASSERT_EQ(one.height.size(), width * 668);
    for (std::size_t i : {std::size_t{0}, std::size_t{999}, std::size_t{1001}, width * 668 - 1}) {
        const std::int64_t col = 1 + 3 * std::int64_t(i % width);
        const std::int64_t row = 1 + 3 * std::int64_t(i / width);
        EXPECT_EQ(one.height[i], fields.height.sample(col, row));
        EXPECT_EQ(one.moisture[i], fields.moisture.sample(col, row));
    }
}

TEST(GeneratorTest, CoverageTargetsAreMetOnTheMap) {
    const Config config = smallConfig({R"(terrain.lake_below={"coverage": 0.25})",
                                       R"(terrain.mountain_above={"coverage": 0.1})",
                                       R"(terrain.forest_above={"coverage": 0.2})",
                                       R"(terrain.desert_below={"coverage": 0.15})"});
    const Terrain terrain = makeTerrain(config);
    const MapCollector map = generate(config);
    std::vector<double> share(terrain.classes().size(), 0.0);
    for (std::uint8_t c : map.classIndex) share[c] += 1.0 / double(map.classIndex.size());
    // Small maps are sampled whole, so the shares are exact up to one cell (and ties).
    const double oneCell = 1.0 / double(map.classIndex.size());
    EXPECT_NEAR(share[std::size_t(DefaultClass::Lake)], 0.25, 2 * oneCell);
    EXPECT_NEAR(share[std::size_t(DefaultClass::Mountain)], 0.10, 2 * oneCell);
    EXPECT_NEAR(share[std::size_t(DefaultClass::Forest)], 0.20, 2 * oneCell);
    EXPECT_NEAR(share[std::size_t(DefaultClass::Desert)], 0.15, 2 * oneCell);
}

}  // namespace
}  // namespace terragrid
