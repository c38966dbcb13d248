// The two-step job array through the real CLI: `terragrid hydrology-stage` writes the stage
// once, pieces read it with --hydrology-stage and write the same bytes as pieces that compute
// it (and so the same cells as the whole map); a stage file of another map, a damaged one, or
// one given to a map without hydrology is refused with exit 2 before anything is created; the
// stage file is written atomically.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "child_process.hpp"
#include "stage_file_support.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

using nlohmann::json;
using test::runCommand;
using test::shellQuote;
using testing::HasSubstr;
using testing::IsEmpty;

const std::string kStageWaterFiles =
    "'output.files=[\"height.tif\", \"classes.tif\", \"walkable.tif\", \"stats.json\", "
    "\"flow.tif\", \"water.tif\", \"water_depth.tif\", \"rivers.geojson\", \"lakes.geojson\", "
    "\"water_mask.png\", \"preview.png\"]'";

/// The map of these tests: 240 x 180 with hydrology, in tiles of 32.
const std::string kMap =
    " --width 240 --height 180 --seed 13 --tile-size 32 --set hydrology.enabled=true"
    " --set hydrology.river_threshold=180000 --set hydrology.sea_level=0.3";

void writeFile(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

test::CommandResult terragrid(const test::TempDir& dir, const std::string& args) {
    return runCommand("cd " + shellQuote(dir.path().string()) + " && " +
                      shellQuote(test::cliPath()) + " " + args);
}

/// The files of `dir`, stats.json without its timings (the only part that may differ).
std::map<std::string, std::string> outputsOf(const std::filesystem::path& dir) {
    return test::withoutTimings(test::snapshotDir(dir));
}

TEST(HydrologyStageCliTest, PiecesReadingTheStageFileWriteTheBytesOfPiecesComputingIt) {
    for (const std::string& settings :
         {std::string(" --set hydrology.resolution=1"),
          std::string(" --set hydrology.resolution=4 --set hydrology.erosion.enabled=true"
                      " --set hydrology.erosion.steps=10")}) {
        test::TempDir dir;
        const auto stage = terragrid(dir, "hydrology-stage" + kMap + settings +
                                              " --out stage.tgh --threads 2");
        ASSERT_EQ(stage.exitCode, 0) << stage.err;
        EXPECT_THAT(stage.out, testing::MatchesRegex("terragrid: hydrology stage of 240 x 180 "
                                                     "cells.* -> stage.tgh \\([0-9.]+ KiB\\)\n"));
        EXPECT_EQ(test::listDir(dir.path()), std::vector<std::string>{"stage.tgh"});
        for (const char* piece : {"", " --shard 0/3", " --shard 2/3",
                                        " --region 37,51,120,90"}) {
            const std::string args = kMap + settings + piece + " -q --set " + kStageWaterFiles;
            const auto computed = terragrid(dir, args + " --out-dir computed --threads 1");
            ASSERT_EQ(computed.exitCode, 0) << computed.err;
            // Other threads and tiles too: the stage read is the stage computed.
            const auto read = terragrid(dir, args + " --out-dir read --threads 2"
                                                    " --set map.tile_size=64"
                                                    " --hydrology-stage stage.tgh");
            ASSERT_EQ(read.exitCode, 0) << read.err;
            const auto expected = outputsOf(dir / "computed");
            // The eleven asked for, classes.tif.aux.xml, water.tif.aux.xml and water.qml, and
            // a world file and a GDAL sidecar for each of the two PNGs, and manifest.json.
            ASSERT_EQ(expected.size(), 19u);
            EXPECT_EQ(outputsOf(dir / "read"), expected) << piece << settings;
            // The pieces did read the file: they did not time the stage's steps, and the file
            // holds no times (null), where a piece computing the stage times them.
            EXPECT_TRUE(json::parse(test::readFile(dir / "read/stats.json"))["hydrology"]
                            ["timing_seconds"].is_null()) << piece << settings;
            EXPECT_TRUE(json::parse(test::readFile(dir / "computed/stats.json"))["hydrology"]
                            ["timing_seconds"]["total"].is_number()) << piece << settings;
            std::filesystem::remove_all(dir / "computed");
            std::filesystem::remove_all(dir / "read");
        }
    }
}

TEST(HydrologyStageCliTest, TheSameConfigGivesTheSameStageFileBytesAtAnyThreadCount) {
    // No time, path or host in the file: two runs, one and two threads, the same bytes.
    for (const std::string& settings :
         {std::string(" --set hydrology.sea_level=0.3"),
          std::string(" --set hydrology.resolution=3 --set hydrology.erosion.enabled=true"
                      " --set hydrology.erosion.steps=10 --set hydrology.rainfall=moisture")}) {
        test::TempDir dir;
        std::vector<std::string> files;
        for (const char* threads : {"1", "2", "2"}) {
            const auto r = terragrid(dir, std::string("hydrology-stage -q --out stage.tgh") +
                                              kMap + settings + " --threads " + threads);
            ASSERT_EQ(r.exitCode, 0) << r.err;
            files.push_back(test::readFile(dir / "stage.tgh"));
        }
        EXPECT_EQ(files[1], files[0]) << "1 and 2 threads" << settings;
        EXPECT_EQ(files[2], files[1]) << "two runs" << settings;
    }
}

TEST(HydrologyStageCliTest, AForgedStageFileWithValidChecksumsIsRefusedWithExitTwo) {
    // NaN flows, water that flows in a circle, a Strahler order of 255: each section's CRC-32
    // and the header's recomputed, as a forger would.
    test::TempDir dir;
    ASSERT_EQ(terragrid(dir, "hydrology-stage -q --out stage.tgh" + kMap).exitCode, 0);
    const std::string bytes = test::readFile(dir / "stage.tgh");
    using test::StageSection;
    const auto receivers = test::sectionValues<std::uint32_t>(bytes, StageSection::Receiver);
    auto flows = test::sectionValues<float>(bytes, StageSection::Accumulation);
    auto orders = test::sectionValues<std::uint8_t>(bytes, StageSection::Strahler);
    const auto river = std::size_t(std::max_element(orders.begin(), orders.end()) - orders.begin());
    ASSERT_GT(orders[river], 0);
    flows[river] = std::numeric_limits<float>::quiet_NaN();
    orders[river] = 255;
    // Two cells inside the map sending their water to each other.
    auto looped = receivers;
    const std::size_t width = 240;
    const std::size_t inside = 90 * width + 120;
    looped[inside] = std::uint32_t(inside + 1);
    looped[inside + 1] = std::uint32_t(inside);
    const std::pair<std::string, std::string> cases[] = {
        {test::withSection(bytes, StageSection::Accumulation, flows),
         "breaks a rule every stage obeys, that its heights, levels and flows are finite "
         "numbers, flows never negative: the flow of hydrology cell ("},
        {test::withSection(bytes, StageSection::Receiver, looped),
         "breaks a rule every stage obeys, that water never flows in a circle: hydrology cell "
         "(120, 90)'s water comes back to it after 2 steps"},
        {test::withSection(bytes, StageSection::Strahler, orders),
         "breaks a rule every stage obeys, that a river's Strahler order follows from the "
         "rivers draining into it: hydrology cell ("},
    };
    for (const auto& [contents, problem] : cases) {
        writeFile(dir / "forged.tgh", contents);
        const auto r = terragrid(dir, kMap + " --hydrology-stage forged.tgh --out-dir out");
        EXPECT_EQ(r.exitCode, 2) << problem;
        EXPECT_THAT(r.err, HasSubstr("terragrid: error: '--hydrology-stage': hydrology stage "
                                     "file 'forged.tgh' " + problem)) << r.err;
        EXPECT_FALSE(std::filesystem::exists(dir / "out")) << problem;
    }
}

TEST(HydrologyStageCliTest, AStageFileOfAnotherMapIsRefusedBeforeAnythingIsCreated) {
    test::TempDir dir;
    ASSERT_EQ(terragrid(dir, "hydrology-stage -q --out stage.tgh" + kMap).exitCode, 0);
    for (const char* other :
         {" --set seed=14", " --set map.width=241", " --set hydrology.min_lake_depth=3"}) {
        const auto r = terragrid(dir, kMap + other + " --hydrology-stage stage.tgh --out-dir out");
        EXPECT_EQ(r.exitCode, 2) << other;
        EXPECT_THAT(r.err, testing::MatchesRegex(
                               "terragrid: error: '--hydrology-stage': hydrology stage file "
                               "'stage.tgh' was made for another map: its hydrology hash is "
                               "[0-9a-f]{16}, this config's is [0-9a-f]{16} \\(.*\\)\n"))
            << other;
        // --dry-run tells it as the run would.
        const auto dry = terragrid(dir, kMap + other + " --hydrology-stage stage.tgh --dry-run");
        EXPECT_EQ(dry.exitCode, 2) << other;
        EXPECT_EQ(dry.err, r.err) << other;
        EXPECT_EQ(test::listDir(dir.path()), std::vector<std::string>{"stage.tgh"}) << other;
    }
}

TEST(HydrologyStageCliTest, ADamagedOrTruncatedStageFileIsRefusedWithExitTwo) {
    test::TempDir dir;
    ASSERT_EQ(terragrid(dir, "hydrology-stage -q --out stage.tgh" + kMap).exitCode, 0);
    const std::string bytes = test::readFile(dir / "stage.tgh");
    const std::string cut = bytes.substr(0, bytes.size() - 100);
    std::string damaged = bytes;
    damaged[damaged.size() / 2] ^= 0x40;
    std::string later = bytes;
    later[test::kStageFormatVersionAt] = 4;  // the format version, little-endian
    const std::pair<std::string, std::string> cases[] = {
        {later, "has stage format version 4, and this terragrid reads version 3 only"},
        {test::withAlgorithmVersion(bytes, 0),
         "was made by hydrology algorithm version 0, and this terragrid's is "},
        {cut, "is truncated: it holds " + std::to_string(cut.size()) +
                  " bytes, and its header describes " + std::to_string(bytes.size())},
        {damaged, "is damaged: its "},
        {"not a stage", "is not a hydrology stage file"}};
    for (const auto& [contents, problem] : cases) {
        writeFile(dir / "bad.tgh", contents);
        const auto r = terragrid(dir, kMap + " --hydrology-stage bad.tgh --out-dir out");
        EXPECT_EQ(r.exitCode, 2) << problem;
        EXPECT_THAT(r.err, HasSubstr("terragrid: error: '--hydrology-stage': hydrology stage "
                                     "file 'bad.tgh' " + problem));
        EXPECT_FALSE(std::filesystem::exists(dir / "out")) << problem;
    }
    const auto missing = terragrid(dir, kMap + " --hydrology-stage none.tgh --out-dir out");
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_THAT(missing.err, HasSubstr("'none.tgh' cannot be read: No such file or directory"));
}

TEST(HydrologyStageCliTest, WithoutHydrologyThereIsNoStageToWriteOrRead) {
    test::TempDir dir;
    const auto write = terragrid(dir, "hydrology-stage --out stage.tgh --width 64 --height 64");
    EXPECT_EQ(write.exitCode, 2);
    EXPECT_THAT(write.err, HasSubstr("'terragrid hydrology-stage' needs hydrology.enabled true "
                                     "(got false)"));
    EXPECT_THAT(write.err, HasSubstr("Try 'terragrid hydrology-stage --help'."));
    const auto read = terragrid(dir, "--width 64 --height 64 --hydrology-stage stage.tgh");
    EXPECT_EQ(read.exitCode, 2);
    EXPECT_THAT(read.err, HasSubstr("'--hydrology-stage' needs hydrology.enabled true (got "
                                    "false)"));
    const auto noOut = terragrid(dir, "hydrology-stage" + kMap);
    EXPECT_EQ(noOut.exitCode, 2);
    EXPECT_THAT(noOut.err, HasSubstr("'terragrid hydrology-stage' needs '--out FILE'"));
    EXPECT_THAT(test::listDir(dir.path()), IsEmpty());
}

TEST(HydrologyStageCliTest, AFailedWriteLeavesTheOlderStageFileAndNoTemporaryFile) {
    test::TempDir dir;
    const auto first = terragrid(dir, "hydrology-stage -q --out stage.tgh" + kMap + " --set seed=1");
    ASSERT_EQ(first.exitCode, 0) << first.err;
    const std::string older = test::readFile(dir / "stage.tgh");
    std::vector<std::string> args{"hydrology-stage", "--out", "stage.tgh", "--width", "240",
                                  "--height", "180", "--set", "hydrology.enabled=true"};
    // The file size limit stops the write half-way (EFBIG), as a full disk would (ENOSPC).
    const auto r = test::runChild({dir.path(), args, older.size() / 2});
    EXPECT_EQ(r.exit.shellCode(), 1) << r.err;
    EXPECT_THAT(r.err, testing::MatchesRegex("terragrid: error: writing 'stage.tgh': File too "
                                             "large\n"));
    EXPECT_EQ(test::listDir(dir.path()), std::vector<std::string>{"stage.tgh"});
    EXPECT_EQ(test::readFile(dir / "stage.tgh"), older);
    // A directory that does not exist: refused before the stage (exit 2), nothing created
    // (hydrology_stage_paths_test.cpp has every such name).
    args[2] = "missing/stage.tgh";
    const auto missing = test::runChild({dir.path(), args});
    EXPECT_EQ(missing.exit.shellCode(), 2);
    EXPECT_THAT(missing.err, HasSubstr("'--out missing/stage.tgh', 'missing', does not exist"));
    EXPECT_EQ(test::listDir(dir.path()), std::vector<std::string>{"stage.tgh"});
}

TEST(HydrologyStageCliTest, AStageThatCannotFitIsRefusedBeforeAnythingIsComputed) {
    test::TempDir dir;
    // About 290 MiB of address space; the stage of 8192 x 8192 cells plans 3.75 GiB.
    const auto r = runCommand("cd " + shellQuote(dir.path().string()) + " && ulimit -v 300000 && " +
                              shellQuote(test::cliPath()) +
                              " hydrology-stage --out stage.tgh --width 8192 --height 8192"
                              " --set hydrology.enabled=true --set hydrology.resolution=1");
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_THAT(r.err, testing::MatchesRegex(
                           "terragrid: error: computing the hydrology stage needs up to 3\\.8 GiB "
                           "of memory, but only [0-9.]+ [KM]iB are available under the "
                           "process's ulimit -v \\(RLIMIT_AS\\); [^\n]*\n"));
    EXPECT_THAT(test::listDir(dir.path()), IsEmpty());
}

TEST(HydrologyStageCliTest, TheStageCommandsDryRunPrintsItsPlanAndWritesNothing) {
    test::TempDir dir;
    const std::string big = "hydrology-stage --out stage.tgh --width 16384 --height 16384"
                            " --set hydrology.enabled=true --dry-run";
    const auto text = terragrid(dir, big);
    EXPECT_EQ(text.exitCode, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("stage:   4096 x 4096 hydrology cells (4 map cells a side "
                                    "each) of a 16384 x 16384 map\n"));
    EXPECT_THAT(text.out, testing::ContainsRegex("file:    'stage.tgh' up to [0-9.]+ MiB; "));
    // 64 bytes a hydrology cell while it is computed.
    EXPECT_THAT(text.out, HasSubstr("memory:  up to 992.0 MiB (program 32.0 MiB, hydrology stage "
                                    "960.0 MiB); "));
    EXPECT_THAT(text.out, HasSubstr("fits:    yes\n"));
    const auto plan = json::parse(terragrid(dir, big + "=json").out);
    EXPECT_EQ(plan["grid"]["factor"], 4);
    EXPECT_EQ(plan["memory"]["bytes"], (32u << 20) + 4096u * 4096u * 60u);
    // The file's bound holds the real file of a small map.
    const auto small = json::parse(
        terragrid(dir, "hydrology-stage --out stage.tgh --dry-run=json" + kMap).out);
    EXPECT_THAT(test::listDir(dir.path()), IsEmpty());
    ASSERT_EQ(terragrid(dir, "hydrology-stage -q --out stage.tgh" + kMap).exitCode, 0);
    EXPECT_LE(std::filesystem::file_size(dir / "stage.tgh"),
              small["file"]["bytes"].get<std::uintmax_t>());
}

TEST(HydrologyStageCliTest, DryRunWithAStageFileCountsTheFinishedStageOnly) {
    test::TempDir dir;
    ASSERT_EQ(terragrid(dir, "hydrology-stage -q --out stage.tgh" + kMap).exitCode, 0);
    const auto stagePart = [&](const std::string& args) {
        const auto r = terragrid(dir, kMap + args + " --dry-run=json");
        EXPECT_EQ(r.exitCode, 0) << r.err;
        const json plan = json::parse(r.out);
        for (const json& part : plan["memory"]["parts"])
            if (part["what"] == "hydrology stage") return part["bytes"].get<std::uint64_t>();
        return std::uint64_t{0};
    };
    const std::uint64_t computing = stagePart("");
    const std::uint64_t reading = stagePart(" --hydrology-stage stage.tgh");
    // 43,200 cells: 64 bytes each while computing, at most 19 once finished and 8 more while
    // its rules are checked.
    EXPECT_EQ(computing, 240u * 180u * 60u);
    EXPECT_EQ(reading, 240u * 180u * (19u + 5u));
    EXPECT_EQ(test::listDir(dir.path()), std::vector<std::string>{"stage.tgh"});
}


// --- signals and SIGKILL ------------------------------------------------------------------------

/// A stage of several seconds: 2048 x 2048 hydrology cells eroded 10 steps.
const std::vector<std::string> kLongStage{
    "hydrology-stage", "--out", "stage.tgh", "--width", "2048", "--height", "2048",
    "--threads", "2", "-q", "--set", "hydrology.enabled=true", "--set",
    "hydrology.resolution=1", "--set", "hydrology.erosion.enabled=true", "--set",
    "hydrology.erosion.steps=10"};

/// An older stage file in `dir`, which what follows must leave as it is; returns its bytes.
std::string olderStage(const test::TempDir& dir) {
    const auto r = terragrid(dir, "hydrology-stage -q --out stage.tgh" + kMap);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return test::readFile(dir / "stage.tgh");
}

class StageSignalTest : public testing::TestWithParam<int> {};

TEST_P(StageSignalTest, AStageStoppedWhileComputingEndsByTheSignalAndLeavesTheOlderFile) {
    const int sig = GetParam();
    test::TempDir dir;
    const std::string older = olderStage(dir);
    test::Child child({dir.path(), kLongStage});
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // well into the stage
    child.signal(sig);
    const test::ChildExit exit = child.wait();
    EXPECT_TRUE(exit.signalled) << "exit code " << exit.code << "\n" << child.err();
    EXPECT_EQ(exit.shellCode(), 128 + sig);
    EXPECT_EQ(child.err(), std::string("terragrid: stopped by SIG") + ::sigabbrev_np(sig) +
                               "; removed 0 temporary files\n");
    // No temporary file, staging folder or lock file: the older stage file and nothing else.
    EXPECT_EQ(test::listDir(dir.path()), std::vector<std::string>{"stage.tgh"});
    EXPECT_EQ(test::readFile(dir / "stage.tgh"), older);
}

INSTANTIATE_TEST_SUITE_P(StopSignals, StageSignalTest, testing::Values(SIGINT, SIGTERM, SIGHUP),
                         [](const testing::TestParamInfo<int>& info) {
                             return std::string("SIG") + ::sigabbrev_np(info.param);
                         });

TEST(HydrologyStageCliTest, ASigtermFromAShellEndsTheStageWith143) {
    // As a script does it. (SIGINT is not sent this way: a non-interactive shell starts a
    // background command with SIGINT ignored, and terragrid leaves ignored signals ignored.)
    test::TempDir dir;
    const std::string older = olderStage(dir);
    std::string command = shellQuote(test::cliPath());
    for (const std::string& arg : kLongStage) command += " " + shellQuote(arg);
    const auto r = runCommand("cd " + shellQuote(dir.path().string()) + " && { " + command +
                              " & pid=$!; sleep 0.3; kill -TERM $pid; wait $pid; echo $?; }");
    EXPECT_EQ(r.out, "143\n") << r.err;
    // The shell adds its own "Terminated" line after terragrid's.
    EXPECT_THAT(r.err, testing::StartsWith("terragrid: stopped by SIGTERM; removed 0 temporary "
                                           "files\n"));
    EXPECT_EQ(test::listDir(dir.path()), std::vector<std::string>{"stage.tgh"});
    EXPECT_EQ(test::readFile(dir / "stage.tgh"), older);
}

TEST(HydrologyStageCliTest, ASigkillWhileComputingLeavesNothing) {
    // The file is created only once the stage is computed: a kill before leaves no trace.
    test::TempDir dir;
    const std::string older = olderStage(dir);
    test::Child child({dir.path(), kLongStage});
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    child.signal(SIGKILL);
    EXPECT_EQ(child.wait().shellCode(), 128 + SIGKILL);
    EXPECT_EQ(test::listDir(dir.path()), std::vector<std::string>{"stage.tgh"});
    EXPECT_EQ(test::readFile(dir / "stage.tgh"), older);
}

/// hydrology-stage of kMap into stage.tgh with `seed`, TERRAGRID_FAULT_INJECT set to `fault`.
test::CommandResult stageWithFault(const test::TempDir& dir, const std::string& fault,
                                   int seed) {
    return runCommand("cd " + shellQuote(dir.path().string()) + " && " +
                      (fault.empty() ? "" : "TERRAGRID_FAULT_INJECT=" + fault + " ") +
                      shellQuote(test::cliPath()) + " hydrology-stage -q --out stage.tgh" +
                      kMap + " --set seed=" + std::to_string(seed));
}

class StageKillStepTest : public testing::TestWithParam<int> {};

TEST_P(StageKillStepTest, ASigkillWhileWritingIsCleanedUpByTheNextStageJob) {
    // The commit's steps with an older file: move it aside, rename the new one in, remove the
    // journal. A SIGKILL before any of them leaves the staging folder (the new file and the
    // journal) and the lock file, as it does a run's.
    test::TempDir dir;
    const std::string older = olderStage(dir);
    const auto killed = stageWithFault(dir, "commit-kill:" + std::to_string(GetParam()), 2);
    ASSERT_EQ(killed.exitCode, 128 + SIGKILL) << killed.err;
    const auto left = test::listDir(dir.path());
    EXPECT_GT(left.size(), 1u) << testing::PrintToString(left);
    EXPECT_TRUE(std::any_of(left.begin(), left.end(), [](const std::string& name) {
        return name.starts_with(".terragrid-tmp-");
    })) << testing::PrintToString(left);
    // The next stage job into the directory rolls back first: one whose own commit then
    // fails leaves exactly the older file.
    const auto failing = stageWithFault(dir, "commit-fail:1", 3);
    EXPECT_EQ(failing.exitCode, 1) << failing.err;
    EXPECT_EQ(test::listDir(dir.path()), std::vector<std::string>{"stage.tgh"});
    EXPECT_EQ(test::readFile(dir / "stage.tgh"), older);
    // And one that succeeds puts its own file in place.
    const auto next = stageWithFault(dir, "", 3);
    EXPECT_EQ(next.exitCode, 0) << next.err;
    EXPECT_EQ(test::listDir(dir.path()), std::vector<std::string>{"stage.tgh"});
    EXPECT_NE(test::readFile(dir / "stage.tgh"), older);
}

INSTANTIATE_TEST_SUITE_P(EveryCommitStep, StageKillStepTest, testing::Range(1, 4));

TEST(HydrologyStageCliTest, AStageJobIntoADirectoryARunHoldsFailsAtOnce) {
    // The stage file's directory is locked only while the file is written, as a run's output
    // directory is for its whole writing: a stage job meeting a live run's lock says so.
    test::TempDir dir;
    test::Child run({dir.path(), {"--width", "4096", "--height", "4096", "--threads", "1",
                                  "--out-dir", ".", "-q", "--set",
                                  "output.files=[\"height.tif\"]"}});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (test::readFile(dir / ".terragrid.lock").empty() &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ASSERT_EQ(test::readFile(dir / ".terragrid.lock"), std::to_string(run.pid()) + "\n");
    const auto stage = stageWithFault(dir, "", 2);
    EXPECT_EQ(stage.exitCode, 1) << stage.err;
    EXPECT_THAT(stage.err, HasSubstr("is in use by another terragrid run (pid " +
                                     std::to_string(run.pid()) + ","));
    EXPECT_FALSE(std::filesystem::exists(dir / "stage.tgh"));
}

}  // namespace
}  // namespace terragrid
