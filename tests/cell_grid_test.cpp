// generateCells on any CellGrid gives each cell the bits generateTile gives it (design.md
// principle 1): every 2^k-th cell (the explorer's zoomed-out tiles), a grid with repeated and
// clamped cells (a tile's margin at the map's edge), a single cell (the cell inspector), with
// and without hydrology; riverOrders over any rect gives the tiles' river orders; the
// hydrology stage is the same with progress reported, and stops when the report throws.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "terragrid/config/loader.hpp"
#include "terragrid/pipeline/generator.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

/// The whole map through generateTile, the batch path.
Tile wholeMap(const MapFields& fields) {
    Tile tile;
    generateTile(fields, {0, 0, 0, fields.config.map.width, fields.config.map.height}, tile);
    return tile;
}

/// Every value of every cell of `grid` equals the whole map's at that cell.
void expectGridIsTheMap(const MapFields& fields, const Tile& map, const CellGrid& grid,
                        const std::string& what) {
    CellValues v;
    generateCells(fields, grid, v);
    const std::int64_t w = fields.config.map.width;
    ASSERT_EQ(v.elevationMeters.size(), std::size_t(grid.cellCount())) << what;
    std::size_t at = 0;
    for (const std::int64_t row : grid.rows)
        for (const std::int64_t col : grid.cols) {
            const auto cell = std::size_t(row * w + col);
            ASSERT_EQ(v.elevationMeters[at], map.elevationMeters[cell]) << what << " " << col << "," << row;
            ASSERT_EQ(v.classIndex[at], map.classIndex[cell]) << what << " " << col << "," << row;
            ASSERT_EQ(v.walkable[at], map.walkable[cell]) << what;
            if (!map.water.empty()) {
                ASSERT_EQ(v.water[at], map.water[cell]) << what << " " << col << "," << row;
                ASSERT_EQ(v.waterDepth[at], map.waterDepth[cell]) << what;
                ASSERT_EQ(v.flow[at], map.flow[cell]) << what;
                ASSERT_EQ(v.riverOrder[at], map.riverOrder[cell]) << what << " " << col << "," << row;
            }
            ++at;
        }
}

/// The grids the explorer asks for, on a w x h map.
std::vector<std::pair<std::string, CellGrid>> gridsOf(std::int64_t w, std::int64_t h) {
    std::vector<std::pair<std::string, CellGrid>> grids;
    grids.emplace_back("every 4th cell", CellGrid::strided(2, 2, (w - 2 + 3) / 4, (h - 2 + 3) / 4, 4));
    grids.emplace_back("every 3rd cell from 1,0", CellGrid::strided(1, 0, (w - 1 + 2) / 3, (h + 2) / 3, 3));
    grids.emplace_back("a rect", CellGrid::strided(5, 7, 40, 30, 1));
    grids.emplace_back("one cell", CellGrid{{w - 1}, {h / 2}});
    // A margin clamped at the edge repeats the edge cells.
    CellGrid clamped;
    for (std::int64_t i = -1; i <= 20; ++i) clamped.cols.push_back(std::clamp<std::int64_t>(i * 8, 0, w - 1));
    for (std::int64_t j = -1; j <= 12; ++j) clamped.rows.push_back(std::clamp<std::int64_t>(h - 1 - j * 7, 0, h - 1));
    grids.emplace_back("clamped, rows upwards", clamped);
    return grids;
}

TEST(CellGridTest, AnyGridsCellsAreTheTilesCells) {
    for (const char* extra : {"seed=3", "height.warp.amplitude=0.3", "map.projection=equirectangular"}) {
        std::vector<std::string> overrides{"map.width=160", "map.height=96", extra};
        if (std::string(extra).starts_with("map.projection"))
            overrides = {"map.width=160", "map.height=80", extra, "output.crs=EPSG:4326"};
        const Config config = defaultConfig(overrides);
        const Terrain terrain = makeTerrain(config);
        const MapFields fields(config, &terrain);
        const Tile map = wholeMap(fields);
        for (const auto& [what, grid] : gridsOf(config.map.width, config.map.height))
            expectGridIsTheMap(fields, map, grid, std::string(extra) + ": " + what);
    }
}

TEST(CellGridTest, WithHydrologyAnyGridsCellsAreTheTilesCells) {
    for (const char* resolution : {"hydrology.resolution=1", "hydrology.resolution=3"}) {
        const Config config = defaultConfig(
            {"map.width=200", "map.height=150", "seed=11", "hydrology.enabled=true",
             "hydrology.river_threshold=180000", "hydrology.sea_level=0.3",
             "hydrology.erosion.enabled=true", "hydrology.erosion.steps=3", resolution});
        const Terrain terrain = makeTerrain(config);
        const HydrologyStage stage = computeHydrology(config);
        const MapFields fields(config, &terrain, &stage);
        const Tile map = wholeMap(fields);
        ASSERT_TRUE(std::any_of(map.riverOrder.begin(), map.riverOrder.end(),
                                [](std::uint8_t o) { return o > 0; }));
        for (const auto& [what, grid] : gridsOf(config.map.width, config.map.height))
            expectGridIsTheMap(fields, map, grid, std::string(resolution) + ": " + what);
    }
}

