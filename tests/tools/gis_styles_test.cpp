// What GIS users see besides the pixels, through the real CLI and GDAL: class names and
// colours in classes.tif's attribute table (GetCategoryNames, GetDefaultRAT), QGIS style files
// (classes.qml, height.qml) in QGIS 3's form, each class's colour in stats.json, height.png's
// water colours, and the legends of preview.png and height.png.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/png/legend.hpp"
#include "io/png/preview.hpp"
#include "io/geotiff/raster_styles.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

fs::path run(const test::TempDir& dir, const std::string& args) {
    const auto r = test::runCommand("cd " + test::shellQuote(dir.path().string()) + " && " +
                                    test::shellQuote(test::cliPath()) + " -q --out-dir out " +
                                    args);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return dir / "out";
}

const std::string kStyledFiles =
    "--set 'output.files=[\"height.tif\",\"classes.tif\",\"stats.json\",\"classes.qml\","
    "\"height.qml\"]'";

TEST(GisStylesTest, GdalReadsClassNamesAndQgisStylesAreInQgisForm) {
    test::TempDir dir;
    const fs::path out = run(dir, "--width 200 --height 150 --seed 3 " + kStyledFiles);
    EXPECT_TRUE(fs::exists(out / "classes.tif.aux.xml"));
    const auto r = test::runCommand(
        "/usr/bin/python3 " +
        test::shellQuote((test::sourceDir() / "tests" / "tools" / "gis_styles_check.py").string()) +
        " " + test::shellQuote(out.string()));
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("ok"));

    // gdalinfo prints the names beside the values.
    const auto info = test::runCommand("gdalinfo " + test::shellQuote((out / "classes.tif").string()));
    EXPECT_EQ(info.exitCode, 0) << info.err;
    EXPECT_THAT(info.out, HasSubstr("Categories:"));
    EXPECT_THAT(info.out, HasSubstr("0: lake"));
    EXPECT_THAT(info.out, HasSubstr("4: ground"));
}

TEST(GisStylesTest, StatsJsonGivesEachClassItsColour) {
    test::TempDir dir;
    const fs::path out = run(dir, "--width 64 --height 64 --seed 3 " + kStyledFiles +
                                      " --set 'terrain.colours.lake=\"#102030\"'");
    const auto stats = nlohmann::json::parse(test::readFile(out / "stats.json"));
    const auto& classes = stats.at("classes");
    ASSERT_EQ(classes.size(), 5u);
    EXPECT_EQ(classes[0].value("colour", ""), "#102030");      // as configured
    EXPECT_EQ(classes[4].value("colour", ""), "#80aa5a");      // ground's default
    for (const auto& c : classes) EXPECT_THAT(c.value("colour", ""), ::testing::MatchesRegex("#[0-9a-f]{6}"));
}

// height.png over a map whose water level is 400 m: cells at or below it blue, deeper darker,
// land in the ramp's colours as without water.
TEST(HeightPngWaterTest, WaterCellsAreBlueDeeperDarkerLandUnchanged) {
    test::TempDir dir;
    const fs::path out =
        run(dir, "--width 160 --height 120 --seed 8 --set elevation.min=-200 --set "
                 "elevation.max=1800 --set terrain.lake_below=0.3 --set output.preview_legend=off "
                 "--set 'output.files=[\"height.tif\",\"height.png\"]'");
    std::uint32_t w = 0, h = 0;
    const std::vector<float> heights = test::readFloatTiff(out / "height.tif", &w, &h);
    const test::PngImage png = test::readPng(out / "height.png");
    ASSERT_EQ(png.width, w);  // one pixel a cell: the map is below preview_max_size
    const double water = -200 + 0.3 * 2000;
    std::vector<std::pair<float, int>> waterPixels;  // height, brightness
    int land = 0;
    for (std::size_t i = 0; i < heights.size(); ++i) {
        const int r = png.rgb[3 * i], g = png.rgb[3 * i + 1], b = png.rgb[3 * i + 2];
        const bool blue = b > r + 10 && b > g;
        if (heights[i] <= water) {
            EXPECT_TRUE(blue) << "water cell " << i << " at " << heights[i] << " m is " << r
                              << "," << g << "," << b;
            waterPixels.push_back({heights[i], r + g + b});
        } else {
            ++land;
            EXPECT_FALSE(blue) << "land cell " << i << " at " << heights[i] << " m";
        }
        if (::testing::Test::HasFailure()) break;
    }
    ASSERT_GT(waterPixels.size(), 100u) << "the seed should give a lake";
    ASSERT_GT(land, 100);
    // Deeper water is darker: the deepest quarter's mean brightness below the shallowest's
    // (hill shading varies a pixel's brightness, the depth ramp more).
    std::sort(waterPixels.begin(), waterPixels.end());
    const std::size_t q = waterPixels.size() / 4;
    double deep = 0, shallow = 0;
    for (std::size_t i = 0; i < q; ++i) {
        deep += waterPixels[i].second;
        shallow += waterPixels[waterPixels.size() - 1 - i].second;
    }
    EXPECT_LT(deep, shallow);
}

