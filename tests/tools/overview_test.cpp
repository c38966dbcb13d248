// Internal overviews and the Cloud Optimized GeoTIFF layout (output.layout), through the real
// CLI and the real GDAL tools: gdalinfo -json lists the overviews with their sizes; every
// overview cell equals a reference computed by overview_reference.py from the full resolution
// (mean for height.tif and height16.tif, mode for classes.tif and walkable.tif); GDAL's COG
// validator accepts the cog layout; gdaladdo -clean removes the overviews; and the files have
// the same bytes for every map.tile_size and thread count.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ::testing::HasSubstr;

// 300 x 260 cells in blocks of 32: overviews 150x130, 75x65, 38x33 and 19x17 (the first
// that fits in one block), odd sides on the way so the edge cells are exercised.
const std::string kOverviewMap =
    " --width 300 --height 260 --seed 5 --set output.geotiff.block_size=32 --set "
    "'output.files=[\"height.tif\",\"height16.tif\",\"classes.tif\",\"walkable.tif\"]'";
const std::vector<std::pair<std::string, std::string>> kOverviewRasters = {
    {"height.tif", "mean"}, {"height16.tif", "mean"}, {"classes.tif", "mode"},
    {"walkable.tif", "mode"}};

// Runs terragrid into `dir`/out with `extra` arguments; returns the output directory.
fs::path runInto(const test::TempDir& dir, const std::string& extra) {
    const auto r = test::runCommand("cd " + test::shellQuote(dir.path().string()) + " && " +
                                    test::shellQuote(test::cliPath()) + " -q --out-dir out" +
                                    kOverviewMap + extra);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return dir / "out";
}

json gdalinfo(const fs::path& file) {
    const auto r = test::runCommand("gdalinfo -json " + test::shellQuote(file.string()));
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "") << "GDAL warned about " << file;
    json parsed = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(parsed.is_discarded()) << r.out;
    return parsed;
}

// The overview sizes gdalinfo lists for band 1, as "WxH".
std::vector<std::string> overviewSizes(const fs::path& file) {
    std::vector<std::string> sizes;
    const json info = gdalinfo(file);
    for (const json& o : info["bands"][0].value("overviews", json::array()))
        sizes.push_back(std::to_string(o["size"][0].get<int>()) + "x" +
                        std::to_string(o["size"][1].get<int>()));
    return sizes;
}

// `gdalinfo -checksum` of the full resolution and every overview.
std::string checksums(const fs::path& file) {
    const auto r = test::runCommand("gdalinfo -checksum " + test::shellQuote(file.string()) +
                                    " | grep -i checksum");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return r.out;
}

std::string referenceScript() {
    return (test::sourceDir() / "tests" / "tools" / "overview_reference.py").string();
}

TEST(OverviewTest, GdalListsOverviewsHalvingDownToOneBlock) {
    test::TempDir dir;
    const fs::path out = runInto(dir, "");
    for (const auto& [name, method] : kOverviewRasters) {
        EXPECT_EQ(overviewSizes(out / name),
                  (std::vector<std::string>{"150x130", "75x65", "38x33", "19x17"}))
            << name;
    }
}

TEST(OverviewTest, EveryOverviewCellIsTheMeanOrModeOfTheLevelBelow) {
    test::TempDir dir;
    const fs::path out = runInto(dir, "");
    for (const auto& [name, method] : kOverviewRasters) {
        const auto r = test::runCommand("/usr/bin/python3 " + test::shellQuote(referenceScript()) +
                                        " " + test::shellQuote((out / name).string()) + " " +
                                        method);
        EXPECT_EQ(r.exitCode, 0) << name << ":\n" << r.out << r.err;
        EXPECT_THAT(r.out, HasSubstr("level 4: 19x17 ok")) << name;
    }
}

TEST(OverviewTest, ThePlainLayoutHasNone) {
    test::TempDir dir;
    const fs::path out = runInto(dir, " --set output.layout=plain");
    for (const auto& [name, method] : kOverviewRasters)
        EXPECT_TRUE(overviewSizes(out / name).empty()) << name;
}

TEST(OverviewTest, GdaladdoCleanRemovesThemAndLeavesTheFullResolution) {
    test::TempDir dir;
    const fs::path out = runInto(dir, "");
    const fs::path file = out / "height.tif";
    const std::string before = checksums(file);
    const auto r = test::runCommand("gdaladdo -clean " + test::shellQuote(file.string()));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(overviewSizes(file).empty());
    // The full resolution's checksum is the first line.
    EXPECT_EQ(checksums(file), before.substr(0, before.find('\n') + 1));
}

TEST(OverviewTest, TheCogLayoutPassesGdalsValidatorWithTheSamePixels) {
    test::TempDir cogDir, defaultDir;
    const fs::path cog = runInto(cogDir, " --set output.layout=cog");
    const fs::path internal = runInto(defaultDir, "");
    for (const auto& [name, method] : kOverviewRasters) {
        const auto r = test::runCommand(
            "/usr/bin/python3 -m osgeo_utils.samples.validate_cloud_optimized_geotiff "
            "--full-check=yes " +
            test::shellQuote((cog / name).string()));
        EXPECT_EQ(r.exitCode, 0) << name << ":\n" << r.out << r.err;
        EXPECT_THAT(r.out, HasSubstr("is a valid cloud optimized GeoTIFF")) << name;
        EXPECT_THAT(r.out + r.err, ::testing::Not(HasSubstr("arning"))) << name;
        EXPECT_EQ(checksums(cog / name), checksums(internal / name)) << name;
    }
    // The validator also fails a file whose overview order or tile order is wrong; it must
    // fail the default layout, whose first IFD is at the end.
    const auto r = test::runCommand(
        "/usr/bin/python3 -m osgeo_utils.samples.validate_cloud_optimized_geotiff " +
        test::shellQuote((internal / "height.tif").string()));
    EXPECT_NE(r.exitCode, 0) << r.out;
}

TEST(OverviewTest, SameBytesForEveryTileSizeAndThreadCount) {
    for (const std::string layout : {"overviews", "cog"}) {
        test::TempDir reference;
        const auto expected =
            test::snapshotDir(runInto(reference, " --tile-size 32 --threads 1 --set output.layout=" +
                                                 layout));
        // The four GeoTIFFs, classes.tif.aux.xml and manifest.json.
        ASSERT_EQ(expected.size(), 6u);
        // Tiles smaller than, unaligned with and larger than the blocks, larger than the map.
        for (const int tileSize : {17, 64, 100, 1000}) {
            for (const int threads : {1, 2}) {
                test::TempDir dir;
                const auto files = test::snapshotDir(
                    runInto(dir, " --tile-size " + std::to_string(tileSize) + " --threads " +
                                 std::to_string(threads) + " --set output.layout=" + layout));
                for (const auto& [name, bytes] : expected) {
                    EXPECT_TRUE(files.at(name) == bytes)
                        << layout << ": " << name << " differs with tile size " << tileSize
                        << " and " << threads << " threads";
                }
            }
        }
    }
}

}  // namespace
}  // namespace terragrid
