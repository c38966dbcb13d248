// The whole-map hydrology stage on noise maps, as properties: lakes are level at their spill
// height, every river runs to an outlet, flow directions have no cycle, accumulation counts the
// map's cells, and a coarse grid's rivers are carried to the map as connected lines. The
// hand-made heightmaps of the algorithms are in hydro_*_test.cpp.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "terragrid/config/loader.hpp"
#include "terragrid/hydro/grid.hpp"
#include "terragrid/pipeline/generator.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

Config hydrologyConfig(std::vector<std::string> overrides = {}) {
    overrides.insert(overrides.begin(), {"map.width=320", "map.height=272", "map.tile_size=64",
                                         "hydrology.enabled=true",
                                         "hydrology.river_threshold=270000"});
    return defaultConfig(overrides);
}

/// Every map cell's water, through the same rule the tiles use, and the noise heights.
std::vector<WaterCell> waterOf(const Config& config, const HydrologyStage& stage) {
    const MapFields fields(config, nullptr);
    const TileRect rect{0, 0, 0, config.map.width, config.map.height};
    std::vector<std::int64_t> cols(std::size_t(rect.width));
    for (std::int64_t c = 0; c < rect.width; ++c) cols[std::size_t(c)] = c;
    LayerStackRows rows(fields.height, cols.data(), cols.size());
    std::vector<double> h(cols.size());
    std::vector<float> metres(std::size_t(rect.cellCount()));
    const double low = config.elevation.minMeters;
    const double span = config.elevation.maxMeters - low;
    for (std::int64_t r = 0; r < rect.height; ++r) {
        rows.row(r, h.data());
        for (std::size_t c = 0; c < cols.size(); ++c)
            metres[std::size_t(r) * cols.size() + c] = static_cast<float>(low + span * h[c]);
    }
    std::vector<WaterCell> cells(metres.size());
    hydrologyCells(stage, rect, 0, 0, metres.data(), cells.data());
    return cells;
}

TEST(HydrologyStageTest, EveryLakeCellLiesUnderItsLakesLevelSurface) {
    for (const char* sea : {"hydrology.sea_level=0", "hydrology.sea_level=0.35"}) {
        const Config config = hydrologyConfig({sea});
        const HydrologyStage stage = computeHydrology(config);
        ASSERT_EQ(stage.factor, 1);
        ASSERT_GT(stage.lakes.count(), 0u) << sea;
        const std::vector<WaterCell> cells = waterOf(config, stage);
        std::int64_t lakeCells = 0;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const std::uint32_t id = stage.lakes.id[i];
            if (cells[i].water != Water::Lake) {
                EXPECT_EQ(cells[i].depthMeters, 0.0f);
                continue;
            }
            // The sea's surface is the sea level; a lake's, its spill height.
            const float surface = id == 0 ? stage.seaLevelMeters : stage.lakes.surface[id];
            EXPECT_GT(cells[i].depthMeters, 0.0f);
            EXPECT_NEAR(cells[i].elevationMeters + cells[i].depthMeters, surface, 1e-3) << i;
            lakeCells += id != 0 ? 1 : 0;
        }
        EXPECT_GT(lakeCells, 0) << sea;
    }
}

TEST(HydrologyStageTest, EveryRiverFlowsCellToCellWithoutCycleToAnOutlet) {
    const Config config = hydrologyConfig({"hydrology.sea_level=0.35"});
    const HydrologyStage stage = computeHydrology(config);
    const std::size_t n = stage.receiver.size();
    std::int64_t rivers = 0;
    for (std::size_t start = 0; start < n; ++start) {
        if (stage.strahler[start] == 0) continue;
        ++rivers;
        std::size_t cell = start, steps = 0;
        // Through lakes too: their flats drain to their spill points (routeFlow).
        while (stage.receiver[cell] != hydro::kNoReceiver) {
            const std::size_t next = stage.receiver[cell];
            const auto dx = std::abs(std::int64_t(next % stage.gridWidth) -
                                     std::int64_t(cell % stage.gridWidth));
            const auto dy = std::abs(std::int64_t(next / stage.gridWidth) -
                                     std::int64_t(cell / stage.gridWidth));
            ASSERT_LE(std::max(dx, dy), 1) << "receivers are 8-neighbours";
            cell = next;
            ASSERT_LT(++steps, n) << "a cycle through cell " << start;
        }
    }
    EXPECT_GT(rivers, 0);
}

TEST(HydrologyStageTest, AccumulationAtTheOutletsCountsEveryCellOfTheMap) {
    for (const char* resolution : {"hydrology.resolution=1", "hydrology.resolution=4"}) {
        const Config config = hydrologyConfig({resolution});
        const HydrologyStage stage = computeHydrology(config);
        double atOutlets = 0;
        for (std::size_t i = 0; i < stage.receiver.size(); ++i)
            if (stage.receiver[i] == hydro::kNoReceiver) atOutlets += stage.accumulation[i];
        // factor^2 map cells per hydrology cell, edge cells included in full.
        const double gridCells = double(stage.gridWidth * stage.gridHeight);
        EXPECT_EQ(atOutlets, gridCells * double(stage.factor * stage.factor)) << resolution;
    }
}

