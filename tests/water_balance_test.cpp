// Lakes by water balance (hydro/water_balance.hpp): hand-made basins whose levels follow from
// the budget, and properties on noise grids: with water to spare the surface is Priority-Flood's
// bit for bit, lakes only grow with the rain, never rise above their spill points, and the same
// bits come out for any thread count.

#include <gtest/gtest.h>

#include <cmath>

#include "hydro_test_support.hpp"
#include "terragrid/hydro/depressions.hpp"
#include "terragrid/hydro/water_balance.hpp"
#include "test_support.hpp"

namespace terragrid::test {
namespace {

using hydro::Grid;
using hydro::Outlets;
using hydro::WaterBudget;

/// The same runoff on every cell and the same balance under a lake.
WaterBudget uniformBudget(const Grid& g, float runoff, float lake) {
    return {std::vector<float>(g.z.size(), runoff), std::vector<float>(g.z.size(), lake)};
}

std::size_t wetCells(const Grid& g, const std::vector<float>& surface) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < surface.size(); ++i) n += surface[i] > g.z[i] ? 1 : 0;
    return n;
}

double waterVolume(const Grid& g, const std::vector<float>& surface) {
    double v = 0;
    for (std::size_t i = 0; i < surface.size(); ++i) v += std::max(0.0, double(surface[i]) - g.z[i]);
    return v;
}

// A closed bowl on a plateau: heights 1..5 inside a rim of 9 with its spill point (7) on the
// rim, which leads down (6) to the map's edge (0).
const Grid kBowl = gridFromRows({
    "000000000",
    "088888880",
    "089999980",
    "089123980",
    "089234760",
    "089345980",
    "089999980",
    "088888880",
    "000000000",
});

TEST(WaterBalanceTest, BowlFillsUntilEvaporationMatchesItsInflow) {
    // The bowl's cells and the inner slopes of its rim drain into it; each lake cell loses 10.
    const Outlets edges{};
    const std::vector<float> filled = hydro::fillDepressions(kBowl, edges);
    // No runoff: no lake.
    EXPECT_EQ(hydro::balancedSurface(kBowl, edges, uniformBudget(kBowl, 0, -10)), kBowl.z);
    // Plenty: full to the spill point, exactly as Priority-Flood fills it.
    EXPECT_EQ(hydro::balancedSurface(kBowl, edges, uniformBudget(kBowl, 100, -10)), filled);
    // In between: a lake that covers part of the bowl, level, below the spill point.
    const std::vector<float> partial =
        hydro::balancedSurface(kBowl, edges, uniformBudget(kBowl, 0.5f, -10));
    const std::size_t wet = wetCells(kBowl, partial);
    EXPECT_GT(wet, 0u);
    EXPECT_LT(wet, wetCells(kBowl, filled));
    float level = -1;
    for (std::size_t i = 0; i < partial.size(); ++i) {
        EXPECT_LE(partial[i], filled[i]) << i;
        if (partial[i] <= kBowl.z[i]) continue;
        if (level < 0) level = partial[i];
        EXPECT_EQ(partial[i], level) << "a lake is level";
    }
    EXPECT_LT(level, 7.0f);
}

// Two bowls joined at a saddle (6); the right one spills to the edge at 8 through the rim.
const Grid kTwoBowls = gridFromRows({
    "00000000000",
    "09999999990",
    "09111911190",
    "09111611190",
    "09111911190",
    "09999999980",
    "00000000000",
});

TEST(WaterBalanceTest, AFullBowlSpillsIntoItsNeighbourAndFullBowlsMerge) {
    const Outlets edges{};
    const std::size_t left = 3 * 11 + 3, right = 3 * 11 + 7;
    // Rain only on the left bowl, whose lake gains more than it loses: it fills to the saddle
    // and spills its surplus into the right one, whose lake loses 1 a cell.
    WaterBudget budget = uniformBudget(kTwoBowls, 0, -1);
    for (std::int32_t y = 2; y <= 4; ++y)
        for (std::int32_t x = 2; x <= 4; ++x) {
            budget.runoff[std::size_t(y * 11 + x)] = 3;
            budget.lake[std::size_t(y * 11 + x)] = 0.5f;
        }
    const std::vector<float> spilled = hydro::balancedSurface(kTwoBowls, edges, budget);
    EXPECT_EQ(spilled[left], 6.0f) << "full to the saddle";
    EXPECT_GT(spilled[right], kTwoBowls.z[right]) << "its surplus made a lake on the right";
    EXPECT_LT(spilled[right], 6.0f);
    // Rain everywhere, plenty: both fill, merge above the saddle, and stand at the right
    // rim's spill point (8), as Priority-Flood fills them.
    const std::vector<float> merged =
        hydro::balancedSurface(kTwoBowls, edges, uniformBudget(kTwoBowls, 50, -1));
    EXPECT_EQ(merged, hydro::fillDepressions(kTwoBowls, edges));
    EXPECT_EQ(merged[left], 8.0f);
    EXPECT_EQ(merged[3 * 11 + 5], 8.0f) << "the saddle is under the merged lake";
}

