// Execution parameters never change a byte (design.md principle 6), through the real CLI:
// every output file of one config (all of them, not only the default ones), for map.tile_size 17, 100, 256 and 1000 and 1, 2 and 8
// threads, is the same bytes; stats.json too, but for its timings. The config hash inside every
// file leaves map.tile_size out, and height.tif's TIFF tiles follow output.geotiff.block_size.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace terragrid {
namespace {

/// Every file of a run of `tileSize` and `threads` into `dir`/out, stats.json without its
/// timings.
std::map<std::string, std::string> runFiles(const test::TempDir& dir, int tileSize, int threads,
                                            const std::string& extra = "",
                                            const std::string& size = "300 --height 200") {
    // Every output, not only the default ones.
    const std::string everyFile = " --set " + test::shellQuote(test::everyFileOverride());
    const auto r = test::runCommand(
        "cd " + test::shellQuote(dir.path().string()) + " && " +
        test::shellQuote(test::cliPath()) +
        " -q --out-dir out --width " + size + " --seed 11 --tile-size " +
        std::to_string(tileSize) + " --threads " + std::to_string(threads) + everyFile + extra);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    auto files = test::snapshotDir(dir / "out");
    EXPECT_TRUE(nlohmann::ordered_json::parse(files.at("stats.json")).contains("timing_seconds"));
    return test::withoutTimings(std::move(files));
}

TEST(ExecutionParametersTest, EveryOutputIsTheSameBytesForAnyTileSizeAndThreadCount) {
    test::TempDir reference;
    const auto expected = runFiles(reference, 256, 2);
    // 15 files, classes.tif.aux.xml, the QGIS styles classes.qml and height.qml, and the
    // engine exports: height.exr and its sidecar, splat_0.png and splat_1.png, and a
    // weight_<class>.png for each of the five default classes; then a world file and a GDAL
    // sidecar for each of the 10 PNGs on the map's grid; and manifest.json (output.manifest).
    ASSERT_EQ(expected.size(), 48u);
    for (const int tileSize : {17, 100, 256, 1000}) {
        for (const int threads : {1, 2, 8}) {
            test::TempDir dir;
            const auto files = runFiles(dir, tileSize, threads);
            ASSERT_EQ(files.size(), expected.size());
            for (const auto& [name, bytes] : expected) {
                EXPECT_TRUE(files.at(name) == bytes)
                    << name << " differs with tile size " << tileSize << " and " << threads
                    << " threads";
            }
        }
    }
}

/// Every file of a planet or tileable map (`shape`: --set options) of `tileSize` and `threads`,
/// stats.json without its timings.
std::map<std::string, std::string> shapeFiles(const test::TempDir& dir, const std::string& shape,
                                              int tileSize, int threads) {
    const auto r = test::runCommand(
        "cd " + test::shellQuote(dir.path().string()) + " && " +
        test::shellQuote(test::cliPath()) + " -q --out-dir out --seed 5 " + shape +
        " --set 'output.files=[\"height.tif\", \"height16.png\", \"stats.json\"]'" +
        " --tile-size " + std::to_string(tileSize) + " --threads " + std::to_string(threads));
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return test::withoutTimings(test::snapshotDir(dir / "out"));
}

// Planets (3D noise) and tileable maps (4D noise) run their own SIMD rows (CurvedRows), whose
// per-tile cell caches must not leak into the bytes: a tile of 64 cells starts its caches
// cold at columns and rows a 1000-cell tile runs through warm.
TEST(ExecutionParametersTest, PlanetsAndTileableMapsAreTheSameBytesForAnyTileSizeAndThreadCount) {
    const std::string layers =
        " --set height.octaves=8 --set moisture.noise=perlin --set moisture.fractal=ridged";
    for (const std::string& shape :
         {"--width 300 --height 150 --set map.projection=equirectangular" + layers,
          "--width 300 --height 200 --set map.wrap=true" + layers}) {
        SCOPED_TRACE(shape);
        test::TempDir reference;
        const auto expected = shapeFiles(reference, shape, 64, 1);
        // height16.png with its world file and GDAL sidecar, and manifest.json.
        ASSERT_EQ(expected.size(), 6u);
        for (const auto& [tileSize, threads] : {std::pair{64, 2}, {1000, 1}, {1000, 2}}) {
            test::TempDir dir;
            const auto files = shapeFiles(dir, shape, tileSize, threads);
            for (const auto& [name, bytes] : expected)
                EXPECT_TRUE(files.at(name) == bytes)
                    << name << " differs with tile size " << tileSize << " and " << threads
                    << " threads";
        }
    }
}

// A map several TIFF tiles high: with generator tiles that do not match the TIFF tiles, TIFF
// tiles complete out of index order, yet the files are the same bytes. Uncompressed GeoTIFFs
// take their own path (tiles that arrive whole go to the file as they are), so both.
TEST(ExecutionParametersTest, GeoTiffsSeveralTilesHighAreTheSameBytesForAnyTileSize) {
    const std::string size = "600 --height 520";  // 3 x 3 TIFF tiles, four whole
    for (const char* compression : {"none", "deflate"}) {
        const std::string files =
            R"( --set 'output.files=["height.tif","classes.tif","walkable.tif",)"
            R"("height16.tif","stats.json"]' --set 'output.compression=")" +
            std::string(compression) + R"("')";
        test::TempDir reference;
        const auto expected = runFiles(reference, 256, 2, files, size);
        for (const auto& [tileSize, threads] : {std::pair{100, 1}, std::pair{100, 2},
                                                std::pair{256, 1}, std::pair{17, 2}}) {
            test::TempDir dir;
            const auto got = runFiles(dir, tileSize, threads, files, size);
            for (const char* name : {"height.tif", "classes.tif", "walkable.tif", "height16.tif"})
                EXPECT_TRUE(got.at(name) == expected.at(name))
                    << name << ", " << compression << ", tile size " << tileSize << ", "
                    << threads << " threads";
        }
    }
}

TEST(ExecutionParametersTest, GeoTiffBlocksFollowTheirOwnKey) {
    test::TempDir dir;
    const auto r = test::runCommand(
        "cd " + test::shellQuote(dir.path().string()) + " && " +
        test::shellQuote(test::cliPath()) +
        " -q --out-dir out --width 100 --height 70 --tile-size 17 --set "
        "'output.files=[\"height.tif\"]' --set output.geotiff.block_size=32");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    test::TiffReader tiff(dir / "out/height.tif");
    ASSERT_NE(tiff.tif, nullptr);
    EXPECT_EQ(tiff.field<std::uint32_t>(TIFFTAG_TILEWIDTH), 32u);
    EXPECT_EQ(tiff.field<std::uint32_t>(TIFFTAG_TILELENGTH), 32u);
}

TEST(ExecutionParametersTest, GeoTiffBlockSizeMustBeAMultipleOf16) {
    const auto r = test::runCommand(test::shellQuote(test::cliPath()) +
                                    " validate --set output.geotiff.block_size=100");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "config: 'output.geotiff.block_size' (100) must be a multiple of 16 (TIFF "
                     "tiles)\n");
}

}  // namespace
}  // namespace terragrid
