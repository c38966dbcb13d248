// Whole runs: every output written together and consistent with each other.

#include "terragrid/app/run.hpp"

#include <chrono>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include "terragrid/pipeline/regions.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// Every output file at once (the default writes only a few).
// A function, not a namespace-scope string: the output drivers register themselves during
// static initialisation, in an order across files that C++ leaves open.
const std::string& everyFile() {
    static const std::string override = test::everyFileOverride();
    return override;
}

Config configIn(const test::TempDir& dir, std::vector<std::string> overrides = {}) {
    overrides.push_back("output.directory=" + Json((dir / "out").string()).dump());
    return defaultConfig(overrides);
}

RunReport runWith(const Config& config, int threads = 2) {
    return test::inArena(threads, [&] { return runMap(config); });
}

RunReport runWindowWith(const Config& config, const MapWindow& window, int threads = 2) {
    return test::inArena(threads, [&] { return runMap(config, window); });
}

/// The `w` cells of a row-major `width`-wide raster.
template <typename T>
std::vector<T> crop(const std::vector<T>& raster, std::int64_t width, const CellWindow& w) {
    std::vector<T> out;
    for (std::int64_t row = w.row0; row < w.row0 + w.height; ++row)
        for (std::int64_t col = w.col0; col < w.col0 + w.width; ++col)
            out.push_back(raster[static_cast<std::size_t>(row * width + col)]);
    return out;
}

Json readStats(const test::TempDir& dir) {
    return Json::parse(test::readFile(dir / "out/stats.json"));
}

// Runs a 240 x 180 map with many lakes and mountains, so the walkable land falls apart into
// several regions, and keeps only the largest.
void runFragmentedLargest(const test::TempDir& dir) {
    runWith(configIn(dir, {"map.width=240", "map.height=180", "map.tile_size=64", everyFile(),
                           R"(terrain.lake_below={"coverage": 0.3})",
                           R"(terrain.mountain_above={"coverage": 0.3})",
                           "terrain.connectivity=largest"}));
}

/// stats.json without the one part that differs between runs.
Json withoutTiming(Json stats) {
    stats.erase("timing_seconds");
    return stats;
}

// The default outputs are what a new user needs (README, Outputs): the heights, classes and
// walkability as GeoTIFFs (classes.tif with its class names for GDAL), their QGIS styles, a
// picture and the statistics; engine and Tiled exports only when asked for.
TEST(RunTest, DefaultRunWritesTheMapItsPictureAndStatsButNoEngineExports) {
    test::TempDir dir;
    const RunReport report = runWith(configIn(dir, {"map.width=128", "map.height=96"}));
    EXPECT_THAT(test::listDir(dir / "out"),
                testing::ElementsAre("classes.qml", "classes.tif", "classes.tif.aux.xml",
                                     "height.qml", "height.tif", "manifest.json", "preview.pgw",
                                     "preview.png",
                                     "preview.png.aux.xml", "stats.json", "walkable.tif"));
    EXPECT_EQ(report.files.size(), 7u);
    // Every file, each under its output, and manifest.json last, alone: all the directory holds.
    std::size_t files = 0;
    for (const auto& output : report.outputFiles) files += output.size();
    EXPECT_EQ(files, test::listDir(dir / "out").size());
    EXPECT_EQ(report.outputFiles.back(),
              std::vector<std::string>{(dir / "out" / "manifest.json").string()});
}

