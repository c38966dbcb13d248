// Config loading and validation (terragrid/config/loader.hpp): one table of {input, expected problem} for every
// rule, then defaults, merging, overrides, the hash and the option reference.

#include "build_paths.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/config/terrain_messages.hpp"
#include "terragrid/io/output_drivers.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
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

const std::string kSourceDir = test::sourceDir().string();

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

/// "#3a6ea5".
std::string hexOf(const Rgb& rgb) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "#%02x%02x%02x", rgb.r, rgb.g, rgb.b);
    return hex;
}

/// Every field of a noise layer equals its section of default.json.
void expectLayerIs(const NoiseParams& p, const Json& section) {
    const auto text = [](const Json& j) { return j.get<std::string>(); };
    EXPECT_EQ(kNoiseKindNames[static_cast<std::size_t>(p.noise)], text(section["noise"]));
    EXPECT_EQ(kFadeCurveNames[static_cast<std::size_t>(p.fade)], text(section["fade"]));
    EXPECT_EQ(kFractalKindNames[static_cast<std::size_t>(p.fractal)], text(section["fractal"]));
    EXPECT_EQ(kHashKindNames[static_cast<std::size_t>(p.hash)], text(section["hash"]));
    EXPECT_EQ(p.octaves, section["octaves"].get<int>());
    EXPECT_EQ(p.lacunarity, section["lacunarity"].get<double>());
    EXPECT_EQ(p.persistence, section["persistence"].get<double>());
    EXPECT_EQ(p.frequency, section["frequency"].get<double>());
    EXPECT_EQ(p.offsetX, section["offset"][0].get<double>());
    EXPECT_EQ(p.offsetY, section["offset"][1].get<double>());
    EXPECT_EQ(p.seedOffset, section["seed_offset"].get<std::uint64_t>());
    EXPECT_EQ(kProximityNames[static_cast<std::size_t>(p.proximity)], text(section["proximity"]));
    EXPECT_EQ(kGridDisplacementNames[static_cast<std::size_t>(p.displacement)],
              text(section["grid_displacement"]));
    EXPECT_EQ(p.marbleFrequency, section["marble"]["frequency"].get<double>());
    EXPECT_EQ(p.marbleTurbulence, section["marble"]["turbulence"].get<double>());
    EXPECT_EQ(kCellularReturnNames[static_cast<std::size_t>(p.cellularReturn)],
              text(section["cellular"]["return"]));
    EXPECT_EQ(kCellularDistanceNames[static_cast<std::size_t>(p.cellularDistance)],
              text(section["cellular"]["distance"]));
    EXPECT_EQ(p.cellularJitter, section["cellular"]["jitter"].get<double>());
}

bool isReferenceOption(const std::string& path) {
    const auto options = optionReference();
    return std::any_of(options.begin(), options.end(),
                       [&](const OptionInfo& o) { return o.path == path; });
}

