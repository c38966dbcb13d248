#include "terragrid/hydro/erosion.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
#include <vector>

#include "erosion_reference.hpp"
#include "hydro/avx2_lanes.hpp"
#include "hydro/drainage_area.hpp"
#include "hydro/erosion_flow.hpp"
#include "hydro/erosion_routing.hpp"
#include "hydro/hillslope_diffusion.hpp"
#include "hydro_terrain.hpp"
#include "terragrid/noise/noise.hpp"
#include "test_support.hpp"

namespace terragrid::hydro {
namespace {

/// A rough surface with many depressions and flats: hashed heights, rounded to whole metres.
Grid hashedRelief(std::int32_t w, std::int32_t h, std::uint64_t seed) {
    Grid g{w, h, 30.0, {}};
    for (std::int32_t i = 0; i < w * h; ++i)
        g.z.push_back(float(mix64(seed * 1000003u + std::uint64_t(i)) % 20));
    return g;
}

/// A channel one cell wide draining west into cell 0, the only base-level cell (below the
/// sea), with every cell upstream sloping gently up.
Grid channel(std::int32_t length, double cellSize) {
    Grid g{length, 1, cellSize, {}};
    g.z.push_back(-1.0f);
    for (std::int32_t i = 1; i < length; ++i) g.z.push_back(float(i));
    return g;
}

const Outlets kSeaAtZero{false, 0.0f};

/// A channel's steady state solves U = K A^m S^n cell by cell: S = (U/K)^(1/n) A^(-m/n), A the
/// area of the cells upstream (each drains its own cell and everything east of it). The
/// implicit solver is exact there whatever dt, so a long step lands on it.
void expectAnalyticSteadyState(double n) {
    const std::int32_t length = 60;
    const double cellSize = 30;
    Grid g = channel(length, cellSize);
    ErosionParams p = test::defaultErosion();
    p.steps = 40;
    p.k = 4e-5;
    p.m = 0.5;
    p.n = n;
    p.diffusion = 0;
    p.dt = 1e6;
    p.uplift = 2e-3;
    erode(g, p, kSeaAtZero);
    for (std::int32_t i = 1; i < length; ++i) {
        const double area = double(length - i) * cellSize * cellSize;
        const double expected = std::pow(p.uplift / p.k, 1 / n) * std::pow(area, -p.m / n);
        const double slope = (double(g.z[std::size_t(i)]) - double(g.z[std::size_t(i - 1)])) / cellSize;
        EXPECT_NEAR(slope, expected, 1e-4 * expected) << "cell " << i << ", n = " << n;
    }
}

TEST(ErosionTest, AChannelReachesTheAnalyticSteadyStateForNEqualOne) {
    expectAnalyticSteadyState(1.0);
}

TEST(ErosionTest, AChannelReachesTheAnalyticSteadyStateWithNewtonForNNotOne) {
    expectAnalyticSteadyState(2.0);
    expectAnalyticSteadyState(0.7);
}

TEST(ErosionTest, NothingChangesWithoutIncisionDiffusionOrUplift) {
    Grid g = test::noiseTerrain(64).metres;
    const std::vector<float> before = g.z;
    ErosionParams p = test::defaultErosion();
    p.k = 0;
    p.diffusion = 0;
    p.uplift = 0;
    p.steps = 5;
    erode(g, p, Outlets{});
    EXPECT_EQ(std::memcmp(before.data(), g.z.data(), before.size() * sizeof(float)), 0);
}

TEST(ErosionTest, NoCellRisesAboveItsStartPlusItsUplift) {
    test::NoiseTerrain t = test::noiseTerrain(96);
    Grid g = t.metres;
    ErosionParams p = test::defaultErosion();
    p.steps = 30;
    p.diffusion = 0;
    erode(g, p, Outlets{}, &t.unit);
    std::size_t lowered = 0;
    for (std::size_t i = 0; i < g.z.size(); ++i) {
        const double bound = double(t.metres.z[i]) + p.uplift * p.dt * p.steps * t.unit[i];
        ASSERT_LE(double(g.z[i]), bound * (1 + 1e-6)) << "cell " << i;
        lowered += double(g.z[i]) < bound - 1;
    }
    EXPECT_GT(lowered, g.z.size() / 2);  // and it does cut
}

TEST(ErosionTest, DiffusionMakesNoNewHighs) {
    test::NoiseTerrain t = test::noiseTerrain(96);
    Grid g = t.metres;
    ErosionParams p = test::defaultErosion();
    p.steps = 30;
    p.diffusion = 0.5;  // strong: D dt / dx^2 = 5.6 per step
    erode(g, p, Outlets{});
    const float highest = *std::max_element(t.metres.z.begin(), t.metres.z.end());
    const double bound = double(highest) + p.uplift * p.dt * p.steps;
    for (const float z : g.z) ASSERT_LE(double(z), bound * (1 + 1e-6));
}

TEST(ErosionTest, BaseLevelCellsNeverMove) {
    test::NoiseTerrain t = test::noiseTerrain(80);
    std::vector<float> sorted = t.metres.z;
    std::sort(sorted.begin(), sorted.end());
    const float sea = sorted[sorted.size() / 3];  // a third of the map under the sea
    for (const Outlets& outlets : {Outlets{true, {}}, Outlets{false, sea}, Outlets{true, sea}}) {
        Grid g = t.metres;
        ErosionParams p = test::defaultErosion();
        p.steps = 20;
        erode(g, p, outlets, &t.unit);
        const std::vector<std::uint8_t> fixed = baseLevelCells(t.metres, outlets);
        std::size_t count = 0;
        for (std::size_t i = 0; i < g.z.size(); ++i)
            if (fixed[i]) {
                ++count;
                ASSERT_EQ(g.z[i], t.metres.z[i]) << "cell " << i;
            } else if (outlets.seaLevel) {
                ASSERT_GT(t.metres.z[i], sea);
            }
        EXPECT_GT(count, 0u);
    }
}

TEST(ErosionTest, NeedsAnOutlet) {
    Grid g{3, 2, 1.0, {5, 4, 3, 2, 9, 2}};
    EXPECT_THROW(erode(g, test::defaultErosion(), Outlets{false, 1.0f}), std::invalid_argument);
    EXPECT_EQ(baseLevelCells(g, Outlets{false, 2.0f}), (std::vector<std::uint8_t>{0, 0, 0, 1, 0, 1}));
}

TEST(ErosionTest, SameBitsForAnyThreadCountAndRun) {
    test::NoiseTerrain t = test::noiseTerrain(160);
    ErosionParams p = test::defaultErosion();
    p.steps = 15;
    p.diffusion = 0.05;
    std::vector<std::vector<float>> results;
    for (const int threads : {1, 2, 8, 1}) {
        Grid g = t.metres;
        test::inArena(threads, [&] { erode(g, p, Outlets{}, &t.unit); });
        results.push_back(g.z);
    }
    for (std::size_t r = 1; r < results.size(); ++r)
        EXPECT_EQ(std::memcmp(results[0].data(), results[r].data(), results[0].size() * sizeof(float)), 0)
            << "run " << r;
    EXPECT_NE(results[0], t.metres.z);
}

TEST(ErosionTest, ATiltedPlaneStaysMonotone) {
    const std::int32_t w = 40, h = 12;
    Grid g{w, h, 30.0, {}};
    for (std::int32_t y = 0; y < h; ++y)
        for (std::int32_t x = 0; x < w; ++x) g.z.push_back(float(3 * x));
    ErosionParams p = test::defaultErosion();
    p.steps = 50;
    p.diffusion = 0.2;
    erode(g, p, kSeaAtZero);  // column 0 is the sea
    for (std::int32_t y = 0; y < h; ++y)
        for (std::int32_t x = 1; x < w; ++x) {
            const std::size_t i = std::size_t(y * w + x);
            ASSERT_GT(g.z[i], g.z[i - 1]) << "cell " << x << "," << y;
            ASSERT_NEAR(g.z[i], g.z[std::size_t(x)], 1e-3) << "rows differ at " << x << "," << y;
        }
}

/// An exact flat: every inner cell is a depression of its own at the first step, all routed
/// through the basin graph. Rivers then cut back from the edges, and the middle, farthest from
/// any outlet, stays highest.
TEST(ErosionTest, AFlatMapErodesBackFromItsEdges) {
    const std::int32_t w = 48;
    Grid g{w, w, 30.0, std::vector<float>(std::size_t(w * w), 100.0f)};
    ErosionParams p = test::defaultErosion();
    p.steps = 10;
    const ErosionSummary summary = erode(g, p, Outlets{});
    EXPECT_EQ(summary.firstPits, std::size_t((w - 2) * (w - 2)));
    const auto at = [&](std::int32_t x, std::int32_t y) { return g.z[std::size_t(y * w + x)]; };
    for (const float z : g.z) ASSERT_TRUE(std::isfinite(z));
    EXPECT_LT(at(1, w / 2), at(w / 2, w / 2));
    EXPECT_LT(at(w / 2, 1), at(w / 2, w / 2));
    EXPECT_GT(at(w / 2, w / 2), 100.0f);  // uplifted, still
}

TEST(ErosionTest, RejectsBadParametersAndSizes) {
    Grid g{4, 4, 30.0, std::vector<float>(16, 1.0f)};
    const auto bad = [&](auto change) {
        ErosionParams p = test::defaultErosion();
        change(p);
        Grid copy = g;
        EXPECT_THROW(erode(copy, p, Outlets{}), std::invalid_argument);
    };
    bad([](ErosionParams& p) { p.steps = -1; });
    bad([](ErosionParams& p) { p.k = -1; });
    bad([](ErosionParams& p) { p.m = 0; });
    bad([](ErosionParams& p) { p.n = 0; });
    bad([](ErosionParams& p) { p.dt = 0; });
    bad([](ErosionParams& p) { p.diffusion = std::nan(""); });
    const std::vector<float> wrongSize(3, 1.0f);
    EXPECT_THROW(erode(g, test::defaultErosion(), Outlets{}, &wrongSize), std::invalid_argument);
    Grid broken{4, 5, 30.0, std::vector<float>(16, 1.0f)};
    EXPECT_THROW(erode(broken, test::defaultErosion(), Outlets{}), std::invalid_argument);
}

// --- against the model as first written ---------------------------------------------------------
// erode() against erosion_reference.hpp, bit for bit: every faster pass (the flow as
// directions, the walks along it, the basin labels, the diffusion's solver) must keep each
// height's terms and their order, on any thread count.

/// A rough surface full of depressions and flats: hashed heights in whole metres.
Grid roughRelief(std::int32_t w, std::int32_t h, std::uint64_t seed) {
    Grid g{w, h, 29.3, {}};
    for (std::int32_t i = 0; i < w * h; ++i) g.z.push_back(float(mix64(seed * 7919u + std::uint64_t(i)) % 25));
    return g;
}

struct ReferenceCase {
    std::string name;
    Grid terrain;
    ErosionParams params;
    Outlets outlets;
    std::vector<float> uplift;  ///< empty: none
};

std::vector<ReferenceCase> referenceCases() {
    std::vector<ReferenceCase> all;
    test::NoiseTerrain noise = test::noiseTerrain(72);
    // Cells of 29.3 m: areas of many cells are then not exact in binary, so the order a
    // cell's donors are added in shows in its bits (with 30 m cells every sum is exact).
    noise.metres.cellSize = 29.3;
    std::vector<float> sorted = noise.metres.z;
    std::sort(sorted.begin(), sorted.end());
    const float sea = sorted[sorted.size() / 4];  // a quarter of the map under the sea
    ErosionParams p = test::defaultErosion();
    p.steps = 12;
    all.push_back({"noise, fixed edges", noise.metres, p, Outlets{}, {}});
    ErosionParams open = p;
    open.edges = ErosionEdges::Open;
    all.push_back({"noise, open edges, uplift field", noise.metres, open, Outlets{}, noise.unit});
    all.push_back({"noise, open edges and a sea", noise.metres, open, Outlets{true, sea}, {}});
    all.push_back({"noise, sea only", noise.metres, p, Outlets{false, sea}, noise.unit});
    ErosionParams newton = open;
    newton.n = 1.6;
    newton.m = 0.7;
    newton.diffusion = 0.5;
    all.push_back({"noise, n and m not 1 and 1/2, strong diffusion", noise.metres, newton, Outlets{}, {}});
    ErosionParams rough = open;
    rough.steps = 6;
    rough.k = 2e-4;  // cuts deep into the flats
    all.push_back({"rough 41 x 29, open edges", roughRelief(41, 29, 3), rough, Outlets{}, {}});
    all.push_back({"rough 41 x 29, fixed edges", roughRelief(41, 29, 4), p, Outlets{}, {}});
    // Grids one and two cells wide: neighbours there share index steps.
    all.push_back({"rough 1 x 23", roughRelief(1, 23, 5), p, Outlets{false, 3.0f}, {}});
    all.push_back({"rough 2 x 19", roughRelief(2, 19, 6), p, Outlets{false, 3.0f}, {}});
    all.push_back({"rough 2 x 19, open edges", roughRelief(2, 19, 7), open, Outlets{}, {}});
    return all;
}

// Both ways the CPU can take: its AVX2 lanes where it has them, and the portable paths every
// x86-64 takes (avx2_lanes.hpp), which this machine would otherwise never run.
TEST(ErosionReferenceTest, EveryStepEqualsTheFirstFormOfTheModelBitForBit) {
    for (const ReferenceCase& c : referenceCases()) {
        Grid expected = c.terrain;
        test::referenceErode(expected, c.params, c.outlets, c.uplift.empty() ? nullptr : &c.uplift);
        EXPECT_NE(expected.z, c.terrain.z) << c.name << ": the case erodes nothing";
        for (const bool portable : {false, true}) {
            std::optional<detail::PortableLanesForTest> lanesOff;
            if (portable) lanesOff.emplace();
            for (const int threads : {1, 2, 3}) {
                Grid g = c.terrain;
                test::inArena(threads, [&] { erode(g, c.params, c.outlets, c.uplift.empty() ? nullptr : &c.uplift); });
                EXPECT_EQ(std::memcmp(g.z.data(), expected.z.data(), g.z.size() * sizeof(float)), 0)
                    << c.name << ", " << threads << " threads" << (portable ? ", portable paths" : "");
            }
        }
    }
}

/// The routing and drainage areas of one step alone, in doubles (erode's floats can hide an
/// area's last bits): the directions name ErosionRouter's receivers, and each area has the
/// bits of the stack's sums.
TEST(ErosionReferenceTest, RoutingAndAreasEqualTheStacksBitForBit) {
    for (const std::uint64_t seed : {11u, 12u, 13u})
        for (const Outlets& outlets : {Outlets{true, {}}, Outlets{false, 6.0f}}) {
            const Grid g = roughRelief(53, 31, seed);
            const std::vector<std::uint8_t> fixed = baseLevelCells(g, outlets);
            const std::vector<double> h(g.z.begin(), g.z.end());
            detail::ErosionRouter router(g.width, g.height, fixed);
            const detail::D8Routing& routing = router.route(h.data());
            const double cellArea = g.cellSize * g.cellSize;
            std::vector<double> expected(h.size(), cellArea);
            for (std::size_t s = h.size(); s-- > 0;) {
                const std::uint32_t c = routing.stack[s];
                if (routing.receiver[c] != c) expected[routing.receiver[c]] += expected[c];
            }
            for (const int threads : {1, 2, -1}) {  // -1: 1 thread, the portable paths
                std::optional<detail::PortableLanesForTest> lanesOff;
                if (threads < 0) lanesOff.emplace();
                detail::ErosionFlow flow(g.width, g.height, fixed);
                detail::DrainageArea area;
                test::inArena(std::max(threads, 1), [&] {
                    flow.route(h.data());
                    area.compute(flow, cellArea);
                });
                EXPECT_GT(flow.pits(), 2u);
                EXPECT_EQ(flow.pits(), router.pits());
                for (std::uint32_t i = 0; i < h.size(); ++i) {
                    ASSERT_EQ(flow.receiver(i), routing.receiver[i]) << "cell " << i << ", seed " << seed;
                    ASSERT_EQ(std::memcmp(&area.area()[i], &expected[i], sizeof(double)), 0)
                        << "cell " << i << ": " << area.area()[i] << " against " << expected[i];
                }
            }
        }
}

/// The walks' lists, which the incision solves in reverse, round by round with a round's lists
/// in parallel: every cell in one list once, and each cell's receiver after it in its own
/// list or in a later round. Eight threads cut the 31 rows into bands of three or four, so
/// walks cross between bands often and run many rounds.
TEST(ErosionReferenceTest, TheWalksListEveryCellOnceAndReceiversAfterTheirDonors) {
    for (const std::uint64_t seed : {21u, 22u})
        for (const int threads : {1, 2, 3, 8}) {
            const Grid g = roughRelief(53, 31, seed);
            const std::vector<std::uint8_t> fixed = baseLevelCells(g, Outlets{true, {}});
            const std::vector<double> h(g.z.begin(), g.z.end());
            detail::ErosionFlow flow(g.width, g.height, fixed);
            detail::DrainageArea area;
            test::inArena(threads, [&] {
                flow.route(h.data());
                area.compute(flow, 1.0);
            });
            // Rounds counted from the last (forEachRoundReversed's order).
            std::vector<int> round(h.size(), -1), list(h.size(), -1), place(h.size(), -1);
            int r = 0, lists = 0, crossings = 0;
            area.forEachRoundReversed([&](const std::vector<detail::DrainageArea::List>& roundLists) {
                for (const auto& [first, last] : roundLists) {
                    for (const std::uint32_t* c = first; c != last; ++c) {
                        ASSERT_EQ(round[*c], -1) << "cell " << *c << " listed twice";
                        round[*c] = r, list[*c] = lists, place[*c] = int(c - first);
                    }
                    ++lists;
                }
                ++r;
            });
            for (std::uint32_t i = 0; i < h.size(); ++i) {
                ASSERT_NE(round[i], -1) << "cell " << i << " in no list, " << threads << " threads";
                const std::uint32_t to = flow.receiver(i);
                if (to == i) continue;
                if (list[to] == list[i]) {
                    EXPECT_GT(place[to], place[i]) << "cell " << i << ", " << threads << " threads";
                } else {
                    EXPECT_LT(round[to], round[i]) << "cell " << i << ", " << threads << " threads";
                    ++crossings;
                }
            }
            if (threads == 1) {
                EXPECT_EQ(lists, 1);
            }
            if (threads == 8) {
                EXPECT_GT(r, 2) << "the bands' walks should cross";
                EXPECT_GT(crossings, 0);
            }
        }
}

// --- the per-step routing ----------------------------------------------------------------------

/// Every cell drains to a base-level cell through neighbours, the stack lists each receiver
/// before its donors, and its groups (run in parallel) never drain into one another, on
/// surfaces full of depressions and flats.
TEST(ErosionRoutingTest, EveryCellDrainsToBaseLevelThroughNeighbours) {
    for (const std::uint64_t seed : {1u, 2u, 3u})
        for (const Outlets& outlets : {Outlets{true, {}}, Outlets{false, 3.0f}, Outlets{true, 5.0f}}) {
            const Grid g = hashedRelief(37, 23, seed);
            const std::vector<std::uint8_t> fixed = baseLevelCells(g, outlets);
            detail::ErosionRouter router(g.width, g.height, fixed);
            const std::vector<double> h(g.z.begin(), g.z.end());
            const detail::D8Routing& routing = router.route(h.data());
            EXPECT_GT(router.pits(), 2u);  // depressions to route out
            const std::size_t n = g.z.size();
            ASSERT_EQ(routing.stack.size(), n);
            std::vector<std::size_t> position(n, n), group(n, 0);
            for (std::size_t s = 0; s < n; ++s) position[routing.stack[s]] = s;
            ASSERT_GE(routing.groupStart.size(), 2u);
            ASSERT_EQ(routing.groupStart.front(), 0u);
            ASSERT_EQ(routing.groupStart.back(), n);
            for (std::size_t g = 0; g + 1 < routing.groupStart.size(); ++g)
                for (std::size_t s = routing.groupStart[g]; s < routing.groupStart[g + 1]; ++s)
                    group[routing.stack[s]] = g;
            for (std::uint32_t i = 0; i < n; ++i) {
                ASSERT_LT(position[i], n) << "cell " << i << " missing from the stack";
                const std::uint32_t r = routing.receiver[i];
                if (r == i) {
                    ASSERT_TRUE(fixed[i]) << "cell " << i << " drains nowhere";
                    continue;
                }
                ASSERT_FALSE(fixed[i]);
                const int dx = std::abs(int(i % 37) - int(r % 37)), dy = std::abs(int(i / 37) - int(r / 37));
                ASSERT_LE(std::max(dx, dy), 1) << "cell " << i << " drains to " << r;
                ASSERT_LT(position[r], position[i]) << "receiver after donor at " << i;
                ASSERT_EQ(group[r], group[i]) << "a group's subtree drains into another at " << i;
            }
        }
}

/// A depression drains through its lowest pass: a bowl whose rim is lowest at one cell.
TEST(ErosionRoutingTest, ADepressionSpillsAtItsLowestPass) {
    // 7 x 7: rim 9 with a notch of 5 at the top (column 3, row 1), a floor of 2 sloping to a
    // pit of 1 at the centre, outlets at the border at 0.
    const std::int32_t w = 7;
    Grid g{w, w, 1.0, std::vector<float>(49, 0.0f)};
    for (std::int32_t y = 1; y < 6; ++y)
        for (std::int32_t x = 1; x < 6; ++x) g.z[std::size_t(y * w + x)] = (x == 1 || x == 5 || y == 1 || y == 5) ? 9.0f : 2.0f;
    g.z[std::size_t(1 * w + 3)] = 5.0f;
    g.z[std::size_t(3 * w + 3)] = 1.0f;
    detail::ErosionRouter router(w, w, baseLevelCells(g, Outlets{}));
    const std::vector<double> h(g.z.begin(), g.z.end());
    const detail::D8Routing& routing = router.route(h.data());
    EXPECT_EQ(router.pits(), 1u);
    // From the bowl's centre the path leaves through the notch.
    std::uint32_t c = 3 * w + 3;
    bool throughNotch = false;
    for (int guard = 0; guard < 49 && routing.receiver[c] != c; ++guard) {
        throughNotch |= c == std::uint32_t(1 * w + 3);
        c = routing.receiver[c];
    }
    EXPECT_TRUE(throughNotch);
    EXPECT_EQ(c, std::uint32_t(0 * w + 3));  // the notch drains straight north to the border
}

// --- hillslope diffusion -----------------------------------------------------------------------

TEST(HillslopeDiffusionTest, ConservesMassInAClosedBasinAndMakesNoNewExtremes) {
    const Grid g = hashedRelief(33, 21, 9);
    std::vector<double> h(g.z.begin(), g.z.end());
    const double before = std::accumulate(h.begin(), h.end(), 0.0);
    detail::HillslopeDiffusion diffusion(33, 21, std::vector<std::uint8_t>(h.size(), 0), 3.7);
    for (int step = 0; step < 4; ++step) diffusion.apply(h);
    EXPECT_NEAR(std::accumulate(h.begin(), h.end(), 0.0), before, 1e-9 * before);
    const auto [lo, hi] = std::minmax_element(h.begin(), h.end());
    EXPECT_GE(*lo, 0.0);
    EXPECT_LE(*hi, 19.0);
    EXPECT_LT(*hi - *lo, 10.0);  // and it does smooth
}

TEST(HillslopeDiffusionTest, FixedCellsHoldAndTheRestRelaxTowardThem) {
    std::vector<double> h(25, 10.0);
    std::vector<std::uint8_t> fixed(25, 0);
    fixed[12] = 1;
    h[12] = 0;
    detail::HillslopeDiffusion diffusion(5, 5, fixed, 100.0);
    for (int step = 0; step < 50; ++step) diffusion.apply(h);
    EXPECT_EQ(h[12], 0.0);
    for (const double v : h) EXPECT_LT(v, 0.5);
}

}  // namespace
}  // namespace terragrid::hydro
