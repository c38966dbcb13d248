// The CLI's standard streams (cli/std_streams.hpp), through a real shell: descriptors 0, 1 and
// 2 closed with `<&-`/`>&-` never become an output file, and a write to stdout that fails
// (/dev/full) fails the command with exit 1, while a pipe whose reader has gone is no error.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;

std::string cli() { return test::shellQuote(test::cliPath()); }

/// A run in `dir` writing height16.png, height.r16, height.tif and stats.json into out/ with
/// JSON progress on stderr: the progress lines are what would land in a file on fd 2.
std::string runInto(const test::TempDir& dir) {
    return "cd " + test::shellQuote(dir.path().string()) + " && " + cli() +
           " -q --out-dir out --width 256 --height 256 --tile-size 64 --progress json --set "
           "'output.files=[\"height16.png\", \"height.r16\", \"height.tif\", \"stats.json\"]'";
}

/// Every file of runInto is whole and of its own format, and nothing else is in out/.
void expectIntactOutputs(const test::TempDir& dir) {
    EXPECT_EQ(test::listDir(dir / "out"),
              (std::vector<std::string>{"height.r16", "height.r16.json", "height.tif",
                                        "height16.pgw", "height16.png", "height16.png.aux.xml",
                                        "manifest.json",
                                        "stats.json"}));
    EXPECT_TRUE(test::readFile(dir / "out/height16.png").starts_with("\x89PNG\r\n\x1a\n"));
    EXPECT_EQ(test::readFile(dir / "out/height.r16").size(), 256u * 256u * 2u);
    EXPECT_EQ(test::readFloatTiff(dir / "out/height.tif").size(), 256u * 256u);
    const auto stats = nlohmann::json::parse(test::readFile(dir / "out/stats.json"));
    EXPECT_EQ(stats.at("map").at("width"), 256);
}

class ClosedStreamTest : public testing::TestWithParam<const char*> {};

TEST_P(ClosedStreamTest, RunSucceedsAndNoOutputFileTakesTheClosedDescriptor) {
    test::TempDir dir;
    const auto r = test::runCommand(runInto(dir) + " " + GetParam());
    EXPECT_EQ(r.exitCode, 0) << r.err;
    expectIntactOutputs(dir);
}

INSTANTIATE_TEST_SUITE_P(Stdin0Stdout1Stderr2, ClosedStreamTest,
                         testing::Values("0<&-", "1>&-", "2>&-", "0<&- 1>&- 2>&-"));

TEST(ClosedStreamTest, ClosedStderrStillGetsNoProgressIntoAnyFile) {
    // The case: progress lines on a closed fd 2 went into height16.png.
    test::TempDir dir;
    const auto r = test::runCommand(runInto(dir) + " 2>&-");
    ASSERT_EQ(r.exitCode, 0);
    for (const auto& [name, bytes] : test::snapshotDir(dir / "out"))
        EXPECT_EQ(bytes.find("\"event\""), std::string::npos) << name;
}

struct StdoutCase {
    const char* name;
    const char* args;
};

class FullStdoutTest : public testing::TestWithParam<StdoutCase> {};

TEST_P(FullStdoutTest, ExitsOneNamingStandardOutput) {
    test::TempDir dir;
    const auto r = test::runCommand("cd " + test::shellQuote(dir.path().string()) + " && " +
                                    cli() + " " + GetParam().args + " >/dev/full");
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_THAT(r.err, testing::EndsWith("terragrid: error: writing standard output: No space "
                                         "left on device\n"));
}

INSTANTIATE_TEST_SUITE_P(
    EveryCommandThatPrints, FullStdoutTest,
    testing::Values(StdoutCase{"PrintConfig", "--print-config"}, StdoutCase{"Schema", "schema"},
                    StdoutCase{"Help", "--help"}, StdoutCase{"ValidateHelp", "validate --help"},
                    StdoutCase{"ConfigReference", "--config-reference"},
                    StdoutCase{"Version", "--version"}, StdoutCase{"Validate", "validate"},
                    StdoutCase{"DryRun", "--dry-run --width 64 --height 64"},
                    StdoutCase{"DryRunJson", "--dry-run=json --width 64 --height 64"},
                    StdoutCase{"RunSummary", "--width 64 --height 64 --out-dir out"}),
    [](const testing::TestParamInfo<StdoutCase>& info) { return info.param.name; });

TEST(StdoutPipeTest, ReaderThatHasGoneIsNoError) {
    // `true` has exited before terragrid writes: every write meets EPIPE (SIGPIPE would kill
    // a program that does not ignore it: exit 141).
    test::TempDir dir;
    const std::string code = (dir / "code").string();
    const auto r = test::runCommand("{ sleep 0.3; " + cli() + " schema; echo $? > " +
                                    test::shellQuote(code) + "; } | true");
    EXPECT_EQ(test::readFile(code), "0\n");
    EXPECT_EQ(r.err, "");
}

TEST(StdoutPipeTest, HeadTakesWhatItWantsAndTheRestIsDropped) {
    test::TempDir dir;
    const std::string code = (dir / "code").string();
    const auto r = test::runCommand("{ " + cli() + " --config-reference; echo $? > " +
                                    test::shellQuote(code) + "; } | head -c 20");
    EXPECT_EQ(r.out, "| key | type | defau");
    EXPECT_EQ(test::readFile(code), "0\n");
    EXPECT_EQ(r.err, "");
}

}  // namespace
}  // namespace terragrid
