// Runs the real terragrid binary: exit codes, messages, files on disk.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>
#include "terragrid/io/output_drivers.hpp"

#include "terragrid/config/loader.hpp"
#include "terragrid/version.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using test::runCommand;
using test::shellQuote;
using testing::ElementsAre;
using testing::EndsWith;
using testing::HasSubstr;
using testing::IsEmpty;
using testing::MatchesRegex;
using testing::StartsWith;

/// Runs terragrid with `args` inside `cwd`.
test::CommandResult terragrid(const fs::path& cwd, const std::string& args) {
    return runCommand("cd " + shellQuote(cwd.string()) + " && " + shellQuote(test::cliPath()) +
                      " " + args);
}

std::string smallConfigPath() {
    return shellQuote((test::sourceDir() / "configs/small.json").string());
}

std::string smallConfigArg() { return "--config " + smallConfigPath(); }

/// Only height.tif, the quickest output, for tests about sizes.
const std::string kHeightOnly = R"(--set 'output.files=["height.tif"]')";

// Every output file, not only the default ones. A function, not a namespace-scope string: the
// output drivers register themselves during static initialisation, in an order across files
// that C++ leaves open.
using test::everyFileOption;

/// Whether any entry of `names` is hidden (an unfinished temporary file is).
bool anyHidden(const std::vector<std::string>& names) {
    return std::any_of(names.begin(), names.end(),
                       [](const std::string& name) { return name.starts_with("."); });
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
    // One summary line: size, tiles, elevation range, seconds, files (the default outputs).
    EXPECT_THAT(r.out, MatchesRegex("terragrid: 1024 x 1024 cells, 16 tiles of 256, elevation "
                                    "[0-9.]+ \\.\\. [0-9.]+ m, [0-9.]+ s -> out/height.tif "
                                    "out/classes.tif( out/[^ ]+)+\n"));
    const Config defaults = defaultConfig();
    ASSERT_FALSE(defaults.output.files.empty());
    for (const OutputFile file : defaults.output.files) {
        const std::string name =
            test::firstFileOf(kOutputFileNames[static_cast<std::size_t>(file)]);
        EXPECT_THAT(r.out, HasSubstr(" out/" + name)) << name;
        EXPECT_TRUE(fs::is_regular_file(dir / "out" / name)) << name;
    }
    EXPECT_EQ(r.err, "");  // the default size needs no note
}

