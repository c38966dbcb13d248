// River polylines and lake polygons: the vector forms of the rivers and lakes, checked
// against the rasters they come from.

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "hydro_test_support.hpp"
#include "terragrid/hydro/lake_outlines.hpp"
#include "terragrid/hydro/rivers.hpp"

namespace terragrid::test {
namespace {

using hydro::CornerPoint;
using hydro::Grid;
using hydro::Outlets;

struct RiverMap {
    hydro::FlowRouting routing;
    std::vector<float> acc;
    std::vector<std::uint8_t> river, order;
};

RiverMap riversOf(const Grid& dem, const Outlets& o, float threshold) {
    Grid filled = dem;
    filled.z = hydro::fillDepressions(dem, o);
    RiverMap m;
    m.routing = hydro::routeFlow(filled, o);
    m.acc = hydro::accumulate(m.routing, nullptr);
    m.river = hydro::riverMask(m.acc, threshold);
    m.order = hydro::strahlerOrder(m.routing, m.river);
    return m;
}

TEST(HydroRiverPolylines, CoverEveryRiverCellOnceAndMeetOnlyAtConfluences) {
    for (std::uint64_t seed : {1, 2, 3, 4}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const RiverMap m = riversOf(noiseGrid(70, 50, seed, 6, seed % 2 ? 0.0f : 4.0f),
                                    Outlets{.edges = true, .seaLevel = seed == 3 ? std::optional(30.0f) : std::nullopt}, 6);
        const auto lines = hydro::riverPolylines(m.routing, m.river, m.order, m.acc);
        std::vector<int> own(m.river.size(), 0), joints(m.river.size(), 0), riverDonors(m.river.size(), 0);
        for (std::uint32_t c = 0; c < m.river.size(); ++c)
            if (m.river[c] && m.routing.receiver[c] != hydro::kNoReceiver && m.river[m.routing.receiver[c]])
                ++riverDonors[m.routing.receiver[c]];
        std::uint32_t previousStart = 0;
        for (std::size_t k = 0; k < lines.size(); ++k) {
            const hydro::RiverPolyline& line = lines[k];
            ASSERT_FALSE(line.cells.empty());
            if (k > 0) {
                EXPECT_GT(line.cells.front(), previousStart) << "ordered by first cell";
            }
            previousStart = line.cells.front();
            EXPECT_NE(riverDonors[line.cells.front()], 1) << "starts at a source or confluence";
            const std::size_t ownCells = line.cells.size() - (line.endsAtJoint ? 1 : 0);
            for (std::size_t i = 0; i < line.cells.size(); ++i) {
                const std::uint32_t c = line.cells[i];
                EXPECT_TRUE(m.river[c]);
                if (i + 1 < line.cells.size()) {
                    EXPECT_EQ(m.routing.receiver[c], line.cells[i + 1]);
                }
                if (i < ownCells) {
                    ++own[c];
                    EXPECT_EQ(m.order[c], line.order);
                } else {
                    ++joints[c];
                    EXPECT_GE(riverDonors[c], 2);
                }
            }
            const std::uint32_t last = line.cells[ownCells - 1];
            EXPECT_EQ(line.discharge, m.acc[last]);
            if (!line.endsAtJoint) {
                const std::uint32_t r = m.routing.receiver[last];
                EXPECT_TRUE(r == hydro::kNoReceiver || !m.river[r]) << "ends where the river ends";
            }
        }
        std::size_t riverCells = 0;
        for (std::uint32_t c = 0; c < m.river.size(); ++c) {
            EXPECT_EQ(own[c], m.river[c] ? 1 : 0) << c;
            EXPECT_EQ(joints[c], riverDonors[c] >= 2 ? riverDonors[c] : 0) << c;
            riverCells += m.river[c];
        }
        EXPECT_GT(riverCells, 100u);
    }
}

TEST(HydroRiverPolylines, TwoSourcesJoinIntoAHigherOrderReach) {
    // 0 -> 2 <- 1; 2 -> 3 -> outlet.
    hydro::FlowRouting r;
    r.receiver = {2, 2, 3, hydro::kNoReceiver};
    const std::vector<std::uint8_t> river(4, 1), order{1, 1, 2, 2};
    const std::vector<float> acc{1, 1, 3, 4};
    const auto lines = hydro::riverPolylines(r, river, order, acc);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0].cells, (std::vector<std::uint32_t>{0, 2}));
    EXPECT_TRUE(lines[0].endsAtJoint);
    EXPECT_EQ(lines[0].discharge, 1.0f);
    EXPECT_EQ(lines[1].cells, (std::vector<std::uint32_t>{1, 2}));
    EXPECT_EQ(lines[2].cells, (std::vector<std::uint32_t>{2, 3}));
    EXPECT_FALSE(lines[2].endsAtJoint);
    EXPECT_EQ(lines[2].order, 2);
    EXPECT_EQ(lines[2].discharge, 4.0f);
}

