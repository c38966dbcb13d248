// Where water leaves an eroded map (hydrology.outlets): open edges leave no wall of uneroded
// land at the border and no gullies combed into it, only the sea drains with outlets sea, and
// without erosion open and edges are the same water. The eroded presets keep plausible class
// shares now that the classes read the eroded relief (terrain.eroded_heights).

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "terragrid/config/loader.hpp"
#include "terragrid/hydro/grid.hpp"
#include "terragrid/pipeline/generator.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"
#include "terragrid/pipeline/stats.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

/// A preset at half its size and twice its cell size: the same world, as its picture shows it.
/// For the island presets, whose falloff is drawn across the whole map.
Config preset(const std::string& name, std::vector<std::string> overrides = {}) {
    const std::string path = (test::sourceDir() / "configs" / (name + ".json")).string();
    const Config full = loadConfig(path);
    overrides.insert(overrides.begin(),
                     {"map.width=" + std::to_string(full.map.width / 2),
                      "map.height=" + std::to_string(full.map.height / 2),
                      "map.cell_size=" + std::to_string(full.map.cellSize * 2)});
    return loadConfig(path, overrides);
}

/// The rivers preset's 256^2 corner at its own cell size: the same relief and erosion per cell
/// (erosion's slopes and drainage areas are in metres, so a coarser cell is another landscape),
/// a sixteenth of the cells. Two eroded stages of it take about 1 s in Release; the preset at
/// half size took 8 s a stage, which CI's sanitizer run cannot afford (issue 29's checks).
Config riversCorner(std::vector<std::string> overrides = {}) {
    const std::string path = (test::sourceDir() / "configs/rivers.json").string();
    overrides.insert(overrides.begin(), {"map.width=256", "map.height=256"});
    return loadConfig(path, overrides);
}

/// Mean height of the cells within `band` cells of any border, over the mean of the others.
double edgeToInterior(const std::vector<float>& z, std::int64_t w, std::int64_t h,
                      std::int64_t band) {
    double edge = 0, inside = 0;
    std::int64_t edges = 0, insides = 0;
    for (std::int64_t y = 0; y < h; ++y)
        for (std::int64_t x = 0; x < w; ++x) {
            const bool near = x < band || y < band || x >= w - band || y >= h - band;
            (near ? edge : inside) += z[std::size_t(y * w + x)];
            ++(near ? edges : insides);
        }
    return (edge / double(edges)) / (inside / double(insides));
}

/// The noise heights of the stage grid (factor 1): the eroded ones less erosion's change.
std::vector<float> noiseHeights(const HydrologyStage& s) {
    std::vector<float> z(s.erodedHeight.size());
    for (std::size_t i = 0; i < z.size(); ++i) z[i] = s.erodedHeight[i] - s.erosionDelta[i];
    return z;
}

TEST(ErosionEdgesTest, TheRiversPresetsEdgesStandAtLeast85PercentOfItsInteriorWithOpenEdges) {
    // Measured at the preset's own 1024^2, the 20 cells next to the border stand at 97.6 % of
    // the interior with open edges and 75.1 % with fixed ones (docs/hydrology.md); on its
    // 256^2 corner 103.0 % and 80.2 %, so this test asks for 85 % with open edges and a clear
    // gap to fixed ones.
    const HydrologyStage open = computeHydrology(riversCorner());
    ASSERT_EQ(open.factor, 1);
    const double ratio = edgeToInterior(open.erodedHeight, open.gridWidth, open.gridHeight, 20);
    EXPECT_GE(ratio, 0.85);
    // Edges held at their initial height while the land inside rises: the wall of issue 29.
    const HydrologyStage fixed = computeHydrology(riversCorner({"hydrology.outlets=\"edges\""}));
    EXPECT_LT(edgeToInterior(fixed.erodedHeight, fixed.gridWidth, fixed.gridHeight, 20),
              ratio - 0.1);
}

TEST(ErosionEdgesTest, TheIslandPresetsEdgesLoseNoMoreThanTheirNoiseAlreadyDoes) {
    // Their falloff sinks the edges into the sea on purpose: measured against the noise's own
    // edges, erosion must not lower them further than 85 % of that.
    for (const char* name : {"islands", "continent", "archipelago"}) {
        SCOPED_TRACE(name);
        const HydrologyStage s = computeHydrology(preset(name));
        const auto w = s.gridWidth, h = s.gridHeight;
        EXPECT_GE(edgeToInterior(s.erodedHeight, w, h, 20),
                  0.85 * edgeToInterior(noiseHeights(s), w, h, 20));
    }
}

/// Straight gullies: positions along the borders where the cells at every distance 1..length
/// from a border are each lower than both their neighbours along it (the bottom of a valley
/// that runs straight in from the border), counted over the four borders; and the same count
/// `inside` cells further in, where the relief is the map's own.
struct StraightGullies {
    std::int64_t atBorder = 0;
    std::int64_t inside = 0;
};