TEST(CliTest, OnlyFinishedFilesAreLeftInTheOutputDirectory) {
    test::TempDir dir;
    std::string every = "'output.files=[";
    for (const auto entry : kOutputFileNames)
        every += (every.back() == '[' ? "\"" : ", \"") + std::string(entry) + "\"";
    ASSERT_EQ(terragrid(dir.path(), smallConfigArg() + " --out-dir o --set hydrology.enabled=true"
                                                       " --set climate.enabled=true --set " + every + "]'")
                  .exitCode,
              0);
    const auto names = test::listDir(dir / "o");
    for (const auto entry : kOutputFileNames)
        EXPECT_THAT(names, testing::Contains(test::firstFileOf(entry)));
    EXPECT_FALSE(anyHidden(names)) << testing::PrintToString(names);
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

// The engine and editor exports, soft splat borders included, are the same bytes whatever the
// threads and the tile size.
TEST(CliTest, EngineExportsAreByteIdenticalForAnyThreadsAndTileSize) {
    test::TempDir dir;
    const std::string common = smallConfigArg() + everyFileOption() + " --set output.splat_blend=2 -q";
    ASSERT_EQ(terragrid(dir.path(), common + " --threads 1 --tile-size 64 --out-dir a").exitCode, 0);
    ASSERT_EQ(terragrid(dir.path(), common + " --threads 8 --tile-size 64 --out-dir b").exitCode, 0);
    ASSERT_EQ(terragrid(dir.path(), common + " --threads 8 --tile-size 100 --out-dir c").exitCode, 0);
    for (const char* name : {"height.exr", "height.exr.json", "height.r16", "height.r16.json",
                             "splat_0.png", "splat_1.png", "weight_lake.png", "weight_ground.png",
                             "map.tmj", "terrain.tsj", "terrain.png", "blocked.png"}) {
        const std::string a = test::readFile(dir / "a" / name);
        EXPECT_FALSE(a.empty()) << name;
        EXPECT_TRUE(a == test::readFile(dir / "b" / name)) << name << " across threads";
        EXPECT_TRUE(a == test::readFile(dir / "c" / name)) << name << " across tile sizes";
    }
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

// Coverage targets become thresholds only once the map is sampled; what cannot be met is a
// config error like any other, in config keys, and leaves the disk untouched.
TEST(CliTest, UnreachableCoverageExitsTwoInConfigKeysAndTouchesNothing) {
    test::TempDir dir;
    // noise_version 1: its small map has mountains, which leave forest too little room.
    const auto forest = terragrid(dir.path(), smallConfigArg() + " --set noise_version=1" +
                                                  R"( --set 'terrain.lake_below={"coverage": 0.5}')"
                                                  R"( --set 'terrain.forest_above={"coverage": 0.5}')");
    EXPECT_EQ(forest.exitCode, 2);
    // The share left depends on the map's heights; the words around it do not.
    EXPECT_THAT(forest.err, StartsWith("config: 'terrain.forest_above' coverage 0.5 cannot be "
                                       "reached: only 0."));
    EXPECT_THAT(forest.err, EndsWith(" of the map is neither lake nor mountain\n"));
    const auto order = terragrid(dir.path(), smallConfigArg() +
                                                 R"( --set 'terrain.lake_below={"coverage": 1}')");
    EXPECT_EQ(order.exitCode, 2);
    EXPECT_EQ(order.err, "config: 'terrain.lake_below' (coverage 1, resolved to 1) must be "
                         "below 'terrain.mountain_above' (0.72)\n");
    EXPECT_FALSE(fs::exists(dir / "out-small"));
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
                               "--tile-size", "--threads", "--set", "--quiet", "validate",
                               "schema", "terragrid: note:"})
        EXPECT_THAT(help.out, HasSubstr(option));
    const auto version = terragrid(dir.path(), "--version");
    EXPECT_EQ(version.exitCode, 0);
    EXPECT_EQ(version.out, std::string("terragrid ") + kVersion + "\n");
    EXPECT_FALSE(fs::exists(dir / "out"));
}

// The usage lines are made from the option descriptions, so each command's usage names every
// option its options table lists.
TEST(CliTest, UsageNamesEveryOption) {
    test::TempDir dir;
    for (const std::string command : {"", "validate ", "schema "}) {
        const auto help = terragrid(dir.path(), command + "--help");
        ASSERT_EQ(help.exitCode, 0) << command;
        const auto usageStart = help.out.find("Usage: terragrid");
        ASSERT_NE(usageStart, std::string::npos) << command;
        const std::string usage =
            help.out.substr(usageStart, help.out.find("\n\n", usageStart) - usageStart);
        const auto tableStart = help.out.find("Options:\n");
        ASSERT_NE(tableStart, std::string::npos) << command;
        std::istringstream table(help.out.substr(tableStart));
        int options = 0;
        // Table rows start "  --name" or "  -n [ --name ]"; continuation lines are indented more.
        for (std::string line; std::getline(table, line);) {
            if (!line.starts_with("  -")) continue;
            const auto at = line.find("--");
            const std::string name = line.substr(at, line.find_first_of(" ]", at) - at);
            EXPECT_THAT(usage, HasSubstr("[" + name)) << command << "--help: " << usage;
            ++options;
        }
        EXPECT_GE(options, 1) << command;
    }
}

TEST(CliTest, CommandsHaveTheirOwnHelp) {
    test::TempDir dir;
    const auto validate = terragrid(dir.path(), "validate --help");
    EXPECT_EQ(validate.exitCode, 0);
    for (const char* text : {"terragrid validate [FILE]", "--set", "--config", "'ok'"})
        EXPECT_THAT(validate.out, HasSubstr(text));
    EXPECT_THAT(validate.out, testing::Not(HasSubstr("--threads")));
    const auto schema = terragrid(dir.path(), "schema --help");
    EXPECT_EQ(schema.exitCode, 0);
    EXPECT_THAT(schema.out, HasSubstr("terragrid schema > configs/schema.json"));
    EXPECT_THAT(test::listDir(dir.path()), IsEmpty());
}