/// The option keys of a config document: every member that is not an object, and every
/// object-valued member the reference names (terrain.walkable is an object, a threshold may be
/// {"coverage": share}); other objects are sections (output.tiled), whose members are keys in
/// turn. The top-level "$schema" is no option. In document order for an ordered_json.
template <typename J>
std::vector<std::string> optionKeysOf(const J& document, const std::string& prefix = "") {
    std::vector<std::string> keys;
    for (const auto& [key, value] : document.items()) {
        const std::string path = prefix.empty() ? key : prefix + "." + key;
        if (path == "$schema") continue;
        if (!value.is_object() || isReferenceOption(path)) {
            keys.push_back(path);
            continue;
        }
        for (auto& member : optionKeysOf(value, path)) keys.push_back(std::move(member));
    }
    return keys;
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

// Class entries that cover every cell.
constexpr const char* kAllClass = R"({"name": "all", "colour": "#808080", "walkable": true})";
constexpr const char* kAllClass2 = R"({"name": "all2", "colour": "#404040", "walkable": false})";

/// A config with these terrain.classes entries and, if given, more terrain members.
std::string classesText(const std::vector<std::string>& entries, const std::string& more = "") {
    std::string list;
    for (const auto& e : entries) list += (list.empty() ? "" : ", ") + e;
    return R"({"terrain": {"classes": [)" + list + "]" + (more.empty() ? "" : ", " + more) + "}}";
}

/// The problem with a threshold that is neither a number on 0..1 nor {"coverage": share}.
std::string notAThreshold(const std::string& key, const std::string& value) {
    return "config: '" + key +
           R"(' must be a number between 0 and 1 or {"coverage": share} (got )" + value + ")";
}

/// A config with `count` classes named c0, c1, ..., each covering every cell.
std::string classesText(std::size_t count) {
    std::vector<std::string> entries;
    for (std::size_t i = 0; i < count; ++i)
        entries.push_back(R"({"name": "c)" + std::to_string(i) +
                          R"(", "colour": "#000000", "walkable": true})");
    return classesText(entries);
}

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
    {"UnknownSectionIsOneProblem", R"({"weather": {"octaves": 3, "noise": "value"}})", {},
     "config: unknown key 'weather'"},
    {"DottedKeyIsUnknown", R"({"map.width": 5})", {},
     "config: unknown key 'map.width' (write nested objects: dots separate keys only in "
     "overrides)"},
    {"EmptyKeyIsUnknown", R"({"map": {"": {"width": 5}}})", {}, "config: unknown key 'map.'"},
    {"UnknownKeyInOverride", "{}", {"height.octave=3"},
     "config: unknown key 'height.octave' (did you mean 'octaves'?)"},
    {"UnknownSectionInOverride", "{}", {"biome.lake_below=0.3"}, "config: unknown key 'biome'"},
    {"UnknownKeyInMoisture", R"({"moisture": {"octave": 4}})", {},
     "config: unknown key 'moisture.octave' (did you mean 'octaves'?)"},
    {"UnknownKeyInTerrain", R"({"terrain": {"lake_bellow": 0.3}})", {},
     "config: unknown key 'terrain.lake_bellow' (did you mean 'lake_below'?)"},
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
     "config: 'height.noise' must be one of value, perlin, simplex, generic_lattice, "
     "cellular (got 1)"},
    {"FileListGivenString", R"({"output": {"files": "height.tif"}})", {},
     R"(config: 'output.files' must be a non-empty array of file names (got "height.tif"))"},
    {"FileListEmpty", R"({"output": {"files": []}})", {},
     "config: 'output.files' must be a non-empty array of file names (got [])"},
    {"FileListGivenNumbers", R"({"output": {"files": [1]}})", {},
     "config: 'output.files' must be a non-empty array of file names (got [1])"},

    // Enum choices, for every enum.
    {"NoiseChoice", R"({"height": {"noise": "perlin2"}})", {},
     "config: 'height.noise' must be one of value, perlin, simplex, generic_lattice, "
     R"(cellular (got "perlin2"))"},
    {"FadeChoice", R"({"height": {"fade": "smooth"}})", {},
     R"(config: 'height.fade' must be one of linear, cubic, quintic (got "smooth"))"},
    {"FractalChoiceIsCaseSensitive", R"({"height": {"fractal": "FBM"}})", {},
     "config: 'height.fractal' must be one of none, fbm, turbulence, ridged, marble "
     R"((got "FBM"))"},
    {"HashChoice", R"({"height": {"hash": "xxhash"}})", {},
     R"(config: 'height.hash' must be one of lattice, permutation, reference (got "xxhash"))"},
    {"CompressionChoice", R"({"output": {"compression": "gzip"}})", {},
     R"(config: 'output.compression' must be one of none, deflate, lzw, zstd (got "gzip"))"},
    {"BigTiffChoice", R"({"output": {"bigtiff": true}})", {},
     "config: 'output.bigtiff' must be one of auto, always (got true)"},
    {"ExrCompressionChoice", R"({"output": {"exr_compression": "b44"}})", {},
     R"(config: 'output.exr_compression' must be one of zip, piz, none (got "b44"))"},

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
    {"ProximityChoice", R"({"height": {"proximity": "perlin"}})", {},
     "config: 'height.proximity' must be one of constant, gradient, triangular, ridged, "
     R"(semi_ridged (got "perlin"))"},
    {"GridDisplacementGivenNumber", R"({"height": {"grid_displacement": 0.5}})", {},
     "config: 'height.grid_displacement' must be one of none, half, quarter (got 0.5)"},
    {"MarbleFrequencyNegative", R"({"height": {"marble": {"frequency": -0.001}}})", {},
     "config: 'height.marble.frequency' must be between 0 and 1000 (got -0.001)"},
    {"MarbleFrequencyTooLarge", R"({"height": {"marble": {"frequency": 1e4}}})", {},
     "config: 'height.marble.frequency' must be between 0 and 1000 (got 10000)"},
    {"MarbleTurbulenceNegative", R"({"moisture": {"marble": {"turbulence": -1}}})", {},
     "config: 'moisture.marble.turbulence' must be between 0 and 64 (got -1)"},
    {"MarbleTurbulenceTooLarge", R"({"height": {"marble": {"turbulence": 65}}})", {},
     "config: 'height.marble.turbulence' must be between 0 and 64 (got 65)"},
    {"CellularReturnChoice", R"({"height": {"cellular": {"return": "f3"}}})", {},
     R"(config: 'height.cellular.return' must be one of f1, f2, f2_minus_f1 (got "f3"))"},
    {"CellularDistanceChoice", R"({"moisture": {"cellular": {"distance": "chebyshev"}}})", {},
     "config: 'moisture.cellular.distance' must be one of euclidean, manhattan "
     R"((got "chebyshev"))"},
    {"CellularJitterNegative", R"({"height": {"cellular": {"jitter": -0.1}}})", {},
     "config: 'height.cellular.jitter' must be between 0 and 1 (got -0.1)"},
    {"CellularJitterTooLarge", R"({"height": {"cellular": {"jitter": 1.5}}})", {},
     "config: 'height.cellular.jitter' must be between 0 and 1 (got 1.5)"},
    {"CellularUnknownKey", R"({"height": {"cellular": {"jiter": 0.5}}})", {},
     "config: unknown key 'height.cellular.jiter' (did you mean 'jitter'?)"},
    {"CellularNotAnObject", R"({"height": {"cellular": 1}})", {},
     "config: 'height.cellular' must be an object (got 1)"},
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
    {"OriginTooManyCellsFromZero", R"({"map": {"origin": [1e15, 0], "cell_size": 1}})", {},
     "config: 'map.origin' ([1e15, 0]) must lie within 70368744177664 cells of 0 at "
     "'map.cell_size' (1) so that cell indices stay exact"},
    {"OutputFileListedTwice", R"({"output": {"files": ["height.tif", "height.tif"]}})", {},
     R"(config: 'output.files' must not list a file twice (got ["height.tif", "height.tif"]))"},
    {"UnknownOutputFile", R"({"output": {"files": ["height.tif", "moisture.tif"]}})", {},
     "config: 'output.files' entries must be one of height.tif, classes.tif, walkable.tif, "
     "preview.png, height.png, stats.json, height.r16, height16.png, height16.tif, map.tmj, height.exr, splat.png, weight.png, classes.qml, height.qml, flow.tif, water.tif, water_depth.tif, rivers.geojson, lakes.geojson, water_mask.png, temperature.tif, precipitation.tif "
     R"((got "moisture.tif"))"},

    // The moisture layer: the same keys and rules as height.
    {"MoistureNoiseChoice", R"({"moisture": {"noise": "perlin2"}})", {},
     "config: 'moisture.noise' must be one of value, perlin, simplex, generic_lattice, "
     R"(cellular (got "perlin2"))"},
    {"MoistureOctavesTooMany", R"({"moisture": {"octaves": 40}})", {},
     "config: 'moisture.octaves' must be between 1 and 16 (got 40)"},
    {"MoisturePersistenceZero", "{}", {"moisture.persistence=0"},
     "config: 'moisture.persistence' must be greater than 0 and at most 1 (got 0)"},
    {"MoistureOffsetTooLarge", R"({"moisture": {"offset": [0, 1.5e9]}})", {},
     "config: 'moisture.offset' values must be between -1e9 and 1e9 (got [0, 1.5e9])"},

    // Terrain thresholds: a number on 0..1 or {"coverage": share}.
    {"ThresholdGivenString", R"({"terrain": {"lake_below": "x"}})", {},
     "config: 'terrain.lake_below' must be a number between 0 and 1 or "
     R"({"coverage": share} (got "x"))"},
    {"ThresholdAboveOne", R"({"terrain": {"mountain_above": 1.5}})", {},
     notAThreshold("terrain.mountain_above", "1.5")},
    {"ThresholdNegative", R"({"terrain": {"forest_above": -0.1}})", {},
     notAThreshold("terrain.forest_above", "-0.1")},
    {"ThresholdGivenNull", "{}", {"terrain.desert_below=null"},
     notAThreshold("terrain.desert_below", "null")},
    {"CoverageAboveOne", R"({"terrain": {"desert_below": {"coverage": 1.5}}})", {},
     notAThreshold("terrain.desert_below", R"({"coverage": 1.5})")},
    {"CoverageGivenString", "{}", {R"(terrain.lake_below={"coverage": "half"})"},
     notAThreshold("terrain.lake_below", R"({"coverage": "half"})")},
    {"CoverageEmptyObject", R"({"terrain": {"lake_below": {}}})", {},
     notAThreshold("terrain.lake_below", "{}")},
    {"CoverageUnknownKey", R"({"terrain": {"lake_below": {"coverage": 0.2, "exact": true}}})", {},
     "config: unknown key 'terrain.lake_below.exact'"},
    {"CoverageMisspelledIsOneProblem", R"({"terrain": {"lake_below": {"coverag": 0.2}}})", {},
     "config: unknown key 'terrain.lake_below.coverag' (did you mean 'coverage'?)"},
    {"LakeAboveMountain", R"({"terrain": {"lake_below": 0.8}})", {},
     "config: 'terrain.lake_below' (0.8) must be below 'terrain.mountain_above' (0.72)"},
    {"LakeEqualsMountain", R"({"terrain": {"lake_below": 0.5, "mountain_above": 0.5}})", {},
     "config: 'terrain.lake_below' (0.5) must be below 'terrain.mountain_above' (0.5)"},
    {"DesertAboveForest", "{}", {"terrain.desert_below=0.7"},
     "config: 'terrain.desert_below' (0.7) must be below 'terrain.forest_above' (0.64)"},
    {"LakeAndMountainCoverMoreThanTheMap",
     R"({"terrain": {"lake_below": {"coverage": 0.6}, "mountain_above": {"coverage": 0.5}}})", {},
     R"(config: 'terrain.lake_below' ({"coverage": 0.6}) and 'terrain.mountain_above' )"
     R"(({"coverage": 0.5}) ask for more than the whole map: coverages must add up to at most 1)"},
    {"AllFourCoverMoreThanTheMap", "{}",
     {R"(terrain.lake_below={"coverage": 0.3})", R"(terrain.mountain_above={"coverage": 0.2})",
      R"(terrain.forest_above={"coverage": 0.3})", R"(terrain.desert_below={"coverage": 0.3})"},
     R"(config: 'terrain.lake_below' ({"coverage": 0.3}), 'terrain.mountain_above' )"
     R"(({"coverage": 0.2}), 'terrain.forest_above' ({"coverage": 0.3}) and )"
     R"('terrain.desert_below' ({"coverage": 0.3}) ask for more than the whole map: coverages )"
     "must add up to at most 1"},

    // Walkability and colours of the default classes.
    {"WalkableNotObject", R"({"terrain": {"walkable": true}})", {},
     "config: 'terrain.walkable' must be an object of booleans (got true)"},
    {"WalkableNotBoolean", R"({"terrain": {"walkable": {"lake": "yes"}}})", {},
     R"(config: 'terrain.walkable.lake' must be a boolean (got "yes"))"},
    {"WalkableUnknownClass", "{}", {"terrain.walkable.lakes=true"},
     "config: unknown key 'terrain.walkable.lakes' (did you mean 'lake'?)"},
    {"ColoursNotObject", R"({"terrain": {"colours": ["#000000"]}})", {},
     R"(config: 'terrain.colours' must be an object of colours (got ["#000000"]))"},
    {"ColourName", R"({"terrain": {"colours": {"forest": "red"}}})", {},
     R"(config: 'terrain.colours.forest' must be a colour "#rrggbb" (got "red"))"},
    {"ColourShortForm", "{}", {"terrain.colours.desert=#fff"},
     R"(config: 'terrain.colours.desert' must be a colour "#rrggbb" (got "#fff"))"},
    {"ColourNotHex", R"({"terrain": {"colours": {"ground": "#12345g"}}})", {},
     R"(config: 'terrain.colours.ground' must be a colour "#rrggbb" (got "#12345g"))"},
    {"ColourUnknownClass", R"({"terrain": {"colours": {"grass": "#00ff00"}}})", {},
     "config: unknown key 'terrain.colours.grass'"},

    // Custom class tables.
    {"ClassesNotArray", R"({"terrain": {"classes": {}}})", {},
     "config: 'terrain.classes' must be an array of classes (got {})"},
    {"TooManyClasses", classesText(256), {},
     "config: 'terrain.classes' must hold at most 255 classes (got 256): index 255 is "
     "classes.tif's nodata"},
    {"ClassNotObject", R"({"terrain": {"classes": [5]}})", {},
     "config: 'terrain.classes[0]' must be an object (got 5)"},
    {"ClassNameMissing", classesText({R"({"colour": "#000000", "walkable": true})"}), {},
     "config: 'terrain.classes[0].name' is missing"},
    {"ClassColourMissing", classesText({R"({"name": "all", "walkable": true})"}), {},
     "config: 'terrain.classes[0].colour' is missing"},
    {"ClassWalkableMissing", classesText({R"({"name": "all", "colour": "#000000"})"}), {},
     "config: 'terrain.classes[0].walkable' is missing"},
    {"ClassNameEmpty", classesText({R"({"name": "", "colour": "#000000", "walkable": true})"}), {},
     "config: 'terrain.classes[0].name' must be a non-empty string of at most 64 characters "
     R"((got ""))"},
    {"ClassNameNotString", classesText({R"({"name": 3, "colour": "#000000", "walkable": true})"}),
     {}, "config: 'terrain.classes[0].name' must be a non-empty string of at most 64 characters "
     "(got 3)"},
    {"ClassNameTooLong",
     classesText({R"({"name": ")" + std::string(65, 'x') +
                  R"(", "colour": "#000000", "walkable": true})"}),
     {}, "config: 'terrain.classes[0].name' must be a non-empty string of at most 64 characters "
     "(got \"" + std::string(65, 'x') + "\")"},
    {"ClassColourBad",
     classesText({kAllClass, R"({"name": "b", "colour": "red", "walkable": true})"}), {},
     R"(config: 'terrain.classes[1].colour' must be a colour "#rrggbb" (got "red"))"},
    {"ClassWalkableNotBoolean",
     classesText({R"({"name": "a", "colour": "#000000", "walkable": 1})"}), {},
     "config: 'terrain.classes[0].walkable' must be a boolean (got 1)"},
    {"ClassHeightReversed",
     classesText({kAllClass, kAllClass2,
                  R"({"name": "c", "colour": "#000000", "walkable": true, "height": [0.5, 0.2]})"}),
     {}, "config: 'terrain.classes[2].height' must be an array of 2 numbers with 0 <= lo <= hi "
     "<= 1 (got [0.5, 0.2])"},
    {"ClassHeightAboveOne",
     classesText({R"({"name": "a", "colour": "#000000", "walkable": true, "height": [0, 1.5]})"}),
     {}, "config: 'terrain.classes[0].height' must be an array of 2 numbers with 0 <= lo <= hi "
     "<= 1 (got [0, 1.5])"},
    {"ClassMoistureOneNumber",
     classesText({R"({"name": "a", "colour": "#000000", "walkable": true, "moisture": [0.5]})"}),
     {}, "config: 'terrain.classes[0].moisture' must be an array of 2 numbers with 0 <= lo <= hi "
     "<= 1 (got [0.5])"},
    {"ClassMoistureNotArray",
     classesText({R"({"name": "a", "colour": "#000000", "walkable": true, "moisture": "all"})"}),
     {}, "config: 'terrain.classes[0].moisture' must be an array of 2 numbers with 0 <= lo <= hi "
     R"(<= 1 (got "all"))"},
    {"ClassUnknownKey",
     classesText({R"({"name": "a", "colour": "#000000", "colour_": "#ffffff", "walkable": true})"}),
     {}, "config: unknown key 'terrain.classes[0].colour_' (did you mean 'colour'?)"},
    {"ClassMisspelledRequiredKeyIsOneProblem",
     classesText({R"({"name": "a", "colour_": "#000000", "walkable": true})"}), {},
     "config: unknown key 'terrain.classes[0].colour_' (did you mean 'colour'?)"},
    {"ClassNamesRepeat", classesText({kAllClass, kAllClass2, kAllClass}), {},
     R"(config: 'terrain.classes[2].name' ("all") must differ from 'terrain.classes[0].name')"},
    {"ClassesLeaveAGap",
     classesText({R"({"name": "low", "colour": "#000000", "walkable": true, "height": [0, 0.3]})",
                  R"({"name": "high", "colour": "#ffffff", "walkable": true, )"
                  R"("height": [0.31, 1]})"}),
     {}, "config: 'terrain.classes' leave height 0.3..0.31 with moisture 0..1 unclassified: "
     "every cell must match a class"},
    {"ClassesInOverrideChecked", "{}",
     {R"(terrain.classes=[{"name": "a", "colour": "#00000", "walkable": true}])"},
     R"(config: 'terrain.classes[0].colour' must be a colour "#rrggbb" (got "#00000"))"},

    // With a custom table the default rules' keys have no effect.
    {"LakeBelowWithClasses", classesText({kAllClass}, R"("lake_below": 0.2)"), {},
     "config: 'terrain.lake_below' has no effect when 'terrain.classes' is given"},
    {"MountainAboveWithClasses", classesText({kAllClass}, R"("mountain_above": 0.72)"), {},
     "config: 'terrain.mountain_above' has no effect when 'terrain.classes' is given"},
    {"ForestCoverageWithClasses", classesText({kAllClass}, R"("forest_above": {"coverage": 0.1})"),
     {}, "config: 'terrain.forest_above' has no effect when 'terrain.classes' is given"},
    {"DesertBelowInOverrideWithClasses", classesText({kAllClass}), {"terrain.desert_below=0.1"},
     "config: 'terrain.desert_below' has no effect when 'terrain.classes' is given"},
    {"WalkableWithClasses", classesText({kAllClass}, R"("walkable": {"lake": true})"), {},
     "config: 'terrain.walkable' has no effect when 'terrain.classes' is given"},
    {"ColoursInOverrideWithClasses", classesText({kAllClass}), {"terrain.colours.lake=#000000"},
     "config: 'terrain.colours' has no effect when 'terrain.classes' is given"},
    {"ClassesInOverrideWithLakeInFile", R"({"terrain": {"lake_below": 0.2}})",
     {"terrain.classes=[" + std::string(kAllClass) + "]"},
     "config: 'terrain.lake_below' has no effect when 'terrain.classes' is given"},
    {"TerrainObjectOverrideWithClasses", classesText({kAllClass}),
     {R"(terrain={"walkable": {"ground": false}})"},
     "config: 'terrain.walkable' has no effect when 'terrain.classes' is given"},

    {"ConnectivityChoice", R"({"terrain": {"connectivity": "all"}})", {},
     R"(config: 'terrain.connectivity' must be one of report, largest (got "all"))"},

    // Output.
    {"PreviewMaxSizeTooSmall", R"({"output": {"preview_max_size": 15}})", {},
     "config: 'output.preview_max_size' must be between 16 and 16384 (got 15)"},
    {"PreviewMaxSizeTooLarge", "{}", {"output.preview_max_size=16385"},
     "config: 'output.preview_max_size' must be between 16 and 16384 (got 16385)"},
    {"PreviewMaxSizeFraction", R"({"output": {"preview_max_size": 100.5}})", {},
     "config: 'output.preview_max_size' must be an integer (got 100.5)"},
    {"EngineChoice", R"({"output": {"engine": "unity3d"}})", {},
     R"(config: 'output.engine' must be one of none, unity, unreal, godot (got "unity3d"))"},
    {"EngineSnapNotBoolean", R"({"output": {"engine_snap": "yes"}})", {},
     R"(config: 'output.engine_snap' must be a boolean (got "yes"))"},
    {"R16FlipYNotBoolean", "{}", {"output.r16_flip_y=1"},
     "config: 'output.r16_flip_y' must be a boolean (got 1)"},
    {"TiledMustBeObject", R"({"output": {"tiled": 16}})", {},
     "config: 'output.tiled' must be an object (got 16)"},
    {"UnknownTiledKey", R"({"output": {"tiled": {"tile_pixel": 16}}})", {},
     "config: unknown key 'output.tiled.tile_pixel' (did you mean 'tile_pixels'?)"},
    {"TilePixelsZero", "{}", {"output.tiled.tile_pixels=0"},
     "config: 'output.tiled.tile_pixels' must be between 1 and 256 (got 0)"},
    {"TilePixelsTooLarge", R"({"output": {"tiled": {"tile_pixels": 257}}})", {},
     "config: 'output.tiled.tile_pixels' must be between 1 and 256 (got 257)"},
    {"TilePixelsFraction", R"({"output": {"tiled": {"tile_pixels": 1.5}}})", {},
     "config: 'output.tiled.tile_pixels' must be an integer (got 1.5)"},
    {"WalkableLayerNotBoolean", "{}", {"output.tiled.walkable_layer=null"},
     "config: 'output.tiled.walkable_layer' must be a boolean (got null)"},
    {"ChunkCellsTooSmall", R"({"output": {"tiled": {"chunk_cells": 15}}})", {},
     "config: 'output.tiled.chunk_cells' must be between 16 and 65536 (got 15)"},
    {"ChunkCellsTooLarge", "{}", {"output.tiled.chunk_cells=65537"},
     "config: 'output.tiled.chunk_cells' must be between 16 and 65536 (got 65537)"},

    // Engine sizes: a size the user gave that the engine does not take.
    {"UnitySizeGivenIsRefused", "{}",
     {"map.width=1000", "map.height=1000", "output.engine=unity"},
     "config: 'map.width' x 'map.height' (1000 x 1000) is not a size unity accepts: square "
     "2^n+1 sizes from 33 to 4097 (nearest: 1025 x 1025); set output.engine_snap=true to snap"},
    {"UnityNonSquareIsRefused", R"({"map": {"width": 513, "height": 257}})",
     {"output.engine=unity"},
     "config: 'map.width' x 'map.height' (513 x 257) is not a size unity accepts: square "
     "2^n+1 sizes from 33 to 4097 (nearest: 513 x 513); set output.engine_snap=true to snap"},
    {"OneSideGivenIsRefused", R"({"map": {"width": 1000}, "output": {"engine": "unreal"}})", {},
     "config: 'map.width' x 'map.height' (1000 x 1024) is not a size unreal accepts: each side "
     "one of 127, 253, 505, 1009, 2017, 4033, 8129 (nearest: 1009 x 1009); set "
     "output.engine_snap=true to snap"},
    {"GodotHeightGivenIsRefused", "{}", {"output.engine=godot", "map.height=100"},
     "config: 'map.width' x 'map.height' (1024 x 100) is not a size godot accepts: each side "
     "2^n+1 from 33 to 16385 (nearest: 1025 x 129); set output.engine_snap=true to snap"},

    // "$schema" names a JSON Schema for editors.
    {"SchemaKeyMustBeString", R"({"$schema": 5})", {}, "config: '$schema' must be a string (got 5)"},
    {"SchemaKeyOnlyAtTopLevel", R"({"map": {"$schema": "./schema.json"}})", {},
     "config: unknown key 'map.$schema'"},

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

    // World shapes: wrapping maps, planets, warp, layer stacks, shaping.
    {"WrapNeedsFourDimensionalNoise", R"({"map": {"wrap": true}, "height": {"noise": "value"}})", {},
     "config: 'height.noise' (value) has no 4D form, which 'map.wrap' (true) needs: use perlin "
     "or simplex", false},
    // Version 5's value noise tiles by its lattice, but only with the lattice hash.
    {"WrapValueNeedsTheLatticeHash", R"({"noise_version": 5, "map": {"wrap": true},
        "height": {"noise": "value", "hash": "permutation"}})", {},
     "config: 'height.noise' (value) has no 4D form, which 'map.wrap' (true) needs: use perlin "
     "or simplex (or value with noise_version 5 and the lattice hash)", false},
    {"WrapNeedsItForStackedLayersToo", R"({"map": {"wrap": true},
        "height": {"layers": [{}, {"noise": "cellular"}]}})", {},
     "config: 'height.layers[1].noise' (cellular) has no 4D form, which 'map.wrap' (true) "
     "needs: use perlin or simplex", false},
    {"PlanetNeedsThreeDimensionalNoise", R"({"map": {"projection": "equirectangular",
        "width": 64, "height": 32}, "moisture": {"noise": "generic_lattice"}})", {},
     "config: 'moisture.noise' (generic_lattice) has no 3D form, which 'map.projection' "
     "(\"equirectangular\") needs: use value, perlin or simplex", false},
    {"PlanetAndWrap", R"({"map": {"projection": "equirectangular", "wrap": true}})", {},
     "config: 'map.wrap' (true) and 'map.projection' (\"equirectangular\") cannot go together", false},
    {"PlanetNotTwoToOne", R"({"map": {"projection": "equirectangular", "width": 64,
        "height": 64}})", {},
     "config: 'map.width' x 'map.height' (64 x 64) must be 2h x h with h even for "
     "'map.projection' (\"equirectangular\")", false},
    {"PlanetOddHeight", R"({"map": {"projection": "equirectangular", "width": 66,
        "height": 33}})", {},
     "config: 'map.width' x 'map.height' (66 x 33) must be 2h x h with h even", false},
    {"PlanetOtherEpsg", R"({"map": {"projection": "equirectangular", "width": 64,
        "height": 32}, "output": {"epsg": 3857}})", {},
     "config: 'output.crs' (\"EPSG:3857\") must be \"EPSG:4326\" for 'map.projection' "
     "(\"equirectangular\")", false},
    {"PlanetWithOrigin", R"({"map": {"projection": "equirectangular", "width": 64,
        "height": 32, "origin": [30, 30]}})", {},
     "config: 'map.origin' has no effect with 'map.projection' (\"equirectangular\")", false},
    {"ProjectionUnknown", R"({"map": {"projection": "mercator"}})", {},
     "config: 'map.projection' must be one of plane, equirectangular (got \"mercator\")", false},
    {"FalloffOnAWrappingMap", R"({"map": {"wrap": true}, "height": {"falloff":
        {"shape": "square"}}})", {},
     "config: 'height.falloff.shape' (\"square\") has no place on a wrapping map", false},
    {"FalloffShapeUnknown", R"({"height": {"falloff": {"shape": "round"}}})", {},
     "config: 'height.falloff.shape' must be one of none, radial, square (got \"round\")", false},
    {"FalloffExponentZero", R"({"height": {"falloff": {"exponent": 0}}})", {},
     "config: 'height.falloff.exponent' must be greater than 0 and at most 16 (got 0)", false},
    {"FalloffStrengthAboveOne", R"({"height": {"falloff": {"strength": 1.5}}})", {},
     "config: 'height.falloff.strength' must be between 0 and 1 (got 1.5)", false},
    {"FalloffOnMoisture", R"({"moisture": {"falloff": {"shape": "radial"}}})", {},
     "config: unknown key 'moisture.falloff'", false},
    {"RedistributionZero", R"({"height": {"redistribution": 0}})", {},
     "config: 'height.redistribution' must be greater than 0 and at most 16 (got 0)", false},
    {"WarpAmplitudeNegative", R"({"height": {"warp": {"amplitude": -1}}})", {},
     "config: 'height.warp.amplitude' must be between 0 and 1e9 (got -1)", false},
    {"WarpOctavesZero", R"({"moisture": {"warp": {"octaves": 0}}})", {},
     "config: 'moisture.warp.octaves' must be between 1 and 16 (got 0)", false},
    {"LayersGivenObject", R"({"height": {"layers": {"noise": "value"}}})", {},
     R"(config: 'height.layers' must be an array of layers (got {"noise": "value"}))", false},
    {"LayersTooMany", R"({"height": {"layers": [{}, {}, {}, {}, {}, {}, {}, {}, {}]}})", {},
     "config: 'height.layers' must hold at most 8 layers (got 9)", false},
    {"LayerEntryNotAnObject", R"({"height": {"layers": [3]}})", {},
     "config: 'height.layers[0]' must be an object (got 3)", false},
    {"LayerEntryUnknownKey", R"({"height": {"layers": [{"wieght": 2}]}})", {},
     "config: unknown key 'height.layers[0].wieght' (did you mean 'weight'?)", false},
    {"LayerEntryUnknownGroupKey", R"({"height": {"layers": [{"warp": {"amp": 2}}]}})", {},
     "config: unknown key 'height.layers[0].warp.amp' (did you mean 'amplitude'?)", false},
    {"LayerEntryGroupNotAnObject", R"({"height": {"layers": [{"cellular": 2}]}})", {},
     "config: 'height.layers[0].cellular' must be an object (got 2)", false},
    {"LayerEntryBadCombine", R"({"moisture": {"layers": [{"combine": "sum"}]}})", {},
     "config: 'moisture.layers[0].combine' must be one of add, multiply, min, max (got \"sum\")", false},
    {"LayerEntryWeightTooLarge", R"({"height": {"layers": [{"weight": 101}]}})", {},
     "config: 'height.layers[0].weight' must be between -100 and 100 (got 101)", false},
    {"LayerEntryBadMask", R"({"height": {"layers": [{"mask": "previous"}]}})", {},
     "config: 'height.layers[0].mask' must be one of none, base (got \"previous\")", false},
    {"LayerEntryBadLayerKey", R"({"height": {"layers": [{}, {"octaves": 17}]}})", {},
     "config: 'height.layers[1].octaves' must be between 1 and 16 (got 17)", false},
    {"LayersLeaveNoRange", R"({"height": {"layers": [{"combine": "multiply", "weight": 0}]}})",
     {}, "config: 'height.layers' always give 0: their weights leave the height no range", false},

    // Broken JSON: nlohmann's words, with line and column.
    {"BrokenJson", "{\n  \"seed\": 1,\n  \"map\" 2, \"x\": 1\n}", {},
     "config: 'test.json' is not valid JSON: parse error at line 3, column 9: syntax error", false},
    {"TrailingComma", "{\n  \"seed\": 1,\n}", {},
     "config: 'test.json' is not valid JSON: parse error at line 3, column 1:", false},
    {"EmptyText", "", {}, "config: 'test.json' is not valid JSON: parse error at line 1, column 1:",
     false},

    // A key given twice: JSON parsers keep one silently; the config names both lines.
    {"DuplicateTopLevelKey", "{\"seed\": 5, \"seed\": 6}", {},
     "config: 'test.json' sets 'seed' twice (line 1 and line 1); give each key once"},
    {"DuplicateNestedKey", "{\n  \"map\": {\"width\": 64,\n    // a comment: \"width\": 1\n"
     "    \"width\": 65}\n}", {},
     "config: 'test.json' sets 'map.width' twice (line 2 and line 4); give each key once"},
    {"DuplicateKeyInAnOverride", "{}", {R"(map={"width": 64, "width": 65})"},
     R"(config: override 'map={"width": 64, "width": 65}' sets 'map.width' twice; give each )"
     "key once"},
    {"DuplicateKeyWrittenWithAnEscape", "{\"seed\": 5,\n\n \"s\\u0065ed\": 6}", {},
     "config: 'test.json' sets 'seed' twice (line 1 and line 3); give each key once"},
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
    const LoadedConfig c = defaultConfig();
    EXPECT_EQ(c.seed, d["seed"].get<std::uint64_t>());
    EXPECT_EQ(c.map.width, d["map"]["width"].get<std::int64_t>());
    EXPECT_EQ(c.map.height, d["map"]["height"].get<std::int64_t>());
    EXPECT_EQ(c.map.tileSizeCells, d["map"]["tile_size"].get<std::int64_t>());
    EXPECT_EQ(c.map.cellSize, d["map"]["cell_size"].get<double>());
    EXPECT_EQ(c.map.originX, d["map"]["origin"][0].get<double>());
    EXPECT_EQ(c.map.originY, d["map"]["origin"][1].get<double>());
    expectLayerIs(c.height.base, d["height"]);
    expectLayerIs(c.moisture.base, d["moisture"]);
    EXPECT_EQ(c.elevation.minMeters, d["elevation"]["min"].get<double>());
    EXPECT_EQ(c.elevation.maxMeters, d["elevation"]["max"].get<double>());
    const Json& t = d["terrain"];
    EXPECT_EQ(c.terrain.lakeBelow.value, t["lake_below"].get<double>());
    EXPECT_EQ(c.terrain.mountainAbove.value, t["mountain_above"].get<double>());
    EXPECT_EQ(c.terrain.forestAbove.value, t["forest_above"].get<double>());
    EXPECT_EQ(c.terrain.desertBelow.value, t["desert_below"].get<double>());
    EXPECT_FALSE(c.terrain.customClasses);
    EXPECT_TRUE(t["classes"].empty());
    ASSERT_THAT(c.terrain.classes, SizeIs(kDefaultClasses.size()));
    for (std::size_t i = 0; i < kDefaultClasses.size(); ++i) {
        const std::string name(kDefaultClasses[i].name);
        EXPECT_EQ(c.terrain.classes[i].name, name);
        EXPECT_EQ(c.terrain.classes[i].walkable, t["walkable"][name].get<bool>()) << name;
        EXPECT_EQ(hexOf(c.terrain.classes[i].colour), t["colours"][name].get<std::string>())
            << name;
    }
    EXPECT_EQ(kConnectivityNames[static_cast<std::size_t>(c.terrain.connectivity)],
              t["connectivity"].get<std::string>());
    EXPECT_EQ(c.output.directory, d["output"]["directory"].get<std::string>());
    EXPECT_EQ(c.output.previewMaxSize, d["output"]["preview_max_size"].get<std::int64_t>());
    std::vector<std::string> files;
    for (const OutputFile f : c.output.files)
        files.emplace_back(kOutputFileNames[static_cast<std::size_t>(f)]);
    EXPECT_EQ(files, d["output"]["files"].get<std::vector<std::string>>());
    EXPECT_EQ("EPSG:" + std::to_string(c.output.crs.epsg), d["output"]["crs"].get<std::string>());
    EXPECT_EQ(kCompressionNames[static_cast<std::size_t>(c.output.compression)],
              d["output"]["compression"].get<std::string>());
    EXPECT_EQ(kBigTiffModeNames[static_cast<std::size_t>(c.output.bigTiff)],
              d["output"]["bigtiff"].get<std::string>());
    EXPECT_EQ(kExrCompressionNames[static_cast<std::size_t>(c.output.exrCompression)],
              d["output"]["exr_compression"].get<std::string>());
    EXPECT_EQ(kEngineNames[static_cast<std::size_t>(c.output.engine)],
              d["output"]["engine"].get<std::string>());
    EXPECT_EQ(c.output.engineSnap, d["output"]["engine_snap"].get<bool>());
    EXPECT_EQ(c.output.r16FlipY, d["output"]["r16_flip_y"].get<bool>());
    EXPECT_EQ(c.output.tiled.tilePixels, d["output"]["tiled"]["tile_pixels"].get<std::int64_t>());
    EXPECT_EQ(c.output.tiled.walkableLayer, d["output"]["tiled"]["walkable_layer"].get<bool>());
    EXPECT_EQ(c.output.tiled.chunkCells, d["output"]["tiled"]["chunk_cells"].get<std::int64_t>());
    EXPECT_THAT(c.notes, testing::IsEmpty());
}

TEST(ConfigTest, DefaultEngineAndTiledSettings) {
    const LoadedConfig c = defaultConfig();
    EXPECT_EQ(c.output.engine, Engine::None);
    EXPECT_FALSE(c.output.engineSnap);
    EXPECT_FALSE(c.output.r16FlipY);
    EXPECT_EQ(c.output.tiled.tilePixels, 16);
    EXPECT_TRUE(c.output.tiled.walkableLayer);
    EXPECT_EQ(c.output.tiled.chunkCells, 4096);
}

TEST(ConfigTest, EngineAndTiledOptionsLandInTheirFields) {
    const LoadedConfig c = parseConfig(
        R"({"output": {"engine": "godot", "tiled": {"tile_pixels": 32, "chunk_cells": 16}}})",
        "test.json",
        {"output.engine_snap=true", "output.r16_flip_y=true", "output.tiled.walkable_layer=false",
         "output.tiled.tile_pixels=256.0"});
    EXPECT_EQ(c.output.engine, Engine::Godot);
    EXPECT_TRUE(c.output.engineSnap);
    EXPECT_TRUE(c.output.r16FlipY);
    EXPECT_EQ(c.output.tiled.tilePixels, 256);
    EXPECT_FALSE(c.output.tiled.walkableLayer);
    EXPECT_EQ(c.output.tiled.chunkCells, 16);
    const Json tiled = Json::parse(c.resolvedJson)["output"]["tiled"];
    EXPECT_EQ(tiled, Json::parse(R"({"chunk_cells": 16, "tile_pixels": 256,
                                     "walkable_layer": false})"));
    EXPECT_NO_THROW((void)defaultConfig({"output.tiled.tile_pixels=1",
                                         "output.tiled.chunk_cells=65536"}));
    // The section merges key by key like any other.
    EXPECT_EQ(defaultConfig({R"(output.tiled={"chunk_cells": 64})"}).output.tiled.tilePixels, 16);
}

TEST(ConfigTest, DefaultSizeSnapsToTheEngineWithANote) {
    const LoadedConfig c = defaultConfig({"output.engine=unity"});
    EXPECT_EQ(c.map.width, 1025);
    EXPECT_EQ(c.map.height, 1025);
    EXPECT_THAT(c.notes, ElementsAre("map snapped from 1024 x 1024 to 1025 x 1025 cells for unity"));
    // The resolved config and the hash carry the snapped size.
    const Json resolved = Json::parse(c.resolvedJson);
    EXPECT_EQ(resolved["map"]["width"], 1025);
    EXPECT_EQ(resolved["map"]["height"], 1025);
    const LoadedConfig explicitly =
        defaultConfig({"output.engine=unity", "map.width=1025", "map.height=1025"});
    EXPECT_THAT(explicitly.notes, testing::IsEmpty());
    EXPECT_EQ(c.resolvedJson, explicitly.resolvedJson);
    EXPECT_EQ(c.hash, explicitly.hash);

    const LoadedConfig unreal = parseConfig(R"({"output": {"engine": "unreal"}})", "test.json");
    EXPECT_EQ(unreal.map.width, 1009);
    EXPECT_EQ(unreal.map.height, 1009);
    EXPECT_THAT(unreal.notes,
                ElementsAre("map snapped from 1024 x 1024 to 1009 x 1009 cells for unreal"));
    EXPECT_THAT(defaultConfig({"output.engine=godot"}).notes,
                ElementsAre("map snapped from 1024 x 1024 to 1025 x 1025 cells for godot"));
}

TEST(ConfigTest, EngineSnapSnapsAGivenSize) {
    const LoadedConfig c = defaultConfig(
        {"map.width=1000", "map.height=1000", "output.engine=unity", "output.engine_snap=true"});
    EXPECT_EQ(c.map.width, 1025);
    EXPECT_EQ(c.map.height, 1025);
    EXPECT_THAT(c.notes, ElementsAre("map snapped from 1000 x 1000 to 1025 x 1025 cells for unity"));
    EXPECT_EQ(Json::parse(c.resolvedJson)["map"]["width"], 1025);
    // Unity squares the map; the others snap each side.
    EXPECT_THAT(parseConfig(R"({"map": {"width": 300, "height": 1000}})", "t",
                            {"output.engine=unity", "output.engine_snap=true"})
                    .notes,
                ElementsAre("map snapped from 300 x 1000 to 1025 x 1025 cells for unity"));
    const LoadedConfig unreal =
        parseConfig(R"({"map": {"width": 300, "height": 1000},
                        "output": {"engine": "unreal", "engine_snap": true}})",
                    "t");
    EXPECT_EQ(unreal.map.width, 253);
    EXPECT_EQ(unreal.map.height, 1009);
    EXPECT_THAT(unreal.notes,
                ElementsAre("map snapped from 300 x 1000 to 253 x 1009 cells for unreal"));
}

TEST(ConfigTest, AcceptedSizesPassUntouched) {
    struct Case {
        std::int64_t width;
        std::int64_t height;
        std::vector<std::string> engine;
    };
    const std::vector<Case> accepted = {
        {513, 513, {"output.engine=unity"}},
        {4097, 4097, {"output.engine=unity", "output.engine_snap=true"}},
        {127, 8129, {"output.engine=unreal"}},
        {33, 16385, {"output.engine=godot", "output.engine_snap=true"}},
        {1000, 7, {"output.engine=none", "output.engine_snap=true"}},
        {1000, 7, {}},
    };
    for (const auto& [width, height, engine] : accepted) {
        std::vector<std::string> overrides = engine;
        overrides.push_back("map.width=" + std::to_string(width));
        overrides.push_back("map.height=" + std::to_string(height));
        const LoadedConfig c = defaultConfig(overrides);
        EXPECT_EQ(c.map.width, width) << overrides[0];
        EXPECT_EQ(c.map.height, height) << overrides[0];
        EXPECT_THAT(c.notes, testing::IsEmpty()) << overrides[0];
    }
    EXPECT_THAT(defaultConfig().notes, testing::IsEmpty());
}

TEST(ConfigTest, EngineSizeIsReportedWithTheOtherProblems) {
    EXPECT_THAT(problemsOf("{}", {"map.width=1000", "output.engine=unity", "height.octaves=0"}),
                ElementsAre(HasSubstr("'height.octaves'"),
                            HasSubstr("is not a size unity accepts")));
    // A size that is itself wrong gets its own problem, not a second one about the engine.
    EXPECT_THAT(problemsOf("{}", {"map.width=0", "output.engine=unity"}),
                ElementsAre(HasSubstr("'map.width' must be between 1 and 1048576")));
}

TEST(ConfigTest, SchemaKeyIsAcceptedAndIgnored) {
    const LoadedConfig with = parseConfig(R"({"$schema": "./schema.json", "seed": 3})", "a.json");
    const LoadedConfig without = parseConfig(R"({"seed": 3})", "b.json");
    EXPECT_EQ(with.seed, 3u);
    EXPECT_EQ(with.resolvedJson, without.resolvedJson);
    EXPECT_EQ(with.hash, without.hash);
    EXPECT_FALSE(Json::parse(with.resolvedJson).contains("$schema"));
    // The built-in default has one too (configs/default.json), and it resolves without it.
    EXPECT_FALSE(Json::parse(defaultConfig().resolvedJson).contains("$schema"));
    EXPECT_EQ(defaultConfig({"$schema=elsewhere.json"}).hash, defaultConfig().hash);
    for (const auto& option : optionReference()) EXPECT_NE(option.path, "$schema");
}

// An origin off the grid places the map where it says (README "Origin, offset and seed").
TEST(ConfigTest, OriginNeedNotBeAMultipleOfTheCellSize) {
    for (const char* origin : {"[10, 0]", "[-50, 75]", "[500000, 5000000]"}) {
        const LoadedConfig c = defaultConfig({std::string("map.origin=") + origin});
        const Json typed = Json::parse(origin);
        EXPECT_EQ(c.map.originX, typed[0].get<double>()) << origin;
        EXPECT_EQ(c.map.originY, typed[1].get<double>()) << origin;
    }
    EXPECT_NO_THROW(defaultConfig({"map.origin=[0.3, 0.05]", "map.cell_size=0.1"}));
}

TEST(ConfigTest, EveryOptionLandsInItsField) {
    const LoadedConfig c = defaultConfig(
        {"seed=18446744073709551615", "map.width=300",         "map.height=200",
         "map.tile_size=50",          "map.cell_size=2.5",     "map.origin=[-5, 7.5]",
         "height.noise=simplex",      "height.fade=cubic",     "height.fractal=ridged",
         "height.hash=reference",     "height.octaves=3",      "height.lacunarity=1.5",
         "height.persistence=1",      "height.frequency=0.25", "height.offset=[1.5, -2.5]",
         "height.seed_offset=11",     "elevation.min=-10",     "elevation.max=20",
         "output.directory=there",    "output.crs=epsg:32633", "output.compression=zstd",
         "output.bigtiff=always"});
    EXPECT_EQ(c.seed, std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(c.map.width, 300);
    EXPECT_EQ(c.map.height, 200);
    EXPECT_EQ(c.map.tileSizeCells, 50);
    EXPECT_EQ(c.map.cellSize, 2.5);
    EXPECT_EQ(c.map.originX, -5.0);
    EXPECT_EQ(c.map.originY, 7.5);
    EXPECT_EQ(c.height.base.noise, NoiseKind::Simplex);
    EXPECT_EQ(c.height.base.fade, FadeCurve::Cubic);
    EXPECT_EQ(c.height.base.fractal, FractalKind::Ridged);
    EXPECT_EQ(c.height.base.hash, HashKind::Reference);
    EXPECT_EQ(c.height.base.octaves, 3);
    EXPECT_EQ(c.height.base.lacunarity, 1.5);
    EXPECT_EQ(c.height.base.persistence, 1.0);
    EXPECT_EQ(c.height.base.frequency, 0.25);
    EXPECT_EQ(c.height.base.offsetX, 1.5);
    EXPECT_EQ(c.height.base.offsetY, -2.5);
    EXPECT_EQ(c.height.base.seedOffset, 11u);
    EXPECT_EQ(c.elevation.minMeters, -10.0);
    EXPECT_EQ(c.elevation.maxMeters, 20.0);
    EXPECT_EQ(c.output.directory, "there");
    EXPECT_EQ(c.output.crs.epsg, 32633);
    EXPECT_FALSE(c.output.crs.geographic);
    EXPECT_EQ(c.output.crs.unitToMetre, 1.0);
    EXPECT_EQ(c.output.crs.name, "WGS 84 / UTM zone 33N");
    EXPECT_EQ(c.output.compression, Compression::Zstd);
    EXPECT_EQ(c.output.bigTiff, BigTiffMode::Always);
    EXPECT_TRUE(c.wants(OutputFile::HeightTif));
}

TEST(ConfigTest, GenericLatticeAndMarbleOptionsLandInTheirFields) {
    const LoadedConfig c = defaultConfig(
        {"height.noise=generic_lattice", "height.proximity=semi_ridged",
         "height.grid_displacement=quarter", "height.fractal=marble",
         "height.marble.frequency=0.5", "height.marble.turbulence=64",
         "moisture.proximity=triangular", "moisture.grid_displacement=half",
         "moisture.marble.frequency=0"});
    EXPECT_EQ(c.height.base.noise, NoiseKind::GenericLattice);
    EXPECT_EQ(c.height.base.proximity, Proximity::SemiRidged);
    EXPECT_EQ(c.height.base.displacement, GridDisplacement::Quarter);
    EXPECT_EQ(c.height.base.fractal, FractalKind::Marble);
    EXPECT_EQ(c.height.base.marbleFrequency, 0.5);
    EXPECT_EQ(c.height.base.marbleTurbulence, 64.0);
    EXPECT_EQ(c.moisture.base.proximity, Proximity::Triangular);
    EXPECT_EQ(c.moisture.base.displacement, GridDisplacement::Half);
    EXPECT_EQ(c.moisture.base.marbleFrequency, 0.0);
    const LoadedConfig d = defaultConfig({"height.proximity=ridged", "height.proximity=constant"});
    EXPECT_EQ(d.height.base.proximity, Proximity::Constant);
    EXPECT_EQ(d.height.base.displacement, GridDisplacement::None);
}

TEST(ConfigTest, DefaultMoistureIsTheHeightLayerWithOffsetOverThree) {
    const LoadedConfig c = defaultConfig();
    EXPECT_EQ(c.height.base.offsetX, 37.5);
    EXPECT_EQ(c.height.base.offsetY, 81.0);
    EXPECT_EQ(c.height.base.seedOffset, 0u);
    // The original generator's relation: the second layer's offsets are the first's over 3.
    EXPECT_EQ(c.moisture.base.offsetX, c.height.base.offsetX / 3);
    EXPECT_EQ(c.moisture.base.offsetY, c.height.base.offsetY / 3);
    EXPECT_EQ(c.moisture.base.seedOffset, 1u);
    EXPECT_EQ(c.moisture.base.noise, c.height.base.noise);
    EXPECT_EQ(c.moisture.base.fade, c.height.base.fade);
    EXPECT_EQ(c.moisture.base.fractal, c.height.base.fractal);
    EXPECT_EQ(c.moisture.base.hash, c.height.base.hash);
    EXPECT_EQ(c.moisture.base.octaves, c.height.base.octaves);
    EXPECT_EQ(c.moisture.base.lacunarity, c.height.base.lacunarity);
    EXPECT_EQ(c.moisture.base.persistence, c.height.base.persistence);
    EXPECT_EQ(c.moisture.base.frequency, c.height.base.frequency);
}

TEST(ConfigTest, DefaultTerrainIsTheOriginalGenerators) {
    const TerrainConfig t = defaultConfig().terrain;
    // The original generator's classes: lake <= 0.30, mountain >= 0.72, forest >= 0.64,
    // desert <= 0.30 (README "Terrain classes").
    const std::vector<std::pair<Threshold, double>> thresholds = {
        {t.lakeBelow, 0.30}, {t.mountainAbove, 0.72}, {t.forestAbove, 0.64}, {t.desertBelow, 0.30}};
    for (const auto& [threshold, value] : thresholds) {
        EXPECT_FALSE(threshold.byCoverage);
        EXPECT_EQ(threshold.value, value);
    }
    EXPECT_FALSE(t.customClasses);
    EXPECT_EQ(t.connectivity, Connectivity::Report);
    ASSERT_THAT(t.classes, SizeIs(kDefaultClasses.size()));
    for (std::size_t i = 0; i < kDefaultClasses.size(); ++i) {
        const TerrainClass& c = t.classes[i];
        EXPECT_EQ(c.name, kDefaultClasses[i].name);
        EXPECT_EQ(c.colour, kDefaultClasses[i].colour) << c.name;
        EXPECT_EQ(c.walkable, kDefaultClasses[i].walkable) << c.name;
        // Ranges are left for resolveTerrain.
        EXPECT_EQ(c.heightMin, 0.0);
        EXPECT_EQ(c.heightMax, 1.0);
        EXPECT_EQ(c.moistureMin, 0.0);
        EXPECT_EQ(c.moistureMax, 1.0);
    }
}

// What a new user needs (README, Outputs): the map as GeoTIFFs with their QGIS styles, a
// picture and the statistics; engine and Tiled exports only when asked for.
TEST(ConfigTest, DefaultOutputWritesTheMapAPictureAndStats) {
    const LoadedConfig c = defaultConfig();
    EXPECT_THAT(c.output.files,
                testing::ElementsAre(OutputFile::HeightTif, OutputFile::ClassesTif,
                                     OutputFile::WalkableTif, OutputFile::PreviewPng,
                                     OutputFile::StatsJson, OutputFile::ClassesQml,
                                     OutputFile::HeightQml));
    EXPECT_EQ(c.output.previewMaxSize, 1024);
}

TEST(ConfigTest, MoistureOptionsLandInTheMoistureLayer) {
    const LoadedConfig base = defaultConfig();
    const LoadedConfig c = defaultConfig({"moisture.noise=simplex", "moisture.fade=cubic",
                                    "moisture.fractal=turbulence", "moisture.hash=permutation",
                                    "moisture.octaves=2", "moisture.lacunarity=3",
                                    "moisture.persistence=0.25", "moisture.frequency=0.5",
                                    "moisture.offset=[-1, 2]", "moisture.seed_offset=9"});
    EXPECT_EQ(c.moisture.base.noise, NoiseKind::Simplex);
    EXPECT_EQ(c.moisture.base.fade, FadeCurve::Cubic);
    EXPECT_EQ(c.moisture.base.fractal, FractalKind::Turbulence);
    EXPECT_EQ(c.moisture.base.hash, HashKind::Permutation);
    EXPECT_EQ(c.moisture.base.octaves, 2);
    EXPECT_EQ(c.moisture.base.lacunarity, 3.0);
    EXPECT_EQ(c.moisture.base.persistence, 0.25);
    EXPECT_EQ(c.moisture.base.frequency, 0.5);
    EXPECT_EQ(c.moisture.base.offsetX, -1.0);
    EXPECT_EQ(c.moisture.base.offsetY, 2.0);
    EXPECT_EQ(c.moisture.base.seedOffset, 9u);
    // The height layer is untouched.
    EXPECT_EQ(c.height.base.noise, base.height.base.noise);
    EXPECT_EQ(c.height.base.octaves, base.height.base.octaves);
    EXPECT_EQ(c.height.base.offsetX, base.height.base.offsetX);
    EXPECT_EQ(c.height.base.seedOffset, base.height.base.seedOffset);
}

TEST(ConfigTest, TerrainOptionsLandInTheirFields) {
    const LoadedConfig c = parseConfig(
        R"({"terrain": {"lake_below": 0.1, "mountain_above": 0.9, "forest_above": 0.5,
                        "desert_below": 0.2, "walkable": {"lake": true, "ground": false},
                        "colours": {"mountain": "#FFFFFF", "desert": "#010203"}}})",
        "test.json", {"terrain.connectivity=largest", "output.preview_max_size=16"});
    const TerrainConfig& t = c.terrain;
    EXPECT_EQ(t.lakeBelow.value, 0.1);
    EXPECT_EQ(t.mountainAbove.value, 0.9);
    EXPECT_EQ(t.forestAbove.value, 0.5);
    EXPECT_EQ(t.desertBelow.value, 0.2);
    EXPECT_EQ(t.connectivity, Connectivity::Largest);
    ASSERT_THAT(t.classes, SizeIs(5));
    const auto at = [&](DefaultClass k) { return t.classes[static_cast<std::size_t>(k)]; };
    EXPECT_TRUE(at(DefaultClass::Lake).walkable);
    EXPECT_FALSE(at(DefaultClass::Mountain).walkable);  // not given: the default
    EXPECT_FALSE(at(DefaultClass::Ground).walkable);
    EXPECT_EQ(at(DefaultClass::Mountain).colour, (Rgb{255, 255, 255}));
    EXPECT_EQ(at(DefaultClass::Desert).colour, (Rgb{1, 2, 3}));
    EXPECT_EQ(at(DefaultClass::Lake).colour, kDefaultClasses[0].colour);
    EXPECT_EQ(c.output.previewMaxSize, 16);
    // Colours resolve in one canonical (lower-case) form.
    EXPECT_EQ(Json::parse(c.resolvedJson)["terrain"]["colours"]["mountain"], "#ffffff");
}

TEST(ConfigTest, CoverageThresholdsParse) {
    const LoadedConfig c = parseConfig(
        R"({"terrain": {"forest_above": {"coverage": 0.2}}})", "t.json",
        {R"(terrain.lake_below={"coverage":0.25})", R"(terrain.mountain_above={"coverage": 0})",
         R"(terrain.desert_below = {"coverage": 0.55})"});
    const TerrainConfig& t = c.terrain;
    EXPECT_TRUE(t.lakeBelow.byCoverage);
    EXPECT_EQ(t.lakeBelow.coverage, 0.25);
    EXPECT_TRUE(t.mountainAbove.byCoverage);
    EXPECT_EQ(t.mountainAbove.coverage, 0.0);
    EXPECT_TRUE(t.forestAbove.byCoverage);
    EXPECT_EQ(t.forestAbove.coverage, 0.2);
    EXPECT_TRUE(t.desertBelow.byCoverage);
    EXPECT_EQ(t.desertBelow.coverage, 0.55);  // 0.25 + 0 + 0.2 + 0.55 is the whole map
    EXPECT_EQ(Json::parse(c.resolvedJson)["terrain"]["mountain_above"],
              Json::parse(R"({"coverage": 0.0})"));
}

TEST(ConfigTest, ThresholdOrderIsLeftToResolveTerrainWhenACoverageIsInvolved) {
    // A coverage becomes a value only when the map is sampled; resolveTerrain checks the order.
    const Config c =
        defaultConfig({"terrain.lake_below=0.9", R"(terrain.mountain_above={"coverage": 0.1})",
                       R"(terrain.desert_below={"coverage": 0.9})"});
    EXPECT_EQ(c.terrain.lakeBelow.value, 0.9);
    EXPECT_TRUE(c.terrain.mountainAbove.byCoverage);
    // Coverages that together make the whole map are fine, up to decimal rounding.
    EXPECT_NO_THROW((void)defaultConfig({R"(terrain.lake_below={"coverage": 0.1})",
                                         R"(terrain.mountain_above={"coverage": 0.2})",
                                         R"(terrain.forest_above={"coverage": 0.7})"}));
}

// resolveTerrain reports in model terms; the user reads config keys, the rule and the values.
TEST(ConfigTest, TerrainErrorsReadWithConfigKeys) {
    const auto message = [](const TerrainProblem& p) {
        return configErrorFrom(TerrainError(p)).problems();
    };
    using Rule = TerrainProblem::Rule;
    const Threshold coverage60{0, true, 0.6};
    EXPECT_THAT(message({.rule = Rule::CoverageUnreachable,
                         .threshold = DefaultClass::Forest,
                         .given = coverage60,
                         .availableShare = 0.42}),
                ElementsAre("config: 'terrain.forest_above' coverage 0.6 cannot be reached: "
                            "only 0.42 of the map is neither lake nor mountain"));
    // The share keeps the digits that tell it apart from the target.
    EXPECT_THAT(message({.rule = Rule::CoverageUnreachable,
                         .threshold = DefaultClass::Desert,
                         .given = coverage60,
                         .availableShare = 0.59999}),
                ElementsAre("config: 'terrain.desert_below' coverage 0.6 cannot be reached: "
                            "only 0.59999 of the map is neither lake, mountain nor forest"));
    EXPECT_THAT(message({.rule = Rule::ThresholdOrder,
                         .threshold = DefaultClass::Lake,
                         .given = {0, true, 1},
                         .resolved = 1,
                         .above = DefaultClass::Mountain,
                         .aboveGiven = {0.72, false, 0},
                         .aboveResolved = 0.72}),
                ElementsAre("config: 'terrain.lake_below' (coverage 1, resolved to 1) must be "
                            "below 'terrain.mountain_above' (0.72)"));
}

TEST(ConfigTest, CustomClassTableParses) {
    const LoadedConfig c = parseConfig(R"({"terrain": {"classes": [
        {"name": "sea", "colour": "#0000FF", "walkable": false, "height": [0, 0.4]},
        {"name": "swamp", "colour": "#336633", "walkable": true, "height": [0.4, 0.6],
         "moisture": [0.7, 1]},
        {"name": "land", "colour": "#00ff00", "walkable": true}
    ]}})",
                                 "test.json");
    const TerrainConfig& t = c.terrain;
    EXPECT_TRUE(t.customClasses);
    ASSERT_THAT(t.classes, SizeIs(3));
    EXPECT_EQ(t.classes[0].name, "sea");
    EXPECT_EQ(t.classes[0].colour, (Rgb{0, 0, 255}));
    EXPECT_FALSE(t.classes[0].walkable);
    EXPECT_EQ(t.classes[0].heightMin, 0.0);
    EXPECT_EQ(t.classes[0].heightMax, 0.4);
    EXPECT_EQ(t.classes[0].moistureMin, 0.0);  // omitted: [0, 1]
    EXPECT_EQ(t.classes[0].moistureMax, 1.0);
    EXPECT_EQ(t.classes[1].name, "swamp");
    EXPECT_EQ(t.classes[1].heightMin, 0.4);
    EXPECT_EQ(t.classes[1].heightMax, 0.6);
    EXPECT_EQ(t.classes[1].moistureMin, 0.7);
    EXPECT_EQ(t.classes[1].moistureMax, 1.0);
    EXPECT_EQ(t.classes[2].name, "land");
    EXPECT_EQ(t.classes[2].colour, (Rgb{0, 255, 0}));
    EXPECT_TRUE(t.classes[2].walkable);
    EXPECT_EQ(t.classes[2].heightMin, 0.0);
    EXPECT_EQ(t.classes[2].heightMax, 1.0);
    // The resolved config spells the ranges out, so omitting [0, 1] and writing it hash alike.
    const Json resolved = Json::parse(c.resolvedJson)["terrain"]["classes"][2];
    EXPECT_EQ(resolved["height"], Json::parse("[0.0, 1.0]"));
    EXPECT_EQ(resolved["moisture"], Json::parse("[0.0, 1.0]"));
    const std::string all = R"({"name": "all", "colour": "#808080", "walkable": true)";
    EXPECT_EQ(parseConfig(R"({"terrain": {"classes": [)" + all + "}]}}", "a").hash,
              parseConfig(R"({"terrain": {"classes": [)" + all +
                              R"(, "height": [0, 1], "moisture": [0.0, 1]}]}})",
                          "b")
                  .hash);
}

