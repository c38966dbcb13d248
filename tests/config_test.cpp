// Config loading and validation (config.hpp): one table of {input, expected problem} for every
// rule, then defaults, merging, overrides, the hash and the option reference.

#include "terragrid/config.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace terragrid {
namespace {

using ::testing::ElementsAre;
using ::testing::Eq;
using ::testing::HasSubstr;
using ::testing::Matcher;
using ::testing::MatchesRegex;
using ::testing::SizeIs;
using ::testing::StartsWith;
using ::testing::ThrowsMessage;
using ::testing::UnorderedElementsAre;
using Json = nlohmann::json;

const std::string kSourceDir = TERRAGRID_SOURCE_DIR;

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

Json defaultJson() { return Json::parse(readText(kSourceDir + "/configs/default.json")); }

/// The problems parseConfig reports; empty when it accepts the input. (Assertions on them
/// happen outside, so a config that is wrongly accepted fails the test.)
std::vector<std::string> problemsOf(std::string_view text,
                                    const std::vector<std::string>& overrides = {}) {
    try {
        (void)parseConfig(text, "test.json", overrides);
    } catch (const ConfigError& error) {
        return error.problems();
    }
    return {};
}

/// Every leaf key path of a JSON document ("map.width", ...).
void collectLeaves(const Json& node, const std::string& prefix, std::set<std::string>& out) {
    if (!node.is_object()) {
        out.insert(prefix);
        return;
    }
    for (const auto& [key, value] : node.items())
        collectLeaves(value, prefix.empty() ? key : prefix + "." + key, out);
}

/// "map.width" -> "/map/width".
Json::json_pointer pointerTo(std::string path) {
    std::replace(path.begin(), path.end(), '.', '/');
    return Json::json_pointer("/" + path);
}

/// FNV-1a 64, written out here so the hash's definition is pinned independently.
std::string fnv1a64Hex(const std::string& text) {
    std::uint64_t hash = 14695981039346656037ull;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 1099511628211ull;
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return hex;
}

// ---------------------------------------------------------------------------------------------
// One bad input, one problem.

struct ProblemCase {
    std::string name;
    std::string text;                    ///< the config file
    std::vector<std::string> overrides;  ///< --set values
    std::string expected;                ///< the problem line
    bool exact = true;                   ///< false: `expected` is part of the line
};

void PrintTo(const ProblemCase& c, std::ostream* os) { *os << c.name; }

// One case per entry, so the list reads as a table.
// clang-format off
const std::vector<ProblemCase> kProblemCases = {
    // Unknown keys, at every level, with and without a suggestion.
    {"UnknownTopLevelKeySuggestsNearest", R"({"sed": 1})", {},
     "config: unknown key 'sed' (did you mean 'seed'?)"},
    {"UnknownKeySuggestsNearest", R"({"height": {"octave": 4}})", {},
     "config: unknown key 'height.octave' (did you mean 'octaves'?)"},
    {"UnknownKeySuggestsNameItBegins", R"({"map": {"tile": 64}})", {},
     "config: unknown key 'map.tile' (did you mean 'tile_size'?)"},
    {"UnknownKeySuggestsTransposition", R"({"map": {"widht": 64}})", {},
     "config: unknown key 'map.widht' (did you mean 'width'?)"},
    {"UnknownTopLevelKeyFarFromAny", R"({"colour": "red"})", {}, "config: unknown key 'colour'"},
    {"UnknownNestedKeyFarFromAny", R"({"output": {"format": "png"}})", {},
     "config: unknown key 'output.format'"},
    {"UnknownSectionIsOneProblem", R"({"moisture": {"octaves": 3, "noise": "value"}})", {},
     "config: unknown key 'moisture'"},
    {"DottedKeyIsUnknown", R"({"map.width": 5})", {},
     "config: unknown key 'map.width' (write nested objects: dots separate keys only in "
     "overrides)"},
    {"EmptyKeyIsUnknown", R"({"map": {"": {"width": 5}}})", {}, "config: unknown key 'map.'"},
    {"UnknownKeyInOverride", "{}", {"height.octave=3"},
     "config: unknown key 'height.octave' (did you mean 'octaves'?)"},
    {"UnknownSectionInOverride", "{}", {"terrain.lake_below=0.3"}, "config: unknown key 'terrain'"},
    {"SectionMustBeObject", R"({"map": 5})", {}, "config: 'map' must be an object (got 5)"},
    {"SectionMustNotBeNull", R"({"height": null})", {},
     "config: 'height' must be an object (got null)"},
    {"DocumentMustBeObject", "[1, 2]", {},
     "config: 'test.json' must hold a JSON object (got [1, 2])"},

    // Wrong types, for every type class.
    {"IntegerGivenString", R"({"map": {"width": "big"}})", {},
     R"(config: 'map.width' must be an integer (got "big"))"},
    {"IntegerGivenFraction", R"({"height": {"octaves": 3.5}})", {},
     "config: 'height.octaves' must be an integer (got 3.5)"},
    {"IntegerGivenNull", R"({"seed": null})", {}, "config: 'seed' must be an integer (got null)"},
    {"IntegerGivenArray", R"({"output": {"epsg": [3857]}})", {},
     "config: 'output.epsg' must be an integer (got [3857])"},
    {"NumberGivenString", R"({"map": {"cell_size": "30"}})", {},
     R"(config: 'map.cell_size' must be a number (got "30"))"},
    {"NumberGivenBoolean", R"({"height": {"lacunarity": true}})", {},
     "config: 'height.lacunarity' must be a number (got true)"},
    {"PairGivenOneNumber", R"({"map": {"origin": [1]}})", {},
     "config: 'map.origin' must be an array of 2 numbers (got [1])"},
    {"PairGivenThreeNumbers", R"({"map": {"origin": [0, 0, 0]}})", {},
     "config: 'map.origin' must be an array of 2 numbers (got [0, 0, 0])"},
    {"PairGivenString", R"({"height": {"offset": ["a", 0]}})", {},
     R"(config: 'height.offset' must be an array of 2 numbers (got ["a", 0]))"},
    {"PairGivenObject", R"({"map": {"origin": {"x": 0, "y": 0}}})", {},
     R"(config: 'map.origin' must be an array of 2 numbers (got {"x": 0, "y": 0}))"},
    {"StringGivenNumber", R"({"output": {"directory": 5}})", {},
     "config: 'output.directory' must be a non-empty string (got 5)"},
    {"StringEmpty", R"({"output": {"directory": ""}})", {},
     R"(config: 'output.directory' must be a non-empty string (got ""))"},
    {"ChoiceGivenNumber", R"({"height": {"noise": 1}})", {},
     "config: 'height.noise' must be one of value, perlin, simplex (got 1)"},
    {"FileListGivenString", R"({"output": {"files": "height.tif"}})", {},
     R"(config: 'output.files' must be a non-empty array of file names (got "height.tif"))"},
    {"FileListEmpty", R"({"output": {"files": []}})", {},
     "config: 'output.files' must be a non-empty array of file names (got [])"},
    {"FileListGivenNumbers", R"({"output": {"files": [1]}})", {},
     "config: 'output.files' must be a non-empty array of file names (got [1])"},

    // Enum choices, for every enum.
    {"NoiseChoice", R"({"height": {"noise": "perlin2"}})", {},
     R"(config: 'height.noise' must be one of value, perlin, simplex (got "perlin2"))"},
    {"FadeChoice", R"({"height": {"fade": "smooth"}})", {},
     R"(config: 'height.fade' must be one of linear, cubic, quintic (got "smooth"))"},
    {"FractalChoiceIsCaseSensitive", R"({"height": {"fractal": "FBM"}})", {},
     R"(config: 'height.fractal' must be one of none, fbm, turbulence, ridged (got "FBM"))"},
    {"HashChoice", R"({"height": {"hash": "xxhash"}})", {},
     R"(config: 'height.hash' must be one of lattice, permutation, reference (got "xxhash"))"},
    {"CompressionChoice", R"({"output": {"compression": "gzip"}})", {},
     R"(config: 'output.compression' must be one of none, deflate, lzw, zstd (got "gzip"))"},
    {"BigTiffChoice", R"({"output": {"bigtiff": true}})", {},
     "config: 'output.bigtiff' must be one of auto, always (got true)"},

    // Out of range, both sides of every numeric key.
    {"SeedNegative", R"({"seed": -1})", {},
     "config: 'seed' must be between 0 and 18446744073709551615 (got -1)"},
    {"SeedAbove64Bits", R"({"seed": 18446744073709551616})", {},
     "config: 'seed' must be between 0 and 18446744073709551615 (got 18446744073709551616)"},
    {"WidthZero", R"({"map": {"width": 0}})", {},
     "config: 'map.width' must be between 1 and 1048576 (got 0)"},
    {"WidthTooLarge", R"({"map": {"width": 1048577}})", {},
     "config: 'map.width' must be between 1 and 1048576 (got 1048577)"},
    {"HeightZero", R"({"map": {"height": 0}})", {},
     "config: 'map.height' must be between 1 and 1048576 (got 0)"},
    {"HeightTooLarge", R"({"map": {"height": 2e6}})", {},
     "config: 'map.height' must be between 1 and 1048576 (got 2e6)"},
    {"TileSizeZero", R"({"map": {"tile_size": 0}})", {},
     "config: 'map.tile_size' must be between 1 and 8192 (got 0)"},
    {"TileSizeTooLarge", R"({"map": {"tile_size": 8193}})", {},
     "config: 'map.tile_size' must be between 1 and 8192 (got 8193)"},
    {"CellSizeZero", R"({"map": {"cell_size": 0}})", {},
     "config: 'map.cell_size' must be greater than 0 and at most 1e7 (got 0)"},
    {"CellSizeTooLarge", R"({"map": {"cell_size": 1e8}})", {},
     "config: 'map.cell_size' must be greater than 0 and at most 1e7 (got 1e8)"},
    {"OriginTooNegative", R"({"map": {"origin": [0, -2e15]}})", {},
     "config: 'map.origin' values must be between -1e15 and 1e15 (got [0, -2e15])"},
    {"OriginTooLarge", R"({"map": {"origin": [3e15, 0]}})", {},
     "config: 'map.origin' values must be between -1e15 and 1e15 (got [3e15, 0])"},
    {"OctavesZero", R"({"height": {"octaves": 0}})", {},
     "config: 'height.octaves' must be between 1 and 16 (got 0)"},
    {"OctavesTooMany", R"({"height": {"octaves": 40}})", {},
     "config: 'height.octaves' must be between 1 and 16 (got 40)"},
    {"LacunarityBelowOne", R"({"height": {"lacunarity": 0.5}})", {},
     "config: 'height.lacunarity' must be between 1 and 8 (got 0.5)"},
    {"LacunarityTooLarge", R"({"height": {"lacunarity": 8.5}})", {},
     "config: 'height.lacunarity' must be between 1 and 8 (got 8.5)"},
    {"PersistenceZero", R"({"height": {"persistence": 0}})", {},
     "config: 'height.persistence' must be greater than 0 and at most 1 (got 0)"},
    {"PersistenceAboveOne", R"({"height": {"persistence": 1.5}})", {},
     "config: 'height.persistence' must be greater than 0 and at most 1 (got 1.5)"},
    {"FrequencyNegative", R"({"height": {"frequency": -0.01}})", {},
     "config: 'height.frequency' must be greater than 0 and at most 1000 (got -0.01)"},
    {"FrequencyTooLarge", R"({"height": {"frequency": 1001}})", {},
     "config: 'height.frequency' must be greater than 0 and at most 1000 (got 1001)"},
    {"OffsetTooNegative", R"({"height": {"offset": [-2e9, 0]}})", {},
     "config: 'height.offset' values must be between -1e9 and 1e9 (got [-2e9, 0])"},
    {"OffsetTooLarge", R"({"height": {"offset": [0, 1.5e9]}})", {},
     "config: 'height.offset' values must be between -1e9 and 1e9 (got [0, 1.5e9])"},
    {"SeedOffsetNegative", R"({"height": {"seed_offset": -5}})", {},
     "config: 'height.seed_offset' must be between 0 and 18446744073709551615 (got -5)"},
    {"ElevationTooLow", R"({"elevation": {"min": -1e6}})", {},
     "config: 'elevation.min' must be between -1e5 and 1e5 (got -1e6)"},
    {"ElevationTooHigh", R"({"elevation": {"max": 200000}})", {},
     "config: 'elevation.max' must be between -1e5 and 1e5 (got 200000)"},
    {"EpsgTooSmall", R"({"output": {"epsg": 1023}})", {},
     "config: 'output.epsg' must be between 1024 and 32766 (got 1023)"},
    {"EpsgTooLarge", R"({"output": {"epsg": 32767}})", {},
     "config: 'output.epsg' must be between 1024 and 32766 (got 32767)"},

    // Numbers too large for a double (nlohmann refuses them while parsing).
    {"OverflowingNumber", R"({"height": {"frequency": 1e309}})", {},
     "config: 'height.frequency' must be a finite number (got 1e309)"},
    {"OverflowingNumberInArray", R"({"map": {"origin": [0, -1e309]}})", {},
     "config: 'map.origin' must be a finite number (got -1e309)"},
    {"OverflowingNumberInOverride", "{}", {"map.cell_size=1e400"},
     "config: 'map.cell_size' must be a finite number (got 1e400)"},

    // Rules across fields.
    {"ElevationMinAboveMax", R"({"elevation": {"min": 500, "max": 100}})", {},
     "config: 'elevation.min' (500) must be below 'elevation.max' (100)"},
    {"ElevationMinEqualsMax", R"({"elevation": {"min": 100, "max": 100.0}})", {},
     "config: 'elevation.min' (100) must be below 'elevation.max' (100)"},
    {"OriginOffGrid", R"({"map": {"origin": [10, 0], "cell_size": 30}})", {},
     "config: 'map.origin' ([10, 0]) must be a whole multiple of 'map.cell_size' (30) so that "
     "windows and shards line up cell for cell (nearest: [0, 0])"},
    {"OriginOffGridNegative", R"({"map": {"origin": [-50, 75], "cell_size": 30}})", {},
     "config: 'map.origin' ([-50, 75]) must be a whole multiple of 'map.cell_size' (30) so that "
     "windows and shards line up cell for cell (nearest: [-60, 90])"},
    {"OriginOneCoordinateOffGrid", R"({"map": {"origin": [0.3, 0.05], "cell_size": 0.1}})", {},
     "config: 'map.origin' ([0.3, 0.05]) must be a whole multiple of 'map.cell_size' (0.1) so "
     "that windows and shards line up cell for cell (nearest: [0.3, 0.1])"},
    {"OriginTooManyCellsFromZero", R"({"map": {"origin": [1e15, 0], "cell_size": 1}})", {},
     "config: 'map.origin' ([1e15, 0]) must lie within 70368744177664 cells of 0 at "
     "'map.cell_size' (1) so that cell indices stay exact"},
    {"OutputFileListedTwice", R"({"output": {"files": ["height.tif", "height.tif"]}})", {},
     R"(config: 'output.files' must not list a file twice (got ["height.tif", "height.tif"]))"},
    {"UnknownOutputFile", R"({"output": {"files": ["height.tif", "moisture.tif"]}})", {},
     R"(config: 'output.files' entries must be one of height.tif (got "moisture.tif"))"},

    // Overrides.
    {"OverrideWithoutEquals", "{}", {"map.width"},
     "config: override 'map.width' must look like key.path=value"},
    {"OverrideWithoutKey", "{}", {"=5"}, "config: override '=5' must look like key.path=value"},
    {"OverrideWithEmptySegment", "{}", {"map..width=5"},
     "config: override 'map..width=5' must look like key.path=value"},
    {"OverrideIntoScalar", "{}", {"seed.low=1"},
     "config: override 'seed.low=1' cannot set a key inside 'seed', which is not an object "
     "(got 7)"},
    {"OverrideValueCheckedLikeFileValue", "{}", {"map.width=big"},
     R"(config: 'map.width' must be an integer (got "big"))"},

    // Broken JSON: nlohmann's words, with line and column.
    {"BrokenJson", "{\n  \"seed\": 1,\n  \"map\" 2, \"x\": 1\n}", {},
     "config: 'test.json' is not valid JSON: parse error at line 3, column 9: syntax error", false},
    {"TrailingComma", "{\n  \"seed\": 1,\n}", {},
     "config: 'test.json' is not valid JSON: parse error at line 3, column 1:", false},
    {"EmptyText", "", {}, "config: 'test.json' is not valid JSON: parse error at line 1, column 1:",
     false},
};
// clang-format on

class ConfigProblemTest : public ::testing::TestWithParam<ProblemCase> {};

TEST_P(ConfigProblemTest, ReportsOneProblem) {
    const ProblemCase& c = GetParam();
    EXPECT_THAT([&] { (void)parseConfig(c.text, "test.json", c.overrides); },
                ThrowsMessage<ConfigError>(HasSubstr(c.expected)));
    const Matcher<const std::string&> line =
        c.exact ? Matcher<const std::string&>(Eq(c.expected))
                : Matcher<const std::string&>(StartsWith(c.expected));
    EXPECT_THAT(problemsOf(c.text, c.overrides), ElementsAre(line));
}

INSTANTIATE_TEST_SUITE_P(Rules, ConfigProblemTest, ::testing::ValuesIn(kProblemCases),
                         [](const auto& info) { return info.param.name; });

// ---------------------------------------------------------------------------------------------

TEST(ConfigTest, ReportsEveryProblemAtOnce) {
    const std::string text = R"({
        "sed": 1,
        "map": {"width": 0, "cell_size": "x"},
        "height": {"noise": "perlin2"},
        "elevation": {"min": 5, "max": 1}
    })";
    const std::vector<std::string> overrides = {"output.epsg=5", "bogus"};
    const auto problems = problemsOf(text, overrides);
    ASSERT_THAT(problems, SizeIs(7));
    EXPECT_THAT(problems,
                UnorderedElementsAre(HasSubstr("unknown key 'sed'"), HasSubstr("'map.width'"),
                                     HasSubstr("'map.cell_size' must be a number"),
                                     HasSubstr("'height.noise'"), HasSubstr("'elevation.min' (5)"),
                                     HasSubstr("'output.epsg'"), HasSubstr("override 'bogus'")));
    std::string joined;
    for (const auto& p : problems) joined += (joined.empty() ? "" : "\n") + p;
    EXPECT_THAT([&] { (void)parseConfig(text, "test.json", overrides); },
                ThrowsMessage<ConfigError>(Eq(joined)));
    for (const auto& p : problems) EXPECT_THAT(p, StartsWith("config: "));
}

