// The climate through the real CLI (climate.enabled; docs/climate.md): temperature follows the
// lapse rate exactly, a ridge across the wind casts a rain shadow that turns with the wind,
// every biome cell lies in its class's region of the table, a planet has climate bands, and
// climate, biomes and lakes are the same bytes for any thread count and tile size, as four
// shards mosaicked and with the stage read from a stage file.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "terragrid/climate/climate_model.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/model/terrain.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

using OrderedJson = nlohmann::ordered_json;

/// Runs the CLI in `dir` with `args`; the exit code must be 0.
void terragrid(const test::TempDir& dir, const std::string& args) {
    // A subcommand comes first, its options after it.
    const std::string sub = "hydrology-stage ";
    const std::string line = args.starts_with(sub) ? sub + "-q " + args.substr(sub.size())
                                                   : "-q " + args;
    const auto r = test::runCommand("cd " + test::shellQuote(dir.path().string()) + " && " +
                                    test::shellQuote(test::cliPath()) + " " + line);
    ASSERT_EQ(r.exitCode, 0) << args << "\n" << r.err;
}

/// Writes `config` to dir/name and returns "--config name".
std::string configFile(const test::TempDir& dir, const std::string& name,
                       const OrderedJson& config) {
    std::ofstream(dir / name) << config.dump(2);
    return "--config " + name;
}

OrderedJson readOrderedJson(const std::filesystem::path& path) {
    return OrderedJson::parse(test::readFile(path));
}

/// The default map with the climate and its biomes, small.
OrderedJson climateMap(int width = 192, int height = 128) {
    return {{"map", {{"width", width}, {"height", height}, {"tile_size", 64}}},
            {"climate", {{"enabled", true}}},
            {"terrain", {{"model", "climate"}}}};
}

/// A plane map's latitude at `row` of `rows` between north and south (rowLatitude's rule).
double latitudeOf(double north, double south, std::int64_t row, std::int64_t rows) {
    return north + (south - north) * ((double(row) + 0.5) / double(rows));
}

TEST(ClimateTest, TemperatureFallsWithElevationAtTheConfiguredLapseRateExactly) {
    for (const double lapse : {6.5, 9.8}) {
        for (const bool hydrology : {false, true}) {
            SCOPED_TRACE(std::to_string(lapse) + (hydrology ? " with hydrology" : ""));
            test::TempDir dir;
            OrderedJson config = climateMap();
            config["climate"]["temperature"] = {{"lapse_rate", lapse}};
            config["hydrology"] = {{"enabled", hydrology}, {"sea_level", hydrology ? 0.3 : 0.0}};
            const OrderedJson files =
                hydrology ? OrderedJson::array({"height.tif", "temperature.tif", "water_depth.tif",
                                                "stats.json"})
                          : OrderedJson::array({"height.tif", "temperature.tif", "stats.json"});
            config["output"] = {{"files", files}};
            ASSERT_NO_FATAL_FAILURE(
                terragrid(dir, configFile(dir, "c.json", config) + " --out-dir out"));
            const auto z = test::readFloatTiff(dir / "out/height.tif");
            const auto t = test::readFloatTiff(dir / "out/temperature.tif");
            std::vector<float> depth(z.size(), 0.0f);
            if (hydrology) depth = test::readFloatTiff(dir / "out/water_depth.tif");
            const OrderedJson stats = readOrderedJson(dir / "out/stats.json");
            // Without hydrology the lake class's cells are water at its level.
            const double lake = stats["thresholds"]["lake_below"]["value"].get<double>();
            const auto level = static_cast<float>(0.0 + 1000.0 * lake);
            const climate::Params p = defaultConfig({"climate.temperature.lapse_rate=" +
                                                     std::to_string(lapse)})
                                          .climate.model;
            std::int64_t above = 0;
            for (std::int64_t r = 0; r < 128; ++r) {
                const double sea = climate::seaLevelTemperature(p, latitudeOf(50, 35, r, 128));
                for (std::int64_t c = 0; c < 192; ++c) {
                    const auto i = std::size_t(r * 192 + c);
                    float surface = z[i] + depth[i];
                    if (!hydrology) surface = std::max(surface, level);
                    if (surface > level) ++above;
                    ASSERT_EQ(t[i], static_cast<float>(sea - lapse * std::max(0.0, double(surface)) /
                                                           1000.0))
                        << c << "," << r;
                }
            }
            EXPECT_GT(above, 1000) << "the map has land above the water to test";
        }
    }
}