TEST(ConfigTest, ClassTableLimits) {
    // 255 classes, and names of 64 characters (not bytes).
    EXPECT_THAT(defaultConfig({"terrain.classes=" +
                               Json::parse(classesText(255))["terrain"]["classes"].dump()})
                    .terrain.classes,
                SizeIs(255));
    std::string name;
    for (int i = 0; i < 64; ++i) name += "\xc3\xa9";  // é, two bytes each
    const LoadedConfig c = parseConfig(
        classesText({R"({"name": ")" + name + R"(", "colour": "#000000", "walkable": true})"}),
        "test.json");
    EXPECT_EQ(c.terrain.classes[0].name, name);
}

TEST(ConfigTest, CustomClassesWithoutOtherTerrainKeysAreFine) {
    // default.json sets the thresholds, walkable and colours; only the user's own count.
    const LoadedConfig c = parseConfig(classesText({kAllClass}, R"("connectivity": "largest")"), "t");
    EXPECT_TRUE(c.terrain.customClasses);
    EXPECT_THAT(c.terrain.classes, SizeIs(1));
    EXPECT_EQ(c.terrain.connectivity, Connectivity::Largest);
    EXPECT_NO_THROW((void)defaultConfig({"terrain.classes=[" + std::string(kAllClass) + "]"}));
    EXPECT_NO_THROW(
        (void)parseConfig("{}", "t", {"terrain.classes=[" + std::string(kAllClass) + "]"}));
    // Setting the default rules is fine without a custom table, or with an empty one.
    EXPECT_NO_THROW((void)parseConfig(R"({"terrain": {"classes": [], "lake_below": 0.2}})", "t"));
}

TEST(ConfigTest, NoEffectIsReportedOncePerKey) {
    EXPECT_THAT(
        problemsOf(classesText({kAllClass}, R"("lake_below": 0.2, "colours": {"lake": "#000000"})"),
                   {"terrain.walkable.lake=true", "terrain.lake_below=0.25"}),
        ElementsAre("config: 'terrain.lake_below' has no effect when 'terrain.classes' is given",
                    "config: 'terrain.walkable' has no effect when 'terrain.classes' is given",
                    "config: 'terrain.colours' has no effect when 'terrain.classes' is given"));
    EXPECT_THAT(
        [] {
            (void)defaultConfig(
                {"terrain.classes=[" + std::string(kAllClass) + "]", "terrain.mountain_above=0.5"});
        },
        ThrowsMessage<ConfigError>(HasSubstr(
            "config: 'terrain.mountain_above' has no effect when 'terrain.classes' is given")));
}

TEST(ConfigTest, CustomClassGapIsReported) {
    EXPECT_THAT(
        [] {
            (void)defaultConfig({R"(terrain.classes=[
                {"name": "dry", "colour": "#000000", "walkable": true, "moisture": [0, 0.5]},
                {"name": "wet", "colour": "#000000", "walkable": true, "moisture": [0.6, 1]}])"});
        },
        ThrowsMessage<ConfigError>(HasSubstr("config: 'terrain.classes' leave height 0..1 with "
                                             "moisture 0.5..0.6 unclassified: every cell must "
                                             "match a class")));
}

// With hydrology on, the classes named lake and river are the stage's water alone (as with
// the default table), so the other classes must cover every cell by themselves.
TEST(ConfigTest, HydrologyNeedsTheOtherClassesToCoverWhatLakeAndRiverCovered) {
    const std::string table = R"(terrain.classes=[
        {"name": "lake", "colour": "#0000ff", "walkable": false, "height": [0, 0.3]},
        {"name": "river", "colour": "#0000ff", "walkable": false, "height": [0.3, 0.35]},
        {"name": "land", "colour": "#00ff00", "walkable": true, "height": [0.35, 1]}])";
    EXPECT_NO_THROW((void)defaultConfig({table}));  // off: every class by its ranges
    EXPECT_THAT(
        [&] { (void)defaultConfig({table, "hydrology.enabled=true"}); },
        ThrowsMessage<ConfigError>(HasSubstr(
            "config: 'terrain.classes' leave height 0..0.35 with moisture 0..1 unclassified "
            "with 'hydrology.enabled' (true): lakes and rivers then come from hydrology, so the "
            "classes named 'lake' and 'river' match no height; every other cell must match "
            "another class")));
    const std::string covered = R"(terrain.classes=[
        {"name": "lake", "colour": "#0000ff", "walkable": false, "height": [0, 0.3]},
        {"name": "land", "colour": "#00ff00", "walkable": true}])";
    EXPECT_NO_THROW((void)defaultConfig({covered, "hydrology.enabled=true"}));
}

