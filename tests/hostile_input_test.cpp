// The hardening table: hostile configs, files and options run through the real terragrid binary.
// Every case must exit 2, say on stderr which key or file is wrong and by which rule (in a few
// lines, however big the input), print nothing on stdout, and leave the output directory as it
// was: an older output file keeps its bytes and mtime, nothing is added, and an output directory
// that does not exist yet is not created. Below the table, every key of the option table with
// a value of each wrong type, in process.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "terragrid/config/loader.hpp"
#include "test_support.hpp"

namespace terragrid {
namespace {

namespace fs = std::filesystem;
using testing::HasSubstr;
using Json = nlohmann::json;

/// What --config gets.
enum class Input {
    Text,       ///< config.json holding the case's text (any bytes)
    None,       ///< no --config: the built-in default, with the case's options
    Directory,  ///< a directory
    Missing,    ///< a file that does not exist
    Huge,       ///< hugeConfig(): 100 MB
    Endless,    ///< /dev/stdin, a pipe from `cat /dev/zero`: a file that never ends
    Device,     ///< /dev/zero itself
    Fifo,       ///< a FIFO (named pipe) that no one writes to
};

/// Where --out-dir points.
enum class OutDir {
    Existing,  ///< out/, holding an older height.tif
    Fresh,     ///< fresh/new, which does not exist
    Config,    ///< no --out-dir: the case's own output.directory
};

struct HostileCase {
    std::string name;
    Input input = Input::Text;
    std::string text;                   ///< config.json, for Input::Text
    std::string args;                   ///< after --config and --out-dir
    std::vector<std::string> expected;  ///< each a part of stderr
    OutDir outDir = OutDir::Existing;
};

void PrintTo(const HostileCase& c, std::ostream* os) { *os << c.name; }

HostileCase config(std::string name, std::string text, std::vector<std::string> expected) {
    HostileCase c;
    c.name = std::move(name);
    c.text = std::move(text);
    c.expected = std::move(expected);
    return c;
}

HostileCase options(std::string name, std::string args, std::vector<std::string> expected) {
    HostileCase c;
    c.name = std::move(name);
    c.input = Input::None;
    c.args = std::move(args);
    c.expected = std::move(expected);
    return c;
}

HostileCase special(std::string name, Input input, std::vector<std::string> expected) {
    HostileCase c;
    c.name = std::move(name);
    c.input = input;
    c.expected = std::move(expected);
    return c;
}

/// `c`, run without --out-dir, which would replace the output.directory it gives.
HostileCase withItsOwnOutDir(HostileCase c) {
    c.outDir = OutDir::Config;
    return c;
}

/// `c`, run with an output directory that does not exist yet.
HostileCase withFreshOutDir(HostileCase c) {
    c.outDir = OutDir::Fresh;
    return c;
}

/// Where the 100 MB case's text becomes invalid: after 100 MiB of spaces, an object with a
/// trailing comma and then garbage.
constexpr std::size_t kHugeSpaces = std::size_t{100} << 20;
const std::string kHugeTail = R"({"seed": 7,} garbage)";

/// The 100 MB config, written once per test run into a directory removed at exit.
const fs::path& hugeConfig() {
    static const test::TempDir dir;
    static const fs::path path = [] {
        const fs::path file = dir / "hostile-100mb.json";
        std::ofstream out(file, std::ios::binary);
        out << std::string(kHugeSpaces, ' ') << kHugeTail;
        return file;
    }();
    return path;
}

/// An executable's first bytes, then fixed pseudo-random bytes with NULs among them.
std::string binaryBytes() {
    std::mt19937 random(20240601);
    std::string bytes = "\x7f" "ELF";
    bytes += '\0';
    for (int i = 0; i < 4096; ++i) bytes += static_cast<char>(random() & 0xff);
    return bytes;
}

std::string nested(std::size_t depth) {
    return R"({"seed": )" + std::string(depth, '[') + std::string(depth, ']') + "}";
}

const std::string kFileNames =
    "height.tif, classes.tif, walkable.tif, preview.png, height.png, stats.json, height.r16, "
    "height16.png, height16.tif, map.tmj, height.exr, splat.png, weight.png, classes.qml, height.qml, "
    "flow.tif, water.tif, water_depth.tif, rivers.geojson, lakes.geojson, water_mask.png, "
    "temperature.tif, precipitation.tif";

std::vector<HostileCase> hostileCases() {
    return {
        // --- broken JSON: the file, the line and the column ----------------------------------
        config("TrailingCommaInObject", R"({ "map": { "width": 10, } })",
               {"config: 'config.json' is not valid JSON: parse error at line 1, column 25: "
                "syntax error while parsing object key - unexpected '}'; expected string "
                "literal"}),
        config("MissingCommaOnLineThree", "{ \"map\":\n  { \"width\": 10\n  \"height\": 3 } }",
               {"'config.json' is not valid JSON: parse error at line 3, column 10: syntax error "
                "while parsing object - unexpected string literal; expected '}'"}),
        config("TruncatedObject", R"({"map": {"width": 10})",
               {"'config.json' is not valid JSON: parse error at line 1, column 22: syntax error "
                "while parsing object - unexpected end of input; expected '}'"}),
        config("TwoDocuments", R"({"seed": 3} {"seed": 4})",
               {"'config.json' is not valid JSON: parse error at line 1, column 13: syntax error "
                "while parsing value - unexpected '{'; expected end of input"}),
        config("IllFormedUtf8", "{\"output\": {\"directory\": \"\xff\xfe\"}}",
               {"'config.json' is not valid JSON: parse error at line 1, column 27: syntax error "
                "while parsing value - invalid string: ill-formed UTF-8 byte"}),

        // --- every key class with a wrong type -----------------------------------------------
        // World shapes (issue 6): stacked layers, warp, wrap, planets.
        config("LayerEntryGivenString", R"({"height": {"layers": ["ridged"]}})",
               {"config: 'height.layers[0]' must be an object (got \"ridged\")"}),
        config("LayerEntryDeepUnknownKey",
               R"({"moisture": {"layers": [{"warp": {"amplitude": 1, "octave": 2}}]}})",
               {"config: unknown key 'moisture.layers[0].warp.octave' (did you mean "
                "'octaves'?)"}),
        config("WarpAmplitudeHuge", R"({"height": {"warp": {"amplitude": 1e300}}})",
               {"config: 'height.warp.amplitude' must be between 0 and 1e9 (got 1e300)"}),
        config("PlanetSquare", R"({"map": {"projection": "equirectangular", "width": 8,
                                   "height": 8}})",
               {"config: 'map.width' x 'map.height' (8 x 8) must be 2h x h with h even"}),
        config("IntegerGivenString", R"({"seed": "7"})",
               {"config: 'seed' must be an integer (got \"7\")"}),
        config("IntegerGivenFraction", R"({"height": {"octaves": 4.5}})",
               {"config: 'height.octaves' must be an integer (got 4.5)"}),
        config("IntegerGivenNull", R"({"output": {"epsg": null}})",
               {"config: 'output.epsg' must be an integer (got null)"}),
        config("NumberGivenString", R"({"map": {"cell_size": "30m"}})",
               {"config: 'map.cell_size' must be a number (got \"30m\")"}),
        config("NumberGivenBoolean", R"({"elevation": {"max": true}})",
               {"config: 'elevation.max' must be a number (got true)"}),
        options("StringGivenNumber", "--set output.directory=5",
                {"config: 'output.directory' must be a non-empty string (got 5)"}),
        options("StringGivenEmptyString", R"(--set 'output.directory=""')",
                {"config: 'output.directory' must be a non-empty string (got \"\")"}),
        config("SchemaKeyGivenNumber", R"({"$schema": 3})",
               {"config: '$schema' must be a string (got 3)"}),
        config("EnumGivenNumber", R"({"height": {"noise": 3}})",
               {"config: 'height.noise' must be one of value, perlin, simplex, "
                "generic_lattice, cellular (got 3)"}),
        config("EnumMisspelt", R"({"moisture": {"fractal": "fmb"}})",
               {"config: 'moisture.fractal' must be one of none, fbm, turbulence, ridged, "
                "marble (got \"fmb\")"}),
        config("BooleanGivenString", R"({"output": {"engine_snap": "yes"}})",
               {"config: 'output.engine_snap' must be a boolean (got \"yes\")"}),
        config("BooleanGivenNumber", R"({"output": {"tiled": {"walkable_layer": 1}}})",
               {"config: 'output.tiled.walkable_layer' must be a boolean (got 1)"}),
        config("PairGivenOneNumber", R"({"map": {"origin": [1]}})",
               {"config: 'map.origin' must be an array of 2 numbers (got [1])"}),
        config("PairGivenString", R"({"height": {"offset": "0,0"}})",
               {"config: 'height.offset' must be an array of 2 numbers (got \"0,0\")"}),
        config("PairGivenStrings", R"({"moisture": {"offset": ["1", "2"]}})",
               {"config: 'moisture.offset' must be an array of 2 numbers (got [\"1\", \"2\"])"}),
        config("FilesGivenString", R"({"output": {"files": "height.tif"}})",
               {"config: 'output.files' must be a non-empty array of file names (got "
                "\"height.tif\")"}),
        config("FilesEmpty", R"({"output": {"files": []}})",
               {"config: 'output.files' must be a non-empty array of file names (got [])"}),
        config("FilesUnknownName", R"({"output": {"files": ["height.tiff"]}})",
               {"config: 'output.files' entries must be one of " + kFileNames +
                " (got \"height.tiff\")"}),
        config("FilesListedTwice", R"({"output": {"files": ["map.tmj", "map.tmj"]}})",
               {"config: 'output.files' must not list a file twice (got [\"map.tmj\", "
                "\"map.tmj\"])"}),
        config("MapSectionGivenNumber", R"({"map": 5})", {"config: 'map' must be an object (got 5)"}),
        config("TerrainSectionGivenArray", R"({"terrain": []})",
               {"config: 'terrain' must be an object (got [])"}),
        config("TiledSectionGivenNumber", R"({"output": {"tiled": 3}})",
               {"config: 'output.tiled' must be an object (got 3)"}),
        config("WalkableGivenBoolean", R"({"terrain": {"walkable": true}})",
               {"config: 'terrain.walkable' must be an object of booleans (got true)"}),
        config("WalkableEntryGivenNumber", R"({"terrain": {"walkable": {"lake": 1}}})",
               {"config: 'terrain.walkable.lake' must be a boolean (got 1)"}),
        config("ColoursGivenString", R"({"terrain": {"colours": "red"}})",
               {"config: 'terrain.colours' must be an object of colours (got \"red\")"}),
        config("ColourNotHex", R"({"terrain": {"colours": {"lake": "blue"}}})",
               {"config: 'terrain.colours.lake' must be a colour \"#rrggbb\" (got \"blue\")"}),
        config("ThresholdGivenString", R"({"terrain": {"lake_below": "low"}})",
               {"config: 'terrain.lake_below' must be a number between 0 and 1 or "
                "{\"coverage\": share} (got \"low\")"}),
        config("ClassTableGivenObject", R"({"terrain": {"classes": {}}})",
               {"config: 'terrain.classes' must be an array of classes (got {})"}),
        config("ClassEntryGivenNumber", R"({"terrain": {"classes": [5]}})",
               {"config: 'terrain.classes[0]' must be an object (got 5)"}),
        config("ClassEntryMembersOfWrongTypes",
               R"({"terrain": {"classes": [{"name": 3, "colour": "#fff", "walkable": "y",
                   "height": [1, 0]}]}})",
               {"config: 'terrain.classes[0].name' must be a non-empty string of at most 64 "
                "characters (got 3)",
                "config: 'terrain.classes[0].colour' must be a colour \"#rrggbb\" (got \"#fff\")",
                "config: 'terrain.classes[0].walkable' must be a boolean (got \"y\")",
                "config: 'terrain.classes[0].height' must be an array of 2 numbers with 0 <= lo "
                "<= hi <= 1 (got [1, 0])"}),
        config("ClassEntryWithoutColour",
               R"({"terrain": {"classes": [{"name": "all", "walkable": true}]}})",
               {"config: 'terrain.classes[0].colour' is missing"}),

        // --- out of range and not finite -----------------------------------------------------
        config("NumberAboveDoubleRange", R"({"map": {"cell_size": 1e309}})",
               {"config: 'map.cell_size' must be a finite number (got 1e309)"}),
        config("NumberBelowDoubleRange", R"({"elevation": {"min": -1e309}})",
               {"config: 'elevation.min' must be a finite number (got -1e309)"}),
        // JSON has no NaN or Infinity; a file that writes them is broken JSON, and an override
        // that spells them is a string where a number belongs.
        config("NaNLiteral", "{\"height\": {\n  \"persistence\": NaN}}",
               {"config: 'config.json' is not valid JSON: parse error at line 2, column"}),
        config("InfinityLiteral", R"({"elevation": {"max": Infinity}})",
               {"config: 'config.json' is not valid JSON: parse error at line 1, column"}),
        options("SetNaN", "--set height.lacunarity=nan",
                {"config: 'height.lacunarity' must be a number (got \"nan\")"}),
        options("SetMinusInfinity", "--set elevation.min=-inf",
                {"config: 'elevation.min' must be a number (got \"-inf\")"}),
        options("WidthOptionNaN", "--width NaN",
                {"config: 'map.width' must be an integer (got \"NaN\")"}),
        config("PairElementAboveDoubleRange", R"({"height": {"offset": [0, 1e400]}})",
               {"config: 'height.offset' must be a finite number (got 1e400)"}),
        config("NegativeSizes", R"({"map": {"width": -5, "height": -1}})",
               {"config: 'map.width' must be between 1 and 1048576 (got -5)",
                "config: 'map.height' must be between 1 and 1048576 (got -1)"}),
        config("ZeroTileSize", R"({"map": {"tile_size": 0}})",
               {"config: 'map.tile_size' must be between 1 and 8192 (got 0)"}),
        config("ZeroCellSize", R"({"map": {"cell_size": 0}})",
               {"config: 'map.cell_size' must be greater than 0 and at most 1e7 (got 0)"}),
        config("NegativeSeed", R"({"seed": -1})",
               {"config: 'seed' must be between 0 and 18446744073709551615 (got -1)"}),
        config("ZeroOctaves", R"({"height": {"octaves": 0}})",
               {"config: 'height.octaves' must be between 1 and 16 (got 0)"}),
        config("HundredOctaves", R"({"moisture": {"octaves": 100}})",
               {"config: 'moisture.octaves' must be between 1 and 16 (got 100)"}),
        config("ZeroLacunarity", R"({"height": {"lacunarity": 0}})",
               {"config: 'height.lacunarity' must be between 1 and 8 (got 0)"}),
        config("ZeroPersistence", R"({"height": {"persistence": 0}})",
               {"config: 'height.persistence' must be greater than 0 and at most 1 (got 0)"}),
        config("ZeroFrequency", R"({"moisture": {"frequency": 0}})",
               {"config: 'moisture.frequency' must be greater than 0 and at most 1000 (got 0)"}),
        config("ZeroEpsg", R"({"output": {"epsg": 0}})",
               {"config: 'output.epsg' must be between 1024 and 32766 (got 0)"}),

        // --- huge sizes ----------------------------------------------------------------------
        config("WidthTenMillion", R"({"map": {"width": 1e7}})",
               {"config: 'map.width' must be between 1 and 1048576 (got 1e7)"}),
        // (2^32 + 1)^2 wraps a 64-bit product round to 2^33 + 1.
        config("SidesWhoseProductWrapsInt64",
               R"({"map": {"width": 4294967297, "height": 4294967297}})",
               {"config: 'map.width' must be between 1 and 1048576 (got 4294967297)",
                "config: 'map.height' must be between 1 and 1048576 (got 4294967297)"}),
        config("SidesBeyondUint64", R"({"map": {"width": 18446744073709551616, "height": 1e300}})",
               {"config: 'map.width' must be between 1 and 1048576 (got 18446744073709551616)",
                "config: 'map.height' must be between 1 and 1048576 (got 1e300)"}),

        // --- contradictions ------------------------------------------------------------------
        config("LakeAboveMountain", R"({"terrain": {"lake_below": 0.8, "mountain_above": 0.7}})",
               {"config: 'terrain.lake_below' (0.8) must be below 'terrain.mountain_above' "
                "(0.7)"}),
        config("DesertAboveForest", R"({"terrain": {"desert_below": 0.7, "forest_above": 0.6}})",
               {"config: 'terrain.desert_below' (0.7) must be below 'terrain.forest_above' "
                "(0.6)"}),
        config("CoveragesAboveOne",
               R"({"terrain": {"lake_below": {"coverage": 0.5}, "mountain_above": {"coverage": 0.4},
                   "forest_above": {"coverage": 0.3}}})",
               {"config: 'terrain.lake_below' ({\"coverage\": 0.5}), 'terrain.mountain_above' "
                "({\"coverage\": 0.4}) and 'terrain.forest_above' ({\"coverage\": 0.3}) ask for "
                "more than the whole map: coverages must add up to at most 1"}),
        config("ElevationMinAboveMax", R"({"elevation": {"min": 10, "max": 5}})",
               {"config: 'elevation.min' (10) must be below 'elevation.max' (5)"}),
        config("ClassTableWithAGap",
               R"({"terrain": {"classes": [
                   {"name": "low", "colour": "#000000", "walkable": true, "height": [0, 0.4]},
                   {"name": "high", "colour": "#ffffff", "walkable": true, "height": [0.5, 1]}]}})",
               {"config: 'terrain.classes' leave height 0.4..0.5 with moisture 0..1 "
                "unclassified: every cell must match a class"}),
        config("ClassNamedTwice",
               R"({"terrain": {"classes": [
                   {"name": "a", "colour": "#000000", "walkable": true, "moisture": [0, 0.5]},
                   {"name": "a", "colour": "#ffffff", "walkable": true}]}})",
               {"config: 'terrain.classes[1].name' (\"a\") must differ from "
                "'terrain.classes[0].name'"}),

        // --- unknown keys at every level, with their suggestions -----------------------------
        config("UnknownTopKey", R"({"sed": 1})",
               {"config: unknown key 'sed' (did you mean 'seed'?)"}),
        config("UnknownTopSection", R"({"moisure": {}})",
               {"config: unknown key 'moisure' (did you mean 'moisture'?)"}),
        config("UnknownMapKey", R"({"map": {"widht": 1}})",
               {"config: unknown key 'map.widht' (did you mean 'width'?)"}),
        config("UnknownHeightKey", R"({"height": {"octave": 1}})",
               {"config: unknown key 'height.octave' (did you mean 'octaves'?)"}),
        config("UnknownTerrainKey", R"({"terrain": {"lake_bellow": 0.1}})",
               {"config: unknown key 'terrain.lake_bellow' (did you mean 'lake_below'?)"}),
        config("UnknownWalkableKey",
               R"({"terrain": {"walkable": {"lake": false, "mountain": false, "forest": true,
                   "desert": true, "ground": true, "grond": true}}})",
               {"config: unknown key 'terrain.walkable.grond' (did you mean 'ground'?)"}),
        config("UnknownOutputKey", R"({"output": {"file": ["height.tif"]}})",
               {"config: unknown key 'output.file' (did you mean 'files'?)"}),
        config("UnknownTiledKey", R"({"output": {"tiled": {"tile_pixel": 16}}})",
               {"config: unknown key 'output.tiled.tile_pixel' (did you mean 'tile_pixels'?)"}),
        config("UnknownClassEntryKey",
               R"({"terrain": {"classes": [{"name": "all", "colour": "#808080", "walkable": true,
                   "heigth": [0, 1]}]}})",
               {"config: unknown key 'terrain.classes[0].heigth' (did you mean 'height'?)"}),
        config("UnknownCoverageKey", R"({"terrain": {"lake_below": {"coverag": 0.2}}})",
               {"config: unknown key 'terrain.lake_below.coverag' (did you mean 'coverage'?)"}),
        config("DottedKeyInFile", R"({"map.width": 1})",
               {"config: unknown key 'map.width' (write nested objects: dots separate keys only "
                "in overrides)"}),

        // --- files that are not configs ------------------------------------------------------
        config("EmptyFile", "",
               {"config: 'config.json' is not valid JSON: parse error at line 1, column 1: syntax "
                "error while parsing value - unexpected end of input"}),
        config("OnlyWhitespace", "  \n\t \r\n ",
               {"config: 'config.json' is not valid JSON: parse error at line 3, column 2: syntax "
                "error while parsing value - unexpected end of input"}),
        config("OnlyComments", "// nothing here\n/* nor here */\n",
               {"config: 'config.json' is not valid JSON: parse error at line 3, column 1: syntax "
                "error while parsing value - unexpected end of input"}),
        config("TopLevelArray", "[1, 2]",
               {"config: 'config.json' must hold a JSON object (got [1, 2])"}),
        config("TopLevelNumber", "42", {"config: 'config.json' must hold a JSON object (got 42)"}),
        special("DirectoryAsConfig", Input::Directory,
                {"config: cannot read 'a-directory': it is a directory"}),
        special("MissingFile", Input::Missing,
                {"config: cannot read 'missing.json': No such file or directory"}),
        config("BinaryFile", binaryBytes(),
               {"config: 'config.json' is not valid JSON: parse error at line 1, column 1: "
                "syntax error while parsing value - invalid literal"}),
        // nlohmann takes a NUL for the end of the input; the bytes after it must not vanish.
        config("NulByteAfterAnObject", std::string(R"({"seed": 1})") + '\0' + binaryBytes(),
               {"config: 'config.json' is not valid JSON: parse error at line 1, column 12: "
                "unexpected NUL byte (binary data?)"}),
        special("HundredMegabyteFile", Input::Huge,
                {"hostile-100mb.json' is not valid JSON: parse error at line 1, column " +
                     std::to_string(kHugeSpaces + 12) +
                     ": syntax error while parsing object key - unexpected '}'; expected string "
                     "literal"}),
        special("PipeThatNeverEnds", Input::Endless,
                {"config: cannot read '/dev/stdin': it holds more than 256 MiB, and a config is "
                 "a few KB"}),
        special("Device", Input::Device,
                {"config: cannot read '/dev/zero': it is a character device, not a regular "
                 "file"}),
        // Opened without blocking: open() of a FIFO with no writer waited for good.
        special("FifoWithoutAWriter", Input::Fifo,
                {"config: cannot read 'config.fifo': it is a FIFO (named pipe), not a regular "
                 "file"}),
        // The C library ends a path at the NUL: the run created 'a' and failed (exit 1).
        withItsOwnOutDir(config(
            "NulByteInTheOutputDirectory", R"({"output": {"directory": "a\u0000b"}})",
            {R"(config: 'output.directory' must not contain a NUL byte (got "a\u0000b"))"})),
        // A byte order mark is skipped (editors on Windows write one): the content counts.
        config("ByteOrderMarkThenBadValue", "\xef\xbb\xbf{\"seed\": -1}",
               {"config: 'seed' must be between 0 and 18446744073709551615 (got -1)"}),
        // Showing or copying 100000 levels overflowed the stack (SIGSEGV).
        config("DeeplyNestedArrays", nested(100000),
               {"config: 'config.json' nests arrays and objects more than 64 deep at 'seed'"}),
        // A megabyte value is shown abbreviated, not in full.
        config("MegabyteStringValue", R"({"seed": ")" + std::string(1 << 20, 'x') + "\"}",
               {"config: 'seed' must be an integer (got \"xxxxxxxx",
                "xxx...(1048323 bytes left out)...xxx", "xxxx\")"}),

        // --- the command line ----------------------------------------------------------------
        options("SetWithoutEquals", "--set seed",
                {"config: override 'seed' must look like key.path=value"}),
        options("SetWithoutKey", "--set =3", {"config: override '=3' must look like key.path=value"}),
        options("SetWithEmptyKeyInPath", "--set map..width=3",
                {"config: override 'map..width=3' must look like key.path=value"}),
        options("SetUnknownKey", "--set map.widht=3",
                {"config: unknown key 'map.widht' (did you mean 'width'?)"}),
        options("SetUnknownSection", "--set mapp.width=3",
                {"config: unknown key 'mapp' (did you mean 'map'?)"}),
        options("SetInsideANumber", "--set seed.x=3",
                {"config: override 'seed.x=3' cannot set a key inside 'seed', which is not an "
                 "object (got 7)"}),
        options("SetNumberAboveDoubleRange", "--set seed=1e309",
                {"config: 'seed' must be a finite number (got 1e309)"}),
        options("WidthOptionNotANumber", "--width abc",
                {"config: 'map.width' must be an integer (got \"abc\")"}),
        withItsOwnOutDir(options(
            "NulByteInTheOutputDirectoryOverride", "--set 'output.directory=\"a\\u0000b\"'",
            {R"(config: 'output.directory' must not contain a NUL byte (got "a\u0000b"))"})),
        options("ZeroThreads", "--threads 0",
                {"terragrid: '--threads' must be at least 1 (got 0)\nTry 'terragrid --help'."}),

        // --- an output directory that does not exist yet -------------------------------------
        withFreshOutDir(config("NegativeWidthWithAFreshOutputDirectory",
                               R"({"map": {"width": -5}})",
                               {"config: 'map.width' must be between 1 and 1048576 (got -5)"})),
    };
}