/// A 51.2 km map of one north-south ridge (marble stripes without turbulence: a sine across x)
/// peaking in its middle, 1500 m high, the wind fixed from `from` degrees.
OrderedJson ridgeMap(double from) {
    return {{"map", {{"width", 256}, {"height", 32}, {"tile_size", 64}, {"cell_size", 200.0},
                     {"origin", {-12800.0, 0.0}}}},
            {"height", {{"noise", "perlin"}, {"fractal", "marble"}, {"octaves", 1},
                        {"marble", {{"frequency", 1.0 / 51200.0}, {"turbulence", 0.0}}}}},
            {"elevation", {{"min", 0.0}, {"max", 1500.0}}},
            {"climate", {{"enabled", true}, {"wind", {{"mode", "fixed"}, {"direction", from}}}}},
            {"output", {{"files", {"height.tif", "precipitation.tif"}}}}};
}

/// Mean precipitation of the columns [c0, c1) of every row.
double meanOf(const std::vector<float>& p, int c0, int c1) {
    double sum = 0;
    for (int r = 0; r < 32; ++r)
        for (int c = c0; c < c1; ++c) sum += p[std::size_t(r * 256 + c)];
    return sum / (32.0 * (c1 - c0));
}

TEST(ClimateTest, TheLeeOfARidgeAcrossTheWindGetsAtMostHalfTheWindwardRainAndTheWindSwapsThem) {
    test::TempDir dir;
    ASSERT_NO_FATAL_FAILURE(
        terragrid(dir, configFile(dir, "west.json", ridgeMap(270)) + " --out-dir west"));
    ASSERT_NO_FATAL_FAILURE(
        terragrid(dir, configFile(dir, "east.json", ridgeMap(90)) + " --out-dir east"));
    // The ridge peaks in the middle and falls to both edges.
    const auto z = test::readFloatTiff(dir / "west/height.tif");
    EXPECT_GT(z[128], 1400.0f);
    EXPECT_LT(z[0], 100.0f);
    EXPECT_LT(z[255], 100.0f);
    const auto westerly = test::readFloatTiff(dir / "west/precipitation.tif");
    const auto easterly = test::readFloatTiff(dir / "east/precipitation.tif");
    const double windward = meanOf(westerly, 0, 128), lee = meanOf(westerly, 128, 256);
    EXPECT_LE(lee, 0.5 * windward) << "windward " << windward << ", lee " << lee;
    const double windward2 = meanOf(easterly, 128, 256), lee2 = meanOf(easterly, 0, 128);
    EXPECT_LE(lee2, 0.5 * windward2) << "windward " << windward2 << ", lee " << lee2;
}

