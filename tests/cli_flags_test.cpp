// Flags as a user combines them, through the real CLI: bad flag values are reported together
// with the config's problems (design.md, Errors: every problem at once), and --quiet silences
// even a progress bar asked for by name, as --help says.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;

std::string cli() { return test::shellQuote(test::cliPath()); }

TEST(CliFlagProblemsTest, BadFlagsAndBadConfigAreReportedTogether) {
    const auto r = test::runCommand(cli() + " --threads 0 --region 1,2 --progress fancy "
                                            "--set height.octaves=40 --dry-run");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err,
              "terragrid: '--progress' must be one of auto, bar, json, none (got 'fancy')\n"
              "terragrid: '--region' must be X,Y,WIDTH,HEIGHT in cells: four whole numbers "
              "separated by commas (got '1,2')\n"
              "terragrid: '--threads' must be at least 1 (got 0)\n"
              "config: 'height.octaves' must be between 1 and 16 (got 40)\n"
              "Try 'terragrid --help'.\n");
    EXPECT_EQ(r.out, "");
}

TEST(CliFlagProblemsTest, BadFlagWithAGoodConfigIsStillAUsageError) {
    const auto r = test::runCommand(cli() + " --shard 4/4 --dry-run");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, testing::StartsWith("terragrid: '--shard' "));
    EXPECT_THAT(r.err, testing::EndsWith("\nTry 'terragrid --help'.\n"));
}

TEST(QuietProgressTest, QuietSilencesAnExplicitProgressBar) {
    test::TempDir dir;
    const std::string in = "cd " + test::shellQuote(dir.path().string()) + " && ";
    // The bar shows only after the first second of a run. However fast the noise gets, the
    // run lasts that long: a real SIGSTOP holds it for 1.5 s right after it starts (the
    // steady clock runs on while it is stopped), and 4096 x 2048 cells of 16 octaves (0.8 s of
    // CPU on one AVX2 core in Release) cannot be done in the 0.1 s before the stop.
    const std::string run = cli() + " --width 4096 --height 2048 --threads 1 --out-dir out "
                                    "--progress bar --set 'output.files=[\"height.tif\"]' "
                                    "--set height.octaves=16";
    const auto held = [&](const std::string& command) {
        return in + "{ " + command + " & pid=$!; sleep 0.1; kill -STOP $pid; sleep 1.5; " +
               "kill -CONT $pid; wait $pid; }";
    };
    // Without -q the bar is drawn (not a terminal, yet asked for), so the check below can fail.
    const auto loud = test::runCommand(held(run));
    ASSERT_EQ(loud.exitCode, 0) << loud.err;
    ASSERT_THAT(loud.err, testing::HasSubstr("tiles"));
    const auto quiet = test::runCommand(held(run + " -q"));
    EXPECT_EQ(quiet.exitCode, 0) << quiet.err;
    EXPECT_EQ(quiet.err, "");
    EXPECT_EQ(quiet.out, "");
}

TEST(CliTimingTest, StartupIsTheFirstStepOfTheProcessWallTime) {
    test::TempDir dir;
    const auto start = std::chrono::steady_clock::now();
    const auto r = test::runCommand("cd " + test::shellQuote(dir.path().string()) + " && " +
                                    cli() + " -q --width 300 --height 200 --out-dir out");
    const double outside =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::ifstream in(dir / "out" / "stats.json");
    const nlohmann::json t = nlohmann::json::parse(in)["timing_seconds"];
    // Arguments, the built-in config and the CRS lookup take time before the run: a timer that
    // began only at the run would say 0.
    EXPECT_GT(t["startup"].get<double>(), 0.0) << t.dump();
    double sum = 0;
    for (const char* step :
         {"startup", "terrain", "hydrology", "climate", "setup", "generation_wall", "commit",
          "manifest", "other"})
        sum += t[step].get<double>();
    const double total = t["total_wall"].get<double>();
    EXPECT_NEAR(sum, total, 1e-9 * total);
    EXPECT_LT(t["startup"].get<double>(), total);
    EXPECT_LE(total, outside);
}

TEST(ProgressJsonTest, WritingStageHasAFileEventForEachOutputWithItsBytes) {
    test::TempDir dir;
    const auto r = test::runCommand(
        "cd " + test::shellQuote(dir.path().string()) + " && " + cli() +
        " -q --width 200 --height 150 --out-dir out --progress json --set "
        "'output.files=[\"height.tif\", \"height.r16\", \"stats.json\"]'");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::vector<std::pair<std::string, std::uint64_t>> files;
    std::istringstream lines(r.err);
    for (std::string line; std::getline(lines, line);) {
        const auto event = nlohmann::json::parse(line);
        if (event["event"] == "file") files.emplace_back(event["file"], event["bytes"]);
    }
    const auto size = [&](const char* name) { return fs::file_size(dir / "out" / name); };
    EXPECT_EQ(files, (std::vector<std::pair<std::string, std::uint64_t>>{
                         {"out/height.tif", size("height.tif")},
                         {"out/height.r16", size("height.r16") + size("height.r16.json")},
                         {"out/stats.json", size("stats.json")}}));
}

}  // namespace
}  // namespace terragrid