TEST(HeightRampTest, LandKeepsTheHypsometricRampAndWaterDarkensWithDepth) {
    const HeightRamp ramp{-500, 1500, true, 100};
    for (double m = 100.5; m <= 1500; m += 37.25) {
        const ColourF a = heightColour(ramp, m), b = hypsometricColour(m, -500, 1500);
        EXPECT_EQ(a.r, b.r);
        EXPECT_EQ(a.g, b.g);
        EXPECT_EQ(a.b, b.b);
    }
    double previous = 1e9;
    for (double m = 100; m >= -500; m -= 25) {
        const ColourF c = heightColour(ramp, m);
        EXPECT_GT(c.b, c.r);
        EXPECT_LT(c.r + c.g + c.b, previous) << m;
        previous = c.r + c.g + c.b;
    }
    // The stops a legend and height.qml show reproduce the colours at their heights.
    for (const RampStop& stop : heightRampStops(ramp)) {
        if (stop.meters == ramp.waterMeters) continue;  // water, and land's colour just above
        const ColourF c = heightColour(ramp, stop.meters);
        EXPECT_NEAR(c.r, stop.colour.r, 0.5) << stop.meters;
        EXPECT_NEAR(c.b, stop.colour.b, 0.5) << stop.meters;
    }
}

// One water level for every output: planets and islands too draw water where the lake class
// is (they drew it below 0 m before, whatever the classes said).
TEST(HeightRampTest, PlanetsAndIslandsHaveWaterAtTheLakeThreshold) {
    Config c = test::outputConfig("unused", {OutputFile::HeightPng});
    c.elevation = {-6000, 4000};
    c.terrain.lakeBelow.value = 0.4;
    c.map.projection = Projection::Equirectangular;
    HeightRamp ramp = heightRamp(c, nullptr);
    EXPECT_TRUE(ramp.hasWater);
    EXPECT_EQ(ramp.waterMeters, static_cast<float>(-6000 + 0.4 * 10000));
    c.map.projection = Projection::Plane;
    c.height.falloff.shape = Falloff::Radial;
    ramp = heightRamp(c, nullptr);
    EXPECT_EQ(ramp.waterMeters, static_cast<float>(-6000 + 0.4 * 10000));
    EXPECT_GT(heightColour(ramp, -5000).b, heightColour(ramp, -5000).r);  // a planet's ocean
    c.terrain.lakeBelow.byCoverage = true;
    EXPECT_TRUE(heightRampNeedsTerrain(c));
    EXPECT_THROW(heightRamp(c, nullptr), std::invalid_argument);
}

