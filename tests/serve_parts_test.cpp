// The explorer's parts without a socket: tile paths (strict, hostile ones refused with the
// right status), the pyramid's zooms, the bounded LRU tile cache, the background hydrology
// job (done, and cancelled).

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <chrono>
#include <thread>

#include "serve/hydrology_job.hpp"
#include "serve/tile_address.hpp"
#include "serve/tile_cache.hpp"
#include "terragrid/config/loader.hpp"

namespace terragrid::serve {
namespace {

TEST(TilePathTest, ParsesLayerZoomAndIndices) {
    const TilePathResult r = parseTilePath("height/3/5/7.png");
    ASSERT_TRUE(r.address);
    EXPECT_EQ(r.address->layer, TileLayer::Height);
    EXPECT_EQ(r.address->zoom, 3);
    EXPECT_EQ(r.address->x, 5);
    EXPECT_EQ(r.address->y, 7);
    for (std::size_t i = 0; i < kTileLayerNames.size(); ++i) {
        const auto parsed = parseTilePath(std::string(kTileLayerNames[i]) + "/0/0/0.png");
        ASSERT_TRUE(parsed.address) << kTileLayerNames[i];
        EXPECT_EQ(parsed.address->layer, static_cast<TileLayer>(i));
    }
}

TEST(TilePathTest, RefusesEveryOtherShape) {
    struct Case {
        const char* path;
        int status;
    };
    const Case cases[] = {
        {"nosuch/0/0/0.png", 404},         {"PREVIEW/0/0/0.png", 404},
        {"preview/0/0/-1.png", 400},       {"preview/-1/0/0.png", 400},
        {"preview/0/+1/0.png", 400},       {"preview/0/x/0.png", 400},
        {"preview/0/0/0", 400},            {"preview/0/0/0.jpg", 400},
        {"preview/0/0/.png", 400},         {"preview/0/0.png", 400},
        {"preview/0/0/0/0.png", 400},      {"preview//0/0.png", 400},
        {"preview/0/0/0.png/", 400},       {"../0/0/0.png", 404},
        {"preview/../0/0.png", 400},       {"preview/0/0/0.png.png", 400},
        {"preview/1e3/0/0.png", 400},      {"preview/0/0x10/0.png", 400},
        {"preview/0/4611686018427387904/0.png", 400},  // 2^62: more than 18 digits
        {"preview/0/0/99999999999999999999.png", 400},
        {"preview/63/0/0.png", 404},       {"preview/ 0/0/0.png", 400},
        {"", 400},                         {"preview", 400},
    };
    for (const Case& c : cases) {
        const TilePathResult r = parseTilePath(c.path);
        EXPECT_FALSE(r.address) << c.path;
        EXPECT_EQ(r.status, c.status) << c.path;
        EXPECT_FALSE(r.message.empty()) << c.path;
    }
    EXPECT_NE(parseTilePath("nosuch/0/0/0.png").message.find("'nosuch'"), std::string::npos);
}

TEST(TilePyramidTest, HighestZoomHasOneCellPerPixelAndZoomZeroOneTile) {
    struct Case {
        std::int64_t width, height;
        int maxZoom;
    };
    for (const Case c : {Case{1, 1, 0}, Case{256, 256, 0}, Case{257, 10, 1}, Case{1024, 1024, 2},
                         Case{1025, 3, 3}, Case{16384, 16384, 6}, Case{3, 70000, 9}}) {
        const TilePyramid p(c.width, c.height);
        EXPECT_EQ(p.maxZoom(), c.maxZoom) << c.width << "x" << c.height;
        EXPECT_EQ(p.step(p.maxZoom()), 1);
        EXPECT_EQ(p.pixelsAcross(p.maxZoom()), c.width);
        EXPECT_EQ(p.tilesAcross(0), 1);
        EXPECT_EQ(p.tilesDown(0), 1);
        for (int z = 0; z <= p.maxZoom(); ++z) {
            EXPECT_TRUE(p.contains({TileLayer::Preview, z, 0, 0}));
            EXPECT_FALSE(p.contains({TileLayer::Preview, z, p.tilesAcross(z), 0}));
            EXPECT_FALSE(p.contains({TileLayer::Preview, z, 0, p.tilesDown(z)}));
            // Every pixel's centre cell lies in the map.
            EXPECT_LT(p.centreCell(p.pixelsAcross(z) - 1, z, c.width), c.width);
        }
        EXPECT_FALSE(p.contains({TileLayer::Preview, p.maxZoom() + 1, 0, 0}));
        EXPECT_FALSE(p.contains({TileLayer::Preview, -1, 0, 0}));
        EXPECT_FALSE(p.contains({TileLayer::Preview, 0, -1, 0}));
    }
}

TileCache::Bytes bytes(std::size_t n, char c = 'x') {
    return std::make_shared<const std::string>(n, c);
}

TEST(TileCacheTest, DropsTheLeastRecentlyUsedToStayWithinItsBytes) {
    const std::size_t entry = TileCache::costOf("a", std::string(1000, 'x'));
    TileCache cache(3 * entry);
    cache.insert("a", bytes(1000));
    cache.insert("b", bytes(1000));
    cache.insert("c", bytes(1000));
    EXPECT_EQ(cache.entries(), 3u);
    ASSERT_TRUE(cache.find("a"));  // a is now the most recent: b goes first
    cache.insert("d", bytes(1000));
    EXPECT_TRUE(cache.find("a"));
    EXPECT_FALSE(cache.find("b"));
    EXPECT_TRUE(cache.find("c"));
    EXPECT_TRUE(cache.find("d"));
    EXPECT_LE(cache.bytes(), cache.capacity());
    // A larger entry pushes out as many as it needs.
    cache.insert("e", bytes(2000));
    EXPECT_LE(cache.bytes(), cache.capacity());
    EXPECT_TRUE(cache.find("e"));
    EXPECT_EQ(cache.entries(), 2u);
    // One larger than the whole cache is not kept, and takes nothing out.
    cache.insert("huge", bytes(10 * entry));
    EXPECT_FALSE(cache.find("huge"));
    EXPECT_TRUE(cache.find("e"));
}

TEST(TileCacheTest, ReplacingAnEntryCountsItsBytesOnce) {
    TileCache cache(1 << 20);
    cache.insert("a", bytes(1000));
    cache.insert("a", bytes(500, 'y'));
    EXPECT_EQ(cache.entries(), 1u);
    EXPECT_EQ(cache.bytes(), TileCache::costOf("a", std::string(500, 'y')));
    EXPECT_EQ(*cache.find("a"), std::string(500, 'y'));
    EXPECT_EQ(cache.hits(), 1u);
    EXPECT_FALSE(cache.find("b"));
    EXPECT_EQ(cache.misses(), 1u);
}

/// Waits up to `seconds` for `done`.
template <typename Done>
bool within(double seconds, Done done) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!done()) {
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

TEST(HydrologyJobTest, TheStageRunsInTheBackgroundAndSetsTheWater) {
    auto map = std::make_shared<ExploredMap>(defaultConfig(
        {"map.width=300", "map.height=200", "hydrology.enabled=true",
         "hydrology.river_threshold=180000"}));
    EXPECT_EQ(map->hydrologyStatus().state, HydrologyStatus::State::None);
    startHydrologyJob(map, 1);
    ASSERT_TRUE(within(120, [&] { return map->hydrologyStatus().state != HydrologyStatus::State::Running; }));
    EXPECT_EQ(map->hydrologyStatus().state, HydrologyStatus::State::Done) << map->hydrologyStatus().error;
    ASSERT_TRUE(map->water());
    EXPECT_EQ(map->water()->rivers.levels(), map->pyramid().maxZoom());
    // The job let go of the map.
    EXPECT_TRUE(within(10, [&] { return map.use_count() == 1; }));
}

// A replaced config's stage stops at its next erosion step instead of running to its end.
TEST(HydrologyJobTest, ACancelledStageStopsAtItsNextStep) {
    auto map = std::make_shared<ExploredMap>(defaultConfig(
        {"map.width=512", "map.height=512", "hydrology.enabled=true",
         "hydrology.erosion.enabled=true", "hydrology.erosion.steps=100000"}));
    startHydrologyJob(map, 1);
    ASSERT_TRUE(within(60, [&] { return map->hydrologyStatus().phase == "erosion"; }));
    map->cancelHydrology();
    EXPECT_EQ(map->hydrologyStatus().state, HydrologyStatus::State::Cancelled);
    // 100,000 steps would take many minutes; the job lets go of the map within seconds.
    EXPECT_TRUE(within(30, [&] { return map.use_count() == 1; }));
    EXPECT_FALSE(map->water());
    EXPECT_EQ(map->hydrologyStatus().state, HydrologyStatus::State::Cancelled);
}

}  // namespace
}  // namespace terragrid::serve