TEST(HydrologyStageTest, CoarseRiversReachTheMapAsConnectedLines) {
    const Config config = hydrologyConfig({"hydrology.resolution=5"});
    const HydrologyStage stage = computeHydrology(config);
    ASSERT_EQ(stage.factor, 5);
    ASSERT_EQ(stage.gridWidth, 64);
    const std::vector<WaterCell> cells = waterOf(config, stage);
    const std::int64_t w = config.map.width, h = config.map.height;
    // The sample points of outlets: a river that starts at its mouth is that one cell.
    std::vector<bool> mouth(cells.size(), false);
    for (std::size_t i = 0; i < stage.receiver.size(); ++i) {
        if (stage.receiver[i] != hydro::kNoReceiver) continue;
        const std::int64_t x = std::min<std::int64_t>(std::int64_t(i) % 64 * 5 + 2, w - 1);
        const std::int64_t y = std::min<std::int64_t>(std::int64_t(i) / 64 * 5 + 2, h - 1);
        mouth[std::size_t(y * w + x)] = true;
    }
    std::int64_t rivers = 0;
    for (std::int64_t r = 0; r < h; ++r) {
        for (std::int64_t c = 0; c < w; ++c) {
            if (cells[std::size_t(r * w + c)].water != Water::River) continue;
            if (mouth[std::size_t(r * w + c)]) continue;
            ++rivers;
            // A line between neighbouring sample points: every river cell has a river or lake
            // neighbour (8-connected), or is a one-cell river.
            int wet = 0;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const std::int64_t x = c + dx, y = r + dy;
                    if ((dx || dy) && x >= 0 && y >= 0 && x < w && y < h)
                        wet += cells[std::size_t(y * w + x)].water != Water::Land;
                }
            EXPECT_GT(wet, 0) << "river cell " << c << ", " << r << " stands alone";
        }
    }
    EXPECT_GT(rivers, 0);
}

TEST(HydrologyStageTest, AutoResolutionIsTheMapUpTo4096CellsAndCoarserBeyond) {
    EXPECT_EQ(hydrologyFactor(hydrologyConfig({"map.width=4096", "map.height=100"})), 1);
    EXPECT_EQ(hydrologyFactor(hydrologyConfig({"map.width=4097", "map.height=100"})), 2);
    EXPECT_EQ(hydrologyFactor(hydrologyConfig({"map.width=16384", "map.height=16384"})), 4);
    EXPECT_EQ(hydrologyFactor(hydrologyConfig({"map.width=16384", "hydrology.resolution=1"})), 1);
}

TEST(HydrologyStageTest, TilesCarryTheStagesWaterAndClasses) {
    const Config config = hydrologyConfig({"hydrology.sea_level=0.35"});
    const Terrain terrain = makeTerrain(config);
    const HydrologyStage stage = computeHydrology(config);
    const MapFields fields(config, &terrain, &stage);
    const std::vector<WaterCell> expected = waterOf(config, stage);
    Tile tile;
    const TileRect rect{0, 64, 128, 64, 64};
    generateTile(fields, rect, tile);
    for (std::int64_t r = 0; r < rect.height; ++r) {
        for (std::int64_t c = 0; c < rect.width; ++c) {
            const auto at = std::size_t(r * rect.width + c);
            const WaterCell& w =
                expected[std::size_t((rect.row0 + r) * config.map.width + rect.col0 + c)];
            EXPECT_EQ(tile.water[at], std::uint8_t(w.water));
            EXPECT_EQ(tile.waterDepth[at], w.depthMeters);
            const std::string& name = terrain.classes()[tile.classIndex[at]].name;
            if (w.water == Water::Lake) {
                EXPECT_EQ(name, "lake");
            } else if (w.water == Water::River) {
                EXPECT_EQ(name, "river");
            } else if (w.water == Water::Land) {
                EXPECT_NE(name, "lake");
            }
        }
    }
}

// A custom table's lake class follows the default table's rule: with hydrology on, a cell is
// lake exactly when the stage says so, whatever the class's height range says.
TEST(HydrologyStageTest, ACustomLakeClassIsTheStagesLakesAlone) {
    const Config config = hydrologyConfig(
        {"hydrology.sea_level=0.35", R"(terrain.classes=[
            {"name": "lake", "colour": "#0000ff", "walkable": false, "height": [0, 0.5]},
            {"name": "land", "colour": "#00ff00", "walkable": true}])"});
    const Terrain terrain = makeTerrain(config);
    ASSERT_EQ(terrain.classes().size(), 3u);  // river appended
    const HydrologyStage stage = computeHydrology(config);
    const MapFields fields(config, &terrain, &stage);
    Tile tile;
    generateTile(fields, {0, 0, 0, config.map.width, config.map.height}, tile);
    std::int64_t lakes = 0, lowLand = 0;
    const double low = config.elevation.minMeters;
    const double span = config.elevation.maxMeters - low;
    for (std::size_t i = 0; i < tile.water.size(); ++i) {
        const bool lake = tile.water[i] == std::uint8_t(Water::Lake);
        EXPECT_EQ(terrain.classes()[tile.classIndex[i]].name == "lake", lake) << i;
        lakes += lake;
        lowLand += !lake && (tile.elevationMeters[i] - low) / span <= 0.5;
    }
    EXPECT_GT(lakes, 0);
    EXPECT_GT(lowLand, 0) << "land in the lake class's height range, which it must not take";
}

}  // namespace
}  // namespace terragrid