TEST(RunTest, DefaultMapHasEveryClassAndStatsEqualTheCountsInClassesTif) {
    test::TempDir dir;
    const Config config = configIn(dir, {everyFile()});
    const RunReport report = runWith(config);
    EXPECT_THAT(test::listDir(dir / "out"),
                testing::ElementsAre(
                    "blocked.png", "blocked.tsj", "classes.qml", "classes.tif",
                    "classes.tif.aux.xml", "height.exr", "height.exr.json", "height.pgw",
                    "height.png", "height.png.aux.xml", "height.qml", "height.r16",
                    "height.r16.json", "height.tif", "height16.pgw", "height16.png",
                    "height16.png.aux.xml", "height16.tif", "manifest.json", "map.tmj", "preview.pgw",
                    "preview.png", "preview.png.aux.xml", "splat_0.pgw", "splat_0.png",
                    "splat_0.png.aux.xml", "splat_1.pgw", "splat_1.png", "splat_1.png.aux.xml",
                    "stats.json", "terrain.png", "terrain.tsj", "walkable.tif",
                    "weight_desert.pgw", "weight_desert.png", "weight_desert.png.aux.xml",
                    "weight_forest.pgw", "weight_forest.png", "weight_forest.png.aux.xml",
                    "weight_ground.pgw", "weight_ground.png", "weight_ground.png.aux.xml",
                    "weight_lake.pgw", "weight_lake.png", "weight_lake.png.aux.xml",
                    "weight_mountain.pgw", "weight_mountain.png",
                    "weight_mountain.png.aux.xml"));
    // Every output but the six water outputs, which need hydrology, and the two climate
    // rasters, which need the climate.
    EXPECT_EQ(report.files.size(), kOutputFileNames.size() - 8);

    const std::vector<std::uint8_t> classes = test::readByteTiff(dir / "out/classes.tif");
    const Json stats = readStats(dir);
    ASSERT_EQ(stats["classes"].size(), 5u);
    std::int64_t total = 0;
    for (const Json& c : stats["classes"]) {
        const auto index = c["index"].get<std::uint8_t>();
        const auto cells = std::count(classes.begin(), classes.end(), index);
        EXPECT_GT(cells, 0) << c["name"] << " is missing from the default map";
        EXPECT_EQ(c["cells"].get<std::int64_t>(), cells) << c["name"];
        EXPECT_EQ(c["share"].get<double>(), double(cells) / double(classes.size())) << c["name"];
        total += cells;
    }
    EXPECT_EQ(total, std::int64_t(classes.size()));
    EXPECT_EQ(stats["map"]["cells"].get<std::int64_t>(), total);
}

TEST(RunTest, WalkableTifIsTheClassWalkabilityInReportMode) {
    test::TempDir dir;
    runWith(configIn(dir, {"map.width=200", "map.height=150", "map.tile_size=64"}));
    const auto classes = test::readByteTiff(dir / "out/classes.tif");
    const auto walkable = test::readByteTiff(dir / "out/walkable.tif");
    const Json stats = readStats(dir);
    std::int64_t count = 0;
    for (std::size_t i = 0; i < classes.size(); ++i) {
        const bool expected = stats["classes"][classes[i]]["walkable"].get<bool>();
        ASSERT_EQ(walkable[i], expected ? 1 : 0) << "cell " << i;
        count += walkable[i];
    }
    EXPECT_EQ(stats["walkable"]["cells"].get<std::int64_t>(), count);
    EXPECT_EQ(stats["walkable"]["cells_before_connectivity"].get<std::int64_t>(), count);
}

TEST(RunTest, LargestConnectivityLeavesOneWalkableRegion) {
    test::TempDir dir;
    runFragmentedLargest(dir);
    const Json stats = readStats(dir);
    ASSERT_GT(stats["regions"]["count"].get<std::int64_t>(), 1) << "the test needs several regions";
    const auto walkable = test::readByteTiff(dir / "out/walkable.tif");
    BitRaster mask(240, 180);
    for (std::int64_t i = 0; i < 240 * 180; ++i) mask.set(i % 240, i / 240, walkable[i] != 0);
    const RegionStats after = analyseRegions(mask);
    EXPECT_EQ(after.regionCount, 1);
    EXPECT_EQ(after.walkableCells, stats["regions"]["largest_cells"].get<std::int64_t>());
    EXPECT_EQ(stats["walkable"]["cells"].get<std::int64_t>(), after.walkableCells);
    EXPECT_GT(stats["walkable"]["cells_before_connectivity"].get<std::int64_t>(),
              after.walkableCells);
}

