// The outputs agree with each other, as the real CLI writes them and the real tools read them
// (issue 31, items 10-18): the 16-bit exports, their sidecars and the colour ramps span the
// eroded map's heights, the same in every shard; rivers.geojson and lakes.geojson are valid
// (GDAL's SQLite dialect, SpatiaLite's ST_IsValid), RFC 7946 by default and on water.tif's
// cells; the PNGs carry height.tif's georeferencing; the summary line names every file.
// GDAL's Python bindings do the reading (tests/tools/gis_outputs_check.py).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using test::shellQuote;

test::CommandResult inDir(const test::TempDir& dir, const std::string& command) {
    return test::runCommand("cd " + shellQuote(dir.path().string()) + " && " + command);
}

// Runs the CLI in `dir` with `args`, expecting success.
test::CommandResult cli(const test::TempDir& dir, const std::string& args) {
    const auto r = inDir(dir, shellQuote(test::cliPath()) + " " + args);
    EXPECT_EQ(r.exitCode, 0) << args << "\n" << r.err;
    return r;
}

// gis_outputs_check.py COMMAND OUTDIR ARGS: "ok", or what is wrong.
void expectChecked(const test::TempDir& dir, const std::string& command, const std::string& out,
                   const std::string& args = "") {
    const auto r = inDir(dir, "/usr/bin/python3 " +
                                  shellQuote((test::sourceDir() / "tests" / "tools" /
                                              "gis_outputs_check.py")
                                                 .string()) +
                                  " " + command + " " + shellQuote(out) + " " + args);
    EXPECT_EQ(r.exitCode, 0) << command << " " << out << "\n" << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("ok")) << r.out << r.err;
}

nlohmann::json jsonFile(const fs::path& path) {
    return nlohmann::json::parse(test::readFile(path));
}

// rivers.json (hydrology with erosion) on a small map: the eroded ground rises above
// elevation.max, which the 16-bit files clipped to 65535 before (a third of the cells of the
// preset at its own size).
const std::string kEroded =
    "--config " + shellQuote((test::sourceDir() / "configs" / "rivers.json").string()) +
    " --width 160 --height 128 --seed 3 -q"
    " --set 'output.files=[\"height.tif\", \"height.r16\", \"height16.png\", \"height16.tif\","
    " \"height.png\", \"height.qml\", \"height.exr\", \"stats.json\"]'";

TEST(EngineHeightRangeTest, SixteenBitExportsAndRampsSpanTheErodedHeights) {
    test::TempDir dir;
    cli(dir, kEroded + " --out-dir out");
    const nlohmann::json stats = jsonFile(dir / "out/stats.json");
    ASSERT_GT(stats["elevation"]["max_m"].get<double>(), 1000.0)
        << "erosion lifts this map above elevation.max, which the test is about";
    expectChecked(dir, "heights", "out");
    // At hydrology resolution 1 the range is the map's own, exactly.
    const nlohmann::json r16 = jsonFile(dir / "out/height.r16.json");
    EXPECT_EQ(r16["elevation"]["min_m"].get<double>(), stats["elevation"]["min_m"].get<double>());
    EXPECT_EQ(r16["elevation"]["max_m"].get<double>(), stats["elevation"]["max_m"].get<double>());
    EXPECT_EQ(r16["elevation"].value("from", ""), "the eroded heights (hydrology stage)");
    const nlohmann::json exr = jsonFile(dir / "out/height.exr.json");
    EXPECT_EQ(exr["elevation"], r16["elevation"]);
    EXPECT_EQ(exr["godot"]["hterrain"]["import"]["max_height"], r16["elevation"]["max_m"]);
}

// A coarser hydrology grid bounds the range instead (the interpolated erosion): still no cell
// outside it.
TEST(EngineHeightRangeTest, ACoarseHydrologyGridBoundsTheHeights) {
    test::TempDir dir;
    cli(dir, kEroded + " --set hydrology.resolution=3 --out-dir out");
    expectChecked(dir, "heights", "out");
}

