// Depression filling and lakes: hand-made maps, and properties on noise grids against the
// definition of a filled surface.

#include <gtest/gtest.h>

#include <set>

#include "hydro/depressions_detail.hpp"
#include "hydro_test_support.hpp"
#include "terragrid/hydro/depressions.hpp"

namespace terragrid::test {
namespace {

using hydro::Grid;
using hydro::Outlets;

std::uint32_t at(const Grid& g, std::int32_t x, std::int32_t y) { return std::uint32_t(y * g.width + x); }

const Grid kBowl = gridFromRows({
    "0000000",
    "0999990",
    "0911190",
    "0910190",
    "0911190",
    "0999790",
    "0000000",
});

// Two basins split by a wall with a saddle (8) at (5, 3); the left one spills at (3, 5) (6).
const Grid kTwoBowls = gridFromRows({
    "00000000000",
    "09999999990",
    "09111911190",
    "09111811190",
    "09111911190",
    "09969999990",
    "00000000000",
});

TEST(HydroFill, BowlFillsToItsSpillHeight) {
    const std::vector<float> filled = hydro::fillDepressions(kBowl, Outlets{});
    for (std::int32_t y = 2; y <= 4; ++y)
        for (std::int32_t x = 2; x <= 4; ++x) EXPECT_EQ(filled[at(kBowl, x, y)], 7.0f) << x << "," << y;
    for (std::uint32_t i = 0; i < filled.size(); ++i)
        if (kBowl.z[i] >= 7) {
            EXPECT_EQ(filled[i], kBowl.z[i]) << i;
        }

    const hydro::Lakes lakes = hydro::findLakes(kBowl, filled, 0.5, 100);
    ASSERT_EQ(lakes.count(), 1u);
    EXPECT_EQ(lakes.surface[1], 7.0f);
    EXPECT_EQ(lakes.outlet[1], at(kBowl, 4, 5));
    EXPECT_EQ(std::count(lakes.id.begin(), lakes.id.end(), 1u), 9);
}

TEST(HydroFill, TwoBowlsWithASaddleMakeTwoLakesAtTheirOwnSpillHeights) {
    const std::vector<float> filled = hydro::fillDepressions(kTwoBowls, Outlets{});
    const hydro::Lakes lakes = hydro::findLakes(kTwoBowls, filled, 0.5, 100);
    ASSERT_EQ(lakes.count(), 2u);
    const std::uint32_t left = lakes.id[at(kTwoBowls, 2, 2)], right = lakes.id[at(kTwoBowls, 8, 2)];
    ASSERT_NE(left, right);
    EXPECT_EQ(lakes.surface[left], 6.0f);
    EXPECT_EQ(lakes.outlet[left], at(kTwoBowls, 3, 5));
    EXPECT_EQ(lakes.surface[right], 8.0f);
    EXPECT_EQ(lakes.outlet[right], at(kTwoBowls, 5, 3));
    EXPECT_EQ(lakes.id[at(kTwoBowls, 5, 3)], 0u);  // the saddle stays dry
}

TEST(HydroFill, FlatMapStaysAsItIsAndHasNoLake) {
    const Grid flat = gridOf(8, 6, [](auto, auto) { return 5.0f; });
    EXPECT_EQ(hydro::fillDepressions(flat, Outlets{}), flat.z);
    const hydro::Lakes lakes = hydro::findLakes(flat, flat.z, 0, 0);
    EXPECT_EQ(lakes.count(), 0u);
    EXPECT_EQ(std::count(lakes.id.begin(), lakes.id.end(), 0u), 48);
}

/// A plateau (5) stepping down to the border, with a one-cell pit (1) in its middle.
Grid plateauWithPit() {
    return gridOf(11, 11, [](std::int32_t x, std::int32_t y) {
        if (x == 5 && y == 5) return 1.0f;
        const std::int32_t ring = std::min({x, y, 10 - x, 10 - y});
        return float(std::min(5, 2 * ring));
    });
}

TEST(HydroFill, PitInAPlateauFillsToThePlateauAndSpillsAtItsEdge) {
    const Grid g = plateauWithPit();
    const std::vector<float> filled = hydro::fillDepressions(g, Outlets{});
    EXPECT_EQ(filled[at(g, 5, 5)], 5.0f);
    const hydro::Lakes lakes = hydro::findLakes(g, filled, 1.0, 100);
    ASSERT_EQ(lakes.count(), 1u);
    EXPECT_EQ(lakes.id[at(g, 5, 5)], 1u);
    const std::uint32_t out = lakes.outlet[1];
    EXPECT_EQ(filled[out], 5.0f);
    const std::int32_t ox = std::int32_t(out % 11), oy = std::int32_t(out / 11);
    EXPECT_EQ(std::min({ox, oy, 10 - ox, 10 - oy}), 3) << "the plateau's edge, above the slope";
}

TEST(HydroFill, ShallowSmallDepressionsAreNoLakes) {
    const Grid g = plateauWithPit();
    const std::vector<float> filled = hydro::fillDepressions(g, Outlets{});
    EXPECT_EQ(hydro::findLakes(g, filled, 4.0, 1).count(), 0u) << "4 m deep, 1 cell";
    EXPECT_EQ(hydro::findLakes(g, filled, 4.0, 0).count(), 1u) << "larger than 0 cells";
    EXPECT_EQ(hydro::findLakes(g, filled, 3.9, 1).count(), 1u) << "deeper than 3.9 m";
}

/// Noise with a wall around it, broken by one border cell at -1: the map's only outlet.
Grid walledWithOneOutlet(std::uint64_t seed) {
    Grid g = noiseGrid(24, 20, seed);
    for (std::uint32_t i = 0; i < g.z.size(); ++i)
        if (onBorder(g, i)) g.z[i] = 200;
    g.z[at(g, 0, 10)] = -1;
    return g;
}

TEST(HydroFill, SingleOutletOnTheBorderDrainsTheWholeWalledMap) {
    const Grid g = walledWithOneOutlet(3);
    const Outlets o{.edges = false, .seaLevel = -1.0f};
    const std::vector<float> filled = hydro::fillDepressions(g, o);
    EXPECT_EQ(filled, bruteForceFill(g, o));
    EXPECT_EQ(filled[at(g, 0, 10)], -1.0f);
    for (std::uint32_t i = 0; i < g.z.size(); ++i)
        if (onBorder(g, i) && i != at(g, 0, 10)) {
            EXPECT_EQ(filled[i], 200.0f);
        }
}

TEST(HydroFill, SeaCellsAreOutletsAndKeepTheirHeight) {
    const Grid g = noiseGrid(40, 30, 11);
    const Outlets o{.edges = false, .seaLevel = 35.0f};
    const std::vector<float> filled = hydro::fillDepressions(g, o);
    EXPECT_EQ(filled, bruteForceFill(g, o));
    std::size_t sea = 0;
    for (std::uint32_t i = 0; i < g.z.size(); ++i)
        if (g.z[i] <= 35.0f) {
            ++sea;
            EXPECT_EQ(filled[i], g.z[i]);
        }
    EXPECT_GT(sea, 50u);
}

TEST(HydroFill, MapWithoutOutletIsRefused) {
    const Grid g = noiseGrid(10, 10, 1);
    EXPECT_THROW(hydro::fillDepressions(g, Outlets{.edges = false, .seaLevel = std::nullopt}), std::invalid_argument);
    EXPECT_THROW(hydro::fillDepressions(g, Outlets{.edges = false, .seaLevel = -5.0f}), std::invalid_argument);
    Grid wrong = g;
    wrong.z.pop_back();
    EXPECT_THROW(hydro::fillDepressions(wrong, Outlets{}), std::invalid_argument);
}

TEST(HydroFill, EqualsTheLeastSurfaceFromWhichWaterReachesAnOutlet) {
    for (const NoiseCase& c : kNoiseCases) {
        const Grid g = noiseGrid(c.w, c.h, c.seed, 6, c.quantum);
        const std::vector<float> filled = hydro::fillDepressions(g, c.outlets);
        EXPECT_EQ(filled, bruteForceFill(g, c.outlets)) << "seed " << c.seed;
        for (std::uint32_t i = 0; i < g.z.size(); ++i) {
            EXPECT_GE(filled[i], g.z[i]);
            if (isOutlet(g, c.outlets, i)) continue;
            bool drains = false;  // no pit: some neighbour at most as high
            for (std::uint32_t nb : neighboursOf(g, i)) drains |= filled[nb] <= filled[i];
            EXPECT_TRUE(drains) << "pit at " << i;
        }
    }
}

TEST(HydroFill, StripsOfAnyHeightGiveTheSameSurface) {
    // The strips are flooded apart and joined through their watershed graph (Barnes 2016);
    // strips of one row make every cell a seed of its strip.
    for (const NoiseCase& c : kNoiseCases) {
        const Grid g = noiseGrid(c.w, c.h, c.seed, 6, c.quantum);
        const std::vector<float> expected = bruteForceFill(g, c.outlets);
        for (std::int32_t rows : {1, 2, 3, 7, 16, 1000})
            EXPECT_EQ(hydro::detail::fillInStrips(g, c.outlets, rows), expected)
                << "seed " << c.seed << ", strips of " << rows << " rows";
    }
    const Grid walled = walledWithOneOutlet(8);
    const Outlets one{.edges = false, .seaLevel = -1.0f};
    for (std::int32_t rows : {1, 4, 5})
        EXPECT_EQ(hydro::detail::fillInStrips(walled, one, rows), bruteForceFill(walled, one));
}

TEST(HydroFill, ManyRandomMapsEqualTheBruteForceFill) {
    for (std::uint64_t seed = 100; seed < 140; ++seed) {
        const std::int32_t w = 5 + std::int32_t(mix(seed) % 40), h = 5 + std::int32_t(mix(seed + 1) % 40);
        const float quantum = float(mix(seed + 2) % 4) * 3.0f;
        const Grid g = noiseGrid(w, h, seed, 2 + int(mix(seed + 3) % 6), quantum);
        const Outlets o = seed % 3 == 0 ? Outlets{.edges = false, .seaLevel = 30.0f}
                        : seed % 3 == 1 ? Outlets{.edges = true, .seaLevel = 20.0f}
                                        : Outlets{};
        bool anyOutlet = o.edges;
        for (float z : g.z) anyOutlet |= o.seaLevel && z <= *o.seaLevel;
        if (!anyOutlet) continue;
        const std::vector<float> expected = bruteForceFill(g, o);
        EXPECT_EQ(hydro::fillDepressions(g, o), expected) << "seed " << seed;
        EXPECT_EQ(hydro::detail::fillInStrips(g, o, 1 + std::int32_t(mix(seed + 4) % 9)), expected) << "seed " << seed;
    }
}

TEST(HydroLakes, EveryLakeCellLiesAtItsLakesSpillHeight) {
    for (const NoiseCase& c : kNoiseCases) {
        const Grid g = noiseGrid(c.w, c.h, c.seed, 6, c.quantum);
        const std::vector<float> filled = hydro::fillDepressions(g, c.outlets);
        const hydro::Lakes lakes = hydro::findLakes(g, filled, 0, 0);
        std::vector<std::int64_t> cells(lakes.surface.size(), 0);
        for (std::uint32_t i = 0; i < g.z.size(); ++i) {
            const std::uint32_t id = lakes.id[i];
            EXPECT_EQ(id != 0, filled[i] > g.z[i]) << "with no size limit, every flooded cell is lake";
            if (id == 0) continue;
            ASSERT_LE(id, lakes.count());
            EXPECT_EQ(filled[i], lakes.surface[id]);
            ++cells[id];
        }
        for (std::uint32_t id = 1; id <= lakes.count(); ++id) {
            EXPECT_GT(cells[id], 0);
            const std::uint32_t out = lakes.outlet[id];
            ASSERT_NE(out, hydro::kNoReceiver);
            EXPECT_EQ(lakes.id[out], 0u);
            EXPECT_EQ(g.z[out], lakes.surface[id]) << "the spill cell is dry land at the surface";
        }
    }
}

TEST(HydroLakes, IdsFollowTheFirstCellOfEachLake) {
    const Grid g = noiseGrid(48, 40, 1);
    const hydro::Lakes lakes = hydro::findLakes(g, hydro::fillDepressions(g, Outlets{}), 0, 0);
    ASSERT_GT(lakes.count(), 2u);
    std::uint32_t next = 1;
    for (std::uint32_t id : lakes.id)
        if (id != 0 && id >= next) {
            EXPECT_EQ(id, next);
            next = id + 1;
        }
}

}  // namespace
}  // namespace terragrid::test
