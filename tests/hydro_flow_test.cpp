// Flow routing, accumulation, rivers and Strahler order: hand-made maps, and properties on
// noise grids against brute force.

#include <gtest/gtest.h>

#include "hydro/neighbours.hpp"
#include "hydro_test_support.hpp"
#include "test_support.hpp"

namespace terragrid::test {
namespace {

using hydro::Grid;
using hydro::Outlets;

struct Routed {
    Grid filled;
    hydro::FlowRouting routing;
};

Routed fillAndRoute(const Grid& dem, const Outlets& o) {
    Routed r{dem, {}};
    r.filled.z = hydro::fillDepressions(dem, o);
    r.routing = hydro::routeFlow(r.filled, o);
    return r;
}

/// Receivers: a neighbour, no higher; kNoReceiver exactly at outlets; every walk ends at an
/// outlet within n steps (no loop).
void expectValidRouting(const Grid& filled, const Outlets& o, const hydro::FlowRouting& r) {
    const std::size_t n = filled.z.size();
    ASSERT_EQ(r.receiver.size(), n);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t to = r.receiver[i];
        ASSERT_EQ(to == hydro::kNoReceiver, isOutlet(filled, o, i)) << "cell " << i;
        if (to == hydro::kNoReceiver) continue;
        const auto nbs = neighboursOf(filled, i);
        ASSERT_NE(std::find(nbs.begin(), nbs.end(), to), nbs.end()) << "not a neighbour";
        EXPECT_LE(filled.z[to], filled.z[i]);
        const auto path = walk(r, i);
        ASSERT_LE(path.size(), n) << "loop through " << i;
        EXPECT_TRUE(isOutlet(filled, o, path.back()));
    }
}

TEST(HydroGridShape, RowByMultiplicationEqualsDivision) {
    for (std::int32_t w : {1, 2, 3, 7, 640, 4095, 4096, 16384, 65521, 1 << 20, 0x7FFFFFFF}) {
        const hydro::detail::Shape shape(w, 1);
        for (std::uint64_t k = 0; k < 20000; ++k) {
            const std::uint32_t i = k < 10000 ? mix(k + std::uint64_t(w)) : std::uint32_t(0xFFFFFFFFu - (k - 10000));
            ASSERT_EQ(std::uint32_t(shape.rowOf(i)), i / std::uint32_t(w)) << i << " / " << w;
        }
    }
}

TEST(HydroRouting, SteepestDescentCountsDiagonalsAsLonger) {
    // From the centre (9): east drops 3 over 1 cell, south-east drops 4 over sqrt 2 (2.83).
    const Grid g = gridFromRows({"99999", "99999", "99969", "99959", "99999"});
    const hydro::FlowRouting r = hydro::routeFlow(g, Outlets{});
    EXPECT_EQ(r.receiver[2 * 5 + 2], 2u * 5 + 3);
}

TEST(HydroRouting, EqualSlopesGoToTheFirstNeighbourInRowOrder) {
    const Grid g = gridFromRows({"99999", "98989", "99999", "98989", "99999"});
    const hydro::FlowRouting r = hydro::routeFlow(g, Outlets{});
    EXPECT_EQ(r.receiver[2 * 5 + 2], 1u * 5 + 1);  // north-west, first of four equal drops
}

TEST(HydroRouting, HandMadeMapsDrainToAnOutlet) {
    const Grid bowl = gridFromRows({"0000000", "0999990", "0911190", "0910190", "0911190", "0999790", "0000000"});
    const Grid twoBowls = gridFromRows({"00000000000", "09999999990", "09111911190", "09111811190",
                                        "09111911190", "09969999990", "00000000000"});
    const Grid flat = gridOf(9, 7, [](auto, auto) { return 5.0f; });
    for (const Grid* g : {&bowl, &twoBowls, &flat}) {
        const Routed r = fillAndRoute(*g, Outlets{});
        expectValidRouting(r.filled, Outlets{}, r.routing);
    }
}

TEST(HydroRouting, LakeWaterLeavesThroughTheSpillCell) {
    const Grid g = gridFromRows({"00000000000", "09999999990", "09111911190", "09111811190",
                                 "09111911190", "09969999990", "00000000000"});
    const Routed r = fillAndRoute(g, Outlets{});
    const hydro::Lakes lakes = hydro::findLakes(g, r.filled.z, 0, 0);
    ASSERT_EQ(lakes.count(), 2u);
    for (std::uint32_t i = 0; i < g.z.size(); ++i) {
        if (lakes.id[i] == 0) continue;
        const auto path = walk(r.routing, i);
        EXPECT_NE(std::find(path.begin(), path.end(), lakes.outlet[lakes.id[i]]), path.end()) << i;
        // The right lake (8) spills over the saddle into the left one, which spills at (3, 5).
        EXPECT_NE(std::find(path.begin(), path.end(), 5u * 11 + 3), path.end()) << i;
    }
}

TEST(HydroRouting, FlatDrainsAwayFromHigherGroundTowardItsExit) {
    // A flat (5) walled by 9, open on the left to a strip of sea (4). Each flat cell's way out
    // is shortest to the sea; the away-from-higher part keeps water off the walls.
    const Grid g = gridOf(12, 9, [](std::int32_t x, std::int32_t y) {
        const bool wall = y <= 1 || y >= 7 || x >= 10;
        if (x == 0) return wall ? 9.0f : 4.0f;
        return wall ? 9.0f : 5.0f;
    });
    const Outlets o{.edges = false, .seaLevel = 4.0f};
    const Routed r = fillAndRoute(g, o);
    expectValidRouting(r.filled, o, r.routing);
    for (std::int32_t y = 2; y <= 6; ++y)
        for (std::int32_t x = 1; x <= 9; ++x) {
            const auto path = walk(r.routing, std::uint32_t(y * 12 + x));
            EXPECT_EQ(path.back() % 12, 0u);
            EXPECT_LE(path.size(), std::size_t(x) + 1) << "no detour: one column per step";
        }
    // The walls pull nothing: the cell beside the middle of the wall drains into the flat.
    const std::uint32_t byWall = 2 * 12 + 9, to = r.routing.receiver[byWall];
    EXPECT_NE(to / 12, 2u) << "does not run along the wall";
}

TEST(HydroRouting, SingleOutletDrainsEveryCell) {
    Grid g = noiseGrid(24, 20, 3);
    for (std::uint32_t i = 0; i < g.z.size(); ++i)
        if (onBorder(g, i)) g.z[i] = 200;
    g.z[10 * 24] = -1;
    const Outlets o{.edges = false, .seaLevel = -1.0f};
    const Routed r = fillAndRoute(g, o);
    expectValidRouting(r.filled, o, r.routing);
    const std::vector<float> acc = hydro::accumulate(r.routing, nullptr);
    EXPECT_EQ(acc[10 * 24], float(g.z.size()));
}

TEST(HydroRouting, PitsOfAnUnfilledSurfaceBecomeSinks) {
    const Grid g = gridFromRows({"55555", "55555", "55155", "55555", "55555"});
    const hydro::FlowRouting r = hydro::routeFlow(g, Outlets{});
    EXPECT_EQ(r.receiver[12], hydro::kNoReceiver);
    EXPECT_EQ(r.receiver[7], 12u);
}

TEST(HydroRouting, NoiseMapsRouteEveryCellToAnOutletWithoutLoops) {
    for (const NoiseCase& c : kNoiseCases) {
        SCOPED_TRACE("seed " + std::to_string(c.seed));
        const Routed r = fillAndRoute(noiseGrid(c.w, c.h, c.seed, 6, c.quantum), c.outlets);
        expectValidRouting(r.filled, c.outlets, r.routing);
    }
}

TEST(HydroAccumulation, EqualsTheNumberOfUpstreamCells) {
    for (const NoiseCase& c : kNoiseCases) {
        SCOPED_TRACE("seed " + std::to_string(c.seed));
        const Routed r = fillAndRoute(noiseGrid(c.w, c.h, c.seed, 6, c.quantum), c.outlets);
        const std::vector<float> acc = hydro::accumulate(r.routing, nullptr);
        const std::vector<double> expected = bruteForceAccumulation(r.routing, nullptr);
        for (std::size_t i = 0; i < acc.size(); ++i) ASSERT_EQ(double(acc[i]), expected[i]) << i;
    }
}

TEST(HydroAccumulation, WeightsAreSummedOverTheUpstreamCells) {
    const NoiseCase& c = kNoiseCases[2];
    const Routed r = fillAndRoute(noiseGrid(c.w, c.h, c.seed, 6, c.quantum), c.outlets);
    std::vector<float> weight(r.filled.z.size());
    for (std::size_t i = 0; i < weight.size(); ++i) weight[i] = float(mix(i) % 4) * 0.25f;
    const std::vector<float> acc = hydro::accumulate(r.routing, weight.data());
    const std::vector<double> expected = bruteForceAccumulation(r.routing, &weight);
    for (std::size_t i = 0; i < acc.size(); ++i) ASSERT_EQ(double(acc[i]), expected[i]) << i;
}

TEST(HydroAccumulation, SameBitsOnTheGridAndForAHandMadeRouting) {
    // Weights that do not add exactly: the order of the sums shows in the bits. In parallel
    // on the grid, or serially from the receivers alone: the same order, the same bits.
    const NoiseCase& c = kNoiseCases[0];
    const Routed r = fillAndRoute(noiseGrid(c.w, c.h, c.seed, 6, c.quantum), c.outlets);
    std::vector<float> weight(r.filled.z.size());
    for (std::size_t i = 0; i < weight.size(); ++i) weight[i] = 0.1f + float(mix(i) % 1000) * 1e-3f;
    hydro::FlowRouting byHand = r.routing;
    byHand.width = 0;
    const std::vector<float> onGrid = inArena(2, [&] { return hydro::accumulate(r.routing, weight.data()); });
    EXPECT_EQ(hydro::accumulate(byHand, weight.data()), onGrid);
    const std::vector<double> exact = bruteForceAccumulation(r.routing, &weight);
    for (std::size_t i = 0; i < onGrid.size(); ++i) EXPECT_NEAR(onGrid[i], exact[i], 1e-4 * exact[i]);
}

TEST(HydroRivers, RiversAreContinuousDownToAnOutletAndFollowStrahlerRules) {
    for (const NoiseCase& c : kNoiseCases) {
        SCOPED_TRACE("seed " + std::to_string(c.seed));
        const Routed r = fillAndRoute(noiseGrid(c.w, c.h, c.seed, 6, c.quantum), c.outlets);
        const std::vector<float> acc = hydro::accumulate(r.routing, nullptr);
        const std::vector<std::uint8_t> river = hydro::riverMask(acc, 8);
        const std::vector<std::uint8_t> order = hydro::strahlerOrder(r.routing, river);
        EXPECT_EQ(order, bruteForceStrahler(r.routing, river));
        for (std::uint32_t i = 0; i < river.size(); ++i) {
            EXPECT_EQ(river[i], acc[i] > 8 ? 1 : 0);
            EXPECT_EQ(order[i] != 0, river[i] != 0);
            if (!river[i]) continue;
            for (std::uint32_t cell : walk(r.routing, i)) EXPECT_TRUE(river[cell]) << "river breaks below " << i;
        }
    }
}

TEST(HydroRivers, StrahlerOrderRisesOnlyWhereTwoEqualOrdersMeet) {
    // Hand-made tree on a 1-row-per-cell routing: cells 0,1 -> 2; 2,3 -> 4; 4 -> 5 (outlet).
    hydro::FlowRouting r;
    r.receiver = {2, 2, 4, 4, 5, hydro::kNoReceiver, 5};
    const std::vector<std::uint8_t> river(7, 1);
    EXPECT_EQ(hydro::strahlerOrder(r, river), (std::vector<std::uint8_t>{1, 1, 2, 1, 2, 2, 1}));
}

TEST(HydroRivers, StrahlerOrderSameOnTheGridAndForAHandMadeRouting) {
    // In parallel walks on the grid, serially in a donors-first order of the receivers alone:
    // the same orders, on any thread count, for thin and wide river networks.
    unsigned highest = 0;
    for (const NoiseCase& c : kNoiseCases) {
        SCOPED_TRACE("seed " + std::to_string(c.seed));
        const Routed r = fillAndRoute(noiseGrid(c.w, c.h, c.seed, 6, c.quantum), c.outlets);
        hydro::FlowRouting byHand = r.routing;
        byHand.width = 0;
        const std::vector<float> acc = hydro::accumulate(r.routing, nullptr);
        for (const float threshold : {0.5f, 3.0f, 40.0f}) {
            const std::vector<std::uint8_t> river = hydro::riverMask(acc, threshold);
            const std::vector<std::uint8_t> serial = hydro::strahlerOrder(byHand, river);
            EXPECT_EQ(serial, bruteForceStrahler(r.routing, river));
            EXPECT_EQ(inArena(1, [&] { return hydro::strahlerOrder(r.routing, river); }), serial);
            EXPECT_EQ(inArena(2, [&] { return hydro::strahlerOrder(r.routing, river); }), serial);
            highest = std::max(highest, unsigned{*std::max_element(serial.begin(), serial.end())});
        }
    }
    EXPECT_GE(highest, 4u) << "no network where orders meet";
}

TEST(HydroRouting, ReceiversInALoopAreRefused) {
    // A 3 x 3 grid whose outer ring drains round in a circle into itself, and its centre into
    // the ring: no cell reaches an outlet. On the grid (parallel walks) and by hand.
    hydro::FlowRouting ring;
    ring.receiver = {1, 2, 5, 0, 3, 8, 3, 6, 7};
    const std::vector<std::uint8_t> river(9, 1);
    for (const std::int32_t width : {3, 0}) {
        ring.width = width;
        EXPECT_THROW(hydro::accumulate(ring, nullptr), std::invalid_argument) << width;
        EXPECT_THROW(hydro::strahlerOrder(ring, river), std::invalid_argument) << width;
    }
    // A receiver that is no cell of a routing made by hand.
    hydro::FlowRouting far;
    far.receiver = {1, 7, hydro::kNoReceiver};
    EXPECT_THROW(hydro::accumulate(far, nullptr), std::invalid_argument);
}

TEST(HydroDeterminism, SameBitsForEveryRunAndThreadCount) {
    const Grid g = noiseGrid(300, 260, 9, 7, 2);
    const Outlets o{.edges = true, .seaLevel = 20.0f};
    auto run = [&] {
        const Routed r = fillAndRoute(g, o);
        const std::vector<float> acc = hydro::accumulate(r.routing, nullptr);
        const hydro::Lakes lakes = hydro::findLakes(g, r.filled.z, 0.5, 4);
        return std::make_tuple(r.filled.z, r.routing.receiver, acc, lakes.id,
                               hydro::strahlerOrder(r.routing, hydro::riverMask(acc, 20)));
    };
    const auto reference = inArena(1, run);
    EXPECT_EQ(run(), reference);
    EXPECT_EQ(inArena(2, run), reference);
    EXPECT_EQ(inArena(8, run), reference);
}

TEST(HydroDeterminism, LargeFlatsResolvedInParallelGiveTheSameBits) {
    // One flat of most of the map around hills, draining to the border: its breadth-first
    // rings hold thousands of cells and are expanded in parallel.
    Grid g = noiseGrid(640, 480, 12, 40);
    for (float& h : g.z) h = std::max(h, 60.0f);
    auto run = [&] {
        Grid filled = g;
        filled.z = hydro::fillDepressions(g, Outlets{});
        const hydro::FlowRouting r = hydro::routeFlow(filled, Outlets{});
        return r.receiver;
    };
    const auto reference = inArena(1, run);
    EXPECT_EQ(inArena(2, run), reference);
    EXPECT_EQ(inArena(8, run), reference);
}

}  // namespace
}  // namespace terragrid::test
