// Reprojection as a GIS user does it: a 512 x 512 UTM map warped by gdalwarp to EPSG:4326. The
// map lies 300 km west of its zone's central meridian, where the grid is turned by about 3
// degrees from the meridians, so the warped rectangle has empty corners.
// The warped rasters' empty corners must be nodata (not lake, not 0 m), and the class shares of
// the warped classes.tif must match the original's within resampling. (Before nodata, the
// corners were filled with class 0, lake: 6.2 % lake became 11.5 %.) The rasters are read with
// GDAL's Python bindings (Debian's /usr/bin/python3 with python3-gdal).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "test_support.hpp"

namespace terragrid {
namespace {

using nlohmann::json;
using test::runCommand;
using test::shellQuote;

// Prints, for each raster given, its nodata value, its count of nodata cells, its count of
// valid cells, the smallest and largest valid value and the count of each valid value (bytes).
constexpr const char* kSummaryScript = R"(
import json, sys
import numpy as np
from osgeo import gdal
gdal.UseExceptions()
out = {}
for path in sys.argv[1:]:
    ds = gdal.Open(path)
    band = ds.GetRasterBand(1)
    a = band.ReadAsArray()
    nodata = band.GetNoDataValue()
    empty = (a == nodata) if nodata is not None else np.zeros(a.shape, bool)
    valid = a[~empty]
    info = {"nodata": nodata, "empty": int(empty.sum()), "valid": int(valid.size),
            "min": float(valid.min()), "max": float(valid.max()),
            "corner": float(a[0, 0])}
    if a.dtype == np.uint8:
        values, counts = np.unique(valid, return_counts=True)
        info["counts"] = {str(int(v)): int(c) for v, c in zip(values, counts)}
    out[path] = info
print(json.dumps(out))
)";

class GdalwarpNodataTest : public ::testing::Test {
protected:
    test::CommandResult run(const std::string& command) {
        const auto r = runCommand("cd " + shellQuote(m_dir.path().string()) + " && " + command);
        EXPECT_EQ(r.exitCode, 0) << command << "\n" << r.err;
        return r;
    }

    json summary(const std::string& files) {
        std::ofstream(m_dir.path() / "summary.py") << kSummaryScript;
        const test::CommandResult r = run("/usr/bin/python3 summary.py " + files);
        return json::parse(r.out, nullptr, false);
    }