TEST(WaterBalanceTest, WithWaterToSpareTheSurfaceIsPriorityFloods) {
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
        const Grid g = noiseGrid(96, 80, seed, 6, seed == 3 ? 2.0f : 0.0f);
        for (const Outlets outlets : {Outlets{}, Outlets{.edges = true, .seaLevel = 30.0f},
                                      Outlets{.edges = false, .seaLevel = 30.0f}}) {
            EXPECT_EQ(hydro::balancedSurface(g, outlets, uniformBudget(g, 1e6f, -1)),
                      hydro::fillDepressions(g, outlets))
                << seed;
        }
    }
}

TEST(WaterBalanceTest, LakesGrowMonotonicallyWithTheRainAndNeverPassTheirSpillPoints) {
    const Grid g = noiseGrid(128, 96, 7);
    const std::vector<float> filled = hydro::fillDepressions(g, Outlets{});
    std::vector<float> previous = g.z;
    std::size_t previousWet = 0;
    for (const float rain : {0.01f, 0.1f, 0.3f, 1.0f, 3.0f, 10.0f, 100.0f}) {
        SCOPED_TRACE(rain);
        // Runoff grows with the rain, and so does the balance on a lake (evaporation 2).
        const std::vector<float> s =
            hydro::balancedSurface(g, Outlets{}, uniformBudget(g, rain * 0.3f, rain - 2.0f));
        const std::size_t wet = wetCells(g, s);
        EXPECT_GE(wet, previousWet);
        for (std::size_t i = 0; i < s.size(); ++i) {
            ASSERT_GE(s[i], previous[i]) << i;
            ASSERT_LE(s[i], filled[i]) << i;
        }
        previous = s;
        previousWet = wet;
    }
    EXPECT_GT(previousWet, 0u);
}

TEST(WaterBalanceTest, AClosedBasinInTheDriestSettingHoldsLessThanItsSpillVolume) {
    const Grid g = noiseGrid(128, 96, 11);
    const std::vector<float> filled = hydro::fillDepressions(g, Outlets{});
    const std::vector<float> dry =
        hydro::balancedSurface(g, Outlets{}, uniformBudget(g, 0.02f, -2.0f));
    EXPECT_LT(waterVolume(g, dry), 0.5 * waterVolume(g, filled));
    EXPECT_GT(waterVolume(g, filled), 0.0);
}

TEST(WaterBalanceTest, SameBitsForOneTwoAndEightThreads) {
    const Grid g = noiseGrid(160, 120, 5, 5);
    const WaterBudget budget = uniformBudget(g, 0.4f, -1.5f);
    const auto run = [&] { return hydro::balancedSurface(g, Outlets{}, budget); };
    const std::vector<float> one = inArena(1, run);
    EXPECT_EQ(inArena(2, run), one);
    EXPECT_EQ(inArena(8, run), one);
}

TEST(WaterBalanceTest, RefusesAMismatchedBudgetAndAMapWithoutOutlet) {
    const Grid g = noiseGrid(16, 16, 1);
    EXPECT_THROW(hydro::balancedSurface(g, Outlets{}, WaterBudget{{1.0f}, {1.0f}}),
                 std::invalid_argument);
    EXPECT_THROW(hydro::balancedSurface(g, Outlets{.edges = false, .seaLevel = std::nullopt},
                                        uniformBudget(g, 1, -1)),
                 std::invalid_argument);
}

}  // namespace
}  // namespace terragrid::test