const std::string kOlderBytes = "an older height.tif\n";

class HostileInputTest : public testing::TestWithParam<HostileCase> {};

TEST_P(HostileInputTest, ExitsTwoNamesTheProblemAndTouchesNothing) {
    const HostileCase& c = GetParam();
    test::TempDir dir;

    // An older output, dated an hour back so that any rewrite would show.
    const fs::path older = dir / "out/height.tif";
    fs::create_directories(older.parent_path());
    std::ofstream(older, std::ios::binary) << kOlderBytes;
    const auto olderTime = fs::file_time_type::clock::now() - std::chrono::hours(1);
    fs::last_write_time(older, olderTime);

    // `timeout`: a run that blocks on its input (a FIFO) fails the test instead of hanging it.
    std::string command = "cd " + test::shellQuote(dir.path().string()) + " && " +
                          (c.input == Input::Endless ? "cat /dev/zero | " : "") + "timeout 20 " +
                          test::shellQuote(test::cliPath());
    switch (c.input) {
        case Input::Text:
            std::ofstream(dir / "config.json", std::ios::binary) << c.text;
            command += " --config config.json";
            break;
        case Input::None:
            break;
        case Input::Directory:
            fs::create_directory(dir / "a-directory");
            command += " --config a-directory";
            break;
        case Input::Missing:
            command += " --config missing.json";
            break;
        case Input::Huge:
            command += " --config " + test::shellQuote(hugeConfig().string());
            break;
        case Input::Endless:
            command += " --config /dev/stdin";
            break;
        case Input::Device:
            command += " --config /dev/zero";
            break;
        case Input::Fifo:
            ASSERT_EQ(::mkfifo((dir / "config.fifo").c_str(), 0644), 0);
            command += " --config config.fifo";
            break;
    }
    if (c.outDir != OutDir::Config)
        command += c.outDir == OutDir::Fresh ? " --out-dir fresh/new" : " --out-dir out";
    if (!c.args.empty()) command += " " + c.args;
    const auto before = test::listDir(dir.path());

    const auto r = test::runCommand(command);

    EXPECT_EQ(r.exitCode, 2) << r.err;
    for (const auto& part : c.expected) EXPECT_THAT(r.err, HasSubstr(part));
    EXPECT_LT(r.err.size(), 2000u) << "a few lines, however big the input";
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(test::listDir(dir.path()), before);
    EXPECT_EQ(test::listDir(dir / "out"), std::vector<std::string>{"height.tif"});
    EXPECT_EQ(test::readFile(older), kOlderBytes);
    EXPECT_EQ(fs::last_write_time(older), olderTime);
    if (c.outDir == OutDir::Fresh) {
        EXPECT_FALSE(fs::exists(dir / "fresh"));
    }
}