// CellNeeds::Surface (the explorer's height, water and terrarium tiles) fills the ground and
// its water with All's bits and leaves out everything the classes read.
TEST(CellGridTest, TheSurfaceAloneIsTheSurfaceOfAllTheCells) {
    const Config config = defaultConfig(
        {"map.width=160", "map.height=120", "seed=5", "climate.enabled=true", "terrain.model=climate",
         "hydrology.enabled=true", "hydrology.rainfall=climate", "hydrology.river_threshold=150000",
         "hydrology.erosion.enabled=true", "hydrology.erosion.steps=3"});
    const Terrain terrain = makeTerrain(config);
    const HydrologyStage stage = computeHydrology(config);
    MapFields fields(config, &terrain, &stage);
    fields.keepMoisture = true;
    for (const auto& [what, grid] : gridsOf(config.map.width, config.map.height)) {
        CellValues all, surface;
        generateCells(fields, grid, all);
        generateCells(fields, grid, surface, CellNeeds::Surface);
        ASSERT_FALSE(all.classIndex.empty()) << what;
        ASSERT_FALSE(all.moisture.empty()) << what;
        ASSERT_FALSE(all.temperature.empty()) << what;
        ASSERT_FALSE(all.water.empty()) << what;
        EXPECT_EQ(surface.elevationMeters, all.elevationMeters) << what;
        EXPECT_EQ(surface.water, all.water) << what;
        EXPECT_EQ(surface.waterDepth, all.waterDepth) << what;
        EXPECT_EQ(surface.flow, all.flow) << what;
        EXPECT_EQ(surface.riverOrder, all.riverOrder) << what;
        EXPECT_TRUE(surface.classIndex.empty() && surface.walkable.empty() && surface.moisture.empty() &&
                    surface.temperature.empty() && surface.precipitation.empty())
            << what;
    }
}

TEST(CellGridTest, RiverOrdersOfAnyRectAreTheTilesRiverOrders) {
    const Config config = defaultConfig(
        {"map.width=200", "map.height=150", "seed=11", "hydrology.enabled=true",
         "hydrology.river_threshold=180000", "hydrology.sea_level=0.3", "hydrology.resolution=2"});
    const Terrain terrain = makeTerrain(config);
    const HydrologyStage stage = computeHydrology(config);
    const MapFields fields(config, &terrain, &stage);
    const Tile map = wholeMap(fields);
    std::int64_t heightsAsked = 0;
    const NoiseHeightFn noise = [&](std::int64_t col, std::int64_t row) {
        ++heightsAsked;
        return noiseHeightMeters(fields, col, row);
    };
    for (const TileRect rect : {TileRect{0, 0, 0, 200, 150}, TileRect{0, 13, 29, 77, 41},
                                TileRect{0, 199, 149, 1, 1}}) {
        std::vector<std::uint8_t> orders(std::size_t(rect.cellCount()));
        riverOrders(stage, rect, noise, orders.data());
        for (std::int64_t r = 0; r < rect.height; ++r)
            for (std::int64_t c = 0; c < rect.width; ++c)
                ASSERT_EQ(orders[std::size_t(r * rect.width + c)],
                          map.riverOrder[std::size_t((rect.row0 + r) * 200 + rect.col0 + c)])
                    << rect.col0 + c << "," << rect.row0 + r;
    }
    // Heights are asked for the cells river lines cross, not for every cell.
    EXPECT_GT(heightsAsked, 0);
    EXPECT_LT(heightsAsked, 200 * 150 / 4);
}

TEST(CellGridTest, NoiseHeightIsTheRowsHeight) {
    const Config config = defaultConfig({"map.width=64", "map.height=64", "height.octaves=8"});
    const MapFields fields(config, nullptr);
    const Tile map = wholeMap(fields);
    for (std::int64_t row = 0; row < 64; row += 7)
        for (std::int64_t col = 0; col < 64; col += 5)
            ASSERT_EQ(noiseHeightMeters(fields, col, row), map.elevationMeters[std::size_t(row * 64 + col)]);
}

TEST(HydrologyProgressTest, ReportsEveryPhaseInOrderAndChangesNoBit) {
    const Config config = defaultConfig(
        {"map.width=128", "map.height=96", "hydrology.enabled=true",
         "hydrology.erosion.enabled=true", "hydrology.erosion.steps=4"});
    const HydrologyStage quiet = computeHydrology(config);
    std::vector<std::string> phases;
    std::vector<double> done;
    const HydrologyStage told = computeHydrology(config, [&](std::string_view phase, double d) {
        if (phases.empty() || phases.back() != phase) phases.emplace_back(phase);
        done.push_back(d);
    });
    EXPECT_EQ(phases, (std::vector<std::string>{"sampling", "erosion", "filling", "lakes",
                                                "routing", "accumulation", "rivers", "done"}));
    EXPECT_TRUE(std::is_sorted(done.begin(), done.end()));
    EXPECT_EQ(done.front(), 0.0);
    EXPECT_EQ(done.back(), 1.0);
    // Erosion reports each of its steps.
    EXPECT_GE(done.size(), 8u + 4u);
    EXPECT_EQ(quiet.erodedHeight, told.erodedHeight);
    EXPECT_EQ(quiet.strahler, told.strahler);
    EXPECT_EQ(quiet.accumulation, told.accumulation);
}

TEST(HydrologyProgressTest, AReportThatThrowsStopsTheStage) {
    const Config config = defaultConfig(
        {"map.width=128", "map.height=96", "hydrology.enabled=true",
         "hydrology.erosion.enabled=true", "hydrology.erosion.steps=50"});
    struct Stop {};
    int erosionSteps = 0;
    EXPECT_THROW(computeHydrology(config,
                                  [&](std::string_view phase, double) {
                                      if (phase == "erosion" && ++erosionSteps == 3) throw Stop{};
                                  }),
                 Stop);
    EXPECT_EQ(erosionSteps, 3);
}

}  // namespace
}  // namespace terragrid
