// --dry-run and the check before a run (plan.hpp) through the real terragrid binary: the plan
// is printed and nothing created; a run that needs more disk or memory than there is exits 2
// before creating anything, with the estimate in the message; the memory estimate is above
// the peak RSS real runs reach.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/app/hydrology_stage_job.hpp"
#include "terragrid/app/plan.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

using testing::HasSubstr;
using testing::IsEmpty;

/// output.files with every output, the water outputs included (they need hydrology).
const std::string kEveryFile = [] {
    std::string files = "output.files=[";
    for (const auto name : kOutputFileNames)
        files += (files.back() == '[' ? "\"" : ", \"") + std::string(name) + "\"";
    return files + "]";
}();

test::ChildResult terragrid(const test::TempDir& dir, std::vector<std::string> args) {
    return test::runChild({dir.path(), std::move(args)});
}


TEST(DryRunTest, PrintsThePlanAndCreatesNothing) {
    test::TempDir dir;
    const auto r = terragrid(dir, {"--width", "4096", "--height", "2048", "--out-dir", "new/out",
                                   "--threads", "2", "--dry-run", "--set",
                                   "hydrology.enabled=true", "--set", "climate.enabled=true", "--set", kEveryFile});
    ASSERT_EQ(r.exit.shellCode(), 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_THAT(r.out, HasSubstr("map:     4096 x 2048 cells, 128 tiles of 256, 2 threads\n"));
    for (const auto entry : kOutputFileNames)
        EXPECT_THAT(r.out, HasSubstr("new/out/" + test::firstFileOf(entry))) << entry;
    EXPECT_THAT(r.out, HasSubstr("new/out/height.r16"));
    EXPECT_THAT(r.out, HasSubstr("(compressed)"));
    EXPECT_THAT(r.out, testing::ContainsRegex("new/out/rivers.geojson +up to [0-9.]+ [KMG]iB "
                                              "\\(most water\\)\n"));
    EXPECT_THAT(r.out, testing::ContainsRegex("disk:    up to [0-9.]+ [KMG]iB; [0-9.]+ [KMGT]iB "
                                              "free in '[^']+'\n"));
    EXPECT_THAT(r.out, testing::ContainsRegex("memory:  up to [0-9.]+ [MG]iB \\(program .*\\); "
                                              "[0-9.]+ [MGT]iB available\n"));
    EXPECT_THAT(r.out, HasSubstr("fits:    yes\n"));
    EXPECT_THAT(r.out, testing::ContainsRegex("overviews [0-9.]+ [KMG]iB"));
    // The whole-map stage: 4096 x 2048 hydrology cells at 60 bytes each, and 72 more for the
    // climate's passes and the water balance (hydrology_stage.cpp): 1056 MiB.
    EXPECT_THAT(r.out, HasSubstr("hydrology stage 1.0 GiB"));
    EXPECT_THAT(test::listDir(dir.path()), IsEmpty());
}

TEST(DryRunTest, JsonDescribesTheWindowAndEveryOutput) {
    test::TempDir dir;
    const auto r = terragrid(dir, {"--width", "1000", "--height", "800", "--tile-size", "100",
                                   "--shard", "1/4", "--dry-run=json", "--set",
                                   "hydrology.enabled=true", "--set", "climate.enabled=true", "--set", kEveryFile});
    ASSERT_EQ(r.exit.shellCode(), 0) << r.err;
    const auto plan = nlohmann::json::parse(r.out);
    EXPECT_EQ(plan["map"]["width"], 1000);
    EXPECT_EQ(plan["window"]["row"], 200);
    EXPECT_EQ(plan["window"]["height"], 200);
    EXPECT_EQ(plan["tiles"], 20);
    EXPECT_EQ(plan["outputs"].size(), kOutputFileNames.size());
    std::uint64_t sum = 0;
    for (const auto& output : plan["outputs"]) sum += output["bytes"].get<std::uint64_t>();
    // And manifest.json (output.manifest, on by default), the run's last file.
    ASSERT_TRUE(plan["manifest"].is_object()) << plan.dump(2);
    sum += plan["manifest"]["bytes"].get<std::uint64_t>();
    EXPECT_EQ(plan["disk"]["bytes"], sum);
    EXPECT_TRUE(plan["fits"].get<bool>());
    EXPECT_THAT(test::listDir(dir.path()), IsEmpty());
    EXPECT_EQ(terragrid(dir, {"--dry-run=yaml"}).exit.shellCode(), 2);
}

TEST(DryRunTest, RunNeedingMoreDiskThanIsFreeExitsTwoBeforeCreatingAnything) {
    test::TempDir dir;
    // 2^40 cells of Float32: 4 TiB of height.tif, uncompressed and without overviews.
    const std::vector<std::string> args{"--width", "1048576", "--height", "1048576",
                                        "--set", R"(output.files=["height.tif"])",
                                        "--set", "output.compression=none",
                                        "--set", "output.layout=plain", "--out-dir", "out"};
    const Resources resources = probeResources(dir.path().string());
    if (!resources.freeDiskBytes || *resources.freeDiskBytes > (4ull << 40))
        GTEST_SKIP() << "more than 4 TiB free";
    const auto r = terragrid(dir, args);
    EXPECT_EQ(r.exit.shellCode(), 2);
    EXPECT_THAT(r.err, testing::MatchesRegex("terragrid: error: the run needs 4\\.0 TiB on "
                                             "disk in 'out' for its uncompressed outputs alone, "
                                             "but only [0-9.]+ [KMGT]iB are free "
                                             "there \\(on '\\.'\\); [^\n]*\n"));
    EXPECT_THAT(test::listDir(dir.path()), IsEmpty());

    auto dryArgs = args;
    dryArgs.push_back("--dry-run");
    const auto dry = terragrid(dir, dryArgs);
    EXPECT_EQ(dry.exit.shellCode(), 2);  // what the run would do
    EXPECT_THAT(dry.out, HasSubstr("fits:    no\n"));
    EXPECT_EQ(dry.err, r.err);
    EXPECT_THAT(test::listDir(dir.path()), IsEmpty());
}

TEST(DryRunTest, RunNeedingMoreMemoryThanIsAvailableExitsTwoBeforeCreatingAnything) {
    test::TempDir dir;
    // The walkable regions take 2 bits a cell: 256 GiB for 2^40 cells; stats.json is small.
    const Resources resources = probeResources(dir.path().string());
    if (!resources.availableMemoryBytes || *resources.availableMemoryBytes > (256ull << 30))
        GTEST_SKIP() << "more than 256 GiB of memory available";
    const auto r = terragrid(dir, {"--width", "1048576", "--height", "1048576", "--set",
                                   R"(output.files=["stats.json"])"});
    EXPECT_EQ(r.exit.shellCode(), 2);
    EXPECT_THAT(r.err, testing::MatchesRegex("terragrid: error: the run needs up to 256\\.[0-9] "
                                             "GiB of memory, but only [0-9.]+ [KMG]iB are "
                                             "available; [^\n]*\n"));
    EXPECT_THAT(test::listDir(dir.path()), IsEmpty());
}

/// The dry run's memory estimate for `args`, and the peak RSS of the real run.
std::pair<std::uint64_t, std::uint64_t> estimateAndPeak(std::vector<std::string> args) {
    test::TempDir dir;
    const auto real = terragrid(dir, args);
    EXPECT_EQ(real.exit.shellCode(), 0) << real.err;
    args.push_back("--dry-run=json");
    const auto dry = terragrid(dir, args);
    const auto estimate = nlohmann::json::parse(dry.out)["memory"]["bytes"].get<std::uint64_t>();
    return {estimate, std::uint64_t(real.exit.maxRssKiB) * 1024};
}

TEST(DryRunTest, MemoryEstimateIsAboveThePeakOfRealRuns) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--width", "800", "--height", "600", "--threads", "2", "-q"},
          {"--width", "2000", "--height", "1000", "--threads", "2", "-q", "--set",
           R"(output.files=["height.tif", "stats.json"])"},
          {"--width", "1500", "--height", "500", "--tile-size", "100", "--threads", "2", "-q",
           "--set", R"(output.files=["classes.tif", "height16.png", "map.tmj"])"},
          // The climate stage alone (no hydrology) and its two rasters.
          {"--width", "1024", "--height", "768", "--threads", "2", "-q", "--set",
           "climate.enabled=true", "--set",
           R"(output.files=["classes.tif", "temperature.tif", "precipitation.tif"])"}}) {
        const auto [estimate, peak] = estimateAndPeak(args);
        EXPECT_GE(estimate, peak) << testing::PrintToString(args);
        // An estimate, not a blanket: within a few times the real peak.
        EXPECT_LT(estimate, 3 * peak + (32u << 20)) << testing::PrintToString(args);
    }
}

