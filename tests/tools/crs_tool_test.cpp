// The CRS as GDAL and libgeotiff's listgeo read it from terragrid's own height.tif, made by the
// real CLI for projected and geographic CRSs of several kinds (UTM, Lambert, transverse
// Mercator, polar stereographic, equidistant cylindrical, three datums' geographic CRSs): GDAL
// must report the same EPSG code without a warning, and listgeo the model type PROJ says.
// An unknown code is refused before anything is written, by `validate` and by a run.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "test_support.hpp"

namespace terragrid {
namespace {

using nlohmann::json;
using test::runCommand;
using test::shellQuote;
using ::testing::HasSubstr;
using ::testing::Not;

struct CrsCase {
    int epsg;
    bool geographic;
    const char* origin;  // map.origin, in the CRS's units
    const char* cellSize;

    friend void PrintTo(const CrsCase& c, std::ostream* os) { *os << "EPSG:" << c.epsg; }
};

class CrsToolTest : public ::testing::TestWithParam<CrsCase> {
protected:
    std::string dir() const { return m_dir.path().string(); }

    test::CommandResult terragrid(const std::string& args) const {
        return runCommand("cd " + shellQuote(dir()) + " && " + shellQuote(test::cliPath()) +
                          " --width 48 --height 40 --tile-size 16 -q" +
                          " --set 'output.files=[\"height.tif\", \"classes.tif\", "
                          "\"stats.json\"]' " + args);
    }

    test::TempDir m_dir;
};

TEST_P(CrsToolTest, GdalAndListgeoReportTheCrsWithoutWarnings) {
    const CrsCase& c = GetParam();
    const test::CommandResult run =
        terragrid("--set output.crs=EPSG:" + std::to_string(c.epsg) + " --set 'map.origin=" +
                  c.origin + "' --set map.cell_size=" + c.cellSize + " --out-dir out");
    ASSERT_EQ(run.exitCode, 0) << run.err;

    for (const char* file : {"out/height.tif", "out/classes.tif"}) {
        const test::CommandResult info =
            runCommand("cd " + shellQuote(dir()) + " && gdalinfo -json " + file);
        ASSERT_EQ(info.exitCode, 0) << info.err;
        EXPECT_THAT(info.err, Not(HasSubstr("Warning"))) << file;
        EXPECT_THAT(info.err, Not(HasSubstr("ERROR"))) << file;
        const json parsed = json::parse(info.out);
        EXPECT_THAT(parsed["coordinateSystem"].value("wkt", ""),
                    ::testing::EndsWith("ID[\"EPSG\"," + std::to_string(c.epsg) + "]]"))
            << file;
        EXPECT_THAT(parsed["coordinateSystem"].value("wkt", ""),
                    ::testing::StartsWith(c.geographic ? "GEOGCRS[" : "PROJCRS["))
            << file;
        EXPECT_EQ(parsed["stac"].value("proj:epsg", 0), c.epsg) << file;
    }

    // stats.json names the CRS as PROJ resolved it.
    const json stats = json::parse(test::readFile(m_dir.path() / "out/stats.json"));
    EXPECT_EQ(stats["map"].value("crs", ""), "EPSG:" + std::to_string(c.epsg));
    EXPECT_EQ(stats["map"].value("epsg", 0), c.epsg);
    EXPECT_FALSE(stats["map"].value("crs_name", "").empty());

    // gdalsrsinfo identifies the file's CRS by itself (its own EPSG lookup of the WKT).
    const test::CommandResult srs =
        runCommand("cd " + shellQuote(dir()) + " && gdalsrsinfo -e -o epsg out/height.tif");
    EXPECT_EQ(srs.exitCode, 0) << srs.err;
    EXPECT_THAT(srs.out, HasSubstr("EPSG:" + std::to_string(c.epsg)));

    // listgeo (libgeotiff) prints the GeoKeys; its own libtiff does not know GDAL's metadata
    // tags and warns about those, which is not about the GeoKeys.
    const test::CommandResult keys =
        runCommand("cd " + shellQuote(dir()) + " && listgeo out/height.tif");
    ASSERT_EQ(keys.exitCode, 0) << keys.err;
    const std::string modelType = c.geographic ? "ModelTypeGeographic" : "ModelTypeProjected";
    EXPECT_THAT(keys.out, HasSubstr("GTModelTypeGeoKey (Short,1): " + modelType));
    EXPECT_THAT(keys.out,
                HasSubstr(c.geographic ? "GeographicTypeGeoKey" : "ProjectedCSTypeGeoKey"));
    EXPECT_THAT(keys.out, HasSubstr("RasterPixelIsArea"));
}

INSTANTIATE_TEST_SUITE_P(
    Crss, CrsToolTest,
    ::testing::Values(CrsCase{3857, false, "[1000000, 6000000]", "30"},
                      CrsCase{4326, true, "[15.5, 45.25]", "0.001"},
                      CrsCase{4087, false, "[-500000, 300000]", "100"},  // projected, in 4000s
                      CrsCase{6318, true, "[-100.1, 40.7]", "0.0005"},   // geographic, NAD83(2011)
                      CrsCase{7844, true, "[150.2, -33.8]", "0.0005"},   // geographic, GDA2020
                      CrsCase{32633, false, "[500000, 5000000]", "30"},
                      CrsCase{2154, false, "[650000, 6860000]", "25"},
                      CrsCase{27700, false, "[530000, 180000]", "50"},
                      CrsCase{3031, false, "[-200000, 200000]", "1000"}),  // polar stereographic
    [](const auto& info) { return "Epsg" + std::to_string(info.param.epsg); });

class CrsRefusalTest : public ::testing::Test {
protected:
    test::CommandResult terragrid(const std::string& args) const {
        return runCommand("cd " + shellQuote(m_dir.path().string()) + " && " +
                          shellQuote(test::cliPath()) + " " + args);
    }
    test::TempDir m_dir;
};

TEST_F(CrsRefusalTest, UnknownCodeExits2FromValidateAndFromARun) {
    for (const char* text : {"output.crs=EPSG:9999", "output.epsg=9999"}) {
        const std::string set = text;
        const std::string key = set.substr(0, set.find('='));
        for (const std::string& args :
             {"validate --set " + set, "--set " + set + " --out-dir out -q"}) {
            const test::CommandResult r = terragrid(args);
            EXPECT_EQ(r.exitCode, 2) << args;
            EXPECT_THAT(r.err, HasSubstr("'" + key + "' (")) << args << ": names the key";
            EXPECT_THAT(r.err, HasSubstr("9999")) << args;
            EXPECT_THAT(r.err, HasSubstr("is not a CRS in PROJ's EPSG database")) << args;
        }
    }
    EXPECT_FALSE(std::filesystem::exists(m_dir.path() / "out" / "height.tif"));
}

TEST_F(CrsRefusalTest, DefaultThirtyUnitCellsInDegreesAreRefused) {
    const test::CommandResult r = terragrid("validate --set output.crs=EPSG:4326");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("'map.cell_size' (30) is in degrees with 'output.crs' "
                                 "(\"EPSG:4326\"), geographic: 1024 cells ('map.width') span "
                                 "30720 degrees, more than the globe's 360"));
}

}  // namespace
}  // namespace terragrid
