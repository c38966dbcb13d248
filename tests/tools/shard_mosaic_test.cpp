// Shards made by the real CLI, mosaicked by GDAL (gdalbuildvrt, then gdal_translate), are the
// single run: the same pixels and the same georeferencing, as the README promises.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace terragrid {
namespace {

using nlohmann::json;
using test::runCommand;
using test::shellQuote;

class ShardMosaicTest : public ::testing::Test {
protected:
    /// Runs `command` in the test's directory; a test failure when it fails.
    test::CommandResult run(const std::string& command) {
        const auto r = runCommand("cd " + shellQuote(m_dir.path().string()) + " && " + command);
        EXPECT_EQ(r.exitCode, 0) << command << "\n" << r.err;
        return r;
    }

    /// A 200 x 150 map in tiles of 32 (five tile rows, so four shards are uneven), off the
    /// world's origin, with thresholds by coverage (estimated on the whole map).
    std::string terragrid(const std::string& args) {
        return shellQuote(test::cliPath()) +
               " --width 200 --height 150 --tile-size 32 --seed 11 -q"
               " --set 'map.origin=" + m_origin + "' --set output.epsg=32633"
               " --set 'terrain.lake_below={\"coverage\": 0.3}'"
               " --set 'terrain.mountain_above={\"coverage\": 0.15}'"
               " --set 'output.files=[\"height.tif\", \"classes.tif\"]' " + args;
    }

    /// `file` of the four shards mosaicked by gdalbuildvrt into NAME.vrt and copied out by
    /// gdal_translate into NAME-mosaic.tif; returns NAME.
    std::string mosaic(const std::string& file) {
        const std::string name = file.substr(0, file.find('.'));
        run("gdalbuildvrt -q " + name + ".vrt shard-*/" + file);
        run("gdal_translate -q -co TILED=YES " + name + ".vrt " + name + "-mosaic.tif");
        return name;
    }

    json gdalinfo(const std::string& file) {
        return json::parse(run("gdalinfo -json " + file).out);
    }

    /// Runs the whole map, its four shards and a --region, and checks that the shards mosaic
    /// into the single run and the region is the same cells; `originX`, `originY` as typed.
    void checkPiecesEqualTheWhole(double originX, double originY);