TEST(ConfigTest, NeedsClassesWhenAnOutputShowsThem) {
    EXPECT_TRUE(defaultConfig().needsClasses());
    EXPECT_FALSE(defaultConfig({R"(output.files=["height.tif"])"}).needsClasses());
    EXPECT_FALSE(defaultConfig({R"(output.files=["height.tif", "height.png"])"}).needsClasses());
    for (const char* file : {"height.r16", "height16.png", "height16.tif"})
        EXPECT_FALSE(defaultConfig({"output.files=[\"" + std::string(file) + "\"]"}).needsClasses())
            << file;
    for (const char* file :
         {"classes.tif", "walkable.tif", "preview.png", "stats.json", "map.tmj"}) {
        const LoadedConfig c = defaultConfig({"output.files=[\"" + std::string(file) + "\"]"});
        EXPECT_TRUE(c.needsClasses()) << file;
        EXPECT_FALSE(c.wants(OutputFile::HeightTif)) << file;
    }
}

// Unity's Import Raw puts the first row at the terrain's south edge, so a Unity r16 goes bottom
// row first unless the user says otherwise; the resolved config shows what was chosen.
TEST(ConfigTest, R16RowOrderFollowsTheEngineUnlessSet) {
    EXPECT_FALSE(defaultConfig().output.r16FlipY);
    EXPECT_FALSE(defaultConfig({"output.engine=unreal"}).output.r16FlipY);
    EXPECT_FALSE(defaultConfig({"output.engine=godot"}).output.r16FlipY);
    const LoadedConfig unity = defaultConfig({"output.engine=unity"});
    EXPECT_TRUE(unity.output.r16FlipY);
    EXPECT_EQ(nlohmann::json::parse(unity.resolvedJson)["output"]["r16_flip_y"], true);
    EXPECT_NE(unity.hash, defaultConfig({"output.engine=unity", "output.r16_flip_y=false"}).hash);
    EXPECT_FALSE(
        defaultConfig({"output.engine=unity", "output.r16_flip_y=false"}).output.r16FlipY);
    EXPECT_TRUE(defaultConfig({"output.engine=unreal", "output.r16_flip_y=true"}).output.r16FlipY);
}