TEST(CliTest, ValidateSaysOkAndWritesNothing) {
    test::TempDir dir;
    for (const std::string& args :
         {"validate " + smallConfigPath(), "validate " + smallConfigArg(), std::string("validate"),
          "validate " + smallConfigPath() + " --seed 3 --width 64 --out-dir made " + kHeightOnly}) {
        const auto r = terragrid(dir.path(), args);
        EXPECT_EQ(r.exitCode, 0) << args << "\n" << r.err;
        EXPECT_EQ(r.out, "ok\n") << args;
        EXPECT_EQ(r.err, "") << args;
    }
    const auto quiet = terragrid(dir.path(), "validate -q " + smallConfigPath());
    EXPECT_EQ(quiet.exitCode, 0);
    EXPECT_EQ(quiet.out, "");
    EXPECT_THAT(test::listDir(dir.path()), IsEmpty());
}

TEST(CliTest, ValidateListsEveryProblemExitsTwoAndCreatesNothing) {
    test::TempDir dir;
    std::ofstream(dir / "bad.json") << R"({ "map": { "width": -5, "tile_sise": 64 },
        "height": { "octaves": 40 }, "output": { "directory": "made" } })";
    const auto r = terragrid(dir.path(), "validate bad.json --set height.noise=perlim");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_THAT(r.err, HasSubstr("config: 'map.width' must be between 1 and 1048576 (got -5)"));
    EXPECT_THAT(r.err, HasSubstr("unknown key 'map.tile_sise' (did you mean 'tile_size'?)"));
    EXPECT_THAT(r.err, HasSubstr("'height.octaves' must be between 1 and 16 (got 40)"));
    EXPECT_THAT(r.err, HasSubstr("'height.noise' must be one of value, perlin, simplex"));
    EXPECT_THAT(test::listDir(dir.path()), ElementsAre("bad.json"));

    const auto missing = terragrid(dir.path(), "validate nowhere.json");
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_THAT(missing.err, HasSubstr("'nowhere.json'"));
}

TEST(CliTest, CommandUsageErrorsExitTwo) {
    test::TempDir dir;
    for (const char* args : {"validate a.json b.json", "validate a.json --config b.json",
                             "validate --threads 2", "validate --print-config", "schema extra",
                             "schema --set seed=1"}) {
        const auto r = terragrid(dir.path(), args);
        EXPECT_EQ(r.exitCode, 2) << args;
        EXPECT_THAT(r.err, MatchesRegex("terragrid: .*\nTry 'terragrid (validate|schema) "
                                        "--help'\\.\n")) << args;
    }
    const auto unknown = terragrid(dir.path(), "valdate x.json");
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_THAT(unknown.err, HasSubstr("unknown command 'valdate'"));
    EXPECT_THAT(test::listDir(dir.path()), IsEmpty());
}

TEST(CliTest, SchemaPrintsConfigsSchemaJson) {
    test::TempDir dir;
    const auto r = terragrid(dir.path(), "schema");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const auto schema = nlohmann::json::parse(r.out);  // valid JSON, or this throws
    EXPECT_EQ(schema.at("$schema"), "https://json-schema.org/draft/2020-12/schema");
    EXPECT_TRUE(r.out == test::readFile(test::sourceDir() / "configs/schema.json"))
        << "regenerate it with: terragrid schema > configs/schema.json";
    EXPECT_THAT(test::listDir(dir.path()), IsEmpty());
}

TEST(CliTest, EngineSnapsAnUnchosenSizeWithANote) {
    test::TempDir dir;
    // A config that does not choose the map size: the default 1024 x 1024 snaps.
    std::ofstream(dir / "small.json") << R"({"map": {"tile_size": 1025}})";
    const auto r = terragrid(dir.path(), "--config small.json --set output.engine=unity " +
                                             kHeightOnly + " --out-dir o");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "terragrid: note: map snapped from 1024 x 1024 to 1025 x 1025 cells for "
                     "unity\n");
    EXPECT_THAT(r.out, HasSubstr("terragrid: 1025 x 1025 cells"));
    std::uint32_t w = 0, h = 0;
    test::readFloatTiff(dir / "o/height.tif", &w, &h);
    EXPECT_EQ(w, 1025u);
    EXPECT_EQ(h, 1025u);
    // Validation tells the same note; --quiet silences it.
    const auto validate =
        terragrid(dir.path(), "validate small.json --set output.engine=unity " + kHeightOnly);
    EXPECT_EQ(validate.exitCode, 0);
    EXPECT_EQ(validate.err, r.err);
    EXPECT_EQ(validate.out, "ok\n");
    const auto quiet = terragrid(dir.path(), "--config small.json --set output.engine=unity -q "
                                             "--print-config");
    EXPECT_EQ(quiet.exitCode, 0);
    EXPECT_EQ(quiet.err, "");
    EXPECT_EQ(nlohmann::json::parse(quiet.out)["map"]["width"], 1025);
}

