// Wrapping maps and planets: the surface's points, seams across the wrapped edges and the
// dateline, windows of such maps, and the planet's GeoTIFF grid.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>

#include "terragrid/pipeline/generator.hpp"
#include "terragrid/model/surface.hpp"
#include "terragrid/model/window.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

using test::MapCollector;

double distance(const NoisePoint& a, const NoisePoint& b) {
    double sum = 0.0;
    for (std::size_t d = 0; d < 4; ++d) sum += (a.at[d] - b.at[d]) * (a.at[d] - b.at[d]);
    return std::sqrt(sum);
}

MapCollector heightsOf(const Config& config, int threads = 2) {
    MapCollector map;
    test::inArena(threads, [&] { generateMap(config, nullptr, {&map}); });
    return map;
}

/// The jumps between the last and the first column of each row (the seam) against the jumps
/// between neighbouring columns inside the rows: a seamless map draws both from the same
/// distribution.
struct SeamJumps {
    double maxSeam = 0.0;
    double maxInterior = 0.0;
    double meanSeam = 0.0;
    double meanInterior = 0.0;
};

SeamJumps columnSeam(const MapCollector& map) {
    SeamJumps jumps;
    const auto at = [&](std::int64_t col, std::int64_t row) {
        return double(map.elevation[std::size_t(row * map.width + col)]);
    };
    for (std::int64_t row = 0; row < map.height; ++row) {
        for (std::int64_t col = 0; col + 1 < map.width; ++col) {
            const double jump = std::fabs(at(col + 1, row) - at(col, row));
            jumps.maxInterior = std::max(jumps.maxInterior, jump);
            jumps.meanInterior += jump / double((map.width - 1) * map.height);
        }
        const double seam = std::fabs(at(0, row) - at(map.width - 1, row));
        jumps.meanSeam += seam / double(map.height);
        jumps.maxSeam = std::max(jumps.maxSeam, seam);
    }
    return jumps;
}

/// The map turned a quarter so its rows become columns (for the top / bottom seam).
MapCollector transposed(const MapCollector& map) {
    MapCollector t = map;
    std::swap(t.width, t.height);
    for (std::int64_t r = 0; r < map.height; ++r)
        for (std::int64_t c = 0; c < map.width; ++c)
            t.elevation[std::size_t(c * map.height + r)] =
                map.elevation[std::size_t(r * map.width + c)];
    return t;
}

LoadedConfig wrapConfig(std::vector<std::string> more = {}) {
    std::vector<std::string> overrides{"map.width=200", "map.height=150", "map.tile_size=64",
                                       "map.wrap=true", "height.frequency=0.001",
                                       "output.files=[\"height.tif\"]"};
    overrides.insert(overrides.end(), more.begin(), more.end());
    return defaultConfig(overrides);
}

LoadedConfig planetConfig(std::vector<std::string> more = {}) {
    std::vector<std::string> overrides{"map.width=256", "map.height=128", "map.tile_size=48",
                                       "map.projection=equirectangular", "map.cell_size=1000",
                                       "height.frequency=0.00002",
                                       "output.files=[\"height.tif\"]"};
    overrides.insert(overrides.end(), more.begin(), more.end());
    return defaultConfig(overrides);
}

TEST(SurfaceTest, PlanePointsAreTheCellCentres) {
    MapConfig map = test::mapOf(40, 30, 16, 2.5, 10, 50);
    const Surface surface(map);
    const GridGeometry grid = TileLayout(map).geometry();
    EXPECT_EQ(surface.dimensions(), 2);
    for (std::int64_t col : {0, 7, 39})
        for (std::int64_t row : {0, 13, 29}) {
            const NoisePoint p = surface.point(col, row);
            EXPECT_EQ(p.at[0], grid.cellX(col));
            EXPECT_EQ(p.at[1], grid.cellY(row));
        }
}

TEST(SurfaceTest, TorusNeighboursAreOneCellApartAcrossTheWrappedEdgesToo) {
    MapConfig map = test::mapOf(90, 60, 16, 30);
    map.wrap = true;
    const Surface surface(map);
    ASSERT_EQ(surface.dimensions(), 4);
    // Chords of the circles, a hair under the arcs of one cell.
    const double chordX = 2 * (90 * 30 / (2 * std::numbers::pi)) * std::sin(std::numbers::pi / 90);
    for (std::int64_t row : {0, 31, 59}) {
        for (std::int64_t col = 0; col < 90; ++col)
            EXPECT_NEAR(distance(surface.point(col, row), surface.point((col + 1) % 90, row)),
                        chordX, 1e-9)
                << col << "," << row;
    }
    const double chordY = 2 * (60 * 30 / (2 * std::numbers::pi)) * std::sin(std::numbers::pi / 60);
    EXPECT_NEAR(distance(surface.point(5, 59), surface.point(5, 0)), chordY, 1e-9);
    EXPECT_NEAR(distance(surface.point(5, 10), surface.point(5, 11)), chordY, 1e-9);
}