// --- lake polygons -----------------------------------------------------------------------

hydro::Lakes lakesFromRows(const std::vector<std::string>& rows) {
    hydro::Lakes lakes;
    std::uint32_t count = 0;
    for (const std::string& row : rows)
        for (char ch : row) {
            const std::uint32_t id = ch == '.' ? 0 : std::uint32_t(ch - '0');
            lakes.id.push_back(id);
            count = std::max(count, id);
        }
    lakes.surface.assign(count + 1, 0);
    lakes.outlet.assign(count + 1, 0);
    return lakes;
}

std::int64_t twiceArea(const std::vector<CornerPoint>& ring) {
    std::int64_t a = 0;
    for (std::size_t k = 0; k + 1 < ring.size(); ++k)
        a += std::int64_t(ring[k].x) * ring[k + 1].y - std::int64_t(ring[k + 1].x) * ring[k].y;
    return a;
}

bool inside(const std::vector<CornerPoint>& ring, double px, double py) {
    bool in = false;
    for (std::size_t k = 0; k + 1 < ring.size(); ++k) {
        const auto a = ring[k], b = ring[k + 1];
        if ((a.y > py) != (b.y > py) && px < a.x + (py - a.y) * (b.x - a.x) / double(b.y - a.y)) in = !in;
    }
    return in;
}

/// Rings closed, simple (no repeated corner), axis-aligned, corners only, oriented; and the
/// polygons, drawn back onto the grid, give exactly the lake cells with their ids.
void expectOutlinesOf(const hydro::Lakes& lakes, std::int32_t w, std::int32_t h) {
    const auto polygons = hydro::lakePolygons(lakes, w, h);
    std::uint32_t previousLake = 0;
    for (const hydro::LakePolygon& poly : polygons) {
        EXPECT_GE(poly.lake, previousLake) << "ordered by lake";
        previousLake = poly.lake;
        ASSERT_FALSE(poly.rings.empty());
        for (std::size_t r = 0; r < poly.rings.size(); ++r) {
            const auto& ring = poly.rings[r];
            ASSERT_GE(ring.size(), 5u);
            EXPECT_EQ(ring.front(), ring.back()) << "closed";
            std::set<std::pair<int, int>> seen;
            for (std::size_t k = 0; k + 1 < ring.size(); ++k) {
                EXPECT_TRUE(seen.insert({ring[k].x, ring[k].y}).second) << "corner repeated";
                const auto a = ring[k], b = ring[k + 1];
                const auto c = ring[(k + 2) % (ring.size() - 1)];
                EXPECT_TRUE((a.x == b.x) != (a.y == b.y)) << "axis-aligned, no zero step";
                EXPECT_FALSE((a.x == b.x && b.x == c.x) || (a.y == b.y && b.y == c.y)) << "corners only";
                EXPECT_TRUE(a.x >= 0 && a.x <= w && a.y >= 0 && a.y <= h);
            }
            EXPECT_EQ(twiceArea(ring) < 0, r == 0) << "outer counterclockwise once y points north";
        }
    }
    for (std::int32_t y = 0; y < h; ++y)
        for (std::int32_t x = 0; x < w; ++x) {
            std::uint32_t found = 0;
            int hits = 0;
            for (const hydro::LakePolygon& poly : polygons) {
                bool in = inside(poly.rings[0], x + 0.5, y + 0.5);
                for (std::size_t r = 1; r < poly.rings.size(); ++r) in &= !inside(poly.rings[r], x + 0.5, y + 0.5);
                if (in) {
                    found = poly.lake;
                    ++hits;
                }
            }
            EXPECT_LE(hits, 1) << "polygons overlap at " << x << "," << y;
            EXPECT_EQ(found, lakes.id[std::size_t(y) * w + x]) << "at " << x << "," << y;
        }
}

