// Config loading and validation (design.md principles 5 and 7).
//
// The option table below (options()) declares every key once: its type, range and meaning, and
// where it goes in Config. The keys of a noise layer are declared once (kLayerRows) and
// instantiated for each layer (kLayers). Defaults are deliberately not here: they live in
// configs/default.json, compiled in as builtinConfigText(), so there is one place to change
// them. A document is checked in full before anything is thrown, so the user sees every problem
// at once, one per line.

#include "terragrid/config.hpp"

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <sstream>
#include <system_error>
#include <utility>

#include "config_json.hpp"

namespace terragrid {
namespace {

using Problems = std::vector<std::string>;

// ---------------------------------------------------------------------------------------------
// Limits. The reference's range column and the messages are written from these.

constexpr std::uint64_t kMaxUint64 = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kMaxMapSideCells = std::uint64_t{1} << 20;
// width * height <= 2^40 follows from the side limit, so the product cannot overflow int64 and
// needs no rule of its own.
static_assert(kMaxMapSideCells * kMaxMapSideCells <= (std::uint64_t{1} << 40));
constexpr std::uint64_t kMaxTileSizeCells = 8192;
constexpr double kMaxCellSize = 1e7;
constexpr double kMaxOriginAbs = 1e15;
// Up to 2^46 cells from 0 a double still resolves 1/32 of a cell at the origin, and global
// cell indices (origin cells + map cells) stay exact in both int64 and double.
constexpr double kMaxOriginCells = 0x1p46;
constexpr double kMaxLacunarity = 8;
constexpr double kMaxFrequency = 1e3;
constexpr double kMaxNoiseOffset = 1e9;
constexpr double kMaxElevationMeters = 1e5;
// A class index is a byte (Terrain::classify).
constexpr std::size_t kMaxClasses = 255;
constexpr std::size_t kMaxClassNameChars = 64;
constexpr std::uint64_t kMinPreviewSize = 16;
constexpr std::uint64_t kMaxPreviewSize = 16384;
// EPSG codes below 1024 and from 32767 up are reserved or user-defined in GeoTIFF.
constexpr std::uint64_t kMinEpsg = 1024;
constexpr std::uint64_t kMaxEpsg = 32766;
constexpr std::uint64_t kMinTilePixels = 1;
constexpr std::uint64_t kMaxTilePixels = 256;
constexpr std::uint64_t kMinChunkCells = 16;
constexpr std::uint64_t kMaxChunkCells = 65536;

/// The top-level key naming the JSON Schema a file follows (for editors); accepted and ignored.
constexpr std::string_view kSchemaKey = "$schema";

/// The names of kDefaultClasses, in table order: the keys of terrain.walkable and
/// terrain.colours.
constexpr std::array<std::string_view, kDefaultClasses.size()> kDefaultClassNames = [] {
    std::array<std::string_view, kDefaultClasses.size()> names{};
    for (std::size_t i = 0; i < names.size(); ++i) names[i] = kDefaultClasses[i].name;
    return names;
}();

/// The keys of a coverage threshold, {"coverage": share}.
constexpr std::array<std::string_view, 1> kCoverageKeys{"coverage"};

/// The keys of an entry of terrain.classes; the first three are required.
constexpr std::array<std::string_view, 5> kClassEntryKeys{"name", "colour", "walkable", "height",
                                                          "moisture"};
constexpr std::size_t kRequiredClassEntryKeys = 3;

/// The keys of the default rules, which a custom class table makes meaningless.
constexpr std::array<std::string_view, 6> kDefaultRuleKeys{
    "terrain.lake_below",   "terrain.mountain_above", "terrain.forest_above",
    "terrain.desert_below", "terrain.walkable",       "terrain.colours"};

// ---------------------------------------------------------------------------------------------
// The option table.

enum class Kind : std::uint8_t {
    Integer,
    Number,
    Boolean,
    NumberPair,
    String,
    Choice,
    FileList,
    Threshold,       ///< a number on 0..1, or {"coverage": share on 0..1}
    FlagPerClass,    ///< {"lake": true, ...}: one boolean per name in `choices`
    ColourPerClass,  ///< {"lake": "#3a6ea5", ...}: one "#rrggbb" per name in `choices`
    ClassTable,      ///< an array of class entries (kClassEntryKeys)
};

/// What a value must look like. Only the fields of its kind matter.
struct Rule {
    Kind kind = Kind::String;
    std::uint64_t intMin = 0;  ///< Integer: every integer option is non-negative
    std::uint64_t intMax = 0;
    double min = 0;  ///< Number, NumberPair (each element)
    double max = 0;
    bool minExclusive = false;
    std::span<const std::string_view>
        choices{};  ///< Choice, FileList, FlagPerClass, ColourPerClass
};

constexpr Rule integerIn(std::uint64_t lo, std::uint64_t hi) {
    return {.kind = Kind::Integer, .intMin = lo, .intMax = hi};
}
constexpr Rule numberIn(double lo, double hi) {
    return {.kind = Kind::Number, .min = lo, .max = hi};
}
/// lo < value <= hi.
constexpr Rule numberAbove(double lo, double hi) {
    return {.kind = Kind::Number, .min = lo, .max = hi, .minExclusive = true};
}
/// [x, y], each within -limit..limit.
constexpr Rule pairWithin(double limit) {
    return {.kind = Kind::NumberPair, .min = -limit, .max = limit};
}
constexpr Rule boolean() { return {.kind = Kind::Boolean}; }
constexpr Rule nonEmptyString() { return {.kind = Kind::String}; }
constexpr Rule oneOf(std::span<const std::string_view> names) {
    return {.kind = Kind::Choice, .choices = names};
}
/// A non-empty array of distinct names from `names`.
constexpr Rule filesFrom(std::span<const std::string_view> names) {
    return {.kind = Kind::FileList, .choices = names};
}
/// A value on 0..1, or {"coverage": share} with the share on 0..1.
constexpr Rule threshold() { return {.kind = Kind::Threshold, .min = 0, .max = 1}; }
/// An object with one boolean per name.
constexpr Rule flagPer(std::span<const std::string_view> names) {
    return {.kind = Kind::FlagPerClass, .choices = names};
}
/// An object with one "#rrggbb" colour per name.
constexpr Rule colourPer(std::span<const std::string_view> names) {
    return {.kind = Kind::ColourPerClass, .choices = names};
}
constexpr Rule classTable() { return {.kind = Kind::ClassTable}; }

/// The enum named `value` in `names`; `value` has passed its Choice or FileList rule.
template <typename Enum, std::size_t N>
Enum enumNamed(const std::array<std::string_view, N>& names, const Json& value) {
    const auto& name = value.get_ref<const std::string&>();
    return static_cast<Enum>(std::find(names.begin(), names.end(), name) - names.begin());
}

std::vector<OutputFile> outputFilesFrom(const Json& names) {
    std::vector<OutputFile> files;
    for (const auto& name : names) files.push_back(enumNamed<OutputFile>(kOutputFileNames, name));
    return files;
}

/// A checked threshold: a number, or {"coverage": number}.
Threshold thresholdFrom(const Json& value) {
    if (!value.is_object()) return {.value = value.get<double>()};
    return {.byCoverage = true, .coverage = value.at("coverage").get<double>()};
}

/// A checked colour, "#rrggbb" in lower case.
Rgb rgbFrom(const Json& value) {
    const auto& text = value.get_ref<const std::string&>();
    const auto byte = [&](std::size_t at) {
        return static_cast<std::uint8_t>(std::stoi(text.substr(at, 2), nullptr, 16));
    };
    return {byte(1), byte(3), byte(5)};
}

/// The default rules' five classes, in kDefaultClasses order, created on first use with the
/// built-in colours and walkability (the config's own then overwrite them).
std::vector<TerrainClass>& defaultTable(TerrainConfig& terrain) {
    if (terrain.classes.empty()) {
        for (const auto& info : kDefaultClasses)
            terrain.classes.push_back(
                {.name = std::string(info.name), .colour = info.colour, .walkable = info.walkable});
    }
    return terrain.classes;
}

/// A checked class table (every entry complete, ranges filled in).
std::vector<TerrainClass> classesFrom(const Json& entries) {
    std::vector<TerrainClass> classes;
    for (const auto& e : entries) {
        classes.push_back({.name = e.at("name").get<std::string>(),
                           .colour = rgbFrom(e.at("colour")),
                           .walkable = e.at("walkable").get<bool>(),
                           .heightMin = e.at("height")[0].get<double>(),
                           .heightMax = e.at("height")[1].get<double>(),
                           .moistureMin = e.at("moisture")[0].get<double>(),
                           .moistureMax = e.at("moisture")[1].get<double>()});
    }
    return classes;
}

/// Puts a value that passed its rule (in its canonical form) into Config.
using Store = void (*)(Config&, const Json&);

/// One key of the table, as declared.
struct Row {
    std::string_view path;
    Rule rule;
    std::string_view meaning;
    Store store;
};

/// One key of every noise layer, declared once (kLayerRows) and instantiated per layer.
struct LayerRow {
    std::string_view key;
    Rule rule;
    std::string_view meaning;
    void (*store)(NoiseParams&, const Json&);
};

/// An option as the parser and the reference see it.
struct Option {
    std::string path;
    Rule rule;
    std::string_view meaning;
    std::function<void(Config&, const Json&)> store;
};

// Documentation order: the README's reference table follows it (kHeadRows, the layers, then
// kTailRows).
constexpr std::array kHeadRows{
    Row{"seed", integerIn(0, kMaxUint64),
        "Master seed: the same seed and options always give the same map.",
        [](Config& c, const Json& v) { c.seed = v.get<std::uint64_t>(); }},
    Row{"map.width", integerIn(1, kMaxMapSideCells), "Map width in cells.",
        [](Config& c, const Json& v) { c.map.width = v.get<std::int64_t>(); }},
    Row{"map.height", integerIn(1, kMaxMapSideCells), "Map height in cells.",
        [](Config& c, const Json& v) { c.map.height = v.get<std::int64_t>(); }},
    Row{"map.tile_size", integerIn(1, kMaxTileSizeCells),
        "Edge of the square tiles the map is generated in, in cells; tiles at the map's "
        "right and bottom edges are clipped, so a tile larger than the map is fine.",
        [](Config& c, const Json& v) { c.map.tileSizeCells = v.get<std::int64_t>(); }},
    Row{"map.cell_size", numberAbove(0, kMaxCellSize),
        "Width and height of one cell in world (CRS) units.",
        [](Config& c, const Json& v) { c.map.cellSize = v.get<double>(); }},
    Row{"map.origin", pairWithin(kMaxOriginAbs),
        "World [x, y] of the map's top-left corner; each a whole multiple of map.cell_size "
        "(within 2^46 cells of 0), so windows and shards line up cell for cell.",
        [](Config& c, const Json& v) {
            c.map.originX = v[0].get<double>();
            c.map.originY = v[1].get<double>();
        }},
};

/// The noise layers, each a section with the keys of kLayerRows.
struct Layer {
    std::string_view name;
    NoiseParams Config::*params;
};
constexpr std::array kLayers{Layer{"height", &Config::height},
                             Layer{"moisture", &Config::moisture}};

constexpr std::array kLayerRows{
    LayerRow{
        "noise", oneOf(kNoiseKindNames), "Base noise of the layer.",
        [](NoiseParams& p, const Json& v) { p.noise = enumNamed<NoiseKind>(kNoiseKindNames, v); }},
    LayerRow{
        "fade", oneOf(kFadeCurveNames),
        "Curve blending between lattice points (simplex noise ignores it).",
        [](NoiseParams& p, const Json& v) { p.fade = enumNamed<FadeCurve>(kFadeCurveNames, v); }},
    LayerRow{"fractal", oneOf(kFractalKindNames),
             "How the layer's octaves are summed; none samples a single octave.",
             [](NoiseParams& p, const Json& v) {
                 p.fractal = enumNamed<FractalKind>(kFractalKindNames, v);
             }},
    LayerRow{
        "hash", oneOf(kHashKindNames),
        "Lattice hashing: lattice never repeats, permutation repeats every 256 lattice "
        "cells, reference is Ken Perlin's fixed permutation (the seed then only shifts "
        "octaves).",
        [](NoiseParams& p, const Json& v) { p.hash = enumNamed<HashKind>(kHashKindNames, v); }},
    LayerRow{"octaves", integerIn(1, kMaxOctaves),
             "Number of octaves summed (fractal none uses one).",
             [](NoiseParams& p, const Json& v) { p.octaves = v.get<int>(); }},
    LayerRow{"lacunarity", numberIn(1, kMaxLacunarity),
             "Frequency factor from one octave to the next.",
             [](NoiseParams& p, const Json& v) { p.lacunarity = v.get<double>(); }},
    LayerRow{"persistence", numberAbove(0, 1),
             "Amplitude factor from one octave to the next (0 would silence every octave "
             "after the first, so it is refused).",
             [](NoiseParams& p, const Json& v) { p.persistence = v.get<double>(); }},
    LayerRow{"frequency", numberAbove(0, kMaxFrequency),
             "Cycles per world unit of the layer's first octave.",
             [](NoiseParams& p, const Json& v) { p.frequency = v.get<double>(); }},
    LayerRow{"offset", pairWithin(kMaxNoiseOffset),
             "[x, y] added to the layer's noise coordinates (noise units): moves the pattern "
             "without changing the seed.",
             [](NoiseParams& p, const Json& v) {
                 p.offsetX = v[0].get<double>();
                 p.offsetY = v[1].get<double>();
             }},
    LayerRow{"seed_offset", integerIn(0, kMaxUint64),
             "Added to seed for this layer, so layers with equal parameters differ.",
             [](NoiseParams& p, const Json& v) { p.seedOffset = v.get<std::uint64_t>(); }},
};

constexpr std::array kTailRows{
    Row{"elevation.min", numberIn(-kMaxElevationMeters, kMaxElevationMeters),
        "Elevation in metres written for noise value 0; must be below elevation.max.",
        [](Config& c, const Json& v) { c.elevation.minMeters = v.get<double>(); }},
    Row{"elevation.max", numberIn(-kMaxElevationMeters, kMaxElevationMeters),
        "Elevation in metres written for noise value 1.",
        [](Config& c, const Json& v) { c.elevation.maxMeters = v.get<double>(); }},
    Row{"terrain.lake_below", threshold(),
        "Cells with height at or below this are lake; {\"coverage\": share} instead picks "
        "the value that makes that share of the whole map lake. Must be below "
        "terrain.mountain_above.",
        [](Config& c, const Json& v) { c.terrain.lakeBelow = thresholdFrom(v); }},
    Row{"terrain.mountain_above", threshold(),
        "Cells with height at or above this are mountain (or {\"coverage\": share} of the "
        "whole map).",
        [](Config& c, const Json& v) { c.terrain.mountainAbove = thresholdFrom(v); }},
    Row{"terrain.forest_above", threshold(),
        "Cells that are neither lake nor mountain with moisture at or above this are forest "
        "(or {\"coverage\": share} of the whole map).",
        [](Config& c, const Json& v) { c.terrain.forestAbove = thresholdFrom(v); }},
    Row{"terrain.desert_below", threshold(),
        "Remaining cells with moisture at or below this are desert (or {\"coverage\": share} "
        "of the whole map); must be below terrain.forest_above. Everything else is ground. "
        "Coverages together must add up to at most 1.",
        [](Config& c, const Json& v) { c.terrain.desertBelow = thresholdFrom(v); }},
    Row{"terrain.walkable", flagPer(kDefaultClassNames),
        "Whether each of the default classes can be walked on.",
        [](Config& c, const Json& v) {
            if (c.terrain.customClasses) return;  // the user's table replaces them
            auto& classes = defaultTable(c.terrain);
            for (std::size_t i = 0; i < kDefaultClassNames.size(); ++i)
                classes[i].walkable = v.at(std::string(kDefaultClassNames[i])).get<bool>();
        }},
    Row{"terrain.colours", colourPer(kDefaultClassNames),
        "Colour of each of the default classes in classes.tif's palette and preview.png.",
        [](Config& c, const Json& v) {
            if (c.terrain.customClasses) return;  // the user's table replaces them
            auto& classes = defaultTable(c.terrain);
            for (std::size_t i = 0; i < kDefaultClassNames.size(); ++i)
                classes[i].colour = rgbFrom(v.at(std::string(kDefaultClassNames[i])));
        }},
    Row{"terrain.classes", classTable(),
        "Your own class table instead of the default classes ([] keeps the defaults, built "
        "from the thresholds). Each entry is {\"name\", \"colour\", \"walkable\", \"height\", "
        "\"moisture\"}: name is required, unique, at most 64 characters; colour (\"#rrggbb\") "
        "and walkable (true or false) are required; height and moisture are [lo, hi] ranges "
        "with 0 <= lo <= hi <= 1, [0, 1] when left out. A cell takes the first class whose "
        "ranges contain its height and moisture, and every cell must match one. The "
        "thresholds, walkable and colours then have no effect.",
        [](Config& c, const Json& v) {
            if (v.empty()) {
                defaultTable(c.terrain);
                return;
            }
            c.terrain.customClasses = true;
            c.terrain.classes = classesFrom(v);
        }},
    Row{"terrain.connectivity", oneOf(kConnectivityNames),
        "Walkable cells form 4-connected regions: report counts them in stats.json; largest "
        "also keeps only the largest region walkable.",
        [](Config& c, const Json& v) {
            c.terrain.connectivity = enumNamed<Connectivity>(kConnectivityNames, v);
        }},
    Row{"output.directory", nonEmptyString(),
        "Directory the output files are written to; not part of the config hash.",
        [](Config& c, const Json& v) { c.output.directory = v.get<std::string>(); }},
    Row{"output.files", filesFrom(kOutputFileNames),
        "Output files to write. height.r16 (raw 16-bit heights) comes with height.r16.json; "
        "map.tmj (a Tiled map) with terrain.tsj and terrain.png.",
        [](Config& c, const Json& v) { c.output.files = outputFilesFrom(v); }},
    Row{"output.preview_max_size", integerIn(kMinPreviewSize, kMaxPreviewSize),
        "Longest side of preview.png and height.png in pixels; bigger maps are downsampled "
        "while tiles stream.",
        [](Config& c, const Json& v) { c.output.previewMaxSize = v.get<std::int64_t>(); }},
    Row{"output.epsg", integerIn(kMinEpsg, kMaxEpsg),
        "EPSG code of the CRS the world coordinates are in, written into the GeoTIFF.",
        [](Config& c, const Json& v) { c.output.epsg = v.get<int>(); }},
    Row{"output.compression", oneOf(kCompressionNames), "GeoTIFF compression.",
        [](Config& c, const Json& v) {
            c.output.compression = enumNamed<Compression>(kCompressionNames, v);
        }},
    Row{"output.bigtiff", oneOf(kBigTiffModeNames),
        "auto writes BigTIFF only when a file may pass 4 GiB; always forces it.",
        [](Config& c, const Json& v) {
            c.output.bigTiff = enumNamed<BigTiffMode>(kBigTiffModeNames, v);
        }},
    Row{"output.engine", oneOf(kEngineNames),
        "Game engine the map is meant for: its size must be one the engine accepts (unity: "
        "square 2^n+1 from 33 to 4097; unreal: each side one of 127, 253, 505, 1009, 2017, "
        "4033, 8129; godot: each side 2^n+1 from 33 to 16385). The built-in default size is "
        "snapped to the nearest accepted size; a size you give is refused unless "
        "output.engine_snap is true. none accepts any size.",
        [](Config& c, const Json& v) { c.output.engine = enumNamed<Engine>(kEngineNames, v); }},
    Row{"output.engine_snap", boolean(),
        "Snap a map size that output.engine does not accept to the nearest size it does, "
        "even when you gave the size (a note says so).",
        [](Config& c, const Json& v) { c.output.engineSnap = v.get<bool>(); }},
    Row{"output.r16_flip_y", boolean(),
        "Write height.r16 rows bottom to top instead of top to bottom.",
        [](Config& c, const Json& v) { c.output.r16FlipY = v.get<bool>(); }},
    Row{"output.tiled.tile_pixels", integerIn(kMinTilePixels, kMaxTilePixels),
        "Edge of one tile of map.tmj's tileset image (terrain.png), in pixels.",
        [](Config& c, const Json& v) { c.output.tiled.tilePixels = v.get<std::int64_t>(); }},
    Row{"output.tiled.walkable_layer", boolean(),
        "Add a layer to map.tmj marking the cells that cannot be walked on.",
        [](Config& c, const Json& v) { c.output.tiled.walkableLayer = v.get<bool>(); }},
    Row{"output.tiled.chunk_cells", integerIn(kMinChunkCells, kMaxChunkCells),
        "Maps with a side above this many cells are written as chunk maps of at most "
        "chunk_cells x chunk_cells cells, placed by map.world, instead of one map.tmj.",
        [](Config& c, const Json& v) { c.output.tiled.chunkCells = v.get<std::int64_t>(); }},
};

std::vector<Option> buildOptions() {
    std::vector<Option> options;
    const auto add = [&](const Row& row) {
        options.push_back({std::string(row.path), row.rule, row.meaning, row.store});
    };
    std::for_each(kHeadRows.begin(), kHeadRows.end(), add);
    for (const Layer& layer : kLayers) {
        for (const LayerRow& row : kLayerRows) {
            options.push_back({std::string(layer.name) + "." + std::string(row.key), row.rule,
                               row.meaning,
                               [params = layer.params, store = row.store](
                                   Config& c, const Json& v) { store(c.*params, v); }});
        }
    }
    std::for_each(kTailRows.begin(), kTailRows.end(), add);
    return options;
}

/// Every option, in documentation order. Built once (thread-safe static initialisation).
const std::vector<Option>& options() {
    static const std::vector<Option> table = buildOptions();
    return table;
}

/// The index of `path` in options(), or options().size().
std::size_t optionIndex(std::string_view path) {
    const auto& all = options();
    return static_cast<std::size_t>(
        std::find_if(all.begin(), all.end(), [&](const Option& o) { return o.path == path; }) -
        all.begin());
}

// ---------------------------------------------------------------------------------------------
// Text

/// Problems are one line each; a key or file name could carry a line break.
std::string oneLine(std::string text) {
    for (std::size_t at = text.find_first_of("\r\n"); at != std::string::npos;
         at = text.find_first_of("\r\n", at + 2))
        text.replace(at, 1, text[at] == '\n' ? "\\n" : "\\r");
    return text;
}

void report(Problems& out, const std::string& text) { out.push_back("config: " + oneLine(text)); }

std::string quote(std::string_view name) {
    // Appended piecewise: "'" + std::string(name) trips GCC 12's -Wrestrict false positive.
    std::string text;
    text.reserve(name.size() + 2);
    text += '\'';
    text += name;
    text += '\'';
    return text;
}

std::string got(const Json& value) { return " (got " + showJson(value) + ")"; }

std::string joinNames(std::span<const std::string_view> names, std::string_view separator) {
    std::string text;
    for (const auto name : names)
        text += (text.empty() ? "" : std::string(separator)) + std::string(name);
    return text;
}

/// "map" + "width" -> "map.width"; an empty side adds nothing.
std::string joinPath(std::string_view section, std::string_view key) {
    if (section.empty() || key.empty()) return std::string(section.empty() ? key : section);
    return std::string(section) + "." + std::string(key);
}

std::vector<std::string> splitPath(std::string_view path) {
    std::vector<std::string> keys;
    for (std::size_t start = 0;;) {
        const auto dot = path.find('.', start);
        keys.emplace_back(path.substr(start, dot - start));
        if (dot == std::string_view::npos) return keys;
        start = dot + 1;
    }
}

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

/// "between 1 and 16", "greater than 0 and at most 1e7".
std::string rangeWords(const Rule& rule) {
    if (rule.kind == Kind::Integer)
        return "between " + std::to_string(rule.intMin) + " and " + std::to_string(rule.intMax);
    return (rule.minExclusive ? "greater than " : "between ") + formatNumber(rule.min) +
           (rule.minExclusive ? " and at most " : " and ") + formatNumber(rule.max);
}

/// The range column of the reference: "1..16", "> 0 and <= 1e7", "one of: a, b".
std::string rangeText(const Rule& rule) {
    switch (rule.kind) {
        case Kind::Integer:
            return std::to_string(rule.intMin) + ".." + std::to_string(rule.intMax);
        case Kind::Number:
            return rule.minExclusive
                       ? "> " + formatNumber(rule.min) + " and <= " + formatNumber(rule.max)
                       : formatNumber(rule.min) + ".." + formatNumber(rule.max);
        case Kind::NumberPair:
            return "each " + formatNumber(rule.min) + ".." + formatNumber(rule.max);
        case Kind::Boolean:
            return "";
        case Kind::String:
            return "non-empty";
        case Kind::Choice:
            return "one of: " + joinNames(rule.choices, ", ");
        case Kind::FileList:
            return "one or more of: " + joinNames(rule.choices, ", ") + "; each once";
        case Kind::Threshold:
            return "0..1, or {\"coverage\": 0..1}";
        case Kind::FlagPerClass:
            return "true or false for each of: " + joinNames(rule.choices, ", ");
        case Kind::ColourPerClass:
            return "\"#rrggbb\" for each of: " + joinNames(rule.choices, ", ");
        case Kind::ClassTable:
            return "at most " + std::to_string(kMaxClasses) + " classes; [] for the defaults";
    }
    return {};
}

std::string typeText(Kind kind) {
    switch (kind) {
        case Kind::Integer:
            return "integer";
        case Kind::Number:
            return "number";
        case Kind::NumberPair:
            return "[number, number]";
        case Kind::Boolean:
            return "boolean";
        case Kind::String:
        case Kind::Choice:
            return "string";
        case Kind::FileList:
            return "array of strings";
        case Kind::Threshold:
            return "number or {coverage}";
        case Kind::FlagPerClass:
            return "object of booleans";
        case Kind::ColourPerClass:
            return "object of colours";
        case Kind::ClassTable:
            return "array of classes";
    }
    return {};
}

// ---------------------------------------------------------------------------------------------
// Unknown keys

/// Levenshtein distance: the fewest single-character insertions, deletions and substitutions
/// that turn `a` into `b`.
std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            diagonal = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitute});
        }
    }
    return row[b.size()];
}

