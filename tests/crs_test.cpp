// output.crs: what PROJ's database says of a code, the output.epsg shorthand, the refusals
// (unknown codes, CRSs a raster cannot use, geographic maps that wrap the globe), and cell
// sizes in metres for the engines and hill shading.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "io/engines/r16_sidecar.hpp"
#include "terragrid/config/crs.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/io/crs.hpp"
#include "terragrid/model/window.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

TEST(CrsTest, ParsesEpsgTextOnly) {
    EXPECT_EQ(parseEpsgText("EPSG:32633"), 32633);
    EXPECT_EQ(parseEpsgText("epsg:4326"), 4326);
    for (const char* bad : {"", "EPSG:", "EPSG:-1", "EPSG:+5", "EPSG:12a", "ESRI:102100",
                            "4326", "EPSG: 4326", "EPSG:99999999999"})
        EXPECT_EQ(parseEpsgText(bad), -1) << bad;
}

TEST(CrsTest, KindAndUnitComeFromProjNotFromTheCode) {
    // Codes in the 4000s are not all geographic, and geographic ones live elsewhere too.
    const CrsInfo eqc = crsFromEpsg(4087);
    EXPECT_FALSE(eqc.geographic);
    EXPECT_EQ(eqc.name, "WGS 84 / World Equidistant Cylindrical");
    for (int code : {4326, 6318, 7844, 4258}) {
        const CrsInfo c = crsFromEpsg(code);
        EXPECT_TRUE(c.geographic) << code;
        EXPECT_EQ(c.unitToMetre, 0.0) << code;
    }
    const CrsInfo utm = crsFromEpsg(32633);
    EXPECT_FALSE(utm.geographic);
    EXPECT_EQ(utm.unitToMetre, 1.0);
    EXPECT_EQ(utm.semiMajorMetres, 6378137.0);
    EXPECT_EQ(utm.inverseFlattening, 298.257223563);
    // NAD83 / Massachusetts Mainland (ftUS): US survey feet.
    EXPECT_DOUBLE_EQ(crsFromEpsg(2249).unitToMetre, 1200.0 / 3937.0);
    // OSGB36's Airy 1830 ellipsoid.
    EXPECT_EQ(crsFromEpsg(27700).semiMajorMetres, 6377563.396);
}

TEST(CrsTest, RefusesWhatARasterCannotUse) {
    EXPECT_THAT([] { crsFromEpsg(9999); },
                ThrowsMessage<CrsError>(HasSubstr("is not a CRS in PROJ's EPSG database")));
    EXPECT_THAT([] { crsFromEpsg(4978); },  // WGS 84 geocentric
                ThrowsMessage<CrsError>(HasSubstr("is not a 2D geographic or projected CRS")));
    EXPECT_THAT([] { crsFromEpsg(4979); },  // WGS 84 3D
                ThrowsMessage<CrsError>(HasSubstr("is not a 2D geographic or projected CRS")));
    EXPECT_THAT([] { crsFromEpsg(4807); },  // NTF (Paris), in grads
                ThrowsMessage<CrsError>(HasSubstr("terragrid takes geographic CRSs in degrees")));
}

TEST(CrsConfigTest, EpsgIsShorthandForCrs) {
    const LoadedConfig a = defaultConfig({"output.epsg=32633"});
    const LoadedConfig b = defaultConfig({"output.crs=\"EPSG:32633\""});
    const LoadedConfig c = defaultConfig({"output.crs=epsg:32633"});
    EXPECT_EQ(a.output.crs.epsg, 32633);
    EXPECT_EQ(a.hash, b.hash);
    EXPECT_EQ(a.hash, c.hash);
    EXPECT_EQ(a.resolvedJson, b.resolvedJson);
    EXPECT_THAT(a.resolvedJson, HasSubstr("\"crs\": \"EPSG:32633\""));
    EXPECT_THAT(a.resolvedJson, ::testing::Not(HasSubstr("\"epsg\"")));
    // Both, agreeing, are fine; disagreeing, refused.
    EXPECT_EQ(defaultConfig({"output.epsg=32633", "output.crs=EPSG:32633"}).hash, a.hash);
    EXPECT_THAT([] { defaultConfig({"output.epsg=32633", "output.crs=EPSG:2154"}); },
                ThrowsMessage<ConfigError>(HasSubstr(
                    "config: 'output.epsg' (32633) and 'output.crs' (\"EPSG:2154\") disagree")));
}

TEST(CrsConfigTest, BadCrsTextNamesKeyRuleAndValue) {
    EXPECT_THAT([] { defaultConfig({"output.crs=ESRI:102100"}); },
                ThrowsMessage<ConfigError>(HasSubstr(
                    "config: 'output.crs' (\"ESRI:102100\") must be \"EPSG:\" and a code")));
    EXPECT_THAT([] { defaultConfig({"output.crs=EPSG:70000"}); },
                ThrowsMessage<ConfigError>(HasSubstr("must have a code between 1024 and 32766")));
    EXPECT_THAT([] { defaultConfig({"output.crs=EPSG:9999"}); },
                ThrowsMessage<ConfigError>(HasSubstr(
                    "config: 'output.crs' (\"EPSG:9999\") is not a CRS in PROJ's EPSG database")));
}