TEST(ConfigTest, BuiltinDefaultFillsEveryFieldFromDefaultJson) {
    const Json d = defaultJson();
    const Config c = defaultConfig();
    EXPECT_EQ(c.seed, d["seed"].get<std::uint64_t>());
    EXPECT_EQ(c.map.width, d["map"]["width"].get<std::int64_t>());
    EXPECT_EQ(c.map.height, d["map"]["height"].get<std::int64_t>());
    EXPECT_EQ(c.map.tileSizeCells, d["map"]["tile_size"].get<std::int64_t>());
    EXPECT_EQ(c.map.cellSize, d["map"]["cell_size"].get<double>());
    EXPECT_EQ(c.map.originX, d["map"]["origin"][0].get<double>());
    EXPECT_EQ(c.map.originY, d["map"]["origin"][1].get<double>());
    EXPECT_EQ(kNoiseKindNames[static_cast<std::size_t>(c.height.noise)], d["height"]["noise"]);
    EXPECT_EQ(kFadeCurveNames[static_cast<std::size_t>(c.height.fade)], d["height"]["fade"]);
    EXPECT_EQ(kFractalKindNames[static_cast<std::size_t>(c.height.fractal)],
              d["height"]["fractal"]);
    EXPECT_EQ(kHashKindNames[static_cast<std::size_t>(c.height.hash)], d["height"]["hash"]);
    EXPECT_EQ(c.height.octaves, d["height"]["octaves"].get<int>());
    EXPECT_EQ(c.height.lacunarity, d["height"]["lacunarity"].get<double>());
    EXPECT_EQ(c.height.persistence, d["height"]["persistence"].get<double>());
    EXPECT_EQ(c.height.frequency, d["height"]["frequency"].get<double>());
    EXPECT_EQ(c.height.offsetX, d["height"]["offset"][0].get<double>());
    EXPECT_EQ(c.height.offsetY, d["height"]["offset"][1].get<double>());
    EXPECT_EQ(c.height.seedOffset, d["height"]["seed_offset"].get<std::uint64_t>());
    EXPECT_EQ(c.elevation.minMeters, d["elevation"]["min"].get<double>());
    EXPECT_EQ(c.elevation.maxMeters, d["elevation"]["max"].get<double>());
    EXPECT_EQ(c.output.directory, d["output"]["directory"].get<std::string>());
    std::vector<std::string> files;
    for (const OutputFile f : c.output.files)
        files.emplace_back(kOutputFileNames[static_cast<std::size_t>(f)]);
    EXPECT_EQ(files, d["output"]["files"].get<std::vector<std::string>>());
    EXPECT_EQ(c.output.epsg, d["output"]["epsg"].get<int>());
    EXPECT_EQ(kCompressionNames[static_cast<std::size_t>(c.output.compression)],
              d["output"]["compression"]);
    EXPECT_EQ(kBigTiffModeNames[static_cast<std::size_t>(c.output.bigTiff)],
              d["output"]["bigtiff"]);
}