/// The known name `key` was most likely meant to be: at most 2 edits away and no more edits than
/// half its length (so "min" does not suggest "max"), or a name that `key` begins (3 characters
/// or more: "tile" suggests "tile_size"). The closest wins; ties go to the earlier name.
std::optional<std::string_view> nearestName(std::string_view key,
                                            std::span<const std::string_view> names) {
    std::optional<std::string_view> best;
    std::size_t bestRank = 0;
    for (const auto name : names) {
        const std::size_t distance = editDistance(key, name);
        const bool prefix = key.size() >= 3 && name.starts_with(key);
        const bool close = distance <= 2 && distance * 2 <= std::max(key.size(), name.size());
        if (!close && !prefix) continue;
        const std::size_t rank = prefix ? 0 : distance;
        if (!best || rank < bestRank) {
            best = name;
            bestRank = rank;
        }
    }
    return best;
}

bool isOption(std::string_view path) { return optionIndex(path) < options().size(); }

bool isSection(std::string_view path) {
    const std::string prefix = std::string(path) + ".";
    return std::any_of(options().begin(), options().end(),
                       [&](const Option& o) { return o.path.starts_with(prefix); });
}

/// The keys one level below `section` ("" for the top level), in table order.
std::vector<std::string_view> childKeys(std::string_view section) {
    std::vector<std::string_view> keys;
    for (const auto& option : options()) {
        std::string_view rest = option.path;
        if (!section.empty()) {
            if (!rest.starts_with(section) || !rest.substr(section.size()).starts_with('.'))
                continue;
            rest.remove_prefix(section.size() + 1);
        }
        const auto key = rest.substr(0, rest.find('.'));
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    }
    return keys;
}