TEST(HydroLakePolygons, OneCellIsOneSquare) {
    const hydro::Lakes lakes = lakesFromRows({"...", ".1.", "..."});
    const auto polygons = hydro::lakePolygons(lakes, 3, 3);
    ASSERT_EQ(polygons.size(), 1u);
    ASSERT_EQ(polygons[0].rings.size(), 1u);
    EXPECT_EQ(polygons[0].rings[0], (std::vector<CornerPoint>{{1, 1}, {1, 2}, {2, 2}, {2, 1}, {1, 1}}));
}

TEST(HydroLakePolygons, IslandIsAHole) {
    const hydro::Lakes lakes = lakesFromRows({"11111", "11111", "11.11", "11111"});
    const auto polygons = hydro::lakePolygons(lakes, 5, 4);
    ASSERT_EQ(polygons.size(), 1u);
    ASSERT_EQ(polygons[0].rings.size(), 2u);
    EXPECT_EQ(twiceArea(polygons[0].rings[1]), 2);
    expectOutlinesOf(lakes, 5, 4);
}

TEST(HydroLakePolygons, CellsMeetingAtACornerGiveRingsThatOnlyTouch) {
    // Two cells meeting diagonally: two squares. A ring whose ends meet diagonally: an outer
    // ring and a hole touching it at one corner. Lakes reaching the map's border.
    const hydro::Lakes twoSquares = lakesFromRows({"1.", ".1"});
    EXPECT_EQ(hydro::lakePolygons(twoSquares, 2, 2).size(), 2u);
    expectOutlinesOf(twoSquares, 2, 2);
    const hydro::Lakes pinchedRing = lakesFromRows({"111..", "1..1.", "1..1.", "1111."});
    const auto polygons = hydro::lakePolygons(pinchedRing, 5, 4);
    ASSERT_EQ(polygons.size(), 1u);
    EXPECT_EQ(polygons[0].rings.size(), 2u) << "outer ring and a hole";
    expectOutlinesOf(pinchedRing, 5, 4);
    const hydro::Lakes threeParts = lakesFromRows({"....", ".1..", "1.1.", "1.1.", ".11."});
    EXPECT_EQ(hydro::lakePolygons(threeParts, 4, 5).size(), 3u);
    expectOutlinesOf(threeParts, 4, 5);
    const hydro::Lakes u = lakesFromRows({"1..1", "1..1", ".11."});
    expectOutlinesOf(u, 4, 3);
    const hydro::Lakes twoLakes = lakesFromRows({"11..2", "1..22", "..22.", "333.2"});
    expectOutlinesOf(twoLakes, 5, 4);
}

TEST(HydroLakePolygons, RandomMasksRoundTrip) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const std::int32_t w = 3 + std::int32_t(mix(seed) % 14), h = 2 + std::int32_t(mix(seed + 99) % 12);
        hydro::Lakes lakes;
        for (std::int32_t i = 0; i < w * h; ++i) {
            const std::uint32_t r = mix(seed * 1000 + std::uint64_t(i)) % 10;
            lakes.id.push_back(r < 5 ? 0 : r < 8 ? 1 : 2);
        }
        lakes.surface.assign(3, 0);
        lakes.outlet.assign(3, 0);
        expectOutlinesOf(lakes, w, h);
    }
}

TEST(HydroLakePolygons, LakesOfNoiseMapsRoundTrip) {
    const Grid g = noiseGrid(60, 44, 5, 5, 0);
    const hydro::Lakes lakes = hydro::findLakes(g, hydro::fillDepressions(g, Outlets{}), 0, 0);
    ASSERT_GT(lakes.count(), 3u);
    expectOutlinesOf(lakes, 60, 44);
}

}  // namespace
}  // namespace terragrid::test