TEST(ConfigTest, EveryOptionLandsInItsField) {
    const Config c = defaultConfig(
        {"seed=18446744073709551615", "map.width=300",         "map.height=200",
         "map.tile_size=50",          "map.cell_size=2.5",     "map.origin=[-5, 7.5]",
         "height.noise=simplex",      "height.fade=cubic",     "height.fractal=ridged",
         "height.hash=reference",     "height.octaves=3",      "height.lacunarity=1.5",
         "height.persistence=1",      "height.frequency=0.25", "height.offset=[1.5, -2.5]",
         "height.seed_offset=11",     "elevation.min=-10",     "elevation.max=20",
         "output.directory=there",    "output.epsg=4326",      "output.compression=zstd",
         "output.bigtiff=always"});
    EXPECT_EQ(c.seed, std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(c.map.width, 300);
    EXPECT_EQ(c.map.height, 200);
    EXPECT_EQ(c.map.tileSizeCells, 50);
    EXPECT_EQ(c.map.cellSize, 2.5);
    EXPECT_EQ(c.map.originX, -5.0);
    EXPECT_EQ(c.map.originY, 7.5);
    EXPECT_EQ(c.height.noise, NoiseKind::Simplex);
    EXPECT_EQ(c.height.fade, FadeCurve::Cubic);
    EXPECT_EQ(c.height.fractal, FractalKind::Ridged);
    EXPECT_EQ(c.height.hash, HashKind::Reference);
    EXPECT_EQ(c.height.octaves, 3);
    EXPECT_EQ(c.height.lacunarity, 1.5);
    EXPECT_EQ(c.height.persistence, 1.0);
    EXPECT_EQ(c.height.frequency, 0.25);
    EXPECT_EQ(c.height.offsetX, 1.5);
    EXPECT_EQ(c.height.offsetY, -2.5);
    EXPECT_EQ(c.height.seedOffset, 11u);
    EXPECT_EQ(c.elevation.minMeters, -10.0);
    EXPECT_EQ(c.elevation.maxMeters, 20.0);
    EXPECT_EQ(c.output.directory, "there");
    EXPECT_EQ(c.output.epsg, 4326);
    EXPECT_EQ(c.output.compression, Compression::Zstd);
    EXPECT_EQ(c.output.bigTiff, BigTiffMode::Always);
    EXPECT_TRUE(c.wants(OutputFile::HeightTif));
}

TEST(ConfigTest, SmallConfigLoads) {
    const Config c = loadConfig(kSourceDir + "/configs/small.json");
    EXPECT_EQ(c.map.width, 256);
    EXPECT_EQ(c.map.height, 256);
    EXPECT_EQ(c.map.tileSizeCells, 64);
    EXPECT_EQ(c.output.directory, "out-small");
    EXPECT_EQ(c.seed, defaultConfig().seed);  // not given: the default
}

TEST(ConfigTest, LoadConfigAppliesOverrides) {
    const Config c = loadConfig(kSourceDir + "/configs/small.json", {"map.width=128"});
    EXPECT_EQ(c.map.width, 128);
    EXPECT_EQ(c.map.height, 256);
}

TEST(ConfigTest, CommentsAreAccepted) {
    const Config c = parseConfig(R"({
        // a line comment
        "seed": 42, /* a block
                       comment */
        "map": {"width": 64}  // trailing
    })",
                                 "test.json");
    EXPECT_EQ(c.seed, 42u);
    EXPECT_EQ(c.map.width, 64);
}