TEST(SurfaceTest, SpherePointsLieOnTheSphereAndMeetAtTheDateline) {
    MapConfig map = test::mapOf(128, 64, 16, 1000);
    map.projection = Projection::Equirectangular;
    const Surface surface(map);
    ASSERT_EQ(surface.dimensions(), 3);
    const double radius = 128 * 1000 / (2 * std::numbers::pi);
    for (std::int64_t row : {0, 20, 31, 32, 63}) {
        const double lat = std::numbers::pi / 2 - std::numbers::pi * (double(row) + 0.5) / 64;
        const double chord = 2 * radius * std::cos(lat) * std::sin(std::numbers::pi / 128);
        for (std::int64_t col : {0, 1, 64, 126, 127}) {
            EXPECT_NEAR(distance(surface.point(col, row), NoisePoint{}), radius, 1e-9 * radius);
            EXPECT_NEAR(distance(surface.point(col, row), surface.point((col + 1) % 128, row)),
                        chord, 1e-9 * radius)
                << col << "," << row;
        }
    }
    // Not pinched: the top row is a small circle around the pole, every cell of it within one
    // cell of latitude from every other.
    for (std::int64_t col = 0; col < 128; ++col)
        EXPECT_LT(distance(surface.point(col, 0), surface.point(0, 0)),
                  2 * radius * std::sin(std::numbers::pi / 64));
}

// The wrap config with `overrides` joins across its left and right edges and across its top and
// bottom no worse than its neighbouring columns and rows do, and is not flat (its mean jump
// between neighbours above `leastJump` metres).
void expectSeamless(const std::vector<std::string>& overrides, double leastJump) {
    const MapCollector map = heightsOf(wrapConfig(overrides));
    for (const MapCollector& m : {map, transposed(map)}) {
        const SeamJumps jumps = columnSeam(m);
        EXPECT_LE(jumps.maxSeam, jumps.maxInterior) << overrides[0];
        EXPECT_LT(jumps.meanSeam, 1.5 * jumps.meanInterior) << overrides[0];
        EXPECT_GT(jumps.meanInterior, leastJump) << overrides[0] << ": the map must not be flat";
    }
}

TEST(WrapTest, LastColumnAndRowContinueIntoTheFirstAsSmoothlyAsTheInterior) {
    for (const char* noise : {"perlin", "simplex"}) expectSeamless({std::string("height.noise=") + noise}, 0.5);
}

// Version 5: value and Perlin layers tile by their own lattice (value noise, which has no 4D
// form, too), warped or not, beside a simplex layer that still samples the torus.
TEST(WrapTest, VersionFiveLatticeTilingContinuesAcrossTheEdges) {
    const std::vector<std::vector<std::string>> cases{
        {"height.noise=\"perlin\""},
        {"height.noise=\"value\"", "moisture.noise=\"value\""},
        {"height.noise=\"perlin\"", "height.warp.amplitude=300"},
        {"height.noise=\"perlin\"", "height.layers=[{\"noise\": \"simplex\", \"weight\": 0.5}]"}};
    for (std::vector<std::string> overrides : cases) {
        overrides.push_back("noise_version=5");
        expectSeamless(overrides, 0.5);
    }
}

// Version 6: simplex layers tile by their own triangular lattice too (the default wrap config's
// layers are simplex), warped or not, beside Perlin layers.
TEST(WrapTest, VersionSixSimplexTilingContinuesAcrossTheEdges) {
    const std::vector<std::vector<std::string>> cases{
        {},
        {"height.warp.amplitude=300"},
        {"height.layers=[{\"noise\": \"perlin\", \"weight\": 0.5}]"},
        {"height.octaves=1", "height.frequency=0.0001"}};  // one coarse octave: a few edges across
    for (std::vector<std::string> overrides : cases) {
        overrides.push_back("noise_version=6");
        expectSeamless(overrides, 0.05);
    }
}

TEST(WrapTest, APlaneMapHasTheSeamTheWrapRemoves) {
    // The seam measure can fail: without wrap the edges are 200 cells of noise apart.
    const MapCollector map = heightsOf(wrapConfig({"map.wrap=false"}));
    const SeamJumps jumps = columnSeam(map);
    EXPECT_GT(jumps.maxSeam, jumps.maxInterior);
    EXPECT_GT(jumps.meanSeam, 5.0 * jumps.meanInterior);
}