// map.tmj's blocked layer shows the same cells as walkable.tif, after the connectivity rule
// took the walkable cells outside the largest region away.
TEST(RunTest, TiledBlockedLayerIsTheInverseOfWalkableTifAfterConnectivity) {
    test::TempDir dir;
    runFragmentedLargest(dir);
    const Json stats = readStats(dir);
    ASSERT_GT(stats["walkable"]["cells_before_connectivity"].get<std::int64_t>(),
              stats["walkable"]["cells"].get<std::int64_t>())
        << "the test needs cells that only the connectivity rule blocks";
    const auto walkable = test::readByteTiff(dir / "out/walkable.tif");
    ASSERT_EQ(walkable.size(), 240u * 180u);

    const Json tmj = Json::parse(test::readFile(dir / "out/map.tmj"));
    const Json& layer = tmj["layers"][1];
    ASSERT_EQ(layer["name"], "blocked");
    ASSERT_EQ(layer["compression"], "zlib");
    const auto blocked =
        test::decodeTiledLayerData(layer["data"].get<std::string>(), "zlib");
    ASSERT_EQ(blocked.size(), walkable.size());
    const auto blockedGid = tmj["tilesets"][1]["firstgid"].get<std::uint32_t>();
    for (std::size_t i = 0; i < blocked.size(); ++i) {
        ASSERT_TRUE(blocked[i] == 0 || blocked[i] == blockedGid) << "cell " << i;
        ASSERT_EQ(blocked[i] != 0 ? 1 : 0, 1 - walkable[i]) << "cell " << i;
    }
}

TEST(RunTest, EveryOutputIsIdenticalForAnyThreadsAndTileSize) {
    test::TempDir a, b;
    runWith(configIn(a, {"map.width=300", "map.height=200", "map.tile_size=64", everyFile()}), 1);
    runWith(configIn(b, {"map.width=300", "map.height=200", "map.tile_size=100", everyFile()}), 8);
    for (const char* raster : {"classes.tif", "walkable.tif"})
        EXPECT_EQ(test::readByteTiff(a / "out" / raster), test::readByteTiff(b / "out" / raster))
            << raster;
    EXPECT_EQ(test::readFloatTiff(a / "out/height.tif"), test::readFloatTiff(b / "out/height.tif"));
    // Previews are downsampled from tiles, and stats are summed from them: the same bytes.
    // PNGs are compressed in pieces on the workers: still the same bytes.
    for (const char* file : {"preview.png", "height.png", "height16.png", "splat_0.png",
                             "splat_1.png", "weight_lake.png", "terrain.png"})
        EXPECT_TRUE(test::readFile(a / "out" / file) == test::readFile(b / "out" / file)) << file;
    Json sa = withoutTiming(readStats(a)), sb = withoutTiming(readStats(b));
    for (Json* s : {&sa, &sb}) {
        (*s)["map"].erase("tile_size"), (*s)["map"].erase("tiles");
        s->erase("config_hash");  // the config differs in map.tile_size
    }
    EXPECT_EQ(sa, sb);
}

TEST(RunTest, CoverageTargetsAreReportedWithTheSharesReached) {
    test::TempDir dir;
    runWith(configIn(dir, {"map.width=256", "map.height=256", R"(terrain.lake_below={"coverage": 0.25})",
                           R"(terrain.mountain_above={"coverage": 0.1})"}));
    const Json stats = readStats(dir);
    EXPECT_EQ(stats["thresholds"]["lake_below"]["target_share"].get<double>(), 0.25);
    EXPECT_NEAR(stats["classes"][0]["share"].get<double>(), 0.25, 2.0 / 65536);
    EXPECT_NEAR(stats["classes"][1]["share"].get<double>(), 0.10, 2.0 / 65536);
    EXPECT_FALSE(stats["thresholds"]["forest_above"].contains("target_share"));
}