/// Water outputs of the hydrology runs below.
const std::string kWaterFiles =
    R"(output.files=["height.tif", "classes.tif", "stats.json", "flow.tif", "water.tif", )"
    R"("water_depth.tif", "rivers.geojson", "lakes.geojson", "water_mask.png", "preview.png"])";

TEST(DryRunTest, MemoryEstimateIsAboveThePeakOfRealRunsWithHydrology) {
    const std::vector<std::string> common{"--width", "1024", "--height", "768", "--threads",
                                          "2", "-q", "--set", "hydrology.enabled=true",
                                          "--set", kWaterFiles};
    for (const std::vector<std::string>& extra :
         // Without erosion the raw noise is full of pits: many lakes.
         {std::vector<std::string>{"--set", "hydrology.min_lake_area=0"},
          // Erosion's arrays: the steps change its time, not its memory.
          {"--set", "hydrology.erosion.enabled=true", "--set", "hydrology.erosion.steps=3"},
          {"--set", "hydrology.resolution=2", "--set", "hydrology.rainfall=moisture",
           "--set", "hydrology.sea_level=0.3"},
          // The climate inside the stage: its passes and the water balance's lakes.
          {"--set", "climate.enabled=true"}}) {
        std::vector<std::string> args = common;
        args.insert(args.end(), extra.begin(), extra.end());
        const auto [estimate, peak] = estimateAndPeak(args);
        EXPECT_GE(estimate, peak) << testing::PrintToString(extra);
        EXPECT_LT(estimate, 3 * peak + (32u << 20)) << testing::PrintToString(extra);
    }
}