TEST(ConfigTest, UserValuesMergeOverDefaultsKeyByKey) {
    const Config base = defaultConfig();
    const Config c = parseConfig(R"({"map": {"width": 100, "origin": [30, 60]}})", "test.json");
    EXPECT_EQ(c.map.width, 100);
    EXPECT_EQ(c.map.height, base.map.height);
    EXPECT_EQ(c.map.cellSize, base.map.cellSize);
    EXPECT_EQ(c.map.originX, 30.0);  // arrays replace
    EXPECT_EQ(c.map.originY, 60.0);
    EXPECT_EQ(c.height.octaves, base.height.octaves);
}

TEST(ConfigTest, OverridesReplaceFileValues) {
    const Config c = parseConfig(R"({"seed": 3, "output": {"directory": "a"}})", "test.json",
                                 {"seed=4", "output.directory=elsewhere", "map.origin=[30, -60]",
                                  " map.tile_size = 32 ", "map={\"height\": 96}"});
    EXPECT_EQ(c.seed, 4u);
    EXPECT_EQ(c.output.directory, "elsewhere");  // a bare string
    EXPECT_EQ(c.map.originX, 30.0);
    EXPECT_EQ(c.map.originY, -60.0);
    EXPECT_EQ(c.map.tileSizeCells, 32);
    EXPECT_EQ(c.map.height, 96);                        // an object merges ...
    EXPECT_EQ(c.map.width, defaultConfig().map.width);  // ... key by key
}