TEST(RunTest, UnreachableCoverageFailsBeforeTouchingTheDisk) {
    test::TempDir dir;
    // noise_version 1: its 64 x 64 map has mountains, which leave forest too little room
    // (version 2's happens to have none).
    const Config config = configIn(dir, {"map.width=64", "map.height=64", "noise_version=1",
                                         R"(terrain.lake_below={"coverage": 0.5})",
                                         R"(terrain.forest_above={"coverage": 0.5})"});
    EXPECT_THAT([&] { runWith(config); },
                testing::ThrowsMessage<ConfigError>(testing::HasSubstr("terrain.forest_above")));
    EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(RunTest, HeightOnlyRunWritesOnlyHeightTif) {
    test::TempDir dir;
    runWith(configIn(dir, {"map.width=64", "map.height=64", R"(output.files=["height.tif"])"}));
    EXPECT_THAT(test::listDir(dir / "out"), testing::ElementsAre("height.tif", "manifest.json"));
}

// stats.json's wall-clock steps add up to its total, and the total is the run's wall time
// seen from outside but for writing stats.json itself and the final renames: no step of the
// run goes untimed (the compression jobs on the workers were once missing). The bounds leave
// room for a busy machine (a slow directory fsync after stats.json, a preempted moment between
// two steps): only work outside every timed step breaks them.
TEST(RunTest, TimingsAccountForTheWholeWallTimeOfTheRun) {
    test::TempDir dir;
    // Big enough that every step takes milliseconds; deflate on two threads, so tiles are
    // compressed on the workers.
    const Config config = configIn(
        dir, {"map.width=768", "map.height=768", "map.tile_size=128",
              R"(output.files=["height.tif", "classes.tif", "walkable.tif", "preview.png",
                               "height16.png", "stats.json"])"});
    const auto start = std::chrono::steady_clock::now();
    runWith(config, 2);
    const double outside =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const Json t = readStats(dir)["timing_seconds"];

    const char* steps[] = {"startup", "terrain", "hydrology", "climate", "setup",
                           "generation_wall", "commit", "manifest", "other"};
    double sum = 0;
    for (const char* step : steps) {
        ASSERT_TRUE(t.contains(step)) << step;
        sum += t[step].get<double>();
    }
    const double total = t["total_wall"].get<double>();
    EXPECT_NEAR(sum, total, 1e-9 * total);
    EXPECT_GT(t["manifest"].get<double>(), 0.0) << "the manifest's digests, timed";
    EXPECT_GE(t["other"].get<double>(), -1e-9);
    EXPECT_LE(t["other"].get<double>(), 0.05 * total + 0.005) << t.dump();
    EXPECT_LE(total, outside);
    EXPECT_GE(total, 0.5 * outside - 0.2) << "outside " << outside << ", " << t.dump();
    // The generator's steps inside its wall time, and the CPU it reports never more than the
    // process used.
    EXPECT_LE(t["generation_begin"].get<double>() + t["generation_tiles"].get<double>() +
                  t["outputs_finish"].get<double>(),
              t["generation_wall"].get<double>());
    EXPECT_GT(t["outputs_parallel_cpu"].get<double>(), 0.0) << t.dump();
    EXPECT_LE(t["generate_cpu"].get<double>() + t["outputs_parallel_cpu"].get<double>(),
              t["process_cpu"].get<double>());
}

// Coverage thresholds depend on the whole map: a region must take them from the configured
// map, not from its own cells, or its classes would not match the single run's.
TEST(RunTest, RegionHoldsTheFullMapsCellsClassifiedWithTheFullMapsThresholds) {
    test::TempDir full, piece, alone;
    const std::vector<std::string> overrides{
        "map.width=200", "map.height=150", "map.tile_size=32", "map.origin=[600000, 5400000]",
        R"(terrain.lake_below={"coverage": 0.3})", R"(terrain.forest_above={"coverage": 0.4})",
        R"(output.files=["height.tif", "classes.tif", "walkable.tif", "stats.json"])"};
    runWith(configIn(full, overrides));
    const Config config = configIn(piece, overrides);
    const CellWindow region{37, 23, 101, 77};
    const RunReport report = runWindowWith(config, regionWindow(config, region), 1);
    EXPECT_EQ(report.tiles, 4 * 3);

    std::uint32_t w = 0, h = 0;
    const auto heights = test::readFloatTiff(piece / "out/height.tif", &w, &h);
    EXPECT_EQ(w, 101u);
    EXPECT_EQ(h, 77u);
    EXPECT_EQ(heights, crop(test::readFloatTiff(full / "out/height.tif"), 200, region));
    const auto classes = test::readByteTiff(piece / "out/classes.tif");
    EXPECT_EQ(classes, crop(test::readByteTiff(full / "out/classes.tif"), 200, region));
    EXPECT_EQ(test::readByteTiff(piece / "out/walkable.tif"),
              crop(test::readByteTiff(full / "out/walkable.tif"), 200, region));
    EXPECT_EQ(readStats(piece)["thresholds"], readStats(full)["thresholds"]);

    // Georeferenced where the cells lie: 37 cells east, 23 south of the map's corner.
    test::TiffReader tiff(piece / "out/classes.tif");
    EXPECT_EQ(tiff.arrayField<double>(33922),
              (std::vector<double>{0, 0, 0, 600000.0 + 37 * 30, 5400000.0 - 23 * 30, 0}));

    // The same window as a map of its own estimates other thresholds: the test can fail.
    runWith(windowConfig(configIn(alone, overrides), region));
    EXPECT_NE(readStats(alone)["thresholds"], readStats(full)["thresholds"]);
    EXPECT_NE(test::readByteTiff(alone / "out/classes.tif"), classes);
}

TEST(RunTest, ShardStatsDescribeTheirBandAndAddUpToTheFullMap) {
    test::TempDir full;
    const std::vector<std::string> overrides{"map.width=200", "map.height=150",
                                             "map.tile_size=32"};
    runWith(configIn(full, overrides));
    const Json whole = readStats(full);
    std::vector<std::int64_t> classCells(whole["classes"].size(), 0);
    std::int64_t walkable = 0, rows = 0;
    for (std::int64_t k = 0; k < 3; ++k) {
        test::TempDir dir;
        const Config config = configIn(dir, overrides);
        runWindowWith(config, shardMapWindow(config, {k, 3}));
        const Json stats = readStats(dir);
        EXPECT_EQ(stats["map"], whole["map"]) << "map is the configured map";
        const Json& window = stats["window"];
        EXPECT_EQ(window["row"], rows);
        EXPECT_EQ(window["col"], 0);
        EXPECT_EQ(window["width"], 200);
        EXPECT_EQ(window["shard"], (Json{{"index", k}, {"count", 3}}));
        EXPECT_EQ(window["origin"], (Json{0.0, -30.0 * double(rows)}));
        rows += window["height"].get<std::int64_t>();
        for (std::size_t c = 0; c < classCells.size(); ++c)
            classCells[c] += stats["classes"][c]["cells"].get<std::int64_t>();
        walkable += stats["walkable"]["cells"].get<std::int64_t>();
    }
    EXPECT_EQ(rows, 150);
    for (std::size_t c = 0; c < classCells.size(); ++c)
        EXPECT_EQ(classCells[c], whole["classes"][c]["cells"].get<std::int64_t>()) << c;
    EXPECT_EQ(walkable, whole["walkable"]["cells"].get<std::int64_t>());
    EXPECT_FALSE(whole.contains("window"));
}

TEST(RunTest, LargestConnectivityRefusesAPieceBeforeTouchingTheDisk) {
    test::TempDir dir;
    const Config config = configIn(dir, {"map.width=64", "map.height=64", "map.tile_size=16",
                                         "terrain.connectivity=largest"});
    const MapWindow piece{{0, 16, 64, 16}, Shard{1, 4}};
    EXPECT_THAT([&] { runWindowWith(config, piece); },
                testing::ThrowsMessage<WindowError>(testing::HasSubstr("'terrain.connectivity'")));
    EXPECT_FALSE(fs::exists(dir / "out"));
}

}  // namespace
}  // namespace terragrid