TEST(ClimateTest, EveryBiomeCellLiesInItsClassesRegionOfTheTable) {
    for (const bool hydrology : {false, true}) {
        SCOPED_TRACE(hydrology ? "with hydrology" : "without hydrology");
        test::TempDir dir;
        OrderedJson config = climateMap(256, 192);
        // Latitudes and heights that reach from tundra to the tropics.
        config["climate"]["latitude"] = {62.0, 12.0};
        config["elevation"] = {{"min", 0.0}, {"max", 3000.0}};
        config["hydrology"] = {{"enabled", hydrology}};
        config["output"] = {{"files", {"classes.tif", "temperature.tif", "precipitation.tif",
                                       "stats.json"}}};
        ASSERT_NO_FATAL_FAILURE(terragrid(dir, configFile(dir, "c.json", config) + " --out-dir o"));
        const auto cls = test::readByteTiff(dir / "o/classes.tif");
        const auto t = test::readFloatTiff(dir / "o/temperature.tif");
        const auto p = test::readFloatTiff(dir / "o/precipitation.tif");
        const std::vector<TerrainClass> table = biomeClassTable(0, 40);
        std::map<std::string, std::int64_t> seen;
        for (std::size_t i = 0; i < cls.size(); ++i) {
            ASSERT_LT(cls[i], kBiomes.size() + 1) << i;
            if (cls[i] >= kBiomes.size()) continue;  // river, appended with hydrology
            const auto biome = Biome(cls[i]);
            // Lake and rock come from water, height and slope, not from the climate.
            if (biome == Biome::Lake || biome == Biome::Rock) continue;
            ++seen[std::string(kBiomes[cls[i]].name)];
            const auto in = [&](const TerrainClass& c) {
                return t[i] >= c.temperatureMin && t[i] <= c.temperatureMax &&
                       p[i] >= c.precipitationMin && p[i] <= c.precipitationMax;
            };
            ASSERT_TRUE(in(table[cls[i]])) << kBiomes[cls[i]].name << " at " << t[i] << " C, "
                                           << p[i] << " mm";
            for (std::size_t k = std::size_t(Biome::Ice); k < cls[i]; ++k)
                ASSERT_FALSE(in(table[k])) << kBiomes[cls[i]].name << " at " << t[i] << " C, "
                                           << p[i] << " mm is " << kBiomes[k].name << "'s";
        }
        EXPECT_GE(seen.size(), 4u) << "the map spans several biomes";
    }
}

/// Every file of the climate map with hydrology (`extra`: CLI options), stats.json without its
/// timings.
std::map<std::string, std::string> climateFiles(const test::TempDir& dir, const std::string& extra) {
    OrderedJson config = climateMap();
    config["hydrology"] = {{"enabled", true}, {"sea_level", 0.25}, {"rainfall", "climate"},
                           {"river_threshold", 300000}};
    config["output"] = {{"files", {"height.tif", "classes.tif", "walkable.tif", "temperature.tif",
                                   "precipitation.tif", "water.tif", "water_depth.tif",
                                   "lakes.geojson", "stats.json"}}};
    const std::string args = configFile(dir, "c.json", config) + " --out-dir out " + extra;
    [&] { ASSERT_NO_FATAL_FAILURE(terragrid(dir, args)); }();
    return test::withoutTimings(test::snapshotDir(dir / "out"));
}

TEST(ClimateTest, ClimateBiomesAndLakesAreTheSameBytesForAnyThreadCountAndTileSize) {
    test::TempDir reference;
    const auto expected = climateFiles(reference, "--tile-size 256 --threads 2");
    // classes.tif.aux.xml, water.tif.aux.xml, water.qml and manifest.json too
    ASSERT_EQ(expected.size(), 13u);
    for (const auto& [tile, threads] :
         {std::pair{64, 1}, {64, 8}, {1000, 2}, {256, 8}, {1000, 1}}) {
        test::TempDir dir;
        const auto files = climateFiles(dir, "--tile-size " + std::to_string(tile) +
                                                 " --threads " + std::to_string(threads));
        for (const auto& [name, bytes] : expected)
            EXPECT_TRUE(files.at(name) == bytes) << name << " differs with tile size " << tile
                                                 << " and " << threads << " threads";
    }
}

