// Windows of a map generated into arrays (pipeline/window_arrays.hpp, app/map.hpp): the cells
// of the batch pipeline (generateMap) at the same indices, whatever the window, tile size and
// threads; Tile::moisture kept only when asked, without changing another field.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include <tbb/parallel_for.h>

#include "terragrid/app/map.hpp"
#include "terragrid/config/loader.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

LoadedConfig libraryConfig(std::vector<std::string> overrides = {}) {
    overrides.insert(overrides.begin(), {"map.width=150", "map.height=100", "map.tile_size=32",
                                         "seed=21", R"(terrain.forest_above={"coverage": 0.3})"});
    return defaultConfig(overrides);
}

/// The whole map through generateMap, as a run makes it.
test::MapCollector batch(const Config& config) {
    const Terrain terrain = makeTerrain(config);
    test::MapCollector collector;
    test::inArena(2, [&] { generateMap(config, &terrain, {&collector}); });
    return collector;
}

struct Window {
    std::vector<float> height;
    std::vector<std::uint8_t> classes, walkable;
    std::vector<float> moisture;
};

Window generated(const Map& map, const CellWindow& w, int threads) {
    const auto cells = static_cast<std::size_t>(w.cellCount());
    Window out{std::vector<float>(cells), std::vector<std::uint8_t>(cells),
               std::vector<std::uint8_t>(cells), std::vector<float>(cells)};
    WindowArrays arrays;
    arrays[Layer::Height] = out.height.data();
    arrays[Layer::Classes] = out.classes.data();
    arrays[Layer::Walkable] = out.walkable.data();
    arrays[Layer::Moisture] = out.moisture.data();
    test::inArena(threads, [&] { map.generate(w, arrays); });
    return out;
}

template <typename T>
std::vector<T> cut(const std::vector<T>& whole, std::int64_t wholeWidth, const CellWindow& w) {
    std::vector<T> out;
    for (std::int64_t r = 0; r < w.height; ++r)
        for (std::int64_t c = 0; c < w.width; ++c)
            out.push_back(whole[static_cast<std::size_t>((w.row0 + r) * wholeWidth + w.col0 + c)]);
    return out;
}

using test::sameBits;

TEST(WindowArraysTest, WindowsAreTheBatchPipelinesCellsForAnyTileSizeAndThreads) {
    const test::MapCollector whole = batch(libraryConfig());
    for (const char* tileSize : {"map.tile_size=7", "map.tile_size=32", "map.tile_size=512"}) {
        const Map map(libraryConfig({tileSize}));
        for (const CellWindow& w : {CellWindow{0, 0, 150, 100}, CellWindow{31, 17, 70, 33},
                                    CellWindow{149, 99, 1, 1}, CellWindow{0, 50, 150, 1}})
            for (int threads : {1, 3}) {
                const Window got = generated(map, w, threads);
                EXPECT_TRUE(sameBits(got.height, cut(whole.elevation, 150, w))) << tileSize;
                EXPECT_EQ(got.classes, cut(whole.classIndex, 150, w)) << tileSize;
                EXPECT_EQ(got.walkable, cut(whole.walkable, 150, w)) << tileSize;
                for (float m : got.moisture) ASSERT_TRUE(m >= 0.0f && m <= 1.0f) << m;
            }
    }
}

// Tile::moisture is the layer the classes read: keeping it changes no other field of a tile.
TEST(WindowArraysTest, KeepingMoistureChangesNothingElse) {
    const LoadedConfig config = libraryConfig();
    const Terrain terrain = makeTerrain(config);
    MapFields plain(config, &terrain);
    MapFields keeping(config, &terrain);
    keeping.keepMoisture = true;
    const TileRect rect{0, 10, 20, 40, 30};
    Tile a, b;
    generateTile(plain, rect, a);
    generateTile(keeping, rect, b);
    EXPECT_TRUE(a.moisture.empty());
    EXPECT_EQ(b.moisture.size(), 40u * 30u);
    EXPECT_TRUE(sameBits(a.elevationMeters, b.elevationMeters));
    EXPECT_EQ(a.classIndex, b.classIndex);
    EXPECT_EQ(a.walkable, b.walkable);
    // Moisture without classes (no terrain) is the same moisture.
    MapFields moistureOnly(config, nullptr);
    moistureOnly.keepMoisture = true;
    Tile c;
    generateTile(moistureOnly, rect, c);
    EXPECT_TRUE(sameBits(b.moisture, c.moisture));
    EXPECT_TRUE(c.classIndex.empty());
}

// Several threads generate windows of one fresh Map at once; the terrain (coverage thresholds)
// is made once and every window equals one made alone.
TEST(WindowArraysTest, ThreadsShareOneMap) {
    const Map shared(libraryConfig());
    std::vector<Window> results(6);
    tbb::parallel_for(0, 6, [&](int i) {
        results[static_cast<std::size_t>(i)] = generated(shared, CellWindow{i * 10, i * 5, 60, 40}, 1);
    });
    const Map alone(libraryConfig());
    for (int i = 0; i < 6; ++i) {
        const Window want = generated(alone, CellWindow{i * 10, i * 5, 60, 40}, 2);
        EXPECT_EQ(results[static_cast<std::size_t>(i)].classes, want.classes) << i;
        EXPECT_TRUE(sameBits(results[static_cast<std::size_t>(i)].height, want.height)) << i;
    }
}

TEST(WindowArraysTest, RefusesWhatItCannotMakeBeforeWritingACell) {
    const Map map(libraryConfig());
    std::vector<float> cells(16, -7.0f);
    WindowArrays out;
    out[Layer::Height] = cells.data();
    EXPECT_THROW(map.generate(CellWindow{148, 0, 4, 4}, out), WindowError);
    out[Layer::Flow] = cells.data();
    EXPECT_THAT([&] { map.generate(CellWindow{0, 0, 4, 4}, out); },
                testing::ThrowsMessage<LayerError>(
                    testing::HasSubstr("layer 'flow' needs hydrology.enabled true (got false)")));
    for (float c : cells) EXPECT_EQ(c, -7.0f);
}

}  // namespace
}  // namespace terragrid