TEST(ConfigTest, SmallConfigLoads) {
    const LoadedConfig c = loadConfig(kSourceDir + "/configs/small.json");
    EXPECT_EQ(c.map.width, 256);
    EXPECT_EQ(c.map.height, 256);
    EXPECT_EQ(c.map.tileSizeCells, 64);
    EXPECT_EQ(c.output.directory, "out-small");
    EXPECT_EQ(c.seed, defaultConfig().seed);  // not given: the default
}

TEST(ConfigTest, LoadConfigAppliesOverrides) {
    const LoadedConfig c = loadConfig(kSourceDir + "/configs/small.json", {"map.width=128"});
    EXPECT_EQ(c.map.width, 128);
    EXPECT_EQ(c.map.height, 256);
}

TEST(ConfigTest, CommentsAreAccepted) {
    const LoadedConfig c = parseConfig(R"({
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
    const LoadedConfig base = defaultConfig();
    const LoadedConfig c = parseConfig(R"({"map": {"width": 100, "origin": [30, 60]}})", "test.json");
    EXPECT_EQ(c.map.width, 100);
    EXPECT_EQ(c.map.height, base.map.height);
    EXPECT_EQ(c.map.cellSize, base.map.cellSize);
    EXPECT_EQ(c.map.originX, 30.0);  // arrays replace
    EXPECT_EQ(c.map.originY, 60.0);
    EXPECT_EQ(c.height.base.octaves, base.height.base.octaves);
}

TEST(ConfigTest, OverridesReplaceFileValues) {
    const LoadedConfig c = parseConfig(R"({"seed": 3, "output": {"directory": "a"}})", "test.json",
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
    const LoadedConfig a = parseConfig(R"({"map": {"width": 256, "cell_size": 30}})", "a.json");
    const LoadedConfig b = parseConfig(R"({"map": {"width": 256.0, "cell_size": 30.0}})", "b.json");
    const LoadedConfig c = parseConfig(R"({"map": {"width": 2.56e2}})", "c.json");
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
         "map.cell_size=1e7", "elevation.min=-1e5", "elevation.max=1e5"}));
    EXPECT_NO_THROW((void)defaultConfig({"height.lacunarity=8",
                                         "height.persistence=1e-9", "height.frequency=1e-12"}));
}

