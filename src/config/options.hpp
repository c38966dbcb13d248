#pragma once
// The option table (private to src/): every key of a config with its type, range and meaning,
// and the limits the ranges are written from. The table itself is in options.cpp.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/json.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/model/terrain.hpp"

namespace terragrid::config_detail {

// ---------------------------------------------------------------------------------------------
// Limits. The reference's range column and the messages are written from these.

inline constexpr std::uint64_t kMaxUint64 = std::numeric_limits<std::uint64_t>::max();
inline constexpr std::uint64_t kMaxMapSideCells = std::uint64_t{1} << 20;
// width * height <= 2^40 follows from the side limit, so the product cannot overflow int64 and
// needs no rule of its own.
static_assert(kMaxMapSideCells * kMaxMapSideCells <= (std::uint64_t{1} << 40));
inline constexpr std::uint64_t kMaxTileSizeCells = 8192;
inline constexpr double kMaxCellSize = 1e7;
inline constexpr double kMaxOriginAbs = 1e15;
// Up to 2^46 cells from 0 a double still resolves 1/32 of a cell at the origin, and global
// cell indices (origin cells + map cells) stay exact in both int64 and double.
inline constexpr double kMaxOriginCells = 0x1p46;
inline constexpr double kMaxLacunarity = 8;
inline constexpr double kMaxFrequency = 1e3;
inline constexpr double kMaxNoiseOffset = 1e9;
// Marble stripes bent by more than this many stripe widths are noise, not marble.
inline constexpr double kMaxMarbleTurbulence = 64;
inline constexpr double kMaxElevationMeters = 1e5;
// A class index is a byte (Terrain::classify), and 255 is classes.tif's nodata (kNoClass).
inline constexpr std::size_t kMaxClasses = kNoClass;
inline constexpr std::size_t kMaxClassNameChars = 64;
inline constexpr std::uint64_t kMinPreviewSize = 16;
/// output.splat_blend: a square of up to 129 x 129 cells keeps each class count in 16 bits.
inline constexpr std::uint64_t kMaxSplatBlend = 64;
inline constexpr std::uint64_t kMaxPreviewSize = 16384;
// EPSG codes below 1024 and from 32767 up are reserved or user-defined in GeoTIFF.
inline constexpr std::uint64_t kMinEpsg = 1024;
inline constexpr std::uint64_t kMaxEpsg = 32766;
inline constexpr std::uint64_t kMinTilePixels = 1;
inline constexpr std::uint64_t kMaxTilePixels = 256;
inline constexpr std::uint64_t kMinChunkCells = 16;
/// output.geotiff.block_size: TIFF tiles are multiples of 16 (the TIFF 6.0 rule).
inline constexpr std::uint64_t kMinGeoTiffBlock = 16;
inline constexpr std::uint64_t kMaxGeoTiffBlock = 65536;
inline constexpr std::uint64_t kMaxChunkCells = 65536;
/// hydrology.resolution: a factor beyond the map's side leaves one hydrology cell.
inline constexpr std::uint64_t kMaxHydrologyFactor = kMaxMapSideCells;
/// An area in square world units: beyond any map (2^40 cells of 1e7 units a side).
inline constexpr double kMaxArea = 1e30;
/// Strahler orders of a map of at most 2^40 cells stay far below this.
inline constexpr std::uint64_t kMaxStrahlerOrder = 32;
inline constexpr std::uint64_t kMaxErosionSteps = 100000;
inline constexpr double kMaxErosionTimeStep = 1e9;
inline constexpr double kMaxDiffusion = 1e6;
inline constexpr double kMaxLatitude = 90;
/// Temperatures a config may set (degrees C): beyond any climate.
inline constexpr double kMaxCelsius = 100;
/// climate.temperature.lapse_rate: degrees C per km; dry air cools by 9.8.
inline constexpr double kMaxLapseRate = 20;
inline constexpr double kMaxMoistureRangeKm = 1e6;

/// The top-level key naming the JSON Schema a file follows (for editors); accepted and ignored.
inline constexpr std::string_view kSchemaKey = "$schema";

/// The names of kDefaultClasses, in table order: the keys of terrain.walkable and
/// terrain.colours.
inline constexpr std::array<std::string_view, kDefaultClasses.size()> kDefaultClassNames = [] {
    std::array<std::string_view, kDefaultClasses.size()> names{};
    for (std::size_t i = 0; i < names.size(); ++i) names[i] = kDefaultClasses[i].name;
    return names;
}();

/// The keys of a coverage threshold, {"coverage": share}.
inline constexpr std::array<std::string_view, 1> kCoverageKeys{"coverage"};

/// The keys of an entry of terrain.classes; the first three are required.
inline constexpr std::array<std::string_view, 8> kClassEntryKeys{
    "name", "colour", "walkable", "height", "moisture", "temperature", "precipitation", "slope"};
inline constexpr std::size_t kRequiredClassEntryKeys = 3;

/// The keys of the default rules, which a custom class table makes meaningless.
inline constexpr std::array<std::string_view, 8> kDefaultRuleKeys{
    "terrain.lake_below",   "terrain.mountain_above", "terrain.forest_above",
    "terrain.desert_below", "terrain.walkable",       "terrain.colours",
    "terrain.model",        "terrain.rock_slope"};
/// The keys of the noise model's rules, which terrain.model climate makes meaningless.
inline constexpr std::array<std::string_view, 5> kNoiseModelKeys{
    "terrain.mountain_above", "terrain.forest_above", "terrain.desert_below",
    "terrain.walkable", "terrain.colours"};

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
    Colour,          ///< one "#rrggbb"
    ClassTable,      ///< an array of class entries (kClassEntryKeys)
    LayerList,       ///< an array of stacked layers (layer keys plus kStackedLayerKeys)
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

/// One key of every noise layer: the base layer of height and moisture, and each entry of
/// their `layers` lists. Declared once in options.cpp.
struct LayerRow {
    std::string_view key;  ///< "octaves", "cellular.return"
    Rule rule;
    std::string_view meaning;
    void (*store)(NoiseParams&, const Json&);
};
std::span<const LayerRow> layerRows();

/// The keys an entry of a `layers` list has besides the layer keys.
inline constexpr std::array<std::string_view, 3> kStackedLayerKeys{"combine", "weight", "mask"};
inline constexpr double kMaxLayerWeight = 100;
inline constexpr std::size_t kMaxStackedLayers = 8;
inline constexpr double kMaxWarpAmplitude = 1e9;
inline constexpr double kMaxFalloffExponent = 16;
inline constexpr double kMaxRedistribution = 16;

/// An option as the parser and the reference see it.
struct Option {
    std::string path;
    Rule rule;
    std::string_view meaning;
    std::function<void(Config&, const Json&)> store;
};

/// Every option, in documentation order. Built once (thread-safe static initialisation).
const std::vector<Option>& options();

/// The index of `path` in options(), or options().size().
std::size_t optionIndex(std::string_view path);

/// The enum named `value` in `names`; `value` has passed its Choice or FileList rule.
template <typename Enum, std::size_t N>
Enum enumNamed(const std::array<std::string_view, N>& names, const Json& value) {
    const auto& name = value.get_ref<const std::string&>();
    return static_cast<Enum>(std::find(names.begin(), names.end(), name) - names.begin());
}

/// A checked class table (every entry complete, ranges filled in).
std::vector<TerrainClass> classesFrom(const Json& entries);

}  // namespace terragrid::config_detail
