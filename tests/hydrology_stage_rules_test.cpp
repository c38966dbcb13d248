// The rules a stage read from a file must obey (io/stage/hydrology_stage_rules.hpp): every stage
// computeHydrology makes obeys them all, and a stage file forged with valid checksums (written
// by the real writer, which computes them) that breaks any one of them is refused, naming the
// rule and the first cell that breaks it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "stage_file_support.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/io/hydrology_stage_file.hpp"
#include "terragrid/pipeline/hydrology_stage.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

using testing::HasSubstr;
using hydro::kNoReceiver;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

using test::stageConfig;

/// What reading `stage`, written for `config` by the real writer, says.
std::string problemReading(const Config& config, const HydrologyStage& stage) {
    test::TempDir dir;
    const std::string path = (dir / "forged.tgh").string();
    writeHydrologyStage(config, stage, path);
    try {
        readHydrologyStage(config, path);
    } catch (const HydrologyStageFileError& e) {
        return e.what();
    }
    return "read without complaint";
}

/// The same for a file whose bytes are `bytes`.
std::string problemReading(const Config& config, const std::string& bytes) {
    test::TempDir dir;
    const auto path = dir / "forged.tgh";
    std::ofstream(path, std::ios::binary) << bytes;
    try {
        readHydrologyStage(config, path.string());
    } catch (const HydrologyStageFileError& e) {
        return e.what();
    }
    return "read without complaint";
}

TEST(HydrologyStageRulesTest, EveryComputedStageObeysEveryRule) {
    // Sea or not, eroded or not, every grid factor and rainfall, narrow and tiny grids (all
    // border), at 1 and 2 threads: read back without complaint.
    const std::vector<std::vector<std::string>> settings{
        {"hydrology.sea_level=0.3"},
        {"hydrology.sea_level=0.3", "hydrology.erosion.enabled=true", "hydrology.erosion.steps=5"},
        {"hydrology.erosion.enabled=true", "hydrology.erosion.steps=3",
         "hydrology.rainfall=\"moisture\""},
        {"hydrology.resolution=3", "hydrology.rainfall=\"moisture\"", "hydrology.sea_level=0.2"},
        {"hydrology.resolution=7", "hydrology.erosion.enabled=true", "hydrology.erosion.steps=2"},
        {"map.width=3", "map.height=3"},
        {"map.width=2", "map.height=50", "hydrology.erosion.enabled=true",
         "hydrology.erosion.steps=2"},
        {"map.width=1", "map.height=9"},
    };
    for (const auto& overrides : settings)
        for (const int threads : {1, 2}) {
            const Config config = stageConfig(overrides);
            const HydrologyStage stage =
                test::inArena(threads, [&] { return computeHydrology(config); });
            EXPECT_EQ(problemReading(config, stage), "read without complaint")
                << testing::PrintToString(overrides) << " at " << threads << " threads";
        }
}

/// A forgery: what it changes in a computed stage, and what the refusal must say.
struct Forgery {
    std::string name;
    std::function<void(HydrologyStage&)> forge;
    std::string rule;   ///< after "breaks a rule every stage obeys, that "
    std::string where;  ///< a part of what follows
};

/// The cells of a stage by what they are, for the forgeries to pick from.
struct Cells {
    explicit Cells(const HydrologyStage& s) : s(s) {}
    const HydrologyStage& s;
    std::size_t count() const { return s.receiver.size(); }
    bool interior(std::size_t i) const {
        const auto x = std::int64_t(i) % s.gridWidth, y = std::int64_t(i) / s.gridWidth;
        return x > 0 && y > 0 && x < s.gridWidth - 1 && y < s.gridHeight - 1;
    }
    std::size_t first(const std::function<bool(std::size_t)>& wanted) const {
        for (std::size_t i = 0; i < count(); ++i)
            if (wanted(i)) return i;
        ADD_FAILURE() << "the stage has no such cell";
        return 0;
    }
    /// An interior cell with a receiver that is interior too.
    std::size_t flowingInside() const {
        return first([&](std::size_t i) {
            return interior(i) && s.receiver[i] != kNoReceiver && interior(s.receiver[i]) &&
                   s.lakes.id[i] == 0;
        });
    }
    /// The top left of 2 x 2 interior cells that all send their water on (none is an outlet).
    std::size_t flowingSquare() const {
        const auto w = std::size_t(s.gridWidth);
        return first([&](std::size_t i) {
            for (const std::size_t at : {i, i + 1, i + w, i + w + 1})
                if (at >= count() || !interior(at) || s.receiver[at] == kNoReceiver) return false;
            return true;
        });
    }
    /// A cell flowing inside the map into a cell that does too.
    std::size_t flowingTwice() const {
        return first([&](std::size_t i) {
            return interior(i) && s.receiver[i] != kNoReceiver && interior(s.receiver[i]) &&
                   s.receiver[s.receiver[i]] != kNoReceiver;
        });
    }
    std::size_t river() const {
        return first([&](std::size_t i) { return s.strahler[i] != 0; });
    }
    std::size_t lakeCell(std::uint32_t id) const {
        return first([&](std::size_t i) { return s.lakes.id[i] == id; });
    }
    std::size_t dryAndBelowThreshold(float threshold) const {
        return first([&](std::size_t i) {
            return interior(i) && s.lakes.id[i] == 0 && s.accumulation[i] <= threshold;
        });
    }
    std::string name(std::size_t i) const {
        return "hydrology cell (" + std::to_string(std::int64_t(i) % s.gridWidth) + ", " +
               std::to_string(std::int64_t(i) / s.gridWidth) + ")";
    }
};