TEST(ConfigTest, TileLargerThanMapIsFine) {
    const LoadedConfig c = defaultConfig({"map.width=10", "map.height=10", "map.tile_size=300"});
    EXPECT_EQ(c.map.tileSizeCells, 300);
}

TEST(ConfigTest, OriginOnGridUpToDecimalRounding) {
    // 0.3 / 0.1 is not exactly 3 in binary; it still is a multiple as a person means it.
    const LoadedConfig c = defaultConfig({"map.cell_size=0.1", "map.origin=[0.3, -0.6]"});
    EXPECT_EQ(c.map.originX, 0.3);
    EXPECT_EQ(c.map.originY, -0.6);
    EXPECT_NO_THROW((void)defaultConfig({"map.origin=[-3000000, 999999990]"}));
    EXPECT_NO_THROW((void)defaultConfig({"map.cell_size=1", "map.origin=[70368744177664, 0]"}));
}

TEST(ConfigTest, ResolvedJsonIsSortedIndentedAndComplete) {
    const LoadedConfig c = parseConfig(R"({"map": {"width": 100}})", "test.json");
    const Json resolved = Json::parse(c.resolvedJson);
    EXPECT_EQ(resolved.dump(2), c.resolvedJson);  // nlohmann's objects are sorted
    EXPECT_THAT(c.resolvedJson, StartsWith("{\n  \"climate\": {\n    \"enabled\""));
    EXPECT_EQ(resolved["map"]["width"], 100);
    std::set<std::string> resolvedKeys;
    std::set<std::string> defaultKeys;
    collectLeaves(resolved, "", resolvedKeys);
    Json defaults = defaultJson();
    defaults.erase("$schema");  // names the schema for editors; not part of the config
    collectLeaves(defaults, "", defaultKeys);
    EXPECT_EQ(resolvedKeys, defaultKeys);
}