StraightGullies straightGullies(const std::vector<float>& z, std::int64_t w, std::int64_t h,
                                std::int64_t length, std::int64_t inside) {
    // Each side as (position along it, distance from it) -> cell.
    const auto cellOf = [&](int side, std::int64_t along, std::int64_t in) {
        switch (side) {
            case 0: return in * w + along;            // top
            case 1: return (h - 1 - in) * w + along;  // bottom
            case 2: return along * w + in;            // left
            default: return along * w + (w - 1 - in); // right
        }
    };
    StraightGullies g;
    for (int side = 0; side < 4; ++side) {
        const std::int64_t sideLength = side < 2 ? w : h;
        const auto valley = [&](std::int64_t a, std::int64_t in) {
            const float here = z[std::size_t(cellOf(side, a, in))];
            return here < z[std::size_t(cellOf(side, a - 1, in))] &&
                   here < z[std::size_t(cellOf(side, a + 1, in))];
        };
        const auto straight = [&](std::int64_t a, std::int64_t from) {
            for (std::int64_t in = from; in < from + length; ++in)
                if (!valley(a, in)) return false;
            return true;
        };
        for (std::int64_t a = 1; a + 1 < sideLength; ++a) {
            g.atBorder += straight(a, 1) ? 1 : 0;
            g.inside += straight(a, inside) ? 1 : 0;
        }
    }
    return g;
}

TEST(ErosionEdgesTest, NoCombOfStraightGulliesRunsIntoTheBordersWithOpenEdges) {
    // Measured at the preset's own 1024^2 (10 cells long): fixed edges 325 straight gullies at
    // the borders against 34 at 100 cells in, open edges 57 against 39. On its 256^2 corner:
    // 84 against 7, and 12 against 10.
    const HydrologyStage open = computeHydrology(riversCorner());
    const StraightGullies g =
        straightGullies(open.erodedHeight, open.gridWidth, open.gridHeight, 10, 100);
    EXPECT_LE(g.atBorder, 2 * std::max<std::int64_t>(g.inside, 5))
        << g.atBorder << " at the borders, " << g.inside << " inside";
    const HydrologyStage fixed = computeHydrology(riversCorner({"hydrology.outlets=\"edges\""}));
    const StraightGullies comb =
        straightGullies(fixed.erodedHeight, fixed.gridWidth, fixed.gridHeight, 10, 100);
    EXPECT_GT(comb.atBorder, 2 * comb.inside) << "the comb of fixed edges";
}

TEST(ErosionEdgesTest, WithSeaOutletsOnlyTheSeaDrains) {
    const Config config = preset("islands", {"hydrology.outlets=\"sea\""});
    const HydrologyStage s = computeHydrology(config);
    ASSERT_TRUE(s.hasSea);
    const std::size_t n = s.receiver.size();
    std::int64_t landOutlets = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (s.receiver[i] == hydro::kNoReceiver && s.erodedHeight[i] > s.seaLevelMeters &&
            std::isnan(s.lakeSurface[i]))
            ++landOutlets;
    EXPECT_EQ(landOutlets, 0) << "land cells that drain off the map";
    // A map whose sea is empty has nowhere for the water to go.
    EXPECT_THROW(computeHydrology(defaultConfig({"map.width=64", "map.height=64",
                                                 "hydrology.enabled=true",
                                                 "hydrology.sea_level=0.01",
                                                 "hydrology.outlets=\"sea\""})),
                 NoOutletError);
}

TEST(ErosionEdgesTest, WithoutErosionOpenAndEdgesAreTheSameWater) {
    const Config open = defaultConfig({"map.width=160", "map.height=128", "hydrology.enabled=true"});
    const Config edges = defaultConfig({"map.width=160", "map.height=128", "hydrology.enabled=true",
                                        "hydrology.outlets=\"edges\""});
    const HydrologyStage a = computeHydrology(open), b = computeHydrology(edges);
    EXPECT_EQ(a.receiver, b.receiver);
    EXPECT_EQ(a.lakes.id, b.lakes.id);
    EXPECT_EQ(0, std::memcmp(a.accumulation.data(), b.accumulation.data(),
                             a.accumulation.size() * sizeof(float)));
}

/// The preset's class shares and walkable share, as stats.json counts them.
struct Shares {
    double walkable = 0;
    std::map<std::string, double> byClass;
};

Shares sharesOf(const Config& config, const HydrologyStage& stage) {
    const Terrain terrain = makeTerrain(config, &stage);
    MapStats stats(terrain.classes().size());
    generateMap(config, &terrain, {&stats}, {}, &stage);
    Shares s;
    s.walkable = double(stats.walkableCells()) / double(stats.cells());
    for (std::size_t i = 0; i < terrain.classes().size(); ++i)
        s.byClass[terrain.classes()[i].name] = double(stats.classCells()[i]) / double(stats.cells());
    return s;
}

TEST(ErosionEdgesTest, TheRiversPresetIsMostlyWalkableWithPlausibleMountainsAndRiverShapedRelief) {
    // One stage each for the config and the earlier one: the erosion is this test's cost.
    const Config config = riversCorner();
    const HydrologyStage stage = computeHydrology(config);
    const Shares s = sharesOf(config, stage);
    EXPECT_GE(s.walkable, 0.40);
    EXPECT_LE(s.byClass.at("mountain"), 0.40);
    EXPECT_GT(s.byClass.at("mountain"), 0.0);
    ASSERT_TRUE(stage.facts.thetaValid);
    EXPECT_GE(stage.facts.theta, 0.35);
    EXPECT_LE(stage.facts.theta, 0.65);
    // Classes on the noise's scale, as before issue 29: more mountain than the target allows
    // (0.445 on this corner, against 0.145 now; 0.77 on the preset's own 1024^2), so the check
    // above fails on the earlier behaviour.
    const Config earlier = riversCorner({"terrain.eroded_heights=\"elevation_range\"",
                                             "hydrology.outlets=\"edges\""});
    const Shares before = sharesOf(earlier, computeHydrology(earlier));
    EXPECT_GT(before.byClass.at("mountain"), 0.40);
}

}  // namespace
}  // namespace terragrid