/// Swaps lakes `a` and `b` everywhere: the same lakes under each other's numbers.
void swapLakes(HydrologyStage& s, std::uint32_t a, std::uint32_t b) {
    for (std::uint32_t& id : s.lakes.id)
        id = id == a ? b : id == b ? a : id;
    std::swap(s.lakes.surface[a], s.lakes.surface[b]);
    std::swap(s.lakes.outlet[a], s.lakes.outlet[b]);
}

/// Forgeries of the stage of a map with a sea, lakes and rivers, eroded (so its ground is in
/// the file) when `eroded`.
std::vector<Forgery> forgeries(const Config& config, const HydrologyStage& computed, bool eroded) {
    const Cells c(computed);
    const float threshold = hydrologyRiverThreshold(config);
    const auto width = std::size_t(computed.gridWidth);
    std::vector<Forgery> list{
        {"NaNFlow", [=](HydrologyStage& s) { s.accumulation[c.river()] = kNaN; },
         "its heights, levels and flows are finite numbers", "the flow of " + c.name(c.river()) +
                                                                 " is nan"},
        {"NegativeFlow", [=](HydrologyStage& s) { s.accumulation[5] = -1; },
         "its heights, levels and flows are finite numbers", " is -1"},
        {"NaNLakeLevel", [](HydrologyStage& s) { s.lakes.surface[1] = kNaN; },
         "its heights, levels and flows are finite numbers", "lake 1's level is nan"},
        {"ThetaNaNMarkedValid",
         [](HydrologyStage& s) {
             s.facts.thetaValid = true;
             s.facts.theta = std::nan("");
         },
         "its heights, levels and flows are finite numbers", "theta is nan, marked valid"},
        {"ReceiverOutsideTheGrid",
         [=](HydrologyStage& s) { s.receiver[c.flowingInside()] = std::uint32_t(c.count() + 7); },
         "water flows to one of a cell's 8 neighbours or leaves the map",
         c.name(c.flowingInside()) + " sends its water to cell " + std::to_string(c.count() + 7) +
             ", outside the grid's " + std::to_string(c.count()) + " cells"},
        {"ReceiverFarAway",
         [=](HydrologyStage& s) {
             s.receiver[c.flowingInside()] = std::uint32_t(c.flowingInside() + 2 * width);
         },
         "water flows to one of a cell's 8 neighbours or leaves the map",
         "not one of its neighbours"},
        {"ReceiverItself",
         [=](HydrologyStage& s) { s.receiver[c.flowingInside()] = std::uint32_t(c.flowingInside()); },
         "water flows to one of a cell's 8 neighbours or leaves the map", ", itself"},
        {"BorderCellWithAReceiver",
         [=](HydrologyStage& s) { s.receiver[width + 0] = std::uint32_t(width + 1); },
         "water leaves the map across its border and into the sea only",
         c.name(width) + ", on the border, sends its water to " + c.name(width + 1)},
        {"TwoCellLoop",
         [=](HydrologyStage& s) {
             const std::size_t i = c.flowingTwice();
             s.receiver[s.receiver[i]] = std::uint32_t(i);
         },
         "water never flows in a circle", "'s water comes back to it after 2 steps"},
        {"FourCellLoop",
         [=](HydrologyStage& s) {
             const std::size_t at = c.flowingSquare();
             s.receiver[at] = std::uint32_t(at + 1);
             s.receiver[at + 1] = std::uint32_t(at + 1 + width);
             s.receiver[at + 1 + width] = std::uint32_t(at + width);
             s.receiver[at + width] = std::uint32_t(at);
         },
         "water never flows in a circle", "'s water comes back to it after 4 steps"},
        {"FlowOffByOneUlp",
         [=](HydrologyStage& s) {
             float& flow = s.accumulation[c.river()];
             flow = std::nextafter(flow, 1e30f);
         },
         "a cell's flow is its rain", "that sum is"},
        {"Strahler255",
         [=](HydrologyStage& s) { s.strahler[c.river()] = 255; },
         "a river's Strahler order follows from the rivers draining into it",
         c.name(c.river()) + " has order 255, and the rivers draining into it give it order " +
             std::to_string(computed.strahler[c.river()])},
        {"RiverBelowTheThreshold",
         [=](HydrologyStage& s) { s.strahler[c.dryAndBelowThreshold(threshold)] = 1; },
         "its rivers are the cells outside lakes whose flow passes the river threshold",
         c.name(c.dryAndBelowThreshold(threshold)) + " has a flow of "},
        {"RiverInALake", [=](HydrologyStage& s) { s.strahler[c.lakeCell(1)] = 1; },
         "its rivers are the cells outside lakes whose flow passes the river threshold",
         "lies in lake 1 and Strahler order 1"},
        {"LakeBeyondTheTable",
         [=](HydrologyStage& s) { s.lakes.id[c.lakeCell(1)] = s.lakes.count() + 3; },
         "its lakes are level", " lies in lake " + std::to_string(computed.lakes.count() + 3) +
                                    " of " + std::to_string(computed.lakes.count())},
        {"LakesNumberedOutOfOrder", [](HydrologyStage& s) { swapLakes(s, 1, 2); },
         "its lakes are level", "is the first cell of lake 2, before any cell of lake 1"},
        {"ALakeWithoutCells",
         [](HydrologyStage& s) {
             s.lakes.surface.push_back(s.lakes.surface[1]);
             s.lakes.outlet.push_back(s.lakes.outlet[1]);
         },
         "its lakes are level", "has no cell"},
        {"WaterSurfaceOutsideLakes",
         [=](HydrologyStage& s) { s.lakeSurface[c.river()] = 100; },
         "its lakes are level", c.name(c.river()) + ", in no lake, has a water surface of 100 m"},
        {"WaterSurfaceOffTheLevel",
         [=](HydrologyStage& s) { s.lakeSurface[c.lakeCell(2)] += 1; },
         "its lakes are level", ", in lake 2 of level "},
        {"TwoLakesTouch",
         [=](HydrologyStage& s) {
             // A dry cell beside lake 2 joins lake 1 (whose first cell comes earlier).
             const std::size_t dry = c.first([&](std::size_t i) {
                 if (s.lakes.id[i] != 0 || !c.interior(i)) return false;
                 for (const std::size_t nb : {i - 1, i + 1, i - width, i + width})
                     if (s.lakes.id[nb] == 2) return true;
                 return false;
             });
             s.lakes.id[dry] = 1;
             s.lakeSurface[dry] = s.lakes.surface[1];
         },
         "its lakes are level", "touches lake"},
        {"OutletInsideItsLake",
         [=](HydrologyStage& s) { s.lakes.outlet[1] = std::uint32_t(c.lakeCell(1)); },
         "its lakes are level", "lake 1's outlet " + c.name(c.lakeCell(1)) + " lies in lake 1"},
        {"OutletOutsideTheGrid",
         [=](HydrologyStage& s) { s.lakes.outlet[1] = std::uint32_t(c.count()); },
         "its lakes are level", "lake 1's outlet is cell " + std::to_string(c.count()) +
                                    ", outside the grid"},
        {"UnusedLakeEntryChanged", [](HydrologyStage& s) { s.lakes.surface[0] = 5; },
         "its lakes are level", "unused entry 0"},
        {"LakeCountOff", [](HydrologyStage& s) { s.facts.lakes += 1; },
         "its figures for stats.json are those of its cells",
         "it counts " + std::to_string(computed.facts.lakes + 1) + " lakes, and its cells hold " +
             std::to_string(computed.facts.lakes)},
        {"LakeCellsOff", [](HydrologyStage& s) { s.facts.lakeCells += 1; },
         "its figures for stats.json are those of its cells", " map cells under lakes"},
        {"RiverCellsOff", [](HydrologyStage& s) { s.facts.riverCells -= 1; },
         "its figures for stats.json are those of its cells", " river cells"},
        {"SeaCellsOff", [](HydrologyStage& s) { s.facts.seaCells += 4; },
         "its figures for stats.json are those of its cells", "under the sea"},
        {"RiverLengthOff", [](HydrologyStage& s) { s.facts.riverLengthByOrder[0] += 1; },
         "its figures for stats.json are those of its cells", "river lengths by order"},
        {"AnOrderTooMany", [](HydrologyStage& s) { s.facts.riverLengthByOrder.push_back(0); },
         "its figures for stats.json are those of its cells", "river lengths by order"},
    };
    if (eroded) {
        const std::vector<Forgery> groundRules{
            {"NaNErosionDelta", [](HydrologyStage& s) { s.erosionDelta[17] = kNaN; },
             "its heights, levels and flows are finite numbers", "erosion's change of height at " +
                                                                     c.name(17) + " is nan"},
            {"InfiniteErodedHeight",
             [](HydrologyStage& s) { s.erodedHeight[33] = std::numeric_limits<float>::infinity(); },
             "its heights, levels and flows are finite numbers", "the eroded height of " +
                                                                     c.name(33) + " is inf"},
            {"OutletInsideTheMapAboveTheSea",
             [=](HydrologyStage& s) { s.receiver[c.flowingInside()] = kNoReceiver; },
             "water leaves the map across its border and into the sea only",
             c.name(c.flowingInside()) + " lets its water leave the map, inside it and above "
                                         "the sea"},
            {"SeaCellWithAReceiver",
             [=](HydrologyStage& s) {
                 const std::size_t sea = c.first([&](std::size_t i) {
                     return c.interior(i) && s.erodedHeight[i] <= s.seaLevelMeters;
                 });
                 s.receiver[sea] = std::uint32_t(sea + 1);
             },
             "water leaves the map across its border and into the sea only", " lies in the sea"},
            {"LakeBelowItsGround",
             [=](HydrologyStage& s) {
                 float lowest = 1e30f;
                 for (std::size_t i = 0; i < c.count(); ++i)
                     if (s.lakes.id[i] == 1) lowest = std::min(lowest, s.erodedHeight[i]);
                 s.lakes.surface[1] = lowest - 1;
                 for (std::size_t i = 0; i < c.count(); ++i)
                     if (s.lakes.id[i] == 1) s.lakeSurface[i] = lowest - 1;
             },
             "its lakes are level", " m is not above the ground "},
            {"OutletOffTheLevel",
             [=](HydrologyStage& s) {
                 s.lakes.outlet[1] = std::uint32_t(c.first([&](std::size_t i) {
                     return s.lakes.id[i] == 0 && s.erodedHeight[i] != s.lakes.surface[1];
                 }));
             },
             "its lakes are level", ", not at the lake's level "},
        };
        list.insert(list.end(), groundRules.begin(), groundRules.end());
    } else {
        list.push_back({"OutletInsideAMapWithoutASea",
                        [=](HydrologyStage& s) { s.receiver[c.flowingInside()] = kNoReceiver; },
                        "water leaves the map across its border and into the sea only",
                        c.name(c.flowingInside()) + " lets its water leave the map, inside a "
                                                    "map without a sea"});
    }
    return list;
}

