#pragma once
// What a run is configured with: the World (model/world.hpp) and the files to write from it.
// A plain description, filled in by the config loader (src/config/), which io and app read
// without knowing a config key.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "terragrid/io/crs.hpp"
#include "terragrid/io/tiff_options.hpp"
#include "terragrid/model/engine.hpp"
#include "terragrid/model/window.hpp"
#include "terragrid/model/world.hpp"

namespace terragrid {

/// Output files terragrid can write; `output.files` lists the ones wanted.
enum class OutputFile : std::uint8_t {
    HeightTif,
    ClassesTif,
    WalkableTif,
    PreviewPng,
    HeightPng,
    StatsJson,
    HeightR16,    ///< height.r16 and its sidecar height.r16.json
    Height16Png,  ///< height16.png
    Height16Tif,  ///< height16.tif: UInt16 with scale and offset to metres
    TiledMap,     ///< map.tmj, terrain.tsj, terrain.png (or chunk maps and map.world)
    HeightExr,    ///< height.exr (float metres, for Godot) and its sidecar height.exr.json
    SplatPng,     ///< splat_0.png, splat_1.png, ...: four classes' weights per RGBA image
    WeightPng,    ///< weight_<class>.png: each class's weight as 8-bit grey (Unreal)
    ClassesQml,   ///< classes.qml: QGIS style of classes.tif (paletted: names and colours)
    HeightQml,    ///< height.qml: QGIS style of height.tif (height.png's colour ramp)
    FlowTif,      ///< flow.tif: Float32 flow accumulation (hydrology)
    WaterTif,     ///< water.tif: UInt8 0 land, 1 lake or sea, 2 river (hydrology)
    WaterDepthTif,  ///< water_depth.tif: Float32 metres of standing water (hydrology)
    RiversGeojson,  ///< rivers.geojson: river LineStrings (hydrology)
    LakesGeojson,   ///< lakes.geojson: lake Polygons (hydrology)
    WaterMaskPng,   ///< water_mask.png: 8-bit grey water mask for engines (hydrology)
    TemperatureTif,    ///< temperature.tif: Float32 degrees C (climate)
    PrecipitationTif,  ///< precipitation.tif: Float32 mm a year (climate)
    Last = PrecipitationTif
};
inline constexpr std::array<std::string_view, 23> kOutputFileNames{
    "height.tif",      "classes.tif",    "walkable.tif",  "preview.png",    "height.png",
    "stats.json",      "height.r16",     "height16.png",  "height16.tif",   "map.tmj",
    "height.exr",      "splat.png",      "weight.png",    "classes.qml",    "height.qml",
    "flow.tif",        "water.tif",      "water_depth.tif", "rivers.geojson", "lakes.geojson",
    "water_mask.png",  "temperature.tif", "precipitation.tif"};
static_assert(kOutputFileNames.size() == std::size_t(OutputFile::Last) + 1);

/// Whether preview.png and height.png carry a legend: auto draws one in pictures at least
/// kLegendMinWidth pixels wide.
enum class PreviewLegend : std::uint8_t { Auto, On, Off, Last = Off };
inline constexpr std::array<std::string_view, 3> kPreviewLegendNames{"auto", "on", "off"};
static_assert(kPreviewLegendNames.size() == std::size_t(PreviewLegend::Last) + 1);
inline constexpr std::int64_t kLegendMinWidth = 512;

/// How height.exr's blocks are compressed (output.exr_compression): all three are lossless and
/// read by every EXR reader, Godot's included.
enum class ExrCompression : std::uint8_t { Zip, Piz, None, Last = None };
inline constexpr std::array<std::string_view, 3> kExrCompressionNames{"zip", "piz", "none"};
static_assert(kExrCompressionNames.size() == std::size_t(ExrCompression::Last) + 1);

/// The coordinates of rivers.geojson and lakes.geojson (output.geojson_crs): RFC 7946's WGS 84
/// longitude and latitude (through PROJ), or the map's own CRS (output.crs) with a "crs"
/// member, as GDAL writes projected GeoJSON.
enum class GeoJsonCrs : std::uint8_t { Wgs84, Map, Last = Map };
inline constexpr std::array<std::string_view, 2> kGeoJsonCrsNames{"wgs84", "map"};
static_assert(kGeoJsonCrsNames.size() == std::size_t(GeoJsonCrs::Last) + 1);

/// Tiled (level editor) export settings: output.tiled.
struct TiledConfig {
    std::int64_t tilePixels = 0;      ///< edge of one tile in the tileset image, pixels
    bool walkableLayer = true;        ///< add a layer marking blocked cells
    std::int64_t chunkCells = 0;      ///< maps with a side above this are split into chunks
                                      ///< of chunkCells x chunkCells placed by map.world
};

struct OutputConfig {
    std::string directory;
    std::vector<OutputFile> files;
    /// output.crs as PROJ resolved it (the one place the CRS is kept after loading).
    CrsInfo crs;
    Compression compression = Compression::Deflate;
    BigTiffMode bigTiff = BigTiffMode::Auto;
    /// Edge of every GeoTIFF's blocks (TIFF tiles) in cells, a multiple of 16: a layout of
    /// the files alone, apart from map.tile_size (an execution parameter that changes no byte).
    std::int64_t geotiffBlockSize = 256;
    /// Internal overviews, a Cloud Optimized GeoTIFF or the full resolution alone.
    TiffLayout layout = TiffLayout::Overviews;
    /// Longest side of preview.png / height.png in pixels; larger maps are downsampled.
    std::int64_t previewMaxSize = 0;
    PreviewLegend previewLegend = PreviewLegend::Auto;
    Engine engine = Engine::None;
    /// Snap a map size the engine does not accept to the nearest one it does (else an error).
    bool engineSnap = false;
    /// Write manifest.json (io/manifest/manifest.hpp) with the run's files.
    bool manifest = true;
    /// height.r16 rows bottom to top instead of top to bottom.
    bool r16FlipY = false;
    ExrCompression exrCompression = ExrCompression::Zip;
    GeoJsonCrs geojsonCrs = GeoJsonCrs::Wgs84;
    /// Splat and weight maps blend classes over this many cells around each cell (0: hard).
    std::int64_t splatBlendCells = 0;
    TiledConfig tiled;
};

struct Config : World {
    OutputConfig output;

    /// 16 hex digits: a hash of the resolved config without output.directory and without
    /// map.tile_size (an execution parameter), so the same map written elsewhere, or in other
    /// tiles, keeps its hash.
    std::string hash;
    /// 16 hex digits: a hash of the settings the hydrology stage depends on (the resolved
    /// config without output, terrain and map.tile_size), which a stage file must match.
    std::string hydrologyHash;
    /// The resolved config as compact JSON text without what changes no byte of the map's
    /// files (output.directory, output.manifest, map.tile_size): `hash` is its FNV-1a, and the
    /// manifest records it, so the same map has the same manifest wherever and in whatever
    /// tiles it is written. Empty for a Config built in code.
    std::string hashedJson;

    bool wants(OutputFile f) const;
    /// Whether any wanted output needs terrain classes (and so the moisture layer).
    bool needsClasses() const;
    /// Whether any wanted output needs the WalkableRegions (the connectivity rule applied).
    bool needsRegions() const;
};

/// config with its map narrowed to `window` (windowMap); every other setting unchanged.
/// Precondition: checkWindow passed.
Config windowConfig(const Config& config, const CellWindow& window);

}  // namespace terragrid
