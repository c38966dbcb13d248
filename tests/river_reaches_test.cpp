// The river lines rivers.geojson and the Tiled map draw (io/water/river_reaches.hpp): on maps
// of several shapes, seeds, seas and hydrology grids, no line is degenerate (two distinct
// points at least, and no point repeated in a row), a line that does not end on a confluence
// ends on the cell its water flows into or on the map's edge, and no reach lies in the sea.

#include "io/water/river_reaches.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "terragrid/config/loader.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"

namespace terragrid {
namespace {

struct Case {
    std::string name;
    std::vector<std::string> overrides;
};

class RiverReachesTest : public ::testing::TestWithParam<Case> {};

TEST_P(RiverReachesTest, EveryLineHasTwoDistinctPointsAndEndsWhereItsWaterGoes) {
    std::vector<std::string> overrides{"map.width=128", "map.height=96",
                                       "hydrology.enabled=true",
                                       "hydrology.river_threshold=60000"};
    overrides.insert(overrides.end(), GetParam().overrides.begin(), GetParam().overrides.end());
    const LoadedConfig config = defaultConfig(overrides);
    const HydrologyStage stage = computeHydrology(config);
    const double right = double(stage.mapWidth) - 0.5, bottom = double(stage.mapHeight) - 0.5;
    std::size_t lines = 0, toTheEdge = 0;
    forEachRiverReach(stage, [&](const std::vector<MapCellPoint>& points,
                                 const hydro::RiverPolyline& reach) {
        ++lines;
        ASSERT_GE(points.size(), 2u);
        for (std::size_t k = 1; k < points.size(); ++k)
            ASSERT_FALSE(points[k] == points[k - 1]) << "line " << lines << " point " << k;
        for (std::uint32_t cell : reach.cells) {
            // A river cell of the line is no outlet inside the map: that is the sea.
            const std::int64_t i = cell % stage.gridWidth, j = cell / stage.gridWidth;
            const bool border = i == 0 || j == 0 || i == stage.gridWidth - 1 ||
                                j == stage.gridHeight - 1;
            EXPECT_TRUE(border || stage.receiver[cell] != hydro::kNoReceiver) << cell;
        }
        const MapCellPoint& last = points.back();
        const bool onEdge = last.col == -0.5 || last.col == right || last.row == -0.5 ||
                            last.row == bottom;
        const bool onCell = last.col == std::floor(last.col) && last.row == std::floor(last.row);
        EXPECT_TRUE(onEdge != onCell) << last.col << ", " << last.row;
        if (onEdge) {
            ++toTheEdge;
            EXPECT_FALSE(reach.endsAtJoint);
            EXPECT_EQ(stage.receiver[reach.cells.back()], hydro::kNoReceiver);
        }
    });
    EXPECT_GT(lines, 10u);
    EXPECT_GT(toTheEdge, 0u) << "rivers leave the map";
}

INSTANTIATE_TEST_SUITE_P(
    Maps, RiverReachesTest,
    ::testing::Values(Case{"default", {}}, Case{"seed3", {"seed=3"}},
                      Case{"sea", {"hydrology.sea_level=0.35", "seed=5"}},
                      Case{"coarse", {"hydrology.resolution=3", "map.width=300",
                                      "map.height=200"}},
                      Case{"eroded", {"hydrology.erosion.enabled=true",
                                      "hydrology.erosion.steps=10"}}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace terragrid