// Every shard maps heights as the whole map does: the range comes from the whole map's stage,
// never from a window's cells.
TEST(EngineHeightRangeTest, EveryShardMapsHeightsAsTheWholeMap) {
    test::TempDir dir;
    cli(dir, kEroded + " --tile-size 32 --out-dir whole");
    for (const char* shard : {"0/3", "2/3"}) {
        const std::string out = std::string("shard") + shard[0];
        cli(dir, kEroded + " --tile-size 32 --shard " + shard + " --out-dir " + out);
        const nlohmann::json whole = jsonFile(dir / "whole/height.r16.json");
        const nlohmann::json piece = jsonFile(dir / out / "height.r16.json");
        EXPECT_EQ(piece["levels"], whole["levels"]) << shard;
        EXPECT_EQ(test::readFile(dir / out / "height.qml"), test::readFile(dir / "whole/height.qml"))
            << shard;
        const auto info = inDir(dir, "gdalinfo -json " + out + "/height16.tif");
        const auto wholeInfo = inDir(dir, "gdalinfo -json whole/height16.tif");
        const auto band = [](const std::string& text) {
            const auto j = nlohmann::json::parse(text);
            return std::pair{j["bands"][0]["offset"], j["bands"][0]["scale"]};
        };
        EXPECT_EQ(band(info.out), band(wholeInfo.out)) << shard;
    }
}

// The rivers and lakes of a UTM map whose origin is off the 30 m grid, as a GIS user places
// one: seed 3 gives one-cell river reaches at the map's edge (six degenerate lines before).
const std::string kWater =
    "--width 256 --height 256 --seed 3 -q --set hydrology.enabled=true"
    " --set hydrology.river_threshold=100000 --set output.crs=EPSG:32633"
    " --set 'map.origin=[500000, 5000000]'"
    " --set 'output.files=[\"height.tif\", \"water.tif\", \"rivers.geojson\", \"lakes.geojson\"]'";

// SpatiaLite's ST_IsValid through GDAL's SQLite dialect: how many features of `layer` in
// `file` are invalid, and how many there are.
std::pair<int, int> invalidAndAll(const test::TempDir& dir, const std::string& file,
                                  const std::string& layer) {
    const auto r = inDir(dir, "ogrinfo -q -dialect SQLite -sql \"SELECT SUM(CASE WHEN "
                              "ST_IsValid(geometry) = 1 THEN 0 ELSE 1 END) AS invalid, "
                              "COUNT(*) AS features FROM " + layer + "\" " + file);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    std::smatch invalid, all;
    const bool found =
        std::regex_search(r.out, invalid, std::regex(R"(invalid \(Integer\) = (\d+))")) &&
        std::regex_search(r.out, all, std::regex(R"(features \(Integer\) = (\d+))"));
    EXPECT_TRUE(found) << r.out;
    return found ? std::pair{std::stoi(invalid[1]), std::stoi(all[1])} : std::pair{-1, -1};
}

class GeoJsonTest : public ::testing::TestWithParam<const char*> {};

TEST_P(GeoJsonTest, EveryGeometryIsValidAndLiesOnWaterTifsCells) {
    test::TempDir dir;
    cli(dir, kWater + " --set output.geojson_crs=" + GetParam() + " --out-dir out");
    for (const auto& [file, layer] : {std::pair{"out/rivers.geojson", "rivers"},
                                      {"out/lakes.geojson", "lakes"}}) {
        const auto [invalid, all] = invalidAndAll(dir, file, layer);
        EXPECT_EQ(invalid, 0) << file << ": of " << all;
        EXPECT_GT(all, 10) << file;
    }
    expectChecked(dir, "vectors", "out", GetParam());
}

INSTANTIATE_TEST_SUITE_P(BothCrs, GeoJsonTest, ::testing::Values("wgs84", "map"));