TEST(ConfigTest, QuotedOverrideValueIsAString) {
    EXPECT_EQ(defaultConfig({"output.directory=\"123\""}).output.directory, "123");
    EXPECT_THAT([] { (void)defaultConfig({"output.directory=123"}); },
                ThrowsMessage<ConfigError>(
                    HasSubstr("'output.directory' must be a non-empty string (got 123)")));
}

TEST(ConfigTest, LaterOverridesWin) { EXPECT_EQ(defaultConfig({"seed=1", "seed=2"}).seed, 2u); }

TEST(ConfigTest, OverridesAreValidatedLikeFileValues) {
    EXPECT_THAT([] { (void)defaultConfig({"height.octaves=40"}); },
                ThrowsMessage<ConfigError>(
                    HasSubstr("config: 'height.octaves' must be between 1 and 16 (got 40)")));
    EXPECT_THAT([] { (void)defaultConfig({"elevation.min=2000"}); },
                ThrowsMessage<ConfigError>(HasSubstr(
                    "config: 'elevation.min' (2000) must be below 'elevation.max' (1000)")));
}

TEST(ConfigTest, WholeFloatsAreIntegersAndIntegersAreNumbers) {
    const Config a = parseConfig(R"({"map": {"width": 256, "cell_size": 30}})", "a.json");
    const Config b = parseConfig(R"({"map": {"width": 256.0, "cell_size": 30.0}})", "b.json");
    const Config c = parseConfig(R"({"map": {"width": 2.56e2}})", "c.json");
    EXPECT_EQ(b.map.width, 256);
    EXPECT_EQ(c.map.width, 256);
    EXPECT_EQ(a.resolvedJson, b.resolvedJson);  // resolved in one canonical form
    EXPECT_EQ(a.hash, b.hash);
}