INSTANTIATE_TEST_SUITE_P(Table, HostileInputTest, testing::ValuesIn(hostileCases()),
                         [](const auto& info) { return info.param.name; });

// The decision the ByteOrderMarkThenBadValue case rests on: a BOM alone is no problem.
TEST(HostileInputTest, ByteOrderMarkIsSkipped) {
    test::TempDir dir;
    std::ofstream(dir / "bom.json", std::ios::binary) << "\xef\xbb\xbf{\"seed\": 3}";
    const auto r = test::runCommand("cd " + test::shellQuote(dir.path().string()) + " && " +
                                    test::shellQuote(test::cliPath()) + " validate bom.json");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "ok\n");
    EXPECT_EQ(r.err, "");
}

// What the refusal of FIFOs and devices must leave working: a config from a pipe, as process
// substitution and `|` into /dev/stdin give it.
TEST(HostileInputTest, ConfigFromAPipeIsRead) {
    const std::string cli = test::shellQuote(test::cliPath());
    const auto piped = test::runCommand("printf '{\"seed\": 3}' | " + cli + " validate /dev/stdin");
    EXPECT_EQ(piped.exitCode, 0) << piped.err;
    EXPECT_EQ(piped.out, "ok\n");
    const auto substituted = test::runCommand(
        "bash -c " + test::shellQuote(cli + " --print-config --config <(printf '{\"seed\": 3}')"));
    EXPECT_EQ(substituted.exitCode, 0) << substituted.err;
    EXPECT_THAT(substituted.out, HasSubstr("\"seed\": 3,"));
}