TEST(CliTest, EngineRefusesAGivenSizeUnlessAskedToSnap) {
    test::TempDir dir;
    const std::string args = "--width 1000 --height 1000 --set output.engine=unity " + kHeightOnly;
    const auto refused = terragrid(dir.path(), args);
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_EQ(refused.err,
              "config: 'map.width' x 'map.height' (1000 x 1000) is not a size unity accepts: "
              "square 2^n+1 sizes from 33 to 4097 (nearest: 1025 x 1025); set "
              "output.engine_snap=true to snap\n");
    EXPECT_FALSE(fs::exists(dir / "out"));

    const auto snapped = terragrid(dir.path(), args + " --set output.engine_snap=true");
    ASSERT_EQ(snapped.exitCode, 0) << snapped.err;
    EXPECT_EQ(snapped.err, "terragrid: note: map snapped from 1000 x 1000 to 1025 x 1025 cells "
                           "for unity\n");
    std::uint32_t w = 0, h = 0;
    test::readFloatTiff(dir / "out/height.tif", &w, &h);
    EXPECT_EQ(w, 1025u);
    EXPECT_EQ(h, 1025u);
}

TEST(CliTest, UnityRunWritesAnEngineReadyRawHeightmapAndSidecar) {
    test::TempDir dir;
    const auto r = terragrid(dir.path(), "--set output.engine=unity --set "
                                         "'output.files=[\"height.r16\", \"height16.png\"]' -q");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(fs::file_size(dir / "out/height.r16"), 1025u * 1025u * 2u);
    const auto sidecar = nlohmann::json::parse(test::readFile(dir / "out/height.r16.json"));
    EXPECT_EQ(sidecar["width"], 1025);
    EXPECT_EQ(sidecar["height"], 1025);
    EXPECT_EQ(sidecar["engine"], "unity");
    EXPECT_EQ(test::readGrey16Png(dir / "out/height16.png").width, 1025u);
}

// Unity puts the r16's first row at the terrain's south (z = 0) edge, so for north to land at +z
// the file's rows run bottom to top: row i of height.r16 is row (n - 1 - i) of height16.png.
TEST(CliTest, UnityRawHeightmapHasTheSouthRowFirst) {
    test::TempDir dir;
    const auto r = terragrid(dir.path(), "--set output.engine=unity --width 65 --height 65 "
                                         "--set 'output.files=[\"height.r16\", "
                                         "\"height16.png\"]' -q");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string raw = test::readFile(dir / "out/height.r16");
    const test::Grey16Png png = test::readGrey16Png(dir / "out/height16.png");
    ASSERT_EQ(raw.size(), 65u * 65u * 2u);
    ASSERT_EQ(png.values.size(), 65u * 65u);
    std::vector<std::uint16_t> r16(65 * 65);
    for (std::size_t i = 0; i < r16.size(); ++i)
        r16[i] = static_cast<std::uint16_t>(std::uint8_t(raw[2 * i]) |
                                            std::uint8_t(raw[2 * i + 1]) << 8);
    for (std::size_t row = 0; row < 65; ++row) {
        const auto fileRow = r16.begin() + static_cast<std::ptrdiff_t>(row * 65);
        const auto mapRow = png.values.begin() + static_cast<std::ptrdiff_t>((64 - row) * 65);
        ASSERT_TRUE(std::equal(fileRow, fileRow + 65, mapRow)) << "r16 row " << row;
    }
    ASSERT_NE(r16, png.values) << "a map symmetric north-south would prove nothing";
    const auto sidecar = nlohmann::json::parse(test::readFile(dir / "out/height.r16.json"));
    EXPECT_EQ(sidecar["rows"], "bottom-to-top");
    EXPECT_EQ(sidecar["unity"]["import_raw"]["flip_vertically"], false);
    EXPECT_EQ(sidecar["unity"]["north"], "+z");
}

std::vector<nlohmann::json> jsonLines(const std::string& text) {
    std::vector<nlohmann::json> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
    return out;
}