TEST(ConfigTest, HashIsStable) {
    const std::string text = R"({"seed": 5, "map": {"width": 64}})";
    const LoadedConfig a = parseConfig(text, "a.json");
    const LoadedConfig b = parseConfig(text, "b.json");
    EXPECT_THAT(a.hash, MatchesRegex("[0-9a-f]{16}"));
    EXPECT_EQ(a.hash, b.hash);
    EXPECT_NE(a.hash, parseConfig(text, "a.json", {"seed=6"}).hash);
    EXPECT_NE(a.hash, parseConfig(text, "a.json", {"height.octaves=5"}).hash);
    EXPECT_EQ(a.hash, parseConfig(text, "a.json", {"output.directory=elsewhere"}).hash);
    EXPECT_EQ(a.hash, parseConfig(text, "a.json", {"map.tile_size=17"}).hash);
    EXPECT_NE(a.hash, parseConfig(text, "a.json", {"output.geotiff.block_size=32"}).hash);
}

TEST(ConfigTest, HashIsFnv1aOfTheResolvedJsonWithoutDirectoryAndTileSize) {
    const LoadedConfig c = defaultConfig();
    Json resolved = Json::parse(c.resolvedJson);
    resolved["output"].erase("directory");
    resolved["map"].erase("tile_size");  // an execution parameter: it changes no byte
    // output.manifest adds a file and changes no other, and came after maps whose hashes stay.
    resolved["output"].erase("manifest");
    // The keys of issue 29 at values that give the earlier map change no hash (loader.cpp).
    resolved.erase("climate");
    for (const char* key : {"model", "rock_slope", "eroded_heights"}) resolved["terrain"].erase(key);
    resolved["hydrology"].erase("outlets");
    EXPECT_EQ(c.hash, fnv1a64Hex(resolved.dump()));
    EXPECT_NE(c.hash, defaultConfig({"seed=2"}).hash);
    EXPECT_EQ(c.hash, defaultConfig({"output.manifest=false"}).hash);
}