TEST(HostileInputTest, FifoWithAWriterIsRefusedToo) {
    // A named FIFO is refused whether or not someone writes to it: the rule is the kind of
    // file, not a race with its writer (whose write then fails; `timeout` ends it otherwise).
    test::TempDir dir;
    ASSERT_EQ(::mkfifo((dir / "config.fifo").c_str(), 0644), 0);
    const auto r = test::runCommand(
        "cd " + test::shellQuote(dir.path().string()) +
        " && { timeout 5 sh -c \"printf '{}' > config.fifo\" 2>/dev/null & } && timeout 60 " +
        test::shellQuote(test::cliPath()) + " validate config.fifo; code=$?; wait; exit $code");
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(r.err, "config: cannot read 'config.fifo': it is a FIFO (named pipe), not a "
                     "regular file\n");
}

// ---------------------------------------------------------------------------------------------
// Every key with a wrong type. The table above shows one key of each kind through the CLI (exit
// 2, nothing written); this goes through every key the option table has, and every key a
// stacked layer entry takes, with values of each wrong JSON type, in process (parseConfig is
// what the CLI calls, and every ConfigError it throws exits 2).

/// JSON values of every type but the one `value` has (a whole number and a fraction count as
/// one type, as they do for the options).
std::vector<Json> wrongTypesFor(const Json& value) {
    std::vector<Json> wrong;
    if (!value.is_boolean()) wrong.push_back(true);
    if (!value.is_number()) wrong.push_back(-2.5);
    if (!value.is_string()) wrong.push_back("text");
    if (!value.is_array()) wrong.push_back(Json::array({1, "a"}));
    if (!value.is_object()) wrong.push_back(Json{{"x", 1}});
    wrong.push_back(nullptr);
    return wrong;
}