TEST(DryRunTest, MemoryEstimateIsAboveThePeakOfTheStageCommandAndOfRunsReadingIt) {
    test::TempDir dir;
    const std::vector<std::string> map{"--width", "1536", "--height", "1024", "--threads", "2",
                                       "-q", "--set", "hydrology.enabled=true", "--set",
                                       "hydrology.erosion.enabled=true", "--set",
                                       "hydrology.erosion.steps=3"};
    std::vector<std::string> stageArgs{"hydrology-stage", "--out", "stage.tgh"};
    stageArgs.insert(stageArgs.end(), map.begin(), map.end());
    const auto stage = terragrid(dir, stageArgs);
    ASSERT_EQ(stage.exit.shellCode(), 0) << stage.err;
    const StagePlan plan =
        planStage(defaultConfig({"map.width=1536", "map.height=1024", "hydrology.enabled=true",
                                 "hydrology.erosion.enabled=true"}),
                  "stage.tgh", 2);
    const auto stagePeak = std::uint64_t(stage.exit.maxRssKiB) * 1024;
    EXPECT_GE(plan.memoryBytes, stagePeak);
    EXPECT_LT(plan.memoryBytes, 3 * stagePeak);
    EXPECT_LE(std::filesystem::file_size(dir / "stage.tgh"), plan.fileBytes);

    // A shard reading the stage holds the finished stage, not what computing it takes.
    std::vector<std::string> shard = map;
    shard.insert(shard.end(), {"--shard", "1/4", "--hydrology-stage",
                               (dir / "stage.tgh").string(), "--set", kWaterFiles});
    const auto [estimate, peak] = estimateAndPeak(shard);
    EXPECT_GE(estimate, peak);
    EXPECT_LT(estimate, 3 * peak + (32u << 20));
    // ... less than the same shard computing the stage would.
    std::vector<std::string> computing = map;
    computing.insert(computing.end(),
                     {"--shard", "1/4", "--set", kWaterFiles, "--dry-run=json"});
    const auto dry = terragrid(dir, computing);
    EXPECT_LT(estimate, nlohmann::json::parse(dry.out)["memory"]["bytes"].get<std::uint64_t>());
}

// rivers.geojson and lakes.geojson: how much water there is is known only once the stage
// has run, so their bounds are of the most water the map can hold. Real files stay below them
// on maps made to hold much water (a river wherever water flows, every pit a lake), with long
// coordinates and on a coarse grid; with a river through every cell, the rivers' bound is
// within a few times the file where the coordinates are round numbers (the bound takes every
// point at the longest text of the map's coordinates, as 0.44999999999999996 is).
TEST(DryRunTest, WaterVectorBoundsHoldTheMostWaterTheMapCanHold) {
    const std::vector<std::string> most{"--set", "hydrology.enabled=true", "--set",
                                        "hydrology.river_threshold=0.01", "--set",
                                        "hydrology.min_lake_area=0", "--set",
                                        R"(output.files=["rivers.geojson", "lakes.geojson"])"};
    struct Case {
        std::vector<std::string> map;
        bool roundCoordinates = true;
    };
    for (const auto& [map, roundCoordinates] :
         {Case{{"--width", "300", "--height", "200"}},
          Case{{"--width", "257", "--height", "131", "--set", "map.cell_size=0.3", "--set",
                "map.origin=[0.1, 0.7]"},
               false},
          Case{{"--width", "400", "--height", "300", "--set", "hydrology.resolution=3"}},
          Case{{"--width", "200", "--height", "200", "--set", "hydrology.sea_level=0.4",
                "--set", "hydrology.erosion.enabled=true", "--set",
                "hydrology.erosion.steps=5"}}}) {
        test::TempDir dir;
        std::vector<std::string> args = map;
        args.insert(args.end(), most.begin(), most.end());
        args.insert(args.end(), {"--out-dir", "out", "-q"});
        const auto real = terragrid(dir, args);
        ASSERT_EQ(real.exit.shellCode(), 0) << real.err;
        args.push_back("--dry-run=json");
        const auto plan = nlohmann::json::parse(terragrid(dir, args).out);
        for (const auto& output : plan["outputs"]) {
            const auto bound = output["bytes"].get<std::uintmax_t>();
            const auto bytes = std::filesystem::file_size(dir / output["path"].get<std::string>());
            EXPECT_TRUE(output["most_water"].get<bool>());
            EXPECT_FALSE(output["compressed"].get<bool>());
            EXPECT_LE(bytes, bound) << output["path"] << testing::PrintToString(map);
            if (output["file"] == "rivers.geojson" && roundCoordinates) {
                EXPECT_LT(bound, 8 * bytes) << testing::PrintToString(map);
            }
        }
    }
}

}  // namespace
}  // namespace terragrid