    test::TempDir m_dir;
};

TEST_F(GdalwarpNodataTest, WarpedCornersAreNodataAndClassSharesHold) {
    run(shellQuote(test::cliPath()) +
        " --width 512 --height 512 --seed 5 -q --out-dir utm"
        " --set map.cell_size=100 --set 'map.origin=[200000, 5000000]'"
        " --set output.crs=EPSG:32633"
        " --set 'terrain.lake_below={\"coverage\": 0.062}'"
        " --set 'output.files=[\"height.tif\", \"height16.tif\", \"classes.tif\", "
        "\"walkable.tif\"]'");
    for (const char* name : {"height", "height16"})
        run(std::string("gdalwarp -q -t_srs EPSG:4326 -r bilinear utm/") + name + ".tif " + name +
            "-4326.tif");
    for (const char* name : {"classes", "walkable"})
        run(std::string("gdalwarp -q -t_srs EPSG:4326 -r near utm/") + name + ".tif " + name +
            "-4326.tif");
    ASSERT_FALSE(HasFailure());
    const json s = summary(
        "utm/height.tif utm/height16.tif utm/classes.tif utm/walkable.tif height-4326.tif "
        "height16-4326.tif classes-4326.tif walkable-4326.tif");
    ASSERT_TRUE(s.is_object());

    // No generated cell takes the nodata value; every warped raster has empty corners marked
    // with it.
    EXPECT_EQ(s["utm/height.tif"]["nodata"], -3.4028234663852886e+38);
    EXPECT_EQ(s["utm/height16.tif"]["nodata"], 65535.0);
    EXPECT_EQ(s["utm/classes.tif"]["nodata"], 255.0);
    EXPECT_EQ(s["utm/walkable.tif"]["nodata"], 255.0);
    for (const char* name : {"height", "height16", "classes", "walkable"}) {
        const json& original = s["utm/" + std::string(name) + ".tif"];
        const json& warped = s[std::string(name) + "-4326.tif"];
        EXPECT_EQ(original["empty"], 0) << name;
        EXPECT_EQ(original["valid"], 512 * 512) << name;
        EXPECT_GT(warped["empty"].get<double>(), 0.01 * warped["valid"].get<double>())
            << name << ": a UTM square in longitude and latitude leaves empty corners";
        EXPECT_EQ(warped["nodata"], original["nodata"]) << name;
        EXPECT_EQ(warped["corner"], original["nodata"]) << name;
    }
    // The heights of the warped map lie within the configured range: no 0 m, no nodata.
    EXPECT_GE(s["height-4326.tif"]["min"].get<double>(), 0.0);
    EXPECT_LE(s["height-4326.tif"]["max"].get<double>(), 1000.0);
    EXPECT_LE(s["height16-4326.tif"]["max"].get<double>(), 65534.0);

    // Class shares among the valid cells: resampling moves them little.
    const json& before = s["utm/classes.tif"];
    const json& after = s["classes-4326.tif"];
    for (const auto& [value, count] : before["counts"].items()) {
        const double share = count.get<double>() / before["valid"].get<double>();
        const double warpedShare =
            after["counts"].value(value, 0) / after["valid"].get<double>();
        EXPECT_NEAR(warpedShare, share, 0.01) << "class " << value;
        if (value == "0") {
            EXPECT_NEAR(share, 0.062, 0.01) << "lake, by its coverage target";
        }
    }
    EXPECT_FALSE(after["counts"].contains("255"));
}

// The hydrology rasters have what classes.tif has: a nodata value no cell takes (so the warped
// corners are empty, not land, 0 m deep or 0 flow), a unit for flow and depth, and for
// water.tif a palette, GDAL category names, an attribute table and a QGIS style.
TEST_F(GdalwarpNodataTest, WaterRastersKeepTheirCornersEmptyAndSayWhatTheyHold) {
    run(shellQuote(test::cliPath()) +
        " --width 256 --height 256 --seed 5 -q --out-dir utm"
        " --set map.cell_size=100 --set 'map.origin=[200000, 5000000]'"
        " --set output.crs=EPSG:32633 --set hydrology.enabled=true"
        " --set 'output.files=[\"flow.tif\", \"water.tif\", \"water_depth.tif\"]'");
    run("gdalwarp -q -t_srs EPSG:4326 -r near utm/water.tif water-4326.tif");
    for (const char* name : {"flow", "water_depth"})
        run(std::string("gdalwarp -q -t_srs EPSG:4326 -r bilinear utm/") + name + ".tif " +
            name + "-4326.tif");
    ASSERT_FALSE(HasFailure());
    const json s = summary(
        "utm/flow.tif utm/water.tif utm/water_depth.tif flow-4326.tif water-4326.tif "
        "water_depth-4326.tif");
    ASSERT_TRUE(s.is_object());
    EXPECT_EQ(s["utm/flow.tif"]["nodata"], -3.4028234663852886e+38);
    EXPECT_EQ(s["utm/water_depth.tif"]["nodata"], -3.4028234663852886e+38);
    EXPECT_EQ(s["utm/water.tif"]["nodata"], 255.0);
    for (const char* name : {"flow", "water", "water_depth"}) {
        const json& original = s["utm/" + std::string(name) + ".tif"];
        const json& warped = s[std::string(name) + "-4326.tif"];
        EXPECT_EQ(original["empty"], 0) << name;
        EXPECT_GT(warped["empty"].get<double>(), 0.01 * warped["valid"].get<double>()) << name;
        EXPECT_EQ(warped["corner"], original["nodata"]) << name;
        EXPECT_GE(warped["min"].get<double>(), 0.0) << name << ": no valid cell is negative";
    }
    EXPECT_FALSE(s["water-4326.tif"]["counts"].contains("255"));

    const auto info = [&](const std::string& file) {
        return json::parse(run("gdalinfo -json " + file).out, nullptr, false);
    };
    EXPECT_EQ(info("utm/flow.tif")["bands"][0].value("unit", ""), "cells");
    EXPECT_EQ(info("utm/water_depth.tif")["bands"][0].value("unit", ""), "metre");
    const json water = info("utm/water.tif")["bands"][0];
    EXPECT_EQ(water.value("colorInterpretation", ""), "Palette");
    EXPECT_EQ(water["categories"], json({"land", "lake or sea", "river"}));
    EXPECT_EQ(water["colorTable"]["entries"][1], json({58, 110, 165, 255}))
        << "lake or sea: the lake class's colour";
    EXPECT_EQ(water["colorTable"]["entries"][2], json({74, 144, 217, 255}))
        << "river: hydrology.river.colour";
    const std::string qml = test::readFile(m_dir / "utm/water.qml");
    EXPECT_THAT(qml, ::testing::HasSubstr("type=\"paletted\""));
    EXPECT_THAT(qml, ::testing::HasSubstr("value=\"0\" color=\"#ffffff\" alpha=\"0\" label=\"land\""));
    EXPECT_THAT(qml, ::testing::HasSubstr("label=\"river\""));
}

}  // namespace
}  // namespace terragrid