class StageForgeryTest : public testing::TestWithParam<bool> {};

TEST_P(StageForgeryTest, AForgeryWithValidChecksumsIsRefusedNamingTheRuleAndTheCell) {
    const bool eroded = GetParam();
    // A sea, several lakes and rivers; the ground in the file when eroded.
    const Config config =
        eroded ? stageConfig({"seed=7", "hydrology.sea_level=0.3", "hydrology.erosion.enabled=true",
                              "hydrology.erosion.steps=2", "hydrology.min_lake_depth=0.01",
                              "hydrology.min_lake_area=0"})
               : stageConfig({"hydrology.min_lake_depth=0.01", "hydrology.min_lake_area=0"});
    const HydrologyStage computed = computeHydrology(config);
    ASSERT_GE(computed.lakes.count(), 2u);
    ASSERT_GT(computed.facts.riverCells, 0);
    ASSERT_EQ(problemReading(config, computed), "read without complaint");
    for (const Forgery& forgery : forgeries(config, computed, eroded)) {
        HydrologyStage forged = computed;
        forgery.forge(forged);
        const std::string message = problemReading(config, forged);
        EXPECT_THAT(message, HasSubstr("forged.tgh' breaks a rule every stage obeys, that " +
                                       forgery.rule))
            << forgery.name << ": " << message;
        EXPECT_THAT(message, HasSubstr(forgery.where)) << forgery.name << ": " << message;
    }
}