// The planet preset: its lake threshold is a coverage target that resolves far below 0 m.
// height.png's water pixels (one pixel a cell) are exactly classes.tif's lake cells, and
// height.qml's water stops end at that level.
TEST(HeightPngWaterTest, PlanetWaterIsTheLakeClass) {
    test::TempDir dir;
    const fs::path out = run(
        dir, "--config " + test::shellQuote((test::sourceDir() / "configs" / "planet.json").string()) +
                 " --width 256 --height 128 --set output.preview_max_size=256"
                 " --set output.preview_legend=off --set 'output.files=[\"height.tif\","
                 " \"classes.tif\", \"height.png\", \"height.qml\", \"stats.json\"]'");
    const std::vector<std::uint8_t> classes = test::readByteTiff(out / "classes.tif");
    const std::vector<float> heights = test::readFloatTiff(out / "height.tif");
    const test::PngImage png = test::readPng(out / "height.png");
    ASSERT_EQ(png.width, 256u);
    ASSERT_EQ(classes.size(), std::size_t(png.width) * png.height);
    std::size_t disagree = 0, lake = 0;
    float highestLake = -1e30f;
    for (std::size_t i = 0; i < classes.size(); ++i) {
        const int r = png.rgb[3 * i], g = png.rgb[3 * i + 1], b = png.rgb[3 * i + 2];
        const bool blue = b > r + 10 && b > g;
        const bool isLake = classes[i] == 0;
        lake += isLake;
        disagree += blue != isLake;
        if (isLake) highestLake = std::max(highestLake, heights[i]);
    }
    EXPECT_EQ(disagree, 0u) << "of " << classes.size() << " cells, " << lake << " lake";
    EXPECT_GT(lake, classes.size() / 3);
    EXPECT_LT(highestLake, 0.0f) << "the planet's lake level lies below 0 m";
    // height.qml's last water stop is the level: above every lake cell, below every other.
    const std::string qml = test::readFile(out / "height.qml");
    const std::regex waterStop(R"re(<item value="([-0-9.e+]+)"[^>]*label="[^"]*\(water\)")re");
    double level = -1e30;
    for (auto it = std::sregex_iterator(qml.begin(), qml.end(), waterStop);
         it != std::sregex_iterator(); ++it)
        level = std::max(level, std::stod((*it)[1]));
    EXPECT_GE(level, double(highestLake));
    for (std::size_t i = 0; i < classes.size(); ++i)
        if (classes[i] != 0) {
            ASSERT_GT(double(heights[i]), level) << i;
        }
}

// docs/images/classes-legend.png is the default map's classes.tif as GDAL reads it
// (data/README.md says how it is made): made again, it is the same picture, so the docs never
// show another map than the one they name.
TEST(GisStylesTest, DocsClassesLegendIsTheDefaultMapsClassesTif) {
    test::TempDir dir;
    const fs::path out = run(dir, "--set 'output.files=[\"classes.tif\"]'");
    const auto r = test::runCommand(
        "/usr/bin/python3 " +
        test::shellQuote((test::sourceDir() / "scripts" / "render_classes.py").string()) + " " +
        test::shellQuote((out / "classes.tif").string()) + " " +
        test::shellQuote((dir / "legend.png").string()) + " 512");
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const test::PngImage made = test::readPng(dir / "legend.png");
    const test::PngImage docs =
        test::readPng(test::sourceDir() / "docs" / "images" / "classes-legend.png");
    EXPECT_EQ(made.width, docs.width);
    EXPECT_EQ(made.height, docs.height);
    EXPECT_TRUE(made.rgb == docs.rgb)
        << "regenerate docs/images/classes-legend.png as data/README.md says";
}

// preview.png with and without its legend: they differ inside the legend's box only, and
// every class's swatch shows its colour.
TEST(PreviewLegendTest, LegendOnlyWhereItBelongsWithEachClassColour) {
    const std::string map = "--width 600 --height 300 --seed 4 --set "
                            "'output.files=[\"preview.png\",\"height.png\"]' ";
    test::TempDir onDir, offDir, autoDir;
    const test::PngImage on = test::readPng(run(onDir, map + "--set output.preview_legend=on") / "preview.png");
    const test::PngImage off = test::readPng(run(offDir, map + "--set output.preview_legend=off") / "preview.png");
    const fs::path autoOut = run(autoDir, map);
    EXPECT_TRUE(test::readFile(autoOut / "preview.png") == test::readFile(onDir / "out" / "preview.png"))
        << "600 pixels wide: auto draws the legend";
    EXPECT_FALSE(test::readFile(onDir / "out" / "height.png") ==
                 test::readFile(offDir / "out" / "height.png"));

    const std::vector<LegendEntry> entries = {{{58, 110, 165}, "lake"},      {{140, 130, 120}, "mountain"},
                                              {{46, 110, 52}, "forest"},     {{222, 200, 140}, "desert"},
                                              {{128, 170, 90}, "ground"}};
    const LegendLayout l = legendLayout(entries, 600, 300);
    ASSERT_EQ(on.width, 600u);
    std::size_t differing = 0;
    for (std::int64_t y = 0; y < 300; ++y) {
        for (std::int64_t x = 0; x < 600; ++x) {
            const auto at = static_cast<std::size_t>((y * 600 + x) * 3);
            const bool same = std::equal(on.rgb.begin() + at, on.rgb.begin() + at + 3, off.rgb.begin() + at);
            const bool inBox = x >= l.x && x < l.x + l.width && y >= l.y && y < l.y + l.height;
            if (!same) ++differing;
            if (!inBox) {
                ASSERT_TRUE(same) << "pixel (" << x << ", " << y << ") outside the legend";
            }
        }
    }
    EXPECT_GT(differing, std::size_t(l.width * l.height / 2));
    // terrain.colours from configs/default.json, in class order.
    const std::vector<std::array<int, 3>> colours = {
        {0x3a, 0x6e, 0xa5}, {0x8c, 0x82, 0x78}, {0x2e, 0x6e, 0x34}, {0xde, 0xc8, 0x8c}, {0x80, 0xaa, 0x5a}};
    for (std::size_t i = 0; i < colours.size(); ++i) {
        const std::int64_t x = l.swatchX + l.swatchWidth / 2;
        const std::int64_t y = l.swatchY + static_cast<std::int64_t>(i) * l.rowHeight + l.swatchHeight / 2;
        const auto at = static_cast<std::size_t>((y * 600 + x) * 3);
        EXPECT_EQ((std::array<int, 3>{on.rgb[at], on.rgb[at + 1], on.rgb[at + 2]}), colours[i]) << i;
    }
}

TEST(PreviewLegendTest, AutoLeavesSmallPicturesAlone) {
    const std::string map = "--width 300 --height 200 --seed 4 --set 'output.files=[\"preview.png\"]' ";
    test::TempDir autoDir, offDir;
    EXPECT_TRUE(test::readFile(run(autoDir, map) / "preview.png") ==
                test::readFile(run(offDir, map + "--set output.preview_legend=off") / "preview.png"));
}

}  // namespace
}  // namespace terragrid