/// `value` at `path` ("a.b.c") of an otherwise empty document.
Json documentWith(const std::string& path, Json value) {
    std::string pointer = "/" + path;
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    Json document = Json::object();
    document[Json::json_pointer(pointer)] = std::move(value);
    return document;
}

/// Every option's wrong types are refused with a message naming the key and the rule.
void expectWrongTypesNamed(const std::string& path, const Json& rightValue,
                           const std::function<Json(Json)>& place) {
    for (const Json& wrong : wrongTypesFor(rightValue)) {
        const std::string text = place(wrong).dump();
        EXPECT_THAT([&] { parseConfig(text, "config.json"); },
                    testing::ThrowsMessage<ConfigError>(testing::AllOf(
                        HasSubstr("config: '" + path + "' must "), HasSubstr("(got "))))
            << text;
    }
}

TEST(HostileInputTest, EveryKeyGivenAWrongTypeIsNamedWithItsRule) {
    const auto options = optionReference();
    ASSERT_GT(options.size(), 70u);
    for (const OptionInfo& option : options) {
        expectWrongTypesNamed(option.path, Json::parse(option.defaultJson),
                              [&](Json wrong) { return documentWith(option.path, wrong); });
    }
}

TEST(HostileInputTest, EveryKeyOfAStackedLayerGivenAWrongTypeIsNamedWithItsRule) {
    // A stacked layer takes the keys of the moisture section (the layer keys, without the
    // height's shaping) but its own list, plus combine, weight and mask.
    std::vector<std::pair<std::string, Json>> keys{
        {"combine", "add"}, {"weight", 1.0}, {"mask", "none"}};
    for (const OptionInfo& option : optionReference()) {
        if (option.path.starts_with("moisture.") && option.path != "moisture.layers")
            keys.emplace_back(option.path.substr(9), Json::parse(option.defaultJson));
    }
    ASSERT_GT(keys.size(), 20u);
    for (const auto& [key, rightValue] : keys) {
        const Json right{{"height", {{"layers", {documentWith(key, rightValue)}}}}};
        ASSERT_NO_THROW(parseConfig(right.dump(), "config.json")) << right.dump();
        expectWrongTypesNamed("height.layers[0]." + key, rightValue, [&](Json wrong) {
            return Json{{"height", {{"layers", {documentWith(key, wrong)}}}}};
        });
    }
}

}  // namespace
}  // namespace terragrid