    test::TempDir m_dir;
    std::string m_origin = "[600000, 5400000]";
};

TEST_F(ShardMosaicTest, FourShardsMosaicIntoTheSingleRun) {
    checkPiecesEqualTheWhole(600000.0, 5400000.0);
}

// The example: a UTM origin that is not a multiple of the 30 m cells.
TEST_F(ShardMosaicTest, PiecesOfAMapOffTheGridEqualTheWhole) {
    m_origin = "[500000, 5000000]";
    checkPiecesEqualTheWhole(500000.0, 5000000.0);
}

// The two-step job array of the README: the hydrology stage once, then shards that read it.
TEST_F(ShardMosaicTest, ShardsReadingOneHydrologyStageMosaicIntoTheSingleRun) {
    const std::string water = " --set hydrology.enabled=true --set hydrology.sea_level=0.3"
                              " --set hydrology.river_threshold=180000"
                              " --set hydrology.erosion.enabled=true"
                              " --set hydrology.erosion.steps=10";
    const std::string files =
        " --set 'output.files=[\"height.tif\", \"classes.tif\", \"water.tif\", \"flow.tif\"]'";
    run(terragrid(water + files + " --out-dir full"));
    run(shellQuote(test::cliPath()) + " hydrology-stage -q --width 200 --height 150 --seed 11"
        " --set 'map.origin=" + m_origin + "' --set output.epsg=32633" + water +
        " --out stage.tgh");
    for (int k = 0; k < 4; ++k)
        run(terragrid(water + files + " --hydrology-stage stage.tgh --shard " +
                      std::to_string(k) + "/4 --out-dir shard-" + std::to_string(k)));
    ASSERT_FALSE(HasFailure());
    for (const std::string file : {"height.tif", "flow.tif"}) {
        const std::string name = mosaic(file);
        ASSERT_FALSE(HasFailure());
        EXPECT_EQ(test::readFloatTiff(m_dir / (name + "-mosaic.tif")),
                  test::readFloatTiff(m_dir / "full" / file))
            << file;
    }
    for (const std::string file : {"classes.tif", "water.tif"}) {
        const std::string name = mosaic(file);
        ASSERT_FALSE(HasFailure());
        EXPECT_EQ(test::readByteTiff(m_dir / (name + "-mosaic.tif")),
                  test::readByteTiff(m_dir / "full" / file))
            << file;
    }
    // Water there is: the comparison is not of empty rasters.
    const std::vector<std::uint8_t> kinds = test::readByteTiff(m_dir / "full/water.tif");
    EXPECT_GT(std::count(kinds.begin(), kinds.end(), 2), 0);
}

void ShardMosaicTest::checkPiecesEqualTheWhole(double originX, double originY) {
    run(terragrid("--out-dir full"));
    for (int k = 0; k < 4; ++k)
        run(terragrid("--shard " + std::to_string(k) + "/4 --out-dir shard-" + std::to_string(k)));
    ASSERT_FALSE(HasFailure());

    const std::string height = mosaic("height.tif");
    const std::string classes = mosaic("classes.tif");
    ASSERT_FALSE(HasFailure());
    std::uint32_t w = 0, h = 0;
    EXPECT_EQ(test::readFloatTiff(m_dir / (height + "-mosaic.tif"), &w, &h),
              test::readFloatTiff(m_dir / "full/height.tif"));
    EXPECT_EQ(w, 200u);
    EXPECT_EQ(h, 150u);
    EXPECT_EQ(test::readByteTiff(m_dir / (classes + "-mosaic.tif")),
              test::readByteTiff(m_dir / "full/classes.tif"));

    for (const std::string& name : {height, classes}) {
        const json single = gdalinfo("full/" + name + ".tif");
        const json pieces = gdalinfo(name + ".vrt");
        EXPECT_EQ(pieces["size"], json::array({200, 150})) << name;
        EXPECT_EQ(pieces["geoTransform"], single["geoTransform"]) << name;
        EXPECT_EQ(single["geoTransform"],
                  json::array({originX, 30.0, 0.0, originY, 0.0, -30.0}));
        // The VRT spells the CRS in GDAL's own words (a datum ensemble, no usage); what
        // matters is that it is the same EPSG code.
        for (const json* info : {&single, &pieces})
            EXPECT_THAT((*info)["coordinateSystem"].value("wkt", ""),
                        ::testing::EndsWith("ID[\"EPSG\",32633]]"))
                << name;
    }
    // Each shard is where its band lies: the last one starts 96 rows down, 54 rows tall.
    const json last = gdalinfo("shard-3/height.tif");
    EXPECT_EQ(last["size"], json::array({200, 54}));
    EXPECT_EQ(last["geoTransform"],
              json::array({originX, 30.0, 0.0, originY - 96 * 30, 0.0, -30.0}));

    // A region off the tile grid is the same cells of the whole map.
    run(terragrid("--region 37,23,101,77 --out-dir region"));
    ASSERT_FALSE(HasFailure());
    const std::vector<float> whole = test::readFloatTiff(m_dir / "full/height.tif");
    std::uint32_t rw = 0, rh = 0;
    const std::vector<float> region = test::readFloatTiff(m_dir / "region/height.tif", &rw, &rh);
    ASSERT_EQ(rw, 101u);
    ASSERT_EQ(rh, 77u);
    for (std::uint32_t y = 0; y < rh; ++y)
        for (std::uint32_t x = 0; x < rw; ++x)
            ASSERT_EQ(region[y * rw + x], whole[(23 + y) * 200 + 37 + x]) << x << "," << y;
    EXPECT_EQ(gdalinfo("region/height.tif")["geoTransform"],
              json::array({originX + 37 * 30.0, 30.0, 0.0, originY - 23 * 30.0, 0.0, -30.0}));
}

}  // namespace
}  // namespace terragrid
