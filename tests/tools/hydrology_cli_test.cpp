// Hydrology through the real CLI: the water outputs (and the preview and Tiled map that draw
// the water) are the same bytes for any thread count and tile size, shards of a map equal the same cells of the whole map, GDAL reads the rasters
// and OGR the GeoJSON files, and the config refuses what it cannot do.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace terragrid {
namespace {

using nlohmann::json;
using test::runCommand;
using test::shellQuote;

const std::string kWaterFiles =
    "'output.files=[\"height.tif\", \"classes.tif\", \"walkable.tif\", \"stats.json\", "
    "\"flow.tif\", \"water.tif\", \"water_depth.tif\", \"rivers.geojson\", \"lakes.geojson\", "
    "\"water_mask.png\", \"preview.png\", \"height.png\", \"map.tmj\"]'";

/// terragrid with hydrology on a 300 x 200 map, run in `dir`.
test::CommandResult terragridWithWater(const test::TempDir& dir, const std::string& args) {
    return runCommand("cd " + shellQuote(dir.path().string()) + " && " +
                      shellQuote(test::cliPath()) +
                      " -q --width 300 --height 200 --seed 11 --set hydrology.enabled=true"
                      " --set hydrology.river_threshold=180000 --set hydrology.sea_level=0.3"
                      " --set " + kWaterFiles + " " + args);
}

std::map<std::string, std::string> files(const test::TempDir& dir, const std::string& args) {
    const auto r = terragridWithWater(dir, args + " --out-dir out");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return test::withoutTimings(test::snapshotDir(dir / "out"));
}

TEST(HydrologyCliTest, WaterOutputsAreTheSameBytesForAnyTileSizeAndThreadCount) {
    for (const char* resolution : {"1", "3"}) {
        const std::string res = std::string(" --set hydrology.resolution=") + resolution;
        test::TempDir reference;
        const auto expected = files(reference, "--tile-size 256 --threads 2" + res);
        // The thirteen asked for, classes.tif.aux.xml, and the Tiled map's four tileset files;
        // water.tif.aux.xml and water.qml; a world file and a GDAL sidecar for each of the
        // three PNGs; and manifest.json (output.manifest).
        ASSERT_EQ(expected.size(), 27u);
        for (const int tileSize : {64, 256, 1000}) {
            for (const int threads : {1, 2, 8}) {
                test::TempDir dir;
                const auto got = files(dir, "--tile-size " + std::to_string(tileSize) +
                                                " --threads " + std::to_string(threads) + res);
                for (const auto& [name, bytes] : expected)
                    EXPECT_TRUE(got.at(name) == bytes)
                        << name << " differs with tile size " << tileSize << ", " << threads
                        << " threads, resolution " << resolution;
            }
        }
    }
}

/// Cells [col, col + w) x [row, row + h) of a width-wide raster.
template <typename T>
std::vector<T> window(const std::vector<T>& cells, std::uint32_t width, std::int64_t col,
                      std::int64_t row, std::int64_t w, std::int64_t h) {
    std::vector<T> out;
    for (std::int64_t r = row; r < row + h; ++r)
        for (std::int64_t c = col; c < col + w; ++c) out.push_back(cells[std::size_t(r * width + c)]);
    return out;
}

TEST(HydrologyCliTest, ShardsAndRegionsEqualTheSameCellsOfTheWholeMap) {
    for (const char* resolution : {"1", "4"}) {
        const std::string res = std::string(" --tile-size 32 --set hydrology.resolution=") +
                                resolution;
        test::TempDir dir;
        ASSERT_EQ(terragridWithWater(dir, "--out-dir full" + res).exitCode, 0);
        std::uint32_t width = 0;
        const auto water = test::readByteTiff(dir / "full/water.tif", &width);
        const auto depth = test::readFloatTiff(dir / "full/water_depth.tif");
        const auto flow = test::readFloatTiff(dir / "full/flow.tif");
        const auto height = test::readFloatTiff(dir / "full/height.tif");
        const auto classes = test::readByteTiff(dir / "full/classes.tif");
        std::vector<std::string> pieces;
        for (int k = 0; k < 3; ++k) pieces.push_back("--shard " + std::to_string(k) + "/3");
        pieces.push_back("--region 37,51,120,90");
        for (std::size_t p = 0; p < pieces.size(); ++p) {
            const std::string out = "piece-" + std::to_string(p);
            const auto r = terragridWithWater(dir, pieces[p] + " --out-dir " + out + res);
            ASSERT_EQ(r.exitCode, 0) << r.err;
            const json w = json::parse(test::readFile(dir / out / "stats.json"))["window"];
            const auto cut = [&](const auto& cells) {
                return window(cells, width, w["col"], w["row"], w["width"], w["height"]);
            };
            const std::string where = pieces[p] + ", resolution " + resolution;
            EXPECT_EQ(test::readByteTiff(dir / out / "water.tif"), cut(water)) << where;
            EXPECT_EQ(test::readFloatTiff(dir / out / "water_depth.tif"), cut(depth)) << where;
            EXPECT_EQ(test::readFloatTiff(dir / out / "flow.tif"), cut(flow)) << where;
            EXPECT_EQ(test::readFloatTiff(dir / out / "height.tif"), cut(height)) << where;
            EXPECT_EQ(test::readByteTiff(dir / out / "classes.tif"), cut(classes)) << where;
            // The vector files describe the whole map's water in every piece.
            EXPECT_EQ(test::readFile(dir / out / "rivers.geojson"),
                      test::readFile(dir / "full/rivers.geojson"))
                << where;
        }
    }
}

TEST(HydrologyCliTest, GdalReadsTheRastersAndOgrTheGeoJson) {
    test::TempDir dir;
    // The GeoJSON in the map's CRS (output.geojson_crs "map"; RFC 7946 WGS 84 by default,
    // which gis_outputs_test.cpp checks), so ogrinfo names the map's EPSG code.
    ASSERT_EQ(terragridWithWater(dir, "--out-dir out --set output.epsg=32633 "
                             "--set 'map.origin=[600000, 5400000]' --set output.geojson_crs=map")
                  .exitCode,
              0);
    const json height = json::parse(
        runCommand("gdalinfo -json " + shellQuote((dir / "out/height.tif").string())).out);
    for (const char* name : {"flow.tif", "water.tif", "water_depth.tif"}) {
        const auto r = runCommand("gdalinfo -json " + shellQuote((dir / "out" / name).string()));
        ASSERT_EQ(r.exitCode, 0) << name << r.err;
        EXPECT_EQ(r.err, "") << name;
        const json info = json::parse(r.out);
        EXPECT_EQ(info["geoTransform"], height["geoTransform"]) << name;
        EXPECT_EQ(info["size"], height["size"]) << name;
        EXPECT_EQ(info["bands"][0]["type"], std::string(name) == "water.tif" ? "Byte" : "Float32");
    }
    for (const char* name : {"rivers.geojson", "lakes.geojson"}) {
        const auto r =
            runCommand("ogrinfo -ro -al -so " + shellQuote((dir / "out" / name).string()));
        ASSERT_EQ(r.exitCode, 0) << name << r.err;
        EXPECT_EQ(r.err, "") << name;
        EXPECT_THAT(r.out, ::testing::HasSubstr("32633")) << name;
        EXPECT_THAT(r.out, ::testing::ContainsRegex("Feature Count: [1-9]")) << name;
        EXPECT_THAT(r.out, ::testing::HasSubstr(std::string(name) == "rivers.geojson"
                                                    ? "Geometry: Line String"
                                                    : "Geometry: Multi Polygon"));
        // Every feature lies within the map.
        EXPECT_THAT(r.out, ::testing::HasSubstr(std::string(name) == "rivers.geojson"
                                                    ? "strahler: Integer"
                                                    : "surface_m: Real"));
    }
}

TEST(HydrologyCliTest, WaterMaskIsWaterTifAsGreyLevels) {
    test::TempDir dir;
    ASSERT_EQ(terragridWithWater(dir, "--out-dir out").exitCode, 0);
    std::uint32_t width = 0, height = 0;
    const auto water = test::readByteTiff(dir / "out/water.tif", &width, &height);
    const test::PngImage mask = test::readPng(dir / "out/water_mask.png");
    ASSERT_EQ(mask.width, width);
    ASSERT_EQ(mask.height, height);
    EXPECT_EQ(mask.bitDepth, 8);
    EXPECT_EQ(mask.colourType, 0);  // grey
    const std::uint8_t grey[3] = {0, 255, 128};
    std::array<std::int64_t, 3> seen{};
    for (std::size_t i = 0; i < water.size(); ++i) {
        ASSERT_LT(water[i], 3);
        ++seen[water[i]];
        ASSERT_EQ(mask.rgb[3 * i], grey[water[i]]) << i;
    }
    EXPECT_GT(seen[1], 0);  // lake or sea
    EXPECT_GT(seen[2], 0);  // river
}

// preview.png at one pixel a cell: lake and sea cells show one colour, the lake class's
// shaded as flat ground (level water), and river cells one other, the river colour likewise.
// height.png shows the river cells alike and lakes in the blues of its water ramp.
TEST(HydrologyCliTest, PreviewShowsLakesAsLevelWaterAndEveryRiverCell) {
    test::TempDir dir;
    ASSERT_EQ(terragridWithWater(dir, "--out-dir out --set output.preview_legend=off").exitCode, 0);
    std::uint32_t width = 0, height = 0;
    const auto water = test::readByteTiff(dir / "out/water.tif", &width, &height);
    const test::PngImage preview = test::readPng(dir / "out/preview.png");
    const test::PngImage heights = test::readPng(dir / "out/height.png");
    ASSERT_EQ(preview.width, width);
    ASSERT_EQ(preview.height, height);
    // 0.45 + 0.55 sin(45 degrees) of each channel, rounded (preview.hpp, shadeFactor).
    const auto flat = [](std::uint32_t hex) {
        const double f = 0.45 + 0.55 * std::sqrt(0.5);
        return std::array<std::uint8_t, 3>{std::uint8_t(std::lround((hex >> 16) * f)),
                                           std::uint8_t(std::lround((hex >> 8 & 255) * f)),
                                           std::uint8_t(std::lround((hex & 255) * f))};
    };
    const auto lake = flat(0x3a6ea5), river = flat(0x4a90d9);
    std::array<std::int64_t, 3> seen{};
    for (std::uint32_t y = 0; y < height; ++y)
        for (std::uint32_t x = 0; x < width; ++x) {
            const std::uint8_t w = water[std::size_t(y) * width + x];
            ++seen[w];
            if (w == 1) {
                ASSERT_EQ(preview.at(x, y), lake) << x << ", " << y;
            }
            if (w == 2) {
                ASSERT_EQ(preview.at(x, y), river) << x << ", " << y;
                ASSERT_EQ(heights.at(x, y), river) << x << ", " << y;
            }
            // Water colours run from (150, 200, 235) to (12, 40, 100): blue above the rest.
            const auto c = heights.at(x, y);
            if (w == 1) {
                ASSERT_TRUE(c[2] > c[1] && c[1] > c[0]) << x << ", " << y;
            }
        }
    EXPECT_GT(seen[1], 0);
    EXPECT_GT(seen[2], 0);
}

TEST(HydrologyCliTest, WaterOutputsWithoutHydrologyAreRefused) {
    const auto r = runCommand(shellQuote(test::cliPath()) +
                              " validate --set 'output.files=[\"height.tif\", \"water.tif\", "
                              "\"rivers.geojson\"]'");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "config: 'output.files' asks for water.tif, rivers.geojson, which need "
                     "'hydrology.enabled' (false): set hydrology.enabled=true\n");
}

TEST(HydrologyCliTest, HydrologyOnAWrappingMapIsRefused) {
    const auto r = runCommand(shellQuote(test::cliPath()) +
                              " validate --set hydrology.enabled=true --set map.wrap=true");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "config: 'hydrology.enabled' (true) cannot go with 'map.wrap' (true): a "
                     "tileable map has no edge for water to leave by\n");
}

TEST(HydrologyCliTest, BadHydrologyValuesNameKeyRuleAndValue) {
    const auto r = runCommand(shellQuote(test::cliPath()) +
                              " validate --set hydrology.rainfall=snow"
                              " --set hydrology.river.colour=blue");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, ::testing::HasSubstr("'hydrology.rainfall'"));
    EXPECT_THAT(r.err, ::testing::HasSubstr("snow"));
    EXPECT_THAT(r.err, ::testing::HasSubstr("'hydrology.river.colour'"));
}

}  // namespace
}  // namespace terragrid