TEST(ClimateTest, FourShardsMosaicIntoTheWholeMapAndAStageFileGivesTheSameBytes) {
    test::TempDir dir;
    const auto whole = climateFiles(dir, "--tile-size 32");
    const auto rasters = {"height.tif", "temperature.tif", "precipitation.tif", "water_depth.tif"};
    std::map<std::string, std::vector<float>> mosaic;
    std::vector<std::uint8_t> classes, water;
    for (int k = 0; k < 4; ++k) {
        ASSERT_NO_FATAL_FAILURE(terragrid(dir, "--config c.json --tile-size 32 --shard " +
                                                   std::to_string(k) + "/4 --out-dir s" +
                                                   std::to_string(k)));
        const std::filesystem::path shard = dir / ("s" + std::to_string(k));
        for (const char* name : rasters) {
            const auto part = test::readFloatTiff(shard / name);
            mosaic[name].insert(mosaic[name].end(), part.begin(), part.end());
        }
        const auto c = test::readByteTiff(shard / "classes.tif");
        classes.insert(classes.end(), c.begin(), c.end());
        const auto w = test::readByteTiff(shard / "water.tif");
        water.insert(water.end(), w.begin(), w.end());
        // Every shard describes the whole map's lakes.
        EXPECT_EQ(test::readFile(shard / "lakes.geojson"), whole.at("lakes.geojson"));
    }
    for (const char* name : rasters) {
        const auto full = test::readFloatTiff(dir / "out" / name);
        ASSERT_EQ(mosaic[name].size(), full.size()) << name;
        EXPECT_TRUE(mosaic[name] == full) << name;
    }
    EXPECT_TRUE(classes == test::readByteTiff(dir / "out/classes.tif"));
    EXPECT_TRUE(water == test::readByteTiff(dir / "out/water.tif"));

    // The stage once, from a file: the same bytes as the run that computed it.
    ASSERT_NO_FATAL_FAILURE(terragrid(dir, "hydrology-stage --config c.json --out stage.tgh"));
    test::TempDir again;
    std::filesystem::copy_file(dir / "c.json", again / "c.json");
    std::filesystem::copy_file(dir / "stage.tgh", again / "stage.tgh");
    ASSERT_NO_FATAL_FAILURE(terragrid(again, "--config c.json --tile-size 32 --out-dir out "
                                             "--hydrology-stage stage.tgh"));
    const auto fromFile = test::withoutTimings(test::snapshotDir(again / "out"));
    for (const auto& [name, bytes] : whole)
        EXPECT_TRUE(fromFile.at(name) == bytes) << name << " differs when read from the stage file";
}

TEST(ClimateTest, APlanetHasIceCapsDesertsNearThirtyDegreesAndRainforestAtTheEquator) {
    test::TempDir dir;
    ASSERT_NO_FATAL_FAILURE(terragrid(
        dir, "--config " +
                 test::shellQuote((test::sourceDir() / "configs/planet-climate.json").string()) +
                 " --width 512 --height 256 --set map.cell_size=80000 "
                 "--set 'output.files=[\"classes.tif\", \"precipitation.tif\"]' --out-dir p"));
    const auto cls = test::readByteTiff(dir / "p/classes.tif");
    const auto rain = test::readFloatTiff(dir / "p/precipitation.tif");
    /// The share of land cells (not lake) of class `b` in the rows between two latitudes.
    const auto share = [&](Biome b, double from, double to) {
        std::int64_t land = 0, of = 0;
        for (int r = 0; r < 256; ++r) {
            const double lat = 90.0 - 180.0 * (r + 0.5) / 256;
            if (std::fabs(lat) < from || std::fabs(lat) > to) continue;
            for (int c = 0; c < 512; ++c) {
                const auto k = cls[std::size_t(r * 512 + c)];
                if (k == std::uint8_t(Biome::Lake)) continue;
                ++land;
                of += k == std::uint8_t(b) ? 1 : 0;
            }
        }
        return land == 0 ? 0.0 : double(of) / double(land);
    };
    EXPECT_GT(share(Biome::Ice, 75, 90), 0.5);
    EXPECT_GT(share(Biome::Desert, 18, 35), 3 * share(Biome::Desert, 0, 10));
    EXPECT_GT(share(Biome::TropicalRainForest, 0, 10), 0.2);
    EXPECT_GT(share(Biome::TropicalRainForest, 0, 10), 3 * share(Biome::TropicalRainForest, 18, 35));
    double equator = 0, subtropics = 0;
    for (int c = 0; c < 512; ++c) {
        equator += rain[std::size_t(127 * 512 + c)] + rain[std::size_t(128 * 512 + c)];
        subtropics += rain[std::size_t(85 * 512 + c)] + rain[std::size_t(170 * 512 + c)];  // 30 degrees
    }
    EXPECT_GT(equator, 1.5 * subtropics);
}

}  // namespace
}  // namespace terragrid