TEST(ConfigTest, OptionReferenceCoversExactlyTheKeysOfDefaultJson) {
    const Json d = defaultJson();
    const auto keys = optionKeysOf(d);
    const std::set<std::string> defaultKeys(keys.begin(), keys.end());
    std::set<std::string> referenceKeys;
    for (const auto& option : optionReference()) {
        referenceKeys.insert(option.path);
        EXPECT_EQ(option.defaultJson, d.at(pointerTo(option.path)).dump()) << option.path;
        EXPECT_FALSE(option.type.empty()) << option.path;
        EXPECT_FALSE(option.meaning.empty()) << option.path;
    }
    EXPECT_EQ(referenceKeys, defaultKeys);
    EXPECT_THAT(optionReference(), SizeIs(defaultKeys.size()));  // no key twice
    EXPECT_TRUE(defaultKeys.contains("terrain.classes"));
    EXPECT_TRUE(defaultKeys.contains("terrain.walkable"));
    EXPECT_TRUE(defaultKeys.contains("terrain.lake_below"));
}

TEST(ConfigTest, OptionReferenceFollowsTheOrderOfDefaultJson) {
    const auto ordered =
        nlohmann::ordered_json::parse(readText(kSourceDir + "/configs/default.json"));
    std::vector<std::string> referenceKeys;
    for (const auto& option : optionReference()) referenceKeys.push_back(option.path);
    EXPECT_EQ(referenceKeys, optionKeysOf(ordered));
    std::vector<std::string> sections;
    for (const auto& [key, value] : ordered.items()) sections.push_back(key);
    EXPECT_THAT(sections, ElementsAre("$schema", "seed", "noise_version", "map", "height",
                                      "moisture", "elevation", "terrain", "hydrology", "climate",
                                      "output"));
}

TEST(ConfigTest, MoistureOptionsAreTheHeightOptionsButTheShaping) {
    std::vector<OptionInfo> height;
    std::vector<OptionInfo> moisture;
    const auto shaping = [](const std::string& path) {
        return path.starts_with("height.falloff.") || path == "height.redistribution";
    };
    for (const auto& option : optionReference()) {
        if (option.path.starts_with("height.") && !shaping(option.path)) height.push_back(option);
        if (option.path.starts_with("moisture.")) moisture.push_back(option);
    }
    ASSERT_THAT(moisture, SizeIs(height.size()));
    ASSERT_THAT(height, SizeIs(21));
    for (std::size_t i = 0; i < height.size(); ++i) {
        EXPECT_EQ(moisture[i].path, "moisture." + height[i].path.substr(7));
        EXPECT_EQ(moisture[i].type, height[i].type) << moisture[i].path;
        EXPECT_EQ(moisture[i].range, height[i].range) << moisture[i].path;
        EXPECT_EQ(moisture[i].meaning, height[i].meaning) << moisture[i].path;
    }
}

TEST(ConfigTest, OptionReferenceDescribesTerrainAndOutput) {
    std::map<std::string, OptionInfo> byPath;
    for (const auto& option : optionReference()) byPath.emplace(option.path, option);
    for (const char* path : {"terrain.lake_below", "terrain.mountain_above", "terrain.forest_above",
                             "terrain.desert_below"}) {
        EXPECT_EQ(byPath.at(path).type, "number or {coverage}") << path;
        EXPECT_THAT(byPath.at(path).meaning, HasSubstr("coverage")) << path;
    }
    EXPECT_EQ(byPath.at("terrain.walkable").type, "object of booleans");
    EXPECT_EQ(byPath.at("terrain.colours").type, "object of colours");
    EXPECT_EQ(byPath.at("terrain.classes").type, "array of classes");
    EXPECT_EQ(byPath.at("terrain.classes").defaultJson, "[]");
    for (const char* field : {"name", "colour", "walkable", "height", "moisture", "within 0..1"})
        EXPECT_THAT(byPath.at("terrain.classes").meaning, HasSubstr(field)) << field;
    EXPECT_EQ(byPath.at("terrain.connectivity").range, "one of: report, largest");
    EXPECT_EQ(byPath.at("output.preview_max_size").type, "integer");
    EXPECT_EQ(byPath.at("output.preview_max_size").range, "16..16384");
    EXPECT_EQ(byPath.at("output.preview_max_size").defaultJson, "1024");
    EXPECT_EQ(byPath.at("output.engine").type, "string");
    EXPECT_EQ(byPath.at("output.engine").range, "one of: none, unity, unreal, godot");
    EXPECT_EQ(byPath.at("output.engine").defaultJson, "\"none\"");
    for (const char* field : {"unity", "unreal", "godot", "4097", "8129", "16385", "engine_snap"})
        EXPECT_THAT(byPath.at("output.engine").meaning, HasSubstr(field)) << field;
    for (const char* path : {"output.engine_snap", "output.r16_flip_y"}) {
        EXPECT_EQ(byPath.at(path).type, "boolean") << path;
        EXPECT_EQ(byPath.at(path).range, "") << path;
        EXPECT_EQ(byPath.at(path).defaultJson, "false") << path;
    }
    EXPECT_EQ(byPath.at("output.tiled.tile_pixels").type, "integer");
    EXPECT_EQ(byPath.at("output.tiled.tile_pixels").range, "1..256");
    EXPECT_EQ(byPath.at("output.tiled.tile_pixels").defaultJson, "16");
    EXPECT_EQ(byPath.at("output.tiled.walkable_layer").type, "boolean");
    EXPECT_EQ(byPath.at("output.tiled.walkable_layer").defaultJson, "true");
    EXPECT_EQ(byPath.at("output.tiled.chunk_cells").type, "integer");
    EXPECT_EQ(byPath.at("output.tiled.chunk_cells").range, "16..65536");
    EXPECT_EQ(byPath.at("output.tiled.chunk_cells").defaultJson, "4096");
    EXPECT_THAT(byPath.at("output.tiled.chunk_cells").meaning, HasSubstr("map.world"));
}

TEST(ConfigTest, OptionReferenceDescribesRanges) {
    for (const auto& option : optionReference()) {
        if (option.path == "height.octaves") {
            EXPECT_EQ(option.type, "integer");
            EXPECT_EQ(option.range, "1..16");
        } else if (option.path == "height.noise") {
            EXPECT_EQ(option.range,
                      "one of: value, perlin, simplex, generic_lattice, cellular");
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

namespace terragrid {
namespace {

TEST(ConfigTest, CellularSettingsReachTheLayer) {
    const LoadedConfig c = parseConfig(
        R"({"height": {"noise": "cellular", "cellular": {"return": "f2_minus_f1",
            "distance": "manhattan", "jitter": 0.25}}})",
        "test.json", {"moisture.cellular.return=f2"});
    EXPECT_EQ(c.height.base.noise, NoiseKind::Cellular);
    EXPECT_EQ(c.height.base.cellularReturn, CellularReturn::F2MinusF1);
    EXPECT_EQ(c.height.base.cellularDistance, CellularDistance::Manhattan);
    EXPECT_EQ(c.height.base.cellularJitter, 0.25);
    EXPECT_EQ(c.moisture.base.cellularReturn, CellularReturn::F2);
    // The other keys of the section keep their defaults.
    EXPECT_EQ(c.moisture.base.cellularDistance, CellularDistance::Euclidean);
    EXPECT_EQ(c.moisture.base.cellularJitter, 1.0);
}

TEST(ConfigTest, WorldShapeOptionsLandInTheirFields) {
    const LoadedConfig c = parseConfig(R"({
        "map": {"wrap": true},
        "height": {"noise": "perlin", "warp": {"amplitude": 500, "frequency": 0.001, "octaves": 2},
                   "falloff": {"shape": "none", "strength": 0.5, "exponent": 3},
                   "redistribution": 1.5,
                   "layers": [{"fractal": "ridged", "combine": "max", "weight": -0.5,
                               "mask": "base", "warp": {"octaves": 5}},
                              {"octaves": 2}]}})",
                                 "test.json");
    EXPECT_TRUE(c.map.wrap);
    EXPECT_EQ(c.map.projection, Projection::Plane);
    EXPECT_EQ(c.height.base.warp.amplitude, 500.0);
    EXPECT_EQ(c.height.base.warp.frequency, 0.001);
    EXPECT_EQ(c.height.base.warp.octaves, 2);
    EXPECT_EQ(c.height.falloff.strength, 0.5);
    EXPECT_EQ(c.height.falloff.exponent, 3.0);
    EXPECT_EQ(c.height.redistribution, 1.5);
    ASSERT_EQ(c.height.layers.size(), 2u);
    const StackedLayer& first = c.height.layers[0];
    EXPECT_EQ(first.noise.noise, NoiseKind::Perlin);  // the section's own
    EXPECT_EQ(first.noise.fractal, FractalKind::Ridged);
    EXPECT_EQ(first.noise.warp.amplitude, 500.0);
    EXPECT_EQ(first.noise.warp.octaves, 5);
    EXPECT_EQ(first.combine, Combine::Max);
    EXPECT_EQ(first.weight, -0.5);
    EXPECT_EQ(first.mask, LayerMask::Base);
    const StackedLayer& second = c.height.layers[1];
    EXPECT_EQ(second.noise.octaves, 2);
    EXPECT_EQ(second.noise.fractal, c.height.base.fractal);
    EXPECT_EQ(second.combine, Combine::Add);
    EXPECT_EQ(second.weight, 1.0);
    EXPECT_EQ(second.mask, LayerMask::None);
    EXPECT_TRUE(c.moisture.layers.empty());
    // The resolved config holds the entries in canonical form (2 -> 2, weights as numbers).
    EXPECT_THAT(c.resolvedJson, HasSubstr("\"weight\": -0.5"));
}

}  // namespace
}  // namespace terragrid