TEST(ConfigTest, SeedAcceptsTheFullUnsignedRange) {
    EXPECT_EQ(parseConfig(R"({"seed": 0})", "t").seed, 0u);
    EXPECT_EQ(parseConfig(R"({"seed": 18446744073709551615})", "t").seed,
              std::numeric_limits<std::uint64_t>::max());
}

TEST(ConfigTest, RangeBoundsAreInclusiveExceptAboveZero) {
    EXPECT_NO_THROW((void)defaultConfig(
        {"map.width=1", "map.height=1048576", "map.tile_size=8192", "height.octaves=16",
         "height.lacunarity=1", "height.persistence=1", "height.frequency=1000",
         "map.cell_size=1e7", "output.epsg=1024", "elevation.min=-1e5", "elevation.max=1e5"}));
    EXPECT_NO_THROW((void)defaultConfig({"height.lacunarity=8", "output.epsg=32766",
                                         "height.persistence=1e-9", "height.frequency=1e-12"}));
}

TEST(ConfigTest, TileLargerThanMapIsFine) {
    const Config c = defaultConfig({"map.width=10", "map.height=10", "map.tile_size=300"});
    EXPECT_EQ(c.map.tileSizeCells, 300);
}

TEST(ConfigTest, OriginOnGridUpToDecimalRounding) {
    // 0.3 / 0.1 is not exactly 3 in binary; it still is a multiple as a person means it.
    const Config c = defaultConfig({"map.cell_size=0.1", "map.origin=[0.3, -0.6]"});
    EXPECT_EQ(c.map.originX, 0.3);
    EXPECT_EQ(c.map.originY, -0.6);
    EXPECT_NO_THROW((void)defaultConfig({"map.origin=[-3000000, 999999990]"}));
    EXPECT_NO_THROW((void)defaultConfig({"map.cell_size=1", "map.origin=[70368744177664, 0]"}));
}