/// Reports `key` inside `section`, which knows `names`. Returns the name suggested, if any.
std::optional<std::string_view> reportUnknownKey(std::string_view section, const std::string& key,
                                                 std::span<const std::string_view> names,
                                                 Problems& out) {
    // Spelled out rather than joinPath, which would drop an empty key.
    std::string text =
        "unknown key " + quote(section.empty() ? key : std::string(section) + "." + key);
    std::optional<std::string_view> near;
    if (key.find('.') != std::string::npos) {
        text += " (write nested objects: dots separate keys only in overrides)";
    } else if ((near = nearestName(key, names))) {
        text += " (did you mean '" + std::string(*near) + "'?)";
    }
    report(out, text);
    return near;
}

/// The unknown keys of an object-valued option or entry, after they were reported.
struct UnknownKeys {
    std::size_t count = 0;
    std::vector<std::string_view> suggested;  ///< the names they were probably meant to be

    /// Whether a problem with `name` (say, that it is missing) is already told by a
    /// suggestion.
    bool suggest(std::string_view name) const {
        return std::find(suggested.begin(), suggested.end(), name) != suggested.end();
    }
};

/// Reports every key of `object` (the value at `path`) that is not one of `names`.
UnknownKeys reportUnknownMembers(const Json& object, std::string_view path,
                                 std::span<const std::string_view> names, Problems& out) {
    UnknownKeys unknown;
    for (const auto& [key, value] : object.items()) {
        if (std::find(names.begin(), names.end(), key) != names.end()) continue;
        ++unknown.count;
        if (const auto near = reportUnknownKey(path, key, names, out))
            unknown.suggested.push_back(*near);
    }
    return unknown;
}

