// Runs the real terragrid binary: exit codes, messages, files on disk.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "terragrid/version.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using test::runCommand;
using test::shellQuote;
using testing::HasSubstr;
using testing::MatchesRegex;

/// Runs terragrid with `args` inside `cwd`.
test::CommandResult terragrid(const fs::path& cwd, const std::string& args) {
    return runCommand("cd " + shellQuote(cwd.string()) + " && " + shellQuote(test::cliPath()) +
                      " " + args);
}

std::string smallConfigArg() {
    return "--config " + shellQuote((test::sourceDir() / "configs/small.json").string());
}

TEST(CliTest, NoArgumentsWritesTheDefaultHeightmapIntoOut) {
    test::TempDir dir;
    const auto r = terragrid(dir.path(), "");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(fs::is_regular_file(dir / "out/height.tif"));
    std::uint32_t w = 0, h = 0;
    test::readFloatTiff(dir / "out/height.tif", &w, &h);
    EXPECT_EQ(w, 1024u);
    EXPECT_EQ(h, 1024u);
    // One summary line: size, tiles, elevation range, seconds, files.
    EXPECT_THAT(r.out, MatchesRegex("terragrid: 1024 x 1024 cells, 16 tiles of 256, elevation "
                                    "[0-9.]+ \\.\\. [0-9.]+ m, [0-9.]+ s -> out/height.tif "
                                    "out/classes.tif out/walkable.tif out/preview.png "
                                    "out/height.png out/stats.json\n"));
}

TEST(CliTest, OnlyTheFinishedFileIsLeftInTheOutputDirectory) {
    test::TempDir dir;
    ASSERT_EQ(terragrid(dir.path(), smallConfigArg() + " --out-dir o").exitCode, 0);
    EXPECT_THAT(test::listDir(dir / "o"),
                testing::ElementsAre("classes.tif", "height.png", "height.tif", "preview.png",
                                     "stats.json", "walkable.tif"));
}

TEST(CliTest, OutputIsByteIdenticalForAnyThreadCount) {
    test::TempDir dir;
    ASSERT_EQ(terragrid(dir.path(), smallConfigArg() + " --threads 1 --out-dir a -q").exitCode, 0);
    ASSERT_EQ(terragrid(dir.path(), smallConfigArg() + " --threads 2 --out-dir b -q").exitCode, 0);
    ASSERT_EQ(terragrid(dir.path(), smallConfigArg() + " --threads 8 --out-dir c -q").exitCode, 0);
    const std::string a = test::readFile(dir / "a/height.tif");
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a, test::readFile(dir / "b/height.tif"));
    EXPECT_EQ(a, test::readFile(dir / "c/height.tif"));
}

TEST(CliTest, PixelsDoNotDependOnTileSize) {
    test::TempDir dir;
    ASSERT_EQ(terragrid(dir.path(), smallConfigArg() + " --tile-size 64 --out-dir a -q").exitCode, 0);
    ASSERT_EQ(terragrid(dir.path(), smallConfigArg() + " --tile-size 100 --out-dir b -q").exitCode, 0);
    EXPECT_EQ(test::readFloatTiff(dir / "a/height.tif"), test::readFloatTiff(dir / "b/height.tif"));
}

TEST(CliTest, OptionsAreConfigOverrides) {
    test::TempDir dir;
    const auto r = terragrid(dir.path(), smallConfigArg() +
                                             " --width 100 --height 50 --seed 3 --set "
                                             "height.octaves=2 --out-dir x -q");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "");  // --quiet
    std::uint32_t w = 0, h = 0;
    test::readFloatTiff(dir / "x/height.tif", &w, &h);
    EXPECT_EQ(w, 100u);
    EXPECT_EQ(h, 50u);
}

TEST(CliTest, BadConfigExitsTwoNamesEveryProblemAndTouchesNothing) {
    test::TempDir dir;
    std::ofstream(dir / "bad.json") << R"({ "map": { "width": -5, "tile_sise": 64 },
        "height": { "octaves": 40, "noise": "perlim" } })";
    const auto r = terragrid(dir.path(), "--config bad.json");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("'map.width'"));
    EXPECT_THAT(r.err, HasSubstr("(got -5)"));
    EXPECT_THAT(r.err, HasSubstr("unknown key 'map.tile_sise' (did you mean 'tile_size'?)"));
    EXPECT_THAT(r.err, HasSubstr("'height.octaves' must be between 1 and 16 (got 40)"));
    EXPECT_THAT(r.err, HasSubstr("'height.noise' must be one of value, perlin, simplex"));
    EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(CliTest, BadConfigLeavesAnOlderOutputUntouched) {
    test::TempDir dir;
    ASSERT_EQ(terragrid(dir.path(), smallConfigArg() + " -q").exitCode, 0);
    const fs::path file = dir / "out-small/height.tif";
    const std::string before = test::readFile(file);
    const auto mtime = fs::last_write_time(file);
    const auto files = test::listDir(dir / "out-small");
    const auto r = terragrid(dir.path(), smallConfigArg() + " --seed 9 --set height.octaves=0");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(test::readFile(file), before);
    EXPECT_EQ(fs::last_write_time(file), mtime);
    EXPECT_EQ(test::listDir(dir / "out-small"), files);
}

TEST(CliTest, MissingConfigFileExitsTwo) {
    test::TempDir dir;
    const auto r = terragrid(dir.path(), "--config nowhere.json");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("nowhere.json"));
}

TEST(CliTest, UsageErrorsExitTwo) {
    test::TempDir dir;
    for (const char* args : {"--no-such-option", "--threads 0", "--threads many", "--set"}) {
        const auto r = terragrid(dir.path(), args);
        EXPECT_EQ(r.exitCode, 2) << args;
        EXPECT_THAT(r.err, HasSubstr("terragrid --help")) << args;
    }
    EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(CliTest, UnwritableOutputExitsOne) {
    test::TempDir dir;
    std::ofstream(dir / "file") << "not a directory";
    const auto r = terragrid(dir.path(), smallConfigArg() + " --out-dir file/sub");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_THAT(r.err, HasSubstr("file/sub"));
}

TEST(CliTest, HelpAndVersion) {
    test::TempDir dir;
    const auto help = terragrid(dir.path(), "--help");
    EXPECT_EQ(help.exitCode, 0);
    for (const char* option : {"--config", "--out-dir", "--seed", "--width", "--height",
                               "--tile-size", "--threads", "--set", "--quiet"})
        EXPECT_THAT(help.out, HasSubstr(option));
    const auto version = terragrid(dir.path(), "--version");
    EXPECT_EQ(version.exitCode, 0);
    EXPECT_EQ(version.out, std::string("terragrid ") + kVersion + "\n");
    EXPECT_FALSE(fs::exists(dir / "out"));
}

}  // namespace
}  // namespace terragrid