TEST(CliTest, ProgressJsonPrintsOneObjectPerLineAndADoneLineEvenWhenQuiet) {
    test::TempDir dir;
    for (const std::string quiet : {"", " -q"}) {
        const auto r = terragrid(dir.path(), smallConfigArg() + " --width 200 --height 150 "
                                             "--tile-size 32 --progress=json" + quiet);
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const auto lines = jsonLines(r.err);  // every line of stderr is JSON, or this throws
        ASSERT_GE(lines.size(), 2u) << r.err;
        for (const auto& line : lines) {
            EXPECT_EQ(line["tiles_total"], 35);
            EXPECT_EQ(line["cells_total"], 200 * 150);
        }
        EXPECT_EQ(lines.front()["event"], "progress");
        EXPECT_EQ(lines.back()["event"], "done");
        EXPECT_EQ(lines.back()["tiles_done"], 35);
        EXPECT_EQ(lines.back()["cells_done"], 200 * 150);
        EXPECT_EQ(r.out.empty(), !quiet.empty());
    }
}

TEST(CliTest, NoProgressBarWhenStderrIsNotATerminal) {
    test::TempDir dir;
    const auto r = terragrid(dir.path(), smallConfigArg() + " " + kHeightOnly);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const auto none = terragrid(dir.path(), smallConfigArg() + " --progress none " + kHeightOnly);
    EXPECT_EQ(none.err, "");
}

TEST(CliTest, BadRegionShardOrProgressExitsTwoNamingTheOptionAndWritesNothing) {
    test::TempDir dir;
    const std::pair<std::string, std::string> cases[] = {
        {"--region 1,2,3", "'--region' must be X,Y,WIDTH,HEIGHT in cells"},
        {"--region 0,0,0,5", "WIDTH and HEIGHT must be at least 1 cell (got 0 x 5)"},
        {"--region 200,0,57,1", "'--region' 200,0,57,1 reaches past the map's right edge: X + "
                                "WIDTH must be at most map.width 256 (got 200 + 57)"},
        {"--shard 4/4", "K must be between 0 and N-1 = 3, shards are numbered from 0 (got 4)"},
        {"--shard 1/0", "N must be between 1 and 1048576 (got 0)"},
        {"--shard 0/5", "asks for 5 shards, but the map has only 4 rows of tiles"},
        {"--shard one/4", "'--shard' must be K/N"},
        {"--region 0,0,1,1 --shard 0/2", "give '--region' or '--shard', not both"},
        {"--shard 1/2 --set terrain.connectivity=largest",
         "'--shard' 1/2 cannot be used with 'terrain.connectivity' \"largest\""},
        {"--progress=loud", "'--progress' must be one of auto, bar, json, none (got 'loud')"},
    };
    for (const auto& [args, message] : cases) {
        const auto r = terragrid(dir.path(), smallConfigArg() + " " + args);
        EXPECT_EQ(r.exitCode, 2) << args;
        EXPECT_THAT(r.err, HasSubstr(message)) << args;
        EXPECT_THAT(r.err, HasSubstr("Try 'terragrid --help'")) << args;
    }
    EXPECT_THAT(test::listDir(dir.path()), IsEmpty());
}

TEST(CliTest, ShardRunWritesItsBandAndSaysWhichWindow) {
    test::TempDir dir;
    const auto r = terragrid(dir.path(), smallConfigArg() + " --height 150 --tile-size 32 "
                                         "--shard 3/4 --out-dir s3 " + kHeightOnly);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, MatchesRegex("terragrid: 256 x 54 cells \\(window 0,96,256,54 of 256 x "
                                    "150, shard 3/4\\), 16 tiles of 32, .* -> s3/height.tif "
                                    "s3/manifest.json\n"));
    std::uint32_t w = 0, h = 0;
    test::readFloatTiff(dir / "s3/height.tif", &w, &h);
    EXPECT_EQ(w, 256u);
    EXPECT_EQ(h, 54u);
}

TEST(CliTest, HelpDescribesProgressRegionAndShard) {
    test::TempDir dir;
    const auto help = terragrid(dir.path(), "--help");
    for (const char* text : {"--progress MODE", "--region X,Y,W,H", "--shard K/N", "K from 0"})
        EXPECT_THAT(help.out, HasSubstr(text));
}

}  // namespace
}  // namespace terragrid