INSTANTIATE_TEST_SUITE_P(ErodedOrNot, StageForgeryTest, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                             return info.param ? "Eroded" : "NotEroded";
                         });

TEST(HydrologyStageRulesTest, MoistureRainBoundsTheFlow) {
    // With moisture the file does not hold each cell's rain: a flow between no rain and full
    // rain is accepted, one above is not.
    const Config config = stageConfig({"hydrology.rainfall=\"moisture\""});
    const HydrologyStage computed = computeHydrology(config);
    const Cells c(computed);
    HydrologyStage forged = computed;
    // A cell no water flows into, flowing into a later one (so the first sum that breaks is
    // its own).
    std::vector<std::uint8_t> donors(c.count(), 0);
    for (const std::uint32_t r : computed.receiver)
        if (r != kNoReceiver) ++donors[r];
    const std::size_t source = c.first([&](std::size_t i) {
        return c.interior(i) && donors[i] == 0 && computed.receiver[i] != kNoReceiver &&
               computed.receiver[i] > i;
    });
    forged.accumulation[source] = hydrologyCellRain(config) * 1.5f;
    const std::string message = problemReading(config, forged);
    EXPECT_THAT(message, HasSubstr("breaks a rule every stage obeys, that a cell's flow is its "
                                   "rain (1 map cells' worth at most) plus the flows"));
    EXPECT_THAT(message, HasSubstr(c.name(source) + " has a flow of 1.5, and that sum lies "
                                   "between 0 and 1"));
}