/// Reports every key of `object` (at `section`) that the table does not know, and every
/// section that is not an object; recurses into sections.
void checkKeys(const Json& object, const std::string& section, Problems& out) {
    for (const auto& [key, value] : object.items()) {
        const bool plain = !key.empty() && key.find('.') == std::string::npos;
        const std::string path = joinPath(section, key);
        if (plain && isOption(path)) continue;  // its rule checks it
        if (!plain || !isSection(path)) {
            reportUnknownKey(section, key, childKeys(section), out);
        } else if (value.is_object()) {
            checkKeys(value, path, out);
        } else {
            report(out, quote(path) + " must be an object" + got(value));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Values. Each check returns the value in canonical form (integers as integers, numbers as
// floats, so 256 and 256.0 resolve and hash alike), or nullopt after reporting the problem.

using Checked = std::optional<Json>;

Checked failAt(Problems& out, std::string_view path, const std::string& rule, const Json& value) {
    report(out, quote(path) + " must " + rule + got(value));
    return std::nullopt;
}

Checked fail(Problems& out, const Option& option, const std::string& rule, const Json& value) {
    return failAt(out, option.path, rule, value);
}

/// A JSON number as an unsigned integer, if it is whole, not negative and below 2^64.
std::optional<std::uint64_t> wholeUnsigned(const Json& value) {
    if (value.is_number_unsigned()) return value.get<std::uint64_t>();
    if (value.is_number_integer()) {
        const auto n = value.get<std::int64_t>();
        return n < 0 ? std::nullopt : std::optional<std::uint64_t>(static_cast<std::uint64_t>(n));
    }
    const double d = value.get<double>();
    if (d < 0 || d >= 0x1p64) return std::nullopt;
    return static_cast<std::uint64_t>(d);
}

/// Integers may be written as whole floats (3.0, 1e3): JSON writers in other languages emit
/// those for integers. 3.5 is not an integer.
Checked checkInteger(const Option& o, const Json& value, Problems& out) {
    const bool whole =
        value.is_number() &&
        (!value.is_number_float() || std::trunc(value.get<double>()) == value.get<double>());
    if (!whole) return fail(out, o, "be an integer", value);
    const auto n = wholeUnsigned(value);
    if (!n || *n < o.rule.intMin || *n > o.rule.intMax)
        return fail(out, o, "be " + rangeWords(o.rule), value);
    return Json(*n);
}

bool inRange(const Rule& rule, double value) {
    return (rule.minExclusive ? value > rule.min : value >= rule.min) && value <= rule.max;
}

// JSON cannot hold a non-finite number, and the parser reports 1e309 (which overflows a
// double) as "must be a finite number" itself, so numbers here are always finite.
Checked checkNumber(const Option& o, const Json& value, Problems& out) {
    if (!value.is_number()) return fail(out, o, "be a number", value);
    if (!inRange(o.rule, value.get<double>()))
        return fail(out, o, "be " + rangeWords(o.rule), value);
    return Json(value.get<double>());
}

Checked checkNumberPair(const Option& o, const Json& value, Problems& out) {
    if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number())
        return fail(out, o, "be an array of 2 numbers", value);
    const double x = value[0].get<double>();
    const double y = value[1].get<double>();
    if (!inRange(o.rule, x) || !inRange(o.rule, y)) {
        report(out, quote(o.path) + " values must be " + rangeWords(o.rule) + got(value));
        return std::nullopt;
    }
    return Json::array({x, y});
}

Checked checkString(const Option& o, const Json& value, Problems& out) {
    if (!value.is_string() || value.get_ref<const std::string&>().empty())
        return fail(out, o, "be a non-empty string", value);
    return value;
}

bool isChoice(const Rule& rule, const Json& value) {
    return value.is_string() &&
           std::find(rule.choices.begin(), rule.choices.end(),
                     value.get_ref<const std::string&>()) != rule.choices.end();
}

Checked checkChoice(const Option& o, const Json& value, Problems& out) {
    if (!isChoice(o.rule, value))
        return fail(out, o, "be one of " + joinNames(o.rule.choices, ", "), value);
    return value;
}

bool hasDuplicate(const Json& array) {
    for (auto it = array.begin(); it != array.end(); ++it)
        if (std::find(std::next(it), array.end(), *it) != array.end()) return true;
    return false;
}

Checked checkFileList(const Option& o, const Json& value, Problems& out) {
    const bool shaped =
        value.is_array() && !value.empty() &&
        std::all_of(value.begin(), value.end(), [](const Json& e) { return e.is_string(); });
    if (!shaped) return fail(out, o, "be a non-empty array of file names", value);
    bool ok = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
        const bool reported = std::find(value.begin(), it, *it) != it;
        if (isChoice(o.rule, *it) || reported) continue;
        report(out, quote(o.path) + " entries must be one of " + joinNames(o.rule.choices, ", ") +
                        got(*it));
        ok = false;
    }
    if (hasDuplicate(value)) {
        fail(out, o, "not list a file twice", value);
        ok = false;
    }
    return ok ? Checked(value) : std::nullopt;
}

/// A number on 0..1 (a threshold or a coverage share).
bool isUnitNumber(const Json& value) {
    return value.is_number() && value.get<double>() >= 0 && value.get<double>() <= 1;
}

Checked checkThreshold(const Option& o, const Json& value, Problems& out) {
    const std::string rule = R"(be a number between 0 and 1 or {"coverage": share})";
    if (!value.is_object()) {
        if (!isUnitNumber(value)) return fail(out, o, rule, value);
        return Json(value.get<double>());
    }
    const UnknownKeys unknown = reportUnknownMembers(value, o.path, kCoverageKeys, out);
    const auto coverage = value.find("coverage");
    if (coverage == value.end() && unknown.suggest("coverage")) return std::nullopt;
    if (coverage == value.end() || !isUnitNumber(*coverage)) return fail(out, o, rule, value);
    if (unknown.count > 0) return std::nullopt;
    return Json{{"coverage", coverage->get<double>()}};
}

Checked checkBooleanAt(const std::string& path, const Json& value, Problems& out) {
    if (!value.is_boolean()) return failAt(out, path, "be a boolean", value);
    return value;
}

/// "#rrggbb" with hex digits in either case; canonical in lower case.
Checked checkColourAt(const std::string& path, const Json& value, Problems& out) {
    // Not std::isxdigit, which depends on the locale.
    constexpr std::string_view kHexDigits = "0123456789abcdefABCDEF";
    const auto isHex = [&](char c) { return kHexDigits.find(c) != std::string_view::npos; };
    const std::string text = value.is_string() ? value.get<std::string>() : "";
    if (text.size() != 7 || text[0] != '#' || !std::all_of(text.begin() + 1, text.end(), isHex))
        return failAt(out, path, R"(be a colour "#rrggbb")", value);
    std::string colour = text;
    for (char& c : colour) {
        if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
    }
    return Json(colour);
}

using MemberCheck = Checked (*)(const std::string& path, const Json& value, Problems& out);

/// An object with one member per name in the rule's choices, each checked by `checkMember`.
Checked checkPerClass(const Option& o, const Json& value, const std::string& shape,
                      MemberCheck checkMember, Problems& out) {
    if (!value.is_object()) return fail(out, o, "be " + shape, value);
    const UnknownKeys unknown = reportUnknownMembers(value, o.path, o.rule.choices, out);
    bool ok = unknown.count == 0;
    Json canonical = Json::object();
    for (const auto name : o.rule.choices) {
        const std::string key(name);
        const std::string path = joinPath(o.path, key);
        const auto member = value.find(key);
        if (member == value.end()) {
            if (!unknown.suggest(name)) report(out, quote(path) + " is missing");
            ok = false;
        } else if (Checked checked = checkMember(path, *member, out)) {
            canonical[key] = std::move(*checked);
        } else {
            ok = false;
        }
    }
    return ok ? Checked(std::move(canonical)) : std::nullopt;
}

/// Characters of UTF-8 text (nlohmann has checked that it is valid UTF-8).
std::size_t utf8Length(std::string_view text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

Checked checkClassName(const std::string& path, const Json& value, Problems& out) {
    const std::string name = value.is_string() ? value.get<std::string>() : "";
    if (name.empty() || utf8Length(name) > kMaxClassNameChars)
        return failAt(out, path,
                      "be a non-empty string of at most " + std::to_string(kMaxClassNameChars) +
                          " characters",
                      value);
    return value;
}

/// [lo, hi] with 0 <= lo <= hi <= 1.
Checked checkUnitRange(const std::string& path, const Json& value, Problems& out) {
    const bool ok = value.is_array() && value.size() == 2 && isUnitNumber(value[0]) &&
                    isUnitNumber(value[1]) && value[0].get<double>() <= value[1].get<double>();
    if (!ok) return failAt(out, path, "be an array of 2 numbers with 0 <= lo <= hi <= 1", value);
    return Json::array({value[0].get<double>(), value[1].get<double>()});
}

/// One entry of terrain.classes, at `path` ("terrain.classes[2]"); canonical with both ranges.
Checked checkClassEntry(const std::string& path, const Json& value, Problems& out) {
    if (!value.is_object()) return failAt(out, path, "be an object", value);
    const UnknownKeys unknown = reportUnknownMembers(value, path, kClassEntryKeys, out);
    bool ok = unknown.count == 0;
    static constexpr std::array<MemberCheck, kClassEntryKeys.size()> kChecks{
        checkClassName, checkColourAt, checkBooleanAt, checkUnitRange, checkUnitRange};
    Json canonical = Json::object();
    for (std::size_t i = 0; i < kClassEntryKeys.size(); ++i) {
        const std::string key(kClassEntryKeys[i]);
        const std::string memberPath = path + "." + key;
        const auto member = value.find(key);
        if (member == value.end() && i >= kRequiredClassEntryKeys) {
            canonical[key] = Json::array({0.0, 1.0});
        } else if (member == value.end()) {
            if (!unknown.suggest(kClassEntryKeys[i]))
                report(out, quote(memberPath) + " is missing");
            ok = false;
        } else if (Checked checked = kChecks[i](memberPath, *member, out)) {
            canonical[key] = std::move(*checked);
        } else {
            ok = false;
        }
    }
    return ok ? Checked(std::move(canonical)) : std::nullopt;
}

/// The custom class table: valid entries, unique names, and every cell classified.
Checked checkClassTable(const Option& o, const Json& value, Problems& out) {
    if (!value.is_array()) return fail(out, o, "be an array of classes", value);
    if (value.size() > kMaxClasses) {
        report(out, quote(o.path) + " must hold at most " + std::to_string(kMaxClasses) +
                        " classes (got " + std::to_string(value.size()) + ")");
        return std::nullopt;
    }
    const auto entryPath = [&](std::size_t i) { return o.path + "[" + std::to_string(i) + "]"; };
    Json canonical = Json::array();
    bool ok = true;
    for (std::size_t i = 0; i < value.size(); ++i) {
        Checked entry = checkClassEntry(entryPath(i), value[i], out);
        if (!entry) ok = false;
        canonical.push_back(entry ? std::move(*entry) : Json());
    }
    if (!ok) return std::nullopt;
    for (std::size_t i = 0; i < canonical.size(); ++i) {
        const Json& name = canonical[i]["name"];
        for (std::size_t j = 0; j < i; ++j) {
            if (canonical[j]["name"] != name) continue;
            report(out, quote(entryPath(i) + ".name") + " (" + showJson(name) +
                            ") must differ from " + quote(entryPath(j) + ".name"));
            ok = false;
            break;
        }
    }
    if (!ok) return std::nullopt;
    if (!canonical.empty()) {
        if (const auto gap = findGap(classesFrom(canonical))) {
            report(out, quote(o.path) + " leave " + *gap +
                            " unclassified: every cell must match a class");
            return std::nullopt;
        }
    }
    return canonical;
}

Checked checkValue(const Option& o, const Json& value, Problems& out) {
    switch (o.rule.kind) {
        case Kind::Integer:
            return checkInteger(o, value, out);
        case Kind::Number:
            return checkNumber(o, value, out);
        case Kind::NumberPair:
            return checkNumberPair(o, value, out);
        case Kind::Boolean:
            return checkBooleanAt(o.path, value, out);
        case Kind::String:
            return checkString(o, value, out);
        case Kind::Choice:
            return checkChoice(o, value, out);
        case Kind::FileList:
            return checkFileList(o, value, out);
        case Kind::Threshold:
            return checkThreshold(o, value, out);
        case Kind::FlagPerClass:
            return checkPerClass(o, value, "an object of booleans", checkBooleanAt, out);
        case Kind::ColourPerClass:
            return checkPerClass(o, value, "an object of colours", checkColourAt, out);
        case Kind::ClassTable:
            return checkClassTable(o, value, out);
    }
    return std::nullopt;
}

/// The object holding the last key of `path`, or nullptr when a section on the way is missing
/// or not an object (checkKeys reports the latter; the built-in default has every section).
template <typename J>
J* sectionOf(J& document, std::string_view path) {
    J* node = &document;
    const auto keys = splitPath(path);
    for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
        if (!node->is_object() || !node->contains(keys[i])) return nullptr;
        node = &(*node)[keys[i]];
    }
    return node->is_object() ? node : nullptr;
}

std::string lastKey(std::string_view path) { return std::string(path.substr(path.rfind('.') + 1)); }

/// Checks one option in `document`, replaces its value by the canonical form and stores it in
/// `config`. Returns whether it passed.
bool checkOption(const Option& option, Json& document, Config& config, Problems& out) {
    Json* section = sectionOf(document, option.path);
    if (section == nullptr) return false;
    const auto it = section->find(lastKey(option.path));
    if (it == section->end()) {
        report(out, quote(option.path) + " is missing");
        return false;
    }
    Checked checked = checkValue(option, *it, out);
    if (!checked) return false;
    *it = std::move(*checked);
    option.store(config, *it);
    return true;
}

// ---------------------------------------------------------------------------------------------
// Rules across fields. They only look at options that passed their own rule, so one bad value
// gives one problem.

/// A checked document and the config filled from it.
struct Validation {
    Json& document;
    /// What the user wrote (file and overrides, unchecked), to tell their keys from defaults.
    const Json& written;
    Config config{};
    std::vector<bool> passed = std::vector<bool>(options().size());

    bool passedAll(std::initializer_list<std::string_view> paths) const {
        return std::all_of(paths.begin(), paths.end(), [&](std::string_view path) {
            assert(optionIndex(path) < options().size());
            return passed[optionIndex(path)];
        });
    }
    /// Whether the user set `path` themselves (to any value).
    bool userSet(std::string_view path) const {
        const Json* section = sectionOf(written, path);
        return section != nullptr && section->contains(lastKey(path));
    }
    /// How a checked value shows in a message: "'elevation.min' (500)".
    std::string named(std::string_view path) const {
        return quote(path) + " (" + showJson((*sectionOf(document, path))[lastKey(path)]) + ")";
    }
};

void checkElevationOrder(const Validation& v, Problems& out) {
    if (!v.passedAll({"elevation.min", "elevation.max"})) return;
    if (v.config.elevation.minMeters < v.config.elevation.maxMeters) return;
    report(out, v.named("elevation.min") + " must be below " + v.named("elevation.max"));
}

/// The whole multiple of `cellSize` nearest to `value` (never -0).
double nearestGridLine(double value, double cellSize) {
    return std::round(value / cellSize) * cellSize + 0.0;
}

/// Whether `value` is a whole multiple of `cellSize` up to rounding: within two units in the
/// last place of the larger of the two, which covers decimal input such as 0.3 with 0.1 and is
/// far below any offset a person would mean.
bool onGrid(double value, double cellSize) {
    const double scale = std::max(std::abs(value), cellSize);
    const double ulp = std::nextafter(scale, std::numeric_limits<double>::infinity()) - scale;
    return std::abs(value - nearestGridLine(value, cellSize)) <= 2 * ulp;
}

/// The grid is anchored at world (0, 0) (tiling.hpp GridGeometry): an origin off the grid would
/// make a window of a map, generated alone, sample different cell centres than the full map.
void checkOriginOnGrid(const Validation& v, Problems& out) {
    if (!v.passedAll({"map.origin", "map.cell_size"})) return;
    const MapConfig& map = v.config.map;
    const double cellsFromZero =
        std::max(std::abs(map.originX), std::abs(map.originY)) / map.cellSize;
    if (cellsFromZero > kMaxOriginCells) {
        report(out, v.named("map.origin") + " must lie within " + formatNumber(kMaxOriginCells) +
                        " cells of 0 at " + v.named("map.cell_size") +
                        " so that cell indices stay exact");
        return;
    }
    const bool xOnGrid = onGrid(map.originX, map.cellSize);
    const bool yOnGrid = onGrid(map.originY, map.cellSize);
    if (xOnGrid && yOnGrid) return;
    const Json nearest =
        Json::array({xOnGrid ? map.originX : nearestGridLine(map.originX, map.cellSize),
                     yOnGrid ? map.originY : nearestGridLine(map.originY, map.cellSize)});
    report(out, v.named("map.origin") + " must be a whole multiple of " + v.named("map.cell_size") +
                    " so that windows and shards line up cell for cell (nearest: " +
                    showJson(nearest) + ")");
}

/// A threshold of the default rules that must be below another when both are values.
void checkThresholdOrder(const Validation& v, std::string_view below, std::string_view above,
                         const Threshold& low, const Threshold& high, Problems& out) {
    if (!v.passedAll({below, above}) || low.byCoverage || high.byCoverage) return;
    if (low.value < high.value) return;
    report(out, v.named(below) + " must be below " + v.named(above));
}

/// The default classes do not overlap, so the shares asked for cannot add up to more than the
/// whole map.
void checkCoverageTotal(const Validation& v, Problems& out) {
    const TerrainConfig& t = v.config.terrain;
    const std::array<std::pair<std::string_view, const Threshold*>, 4> thresholds{{
        {"terrain.lake_below", &t.lakeBelow},
        {"terrain.mountain_above", &t.mountainAbove},
        {"terrain.forest_above", &t.forestAbove},
        {"terrain.desert_below", &t.desertBelow},
    }};
    std::vector<std::string> named;
    double total = 0;
    for (const auto& [path, threshold] : thresholds) {
        if (!v.passedAll({path}) || !threshold->byCoverage) continue;
        named.push_back(v.named(path));
        total += threshold->coverage;
    }
    // A little slack, so 0.1 + 0.2 + 0.7 is 1.
    if (named.size() < 2 || total <= 1 + 1e-9) return;
    std::string text;
    for (std::size_t i = 0; i < named.size(); ++i)
        text += (i == 0 ? "" : i + 1 == named.size() ? " and " : ", ") + named[i];
    report(out, text + " ask for more than the whole map: coverages must add up to at most 1");
}

void checkTerrainThresholds(const Validation& v, Problems& out) {
    const TerrainConfig& t = v.config.terrain;
    checkThresholdOrder(v, "terrain.lake_below", "terrain.mountain_above", t.lakeBelow,
                        t.mountainAbove, out);
    checkThresholdOrder(v, "terrain.desert_below", "terrain.forest_above", t.desertBelow,
                        t.forestAbove, out);
    checkCoverageTotal(v, out);
}

/// With a custom class table, the keys of the default rules are ignored; a user who sets them
/// is told so rather than left wondering.
void checkUnusedDefaultRules(const Validation& v, Problems& out) {
    if (!v.passedAll({"terrain.classes"}) || !v.config.terrain.customClasses) return;
    for (const auto path : kDefaultRuleKeys) {
        if (v.userSet(path))
            report(out, quote(path) + " has no effect when 'terrain.classes' is given");
    }
}

std::string engineName(Engine engine) {
    return std::string(kEngineNames[static_cast<std::size_t>(engine)]);
}

std::string sizeText(std::int64_t width, std::int64_t height) {
    return std::to_string(width) + " x " + std::to_string(height);
}

/// A map size output.engine does not accept is snapped to the nearest one it does when the
/// user asked for that (output.engine_snap) or did not choose the size (the built-in default);
/// a size the user gave is otherwise refused. Snapping rewrites the document, so the resolved
/// config and its hash carry the size actually generated.
void checkEngineSize(Validation& v, Problems& out) {
    if (!v.passedAll({"map.width", "map.height", "output.engine", "output.engine_snap"})) return;
    const Engine engine = v.config.output.engine;
    MapConfig& map = v.config.map;
    if (engine == Engine::None || engineAccepts(engine, map.width, map.height)) return;
    const EngineSize nearest = nearestEngineSize(engine, map.width, map.height);
    const bool userSized = v.userSet("map.width") || v.userSet("map.height");
    if (userSized && !v.config.output.engineSnap) {
        report(out, "'map.width' x 'map.height' (" + sizeText(map.width, map.height) +
                        ") is not a size " + engineName(engine) +
                        " accepts: " + std::string(engineSizeRule(engine)) + " (nearest: " +
                        sizeText(nearest.width, nearest.height) +
                        "); set output.engine_snap=true to snap");
        return;
    }
    v.config.notes.push_back("map snapped from " + sizeText(map.width, map.height) + " to " +
                             sizeText(nearest.width, nearest.height) + " cells for " +
                             engineName(engine));
    map.width = nearest.width;
    map.height = nearest.height;
    Json& section = *sectionOf(v.document, "map.width");
    section["width"] = Json(static_cast<std::uint64_t>(map.width));
    section["height"] = Json(static_cast<std::uint64_t>(map.height));
}

/// Takes the top-level "$schema" (which names a JSON Schema for editors) out of `document`:
/// it is accepted, must be a string, and changes nothing, not even the hash.
void takeSchemaKey(Json& document, Problems& out) {
    const auto it = document.find(kSchemaKey);
    if (it == document.end()) return;
    if (!it->is_string()) report(out, quote(kSchemaKey) + " must be a string" + got(*it));
    document.erase(it);
}

/// Checks `document` against the table and the cross-field rules; canonicalises its values in
/// place and fills the config. `written` is what the user wrote, before merging over defaults.
Validation validate(Json& document, const Json& written, Problems& out) {
    takeSchemaKey(document, out);
    checkKeys(document, "", out);
    Validation v{document, written};
    for (std::size_t i = 0; i < options().size(); ++i)
        v.passed[i] = checkOption(options()[i], document, v.config, out);
    checkElevationOrder(v, out);
    checkOriginOnGrid(v, out);
    checkTerrainThresholds(v, out);
    checkUnusedDefaultRules(v, out);
    // After the other rules, which read the size the user gave.
    checkEngineSize(v, out);
    return v;
}

// ---------------------------------------------------------------------------------------------
// Documents and overrides

/// nlohmann refuses numbers that overflow a double (1e309) while parsing; that is a problem with
/// the value at `path`, not with the JSON.
void reportOverflow(const std::string& path, const std::string& number, Problems& out) {
    report(out, quote(path) + " must be a finite number (got " + number + ")");
}

void reportParseFailure(const JsonParseFailure& failure, std::string_view sourceName,
                        Problems& out) {
    if (!failure.overflowingNumber.empty() && !failure.keyPath.empty())
        return reportOverflow(failure.keyPath, failure.overflowingNumber, out);
    report(out, quote(sourceName) + " is not valid JSON: " + failure.message);
}

/// Parses `text` and merges it over `document`, and over `written` (what the user wrote) when
/// given. On a problem, `document` is left as it was, so overrides are still checked against
/// the rest.
void mergeText(Json& document, std::string_view text, std::string_view sourceName, Problems& out,
               Json* written = nullptr) {
    JsonParseResult parsed = parseJson(text, true);
    if (!parsed.ok) return reportParseFailure(parsed.failure, sourceName, out);
    if (!parsed.value.is_object())
        return report(out, quote(sourceName) + " must hold a JSON object" + got(parsed.value));
    mergeJson(document, parsed.value);
    if (written != nullptr) mergeJson(*written, parsed.value);
}

bool isKeyPath(std::string_view path) {
    const auto keys = splitPath(path);
    return !path.empty() &&
           std::none_of(keys.begin(), keys.end(), [](const std::string& k) { return k.empty(); });
}

/// Merges `value` in at `path`. Missing sections are created, so an unknown key is reported by
/// checkKeys like any other.
void setAt(Json& document, std::string_view path, const Json& value, std::string_view override,
           Problems& out) {
    Json* node = &document;
    std::string walked;
    for (const auto& key : splitPath(path)) {
        if (!node->is_object()) {
            return report(out, "override " + quote(override) + " cannot set a key inside " +
                                   quote(walked) + ", which is not an object" + got(*node));
        }
        walked = joinPath(walked, key);
        if (!node->contains(key) && walked != path) (*node)[key] = Json::object();
        node = &(*node)[key];
    }
    mergeJson(*node, value);
}

/// `value` nested in objects along `path`: "a.b" and 1 give {"a": {"b": 1}}.
Json nestedAt(std::string_view path, Json value) {
    const auto keys = splitPath(path);
    for (auto key = keys.rbegin(); key != keys.rend(); ++key) {
        Json object = Json::object();
        object[*key] = std::move(value);
        value = std::move(object);
    }
    return value;
}

/// Applies "key.path=value" to `document`, and records it in `written` (what the user wrote).
/// The value is JSON when it parses as JSON (12, true, [0, 30], "quoted"), otherwise the bare
/// text (out-dir); spaces around key and value are ignored.
void applyOverride(Json& document, Json& written, std::string_view text, Problems& out) {
    const auto equals = text.find('=');
    const std::string_view path =
        equals == std::string_view::npos ? "" : trim(text.substr(0, equals));
    if (!isKeyPath(path))
        return report(out, "override " + quote(text) + " must look like key.path=value");
    const std::string_view valueText = trim(text.substr(equals + 1));
    JsonParseResult parsed = parseJson(valueText, false);
    if (!parsed.ok && !parsed.failure.overflowingNumber.empty())
        return reportOverflow(joinPath(path, parsed.failure.keyPath),
                              parsed.failure.overflowingNumber, out);
    const Json value = parsed.ok ? parsed.value : Json(std::string(valueText));
    setAt(document, path, value, text, out);
    mergeJson(written, nestedAt(path, value));
}

Json parseBuiltin() {
    Problems problems;
    Json document = Json::object();
    mergeText(document, builtinConfigText(), "built-in default", problems);
    if (!problems.empty()) throw ConfigError(std::move(problems));
    return document;
}

/// The built-in default document, parsed once (thread-safe static initialisation).
const Json& builtinDocument() {
    static const Json document = parseBuiltin();
    return document;
}

/// Hash of the resolved document without output.directory: where a map is written does not
/// change which map it is.
std::string configHash(Json document) {
    document["output"].erase("directory");
    return fnv1a64Hex(dumpJson(document));
}

ConfigError cannotRead(const std::string& path, const std::string& reason) {
    return ConfigError({"config: cannot read " + quote(path) + ": " + oneLine(reason)});
}

std::string readFile(const std::string& path) {
    std::error_code error;
    // Opening a directory with ifstream succeeds on some systems and then reads nothing.
    if (std::filesystem::is_directory(path, error)) throw cannotRead(path, "it is a directory");
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw cannotRead(path,
                         errno != 0 ? std::generic_category().message(errno) : "cannot open it");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw cannotRead(path, "read error");
    return std::move(text).str();
}

// ---------------------------------------------------------------------------------------------
// JSON Schema (draft 2020-12), for editors. Written from the table, so it cannot drift from
// what the parser accepts; ordered, so it reads in documentation order.

using SchemaJson = nlohmann::ordered_json;

constexpr std::string_view kColourPattern = "^#[0-9a-fA-F]{6}$";

SchemaJson schemaNumber(double min, double max, bool minExclusive = false) {
    SchemaJson s{{"type", "number"}};
    s[minExclusive ? "exclusiveMinimum" : "minimum"] = min;
    s["maximum"] = max;
    return s;
}

SchemaJson schemaColour() { return {{"type", "string"}, {"pattern", kColourPattern}}; }

/// [lo, hi] with 0 <= lo, hi <= 1 (lo <= hi is the parser's to check).
SchemaJson schemaUnitRange() {
    return {{"type", "array"}, {"items", schemaNumber(0, 1)}, {"minItems", 2}, {"maxItems", 2}};
}

SchemaJson schemaNames(std::span<const std::string_view> names) {
    SchemaJson list = SchemaJson::array();
    for (const auto name : names) list.push_back(std::string(name));
    return list;
}

/// An object with one member per name, each following `member`; members left out keep their
/// default (documents merge key by key), so none is required.
SchemaJson schemaPerName(std::span<const std::string_view> names, const SchemaJson& member) {
    SchemaJson properties = SchemaJson::object();
    for (const auto name : names) properties[std::string(name)] = member;
    return {{"type", "object"}, {"properties", properties}, {"additionalProperties", false}};
}

SchemaJson schemaClassEntry() {
    SchemaJson properties = SchemaJson::object();
    properties["name"] = {{"type", "string"},
                          {"minLength", 1},
                          {"maxLength", kMaxClassNameChars},
                          {"description", "Unique name of the class."}};
    properties["colour"] = schemaColour();
    properties["colour"]["description"] = "Colour of the class, \"#rrggbb\".";
    properties["walkable"] = {{"type", "boolean"},
                              {"description", "Whether the class can be walked on."}};
    properties["height"] = schemaUnitRange();
    properties["height"]["description"] = "Height range [lo, hi] of the class; [0, 1] if left out.";
    properties["moisture"] = schemaUnitRange();
    properties["moisture"]["description"] =
        "Moisture range [lo, hi] of the class; [0, 1] if left out.";
    static_assert(kClassEntryKeys.size() == 5 && kRequiredClassEntryKeys == 3);
    return {{"type", "object"},
            {"properties", properties},
            {"required", schemaNames(std::span(kClassEntryKeys).first(kRequiredClassEntryKeys))},
            {"additionalProperties", false}};
}

/// The schema of a value that passes `rule`, without default and description.
SchemaJson schemaOf(const Rule& rule) {
    switch (rule.kind) {
        case Kind::Integer:
            return {{"type", "integer"}, {"minimum", rule.intMin}, {"maximum", rule.intMax}};
        case Kind::Number:
            return schemaNumber(rule.min, rule.max, rule.minExclusive);
        case Kind::Boolean:
            return {{"type", "boolean"}};
        case Kind::NumberPair:
            return {{"type", "array"},
                    {"items", schemaNumber(rule.min, rule.max, rule.minExclusive)},
                    {"minItems", 2},
                    {"maxItems", 2}};
        case Kind::String:
            return {{"type", "string"}, {"minLength", 1}};
        case Kind::Choice:
            return {{"type", "string"}, {"enum", schemaNames(rule.choices)}};
        case Kind::FileList:
            return {{"type", "array"},
                    {"items", {{"type", "string"}, {"enum", schemaNames(rule.choices)}}},
                    {"minItems", 1},
                    {"uniqueItems", true}};
        case Kind::Threshold: {
            const SchemaJson share = schemaNumber(rule.min, rule.max);
            const SchemaJson coverage{{"type", "object"},
                                      {"properties", {{std::string(kCoverageKeys[0]), share}}},
                                      {"required", schemaNames(kCoverageKeys)},
                                      {"additionalProperties", false}};
            return {{"oneOf", SchemaJson::array({share, coverage})}};
        }
        case Kind::FlagPerClass:
            return schemaPerName(rule.choices, {{"type", "boolean"}});
        case Kind::ColourPerClass:
            return schemaPerName(rule.choices, schemaColour());
        case Kind::ClassTable:
            return {{"type", "array"}, {"items", schemaClassEntry()}, {"maxItems", kMaxClasses}};
    }
    return {};
}

/// An object of `properties` that refuses any other key.
SchemaJson schemaSection() {
    return {{"type", "object"},
            {"properties", SchemaJson::object()},
            {"additionalProperties", false}};
}

SchemaJson buildConfigSchema() {
    SchemaJson root{{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                    {"title", "terragrid config"},
                    {"description",
                     "A terragrid config. Every key is optional: a key left out keeps its "
                     "default from the built-in config (configs/default.json)."}};
    root.update(schemaSection());
    root["properties"][std::string(kSchemaKey)] = {
        {"type", "string"},
        {"description", "The JSON Schema this file follows, for editors; terragrid ignores it."}};
    const Json& defaults = builtinDocument();
    for (const auto& option : options()) {
        const auto keys = splitPath(option.path);
        SchemaJson* section = &root;
        for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
            SchemaJson& properties = (*section)["properties"];
            if (!properties.contains(keys[i])) properties[keys[i]] = schemaSection();
            section = &properties[keys[i]];
        }
        SchemaJson property = schemaOf(option.rule);
        const Json* defaultSection = sectionOf(defaults, option.path);
        assert(defaultSection != nullptr && defaultSection->contains(keys.back()));
        property["default"] = SchemaJson::parse(dumpJson(defaultSection->at(keys.back())));
        property["description"] = std::string(option.meaning);
        (*section)["properties"][keys.back()] = std::move(property);
    }
    return root;
}

std::string escapeTableCell(std::string_view text) {
    std::string cell;
    for (const char c : text) cell += c == '|' ? std::string("\\|") : std::string(1, c);
    return cell;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Public interface

ConfigError::ConfigError(std::vector<std::string> problems)
    : std::runtime_error([&] {
          std::string text;
          for (const auto& problem : problems) text += (text.empty() ? "" : "\n") + problem;
          return text;
      }()),
      m_problems(std::move(problems)) {}

bool Config::wants(OutputFile f) const {
    return std::find(output.files.begin(), output.files.end(), f) != output.files.end();
}

bool Config::needsClasses() const {
    return wants(OutputFile::ClassesTif) || wants(OutputFile::WalkableTif) ||
           wants(OutputFile::PreviewPng) || wants(OutputFile::StatsJson) ||
           wants(OutputFile::TiledMap);
}

Config parseConfig(std::string_view text, std::string_view sourceName,
                   const std::vector<std::string>& overrides) {
    Problems problems;
    Json document = builtinDocument();
    Json written = Json::object();
    mergeText(document, text, sourceName, problems, &written);
    for (const auto& override : overrides) applyOverride(document, written, override, problems);
    Validation v = validate(document, written, problems);
    if (!problems.empty()) throw ConfigError(std::move(problems));
    v.config.resolvedJson = dumpJson(document, 2);
    v.config.hash = configHash(document);
    return std::move(v.config);
}

Config loadConfig(const std::string& path, const std::vector<std::string>& overrides) {
    return parseConfig(readFile(path), path, overrides);
}

Config defaultConfig(const std::vector<std::string>& overrides) {
    // Nothing merged over the built-in default: only the overrides are the user's (which
    // matters for "has no effect" problems).
    return parseConfig("{}", "built-in default", overrides);
}

std::vector<OptionInfo> optionReference() {
    const Json& defaults = builtinDocument();
    std::vector<OptionInfo> infos;
    for (const auto& option : options()) {
        const Json* section = sectionOf(defaults, option.path);
        const auto it = section ? section->find(lastKey(option.path)) : defaults.end();
        infos.push_back({option.path, typeText(option.rule.kind),
                         section && it != section->end() ? dumpJson(*it) : "",
                         rangeText(option.rule), std::string(option.meaning)});
    }
    return infos;
}

std::string configSchemaJson() {
    static const std::string text =
        buildConfigSchema().dump(2, ' ', false, SchemaJson::error_handler_t::replace) + "\n";
    return text;
}

std::string optionReferenceMarkdown() {
    std::string table = "| key | type | default | range | meaning |\n|---|---|---|---|---|\n";
    for (const auto& o : optionReference()) {
        table += "| `" + o.path + "` | " + escapeTableCell(o.type) + " | `" +
                 escapeTableCell(o.defaultJson) + "` | " + escapeTableCell(o.range) + " | " +
                 escapeTableCell(o.meaning) + " |\n";
    }
    return table;
}

}  // namespace terragrid