TEST(ConfigTest, ResolvedJsonIsSortedIndentedAndComplete) {
    const Config c = parseConfig(R"({"map": {"width": 100}})", "test.json");
    const Json resolved = Json::parse(c.resolvedJson);
    EXPECT_EQ(resolved.dump(2), c.resolvedJson);  // nlohmann's objects are sorted
    EXPECT_THAT(c.resolvedJson, StartsWith("{\n  \"elevation\": {\n    \"max\""));
    EXPECT_EQ(resolved["map"]["width"], 100);
    std::set<std::string> resolvedKeys;
    std::set<std::string> defaultKeys;
    collectLeaves(resolved, "", resolvedKeys);
    collectLeaves(defaultJson(), "", defaultKeys);
    EXPECT_EQ(resolvedKeys, defaultKeys);
}

TEST(ConfigTest, HashIsStable) {
    const std::string text = R"({"seed": 5, "map": {"width": 64}})";
    const Config a = parseConfig(text, "a.json");
    const Config b = parseConfig(text, "b.json");
    EXPECT_THAT(a.hash, MatchesRegex("[0-9a-f]{16}"));
    EXPECT_EQ(a.hash, b.hash);
    EXPECT_NE(a.hash, parseConfig(text, "a.json", {"seed=6"}).hash);
    EXPECT_NE(a.hash, parseConfig(text, "a.json", {"height.octaves=5"}).hash);
    EXPECT_EQ(a.hash, parseConfig(text, "a.json", {"output.directory=elsewhere"}).hash);
}