// RFC 7946 by default: ogrinfo reads WGS 84 longitude and latitude, and ogr2ogr turns the
// files into a GeoPackage without a word on stderr.
TEST(GeoJsonTest, DefaultIsRfc7946InWgs84) {
    test::TempDir dir;
    cli(dir, kWater + " --out-dir out");
    const std::string text = test::readFile(dir / "out/rivers.geojson");
    EXPECT_THAT(text, ::testing::Not(HasSubstr("\"crs\"")));
    for (const char* file : {"rivers", "lakes"}) {
        const auto info = inDir(dir, std::string("ogrinfo -ro -so -al out/") + file + ".geojson");
        EXPECT_EQ(info.exitCode, 0) << info.err;
        EXPECT_EQ(info.err, "");
        EXPECT_THAT(info.out, HasSubstr("GEOGCRS[\"WGS 84\""));
        const auto gpkg = inDir(dir, std::string("ogr2ogr -f GPKG ") + file + ".gpkg out/" +
                                         file + ".geojson");
        EXPECT_EQ(gpkg.exitCode, 0) << gpkg.err;
        EXPECT_EQ(gpkg.err, "") << file;
    }
    // The first vertex of the first river, near 15 E, 45 N (UTM zone 33N at 500 km east).
    const auto j = nlohmann::json::parse(text);
    const auto& p = j["features"][0]["geometry"]["coordinates"][0];
    EXPECT_NEAR(p[0].get<double>(), 15.0, 0.2);
    EXPECT_NEAR(p[1].get<double>(), 45.1, 0.2);
}

// Every PNG on the map's grid carries height.tif's geotransform and CRS (a world file and a
// PAM sidecar); downsampled pictures have pixels `scale` cells a side.
TEST(PngGeoreferenceTest, PngsLieWhereHeightTifLies) {
    test::TempDir dir;
    cli(dir, "--width 130 --height 90 --seed 4 -q --set output.crs=EPSG:32633"
             " --set 'map.origin=[500010, 5000020]' --set hydrology.enabled=true"
             " --set output.preview_max_size=50 --set 'output.files=[\"height.tif\","
             " \"preview.png\", \"height.png\", \"height16.png\", \"splat.png\", \"weight.png\","
             " \"water_mask.png\"]' --out-dir out");
    // 130 cells into at most 50 pixels: 3 cells a pixel.
    expectChecked(dir, "georef", "out",
                  "preview.png 3 height.png 3 height16.png 1 splat_0.png 1 splat_1.png 1 "
                  "weight_lake.png 1 weight_river.png 1 water_mask.png 1");
    EXPECT_TRUE(fs::exists(dir / "out/preview.pgw"));
    EXPECT_TRUE(fs::exists(dir / "out/preview.png.aux.xml"));
}

// The summary line names every file the run wrote, a large set as its first and last with
// their count (it named splat_0.png and weight_lake.png alone before).
TEST(SummaryLineTest, NamesEveryFileWritten) {
    test::TempDir dir;
    const auto r = cli(dir, "--width 64 --height 64 --seed 2 --set 'output.files=[\"height.tif\","
                            " \"classes.tif\", \"splat.png\", \"weight.png\", \"height.r16\","
                            " \"stats.json\"]' --out-dir out");
    const std::string line = r.out.substr(r.out.find(" -> ") + 4);
    const std::vector<std::string> files = test::listDir(dir / "out");
    const auto written = [&](const std::string& name) {
        return std::find(files.begin(), files.end(), name) != files.end();
    };
    // "out/a .. out/b (N files)" for a set, "out/x" for one file.
    std::size_t named = 0;
    const std::regex item(R"(out/(\S+) \.\. out/(\S+) \((\d+) files\)|out/(\S+))");
    for (auto it = std::sregex_iterator(line.begin(), line.end(), item);
         it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        if (m[4].matched) {
            EXPECT_TRUE(written(m[4])) << m[4];
            ++named;
        } else {
            EXPECT_TRUE(written(m[1]) && written(m[2])) << m[0];
            named += std::stoul(m[3]);
        }
    }
    EXPECT_EQ(named, files.size()) << line << testing::PrintToString(files);
    EXPECT_THAT(line, HasSubstr("out/splat_1.png"));
}

}  // namespace
}  // namespace terragrid