TEST(CrsConfigTest, GeographicMapMustNotWrapTheGlobe) {
    // The default 30-unit cells are degrees in EPSG:4326.
    EXPECT_THAT([] { defaultConfig({"output.crs=EPSG:4326"}); },
                ThrowsMessage<ConfigError>(HasSubstr("use at most 0.3515625")));
    // Exactly once around is fine; a hair more is not.
    EXPECT_NO_THROW(defaultConfig({"output.crs=EPSG:4326", "map.width=360", "map.height=180",
                                   "map.cell_size=1", "map.origin=[-180, 90]"}));
    EXPECT_THAT([] { defaultConfig({"output.crs=EPSG:4326", "map.width=361", "map.height=10",
                                    "map.cell_size=1", "map.origin=[-180, 5]"}); },
                ThrowsMessage<ConfigError>(HasSubstr("361 cells ('map.width') span 361 degrees")));
    EXPECT_THAT([] { defaultConfig({"output.crs=EPSG:4326", "map.width=10", "map.height=10",
                                    "map.cell_size=1", "map.origin=[0, 95]"}); },
                ThrowsMessage<ConfigError>(HasSubstr(
                    "'map.origin' ([0, 95]) puts the map's rows at latitudes 95 down to 85")));
    // A projected CRS takes any cell size up to the option's own limit.
    EXPECT_NO_THROW(defaultConfig({"output.crs=EPSG:32633"}));
}

MapConfig geographicMap(double originY, double cellDegrees, std::int64_t height) {
    MapConfig map;
    map.width = 100;
    map.height = height;
    map.tileSizeCells = 32;
    map.cellSize = cellDegrees;
    map.originX = 10;
    map.originY = originY;
    return map;
}

TEST(CellMetresTest, DegreesAreMeasuredAtTheCentreLatitude) {
    const CrsInfo wgs84 = crsFromEpsg(4326);
    // At the equator a degree of longitude is a * pi / 180 = 111319.49 m on WGS 84, and one of
    // latitude 110574.3 m (the meridian's radius of curvature is smallest there).
    const CellMetres equator = cellMetres(geographicMap(0.5, 0.01, 100), wgs84);
    EXPECT_NEAR(equator.x, 1113.1949, 1e-3);
    EXPECT_NEAR(equator.y, 1105.743, 1e-2);
    // At 60 degrees a degree of longitude is about half as long (55800 m), of latitude
    // 111412 m.
    const CellMetres north = cellMetres(geographicMap(60.5, 0.01, 100), wgs84);
    EXPECT_NEAR(north.x, 558.0, 0.5);
    EXPECT_NEAR(north.y, 1114.1, 0.5);
    EXPECT_NEAR(north.square(), std::sqrt(north.x * north.y), 1e-9);
    // Every shard of a map measures at the whole map's centre.
    const MapConfig whole = geographicMap(60.5, 0.01, 100);
    for (const CellWindow w : {CellWindow{0, 0, 100, 10}, CellWindow{0, 90, 100, 10}}) {
        const CellMetres piece = cellMetres(windowMap(whole, w), wgs84);
        EXPECT_EQ(piece.x, north.x);
        EXPECT_EQ(piece.y, north.y);
    }
}

TEST(CellMetresTest, ProjectedCellsTakeTheAxisUnitAndPlanetsTheirGroundSize) {
    MapConfig map = geographicMap(0, 30, 10);
    EXPECT_EQ(cellMetres(map, crsFromEpsg(32633)).x, 30.0);
    EXPECT_DOUBLE_EQ(cellMetres(map, crsFromEpsg(2249)).y, 30.0 * 1200.0 / 3937.0);
    // The planet preset's 40 km cells: degrees on the grid, 40000 m on the ground.
    map.projection = Projection::Equirectangular;
    map.cellSize = 360.0 / 1024.0;
    map.groundCellSize = 40000.0;
    EXPECT_EQ(cellMetres(map, crsFromEpsg(4326)).square(), 40000.0);
}

// The planet preset's engine sidecar gave its 40 km cells as 0.35 m (360 / 1024 degrees taken
// for metres); the engines' figures are metres.
TEST(CellMetresTest, PlanetSidecarIsInMetres) {
    const LoadedConfig planet = loadConfig((test::sourceDir() / "configs/planet.json").string(),
                                           {"map.width=64", "map.height=32"});
    const auto sidecar = r16Sidecar(planet, mapHeightRange(planet, nullptr));
    EXPECT_EQ(sidecar["cell_size_m"].value("x", 0.0), 40000.0);
    EXPECT_EQ(sidecar["cell_size_m"].value("y", 0.0), 40000.0);
    EXPECT_EQ(sidecar.value("cell_size", 0.0), 360.0 / 64.0) << "in output.crs units: degrees";
    EXPECT_EQ(sidecar["unreal"].value("scale_x_percent", 0.0), 4000000.0);
    EXPECT_EQ(sidecar["unity"].value("terrain_width_m", 0.0), 63 * 40000.0);
}

// A geographic map at 60 degrees north: a cell is half as wide as it is tall on the ground, and
// the engines get both sides.
TEST(CellMetresTest, GeographicSidecarGivesBothSides) {
    const LoadedConfig map = defaultConfig({"output.crs=EPSG:4326", "map.width=65",
                                            "map.height=65", "map.cell_size=0.001",
                                            "map.origin=[10, 60.0325]"});
    const auto sidecar = r16Sidecar(map, mapHeightRange(map, nullptr));
    const CellMetres m = cellMetres(map.map, map.output.crs);
    EXPECT_NEAR(m.x / m.y, 0.5, 0.01);
    EXPECT_EQ(sidecar["cell_size_m"].value("x", 0.0), m.x);
    EXPECT_EQ(sidecar["cell_size_m"].value("y", 0.0), m.y);
    EXPECT_EQ(sidecar["unreal"].value("scale_x_percent", 0.0), m.x * 100.0);
    EXPECT_EQ(sidecar["unreal"].value("scale_y_percent", 0.0), m.y * 100.0);
    EXPECT_EQ(sidecar["unity"].value("terrain_width_m", 0.0), 64 * m.x);
    EXPECT_EQ(sidecar["unity"].value("terrain_length_m", 0.0), 64 * m.y);
}

}  // namespace
}  // namespace terragrid