// --- the header's own fields ------------------------------------------------------------------

class StageHeaderForgeryTest : public testing::Test {
protected:
    void SetUp() override {
        test::TempDir dir;
        const std::string path = (dir / "stage.tgh").string();
        writeHydrologyStage(m_config, computeHydrology(m_config), path);
        m_bytes = test::readFile(path);
        ASSERT_EQ(problemReading(m_config, m_bytes), "read without complaint");
    }
    Config m_config = stageConfig({"hydrology.sea_level=0.3"});
    std::string m_bytes;
};

TEST_F(StageHeaderForgeryTest, AnotherSeaIsRefused) {
    HydrologyStage stage = computeHydrology(m_config);
    stage.seaLevelMeters += 1;
    EXPECT_THAT(problemReading(m_config, stage),
                testing::MatchesRegex(".*forged.tgh' holds a sea at [0-9.]+ m, and this config's "
                                      "stage has a sea at [0-9.]+ m"));
    stage = computeHydrology(m_config);
    stage.hasSea = false;
    EXPECT_THAT(problemReading(m_config, stage),
                testing::MatchesRegex(".*forged.tgh' holds no sea \\(level [0-9.]+ m\\), and "
                                      "this config's stage has a sea at [0-9.]+ m"));
}

TEST_F(StageHeaderForgeryTest, FieldsFormatVersionTwoNeverWritesAreRefused) {
    std::string bytes = m_bytes;
    bytes[test::kStageThetaValidAt] = 2;
    EXPECT_THAT(problemReading(m_config, test::withHeaderCrc(bytes)),
                HasSubstr("has 2 for a yes-or-no field (theta valid)"));
    for (const std::size_t at : {test::kStagePaddingAt, test::kStagePaddingAt + 5,
                                 test::kStageSectionTableAt + 4,
                                 test::kStageSectionTableAt + 24 * 9 + 20}) {
        bytes = m_bytes;
        bytes[at] = 1;
        EXPECT_THAT(problemReading(m_config, test::withHeaderCrc(bytes)),
                    HasSubstr("has bytes in its header where format version 3 writes zeros"))
            << at;
    }
}

TEST_F(StageHeaderForgeryTest, AFormatVersionOneFileIsRefusedNamingBothVersions) {
    // Version 1 held the stage's step times; a file of it is made again, not read.
    std::string bytes = m_bytes;
    const std::uint32_t one = 1;
    std::memcpy(bytes.data() + test::kStageFormatVersionAt, &one, 4);
    EXPECT_THAT(problemReading(m_config, bytes),
                HasSubstr("has stage format version 1, and this terragrid reads version 3 only; "
                          "make the stage again with this terragrid's 'hydrology-stage'"));
}

TEST_F(StageHeaderForgeryTest, ASectionForgedInPlaceIsRefusedByTheRules) {
    // The bytes themselves, CRCs recomputed: what a forger without terragrid would write.
    auto receivers = test::sectionValues<std::uint32_t>(m_bytes, test::StageSection::Receiver);
    const HydrologyStage stage = computeHydrology(m_config);
    const std::size_t i = Cells(stage).flowingTwice();
    receivers[receivers[i]] = std::uint32_t(i);
    EXPECT_THAT(problemReading(m_config, test::withSection(m_bytes, test::StageSection::Receiver,
                                                           receivers)),
                HasSubstr("breaks a rule every stage obeys, that water never flows in a circle"));
}

}  // namespace
}  // namespace terragrid