TEST(PlanetTest, MatchesAcrossTheDatelineAndIsNotPinchedAtThePoles) {
    const MapCollector map = heightsOf(planetConfig());
    const SeamJumps jumps = columnSeam(map);
    EXPECT_LE(jumps.maxSeam, jumps.maxInterior);
    EXPECT_LT(jumps.meanSeam, 1.5 * jumps.meanInterior);
    const auto spread = [&](std::int64_t row) {
        const auto first = map.elevation.begin() + row * map.width;
        const auto [lo, hi] = std::minmax_element(first, first + map.width);
        return double(*hi - *lo);
    };
    // The top and bottom rows circle the poles: nearly one value each, unlike the equator.
    EXPECT_LT(spread(0), 0.1 * spread(64));
    EXPECT_LT(spread(127), 0.1 * spread(64));
}

TEST(WorldShapeTest, WindowsOfWrappingMapsPlanetsAndIslandsHoldTheFullMapsCells) {
    // The falloff too is a function of the cell's place in the full map.
    const LoadedConfig island = wrapConfig({"map.wrap=false", "height.falloff.shape=radial"});
    const LoadedConfig tiling = wrapConfig({"noise_version=5", "height.noise=\"perlin\""});
    const LoadedConfig simplexTiling = wrapConfig({"noise_version=6"});
    for (const LoadedConfig& config : {wrapConfig(), planetConfig(), island, tiling, simplexTiling}) {
        const MapCollector full = heightsOf(config);
        const CellWindow window{37, 21, 90, 50};
        const MapCollector piece = heightsOf(windowConfig(config, window));
        ASSERT_EQ(piece.width, 90);
        for (std::int64_t r = 0; r < window.height; ++r)
            for (std::int64_t c = 0; c < window.width; ++c)
                ASSERT_EQ(piece.elevation[std::size_t(r * 90 + c)],
                          full.elevation[std::size_t((r + 21) * full.width + c + 37)])
                    << c << "," << r;
    }
}

TEST(WorldShapeTest, BitIdenticalForEveryThreadCountAndTileSize) {
    for (const LoadedConfig& base :
         {wrapConfig({"height.warp.amplitude=300"}), planetConfig(),
          wrapConfig({"noise_version=5", "height.noise=\"value\"", "height.warp.amplitude=300"}),
          wrapConfig({"noise_version=6"}), wrapConfig({"noise_version=6", "height.warp.amplitude=300"})}) {
        const MapCollector reference = heightsOf(base, 1);
        for (const std::int64_t tile : {7, 256}) {
            Config config = base;
            config.map.tileSizeCells = tile;
            const MapCollector other = heightsOf(config, 3);
            EXPECT_TRUE(std::equal(reference.elevation.begin(), reference.elevation.end(),
                                   other.elevation.begin(), other.elevation.end(),
                                   [](float a, float b) { return std::memcmp(&a, &b, 4) == 0; }))
                << "tile " << tile;
        }
    }
}

TEST(PlanetTest, ConfigPutsThePlanetOnTheGlobalGrid) {
    const LoadedConfig config = planetConfig();
    EXPECT_EQ(config.output.crs.epsg, 4326);
    EXPECT_EQ(config.map.originX, -180.0);
    EXPECT_EQ(config.map.originY, 90.0);
    EXPECT_EQ(config.map.cellSize, 360.0 / 256);
    EXPECT_EQ(config.map.groundCell(), 1000.0);
    EXPECT_THAT(config.resolvedJson, ::testing::HasSubstr("\"crs\": \"EPSG:4326\""));
}

TEST(PlanetTest, GdalReadsAGlobalGeographicGeoTiff) {
    test::TempDir dir;
    const auto result = test::runCommand(
        test::cliPath() + " --quiet --out-dir " + test::shellQuote(dir.path().string()) +
        " --width 128 --height 64 --set map.projection=equirectangular --set "
        "'output.files=[\"height.tif\"]'");
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto info = test::runCommand("gdalinfo " + test::shellQuote((dir.path() / "height.tif").string()));
    ASSERT_EQ(info.exitCode, 0) << info.err;
    EXPECT_THAT(info.out, ::testing::HasSubstr("ID[\"EPSG\",4326]"));
    EXPECT_THAT(info.out, ::testing::HasSubstr("Origin = (-180.000000000000000,90.000000000000000)"));
    EXPECT_THAT(info.out, ::testing::HasSubstr("Pixel Size = (2.812500000000000,-2.812500000000000)"));
    EXPECT_THAT(info.out, ::testing::HasSubstr("Lower Right ( 180.0000000, -90.0000000)"));
}

}  // namespace
}  // namespace terragrid