TEST(ConfigTest, HashIsFnv1aOfTheResolvedJsonWithoutDirectory) {
    const Config c = defaultConfig();
    Json resolved = Json::parse(c.resolvedJson);
    resolved["output"].erase("directory");
    EXPECT_EQ(c.hash, fnv1a64Hex(resolved.dump()));
}

TEST(ConfigTest, OptionReferenceCoversExactlyTheKeysOfDefaultJson) {
    const Json d = defaultJson();
    std::set<std::string> defaultKeys;
    collectLeaves(d, "", defaultKeys);
    std::set<std::string> referenceKeys;
    for (const auto& option : optionReference()) {
        referenceKeys.insert(option.path);
        EXPECT_EQ(option.defaultJson, d.at(pointerTo(option.path)).dump()) << option.path;
        EXPECT_FALSE(option.type.empty()) << option.path;
        EXPECT_FALSE(option.meaning.empty()) << option.path;
    }
    EXPECT_EQ(referenceKeys, defaultKeys);
    EXPECT_THAT(optionReference(), SizeIs(defaultKeys.size()));  // no key twice
}

TEST(ConfigTest, OptionReferenceDescribesRanges) {
    for (const auto& option : optionReference()) {
        if (option.path == "height.octaves") {
            EXPECT_EQ(option.type, "integer");
            EXPECT_EQ(option.range, "1..16");
        } else if (option.path == "height.noise") {
            EXPECT_EQ(option.range, "one of: value, perlin, simplex");
        } else if (option.path == "map.cell_size") {
            EXPECT_EQ(option.range, "> 0 and <= 1e7");
        } else if (option.path == "map.origin") {
            EXPECT_EQ(option.type, "[number, number]");
        }
    }
}

TEST(ConfigTest, OptionReferenceMarkdownHasOneRowPerOption) {
    const auto options = optionReference();
    std::istringstream markdown(optionReferenceMarkdown());
    std::vector<std::string> lines;
    for (std::string line; std::getline(markdown, line);) lines.push_back(line);
    ASSERT_THAT(lines, SizeIs(options.size() + 2));
    EXPECT_EQ(lines[0], "| key | type | default | range | meaning |");
    EXPECT_EQ(lines[1], "|---|---|---|---|---|");
    for (std::size_t i = 0; i < options.size(); ++i) {
        EXPECT_THAT(lines[i + 2], StartsWith("| `" + options[i].path + "` | " + options[i].type));
        EXPECT_THAT(lines[i + 2], HasSubstr(options[i].meaning));
    }
}

TEST(ConfigTest, LoadConfigReportsMissingFile) {
    const std::string path = kSourceDir + "/configs/no-such-config.json";
    EXPECT_THAT([&] { (void)loadConfig(path); },
                ThrowsMessage<ConfigError>(
                    Eq("config: cannot read '" + path + "': No such file or directory")));
}

TEST(ConfigTest, LoadConfigReportsDirectory) {
    const std::string path = kSourceDir + "/configs";
    EXPECT_THAT(
        [&] { (void)loadConfig(path); },
        ThrowsMessage<ConfigError>(Eq("config: cannot read '" + path + "': it is a directory")));
}

TEST(ConfigTest, LoadConfigNamesTheFileInJsonErrors) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("terragrid_config_test_" + std::to_string(::getpid()) + ".json");
    std::ofstream(path) << "{\"seed\": }";
    EXPECT_THAT([&] { (void)loadConfig(path.string()); },
                ThrowsMessage<ConfigError>(
                    StartsWith("config: '" + path.string() + "' is not valid JSON: parse error")));
    std::filesystem::remove(path);
}

}  // namespace
}  // namespace terragrid
