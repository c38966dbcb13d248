#pragma once
// The validated, immutable run configuration and how it is loaded.
//
// Defaults live in one place: configs/default.json, compiled into the binary. A user's config
// is merged over it key by key, `--set` overrides over that, and the merged document is checked
// against the option table in config.cpp (type, range, meaning of every key). Every problem is
// collected and reported at once in a ConfigError.

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "terragrid/engine.hpp"
#include "terragrid/layers.hpp"
#include "terragrid/noise.hpp"
#include "terragrid/terrain.hpp"

namespace terragrid {

/// A bad config file, bad JSON, or bad values. what() holds every problem, one per line, each
/// starting with "config: ".
class ConfigError : public std::runtime_error {
public:
    explicit ConfigError(std::vector<std::string> problems);
    const std::vector<std::string>& problems() const noexcept { return m_problems; }

private:
    std::vector<std::string> m_problems;
};

enum class Compression : std::uint8_t { None, Deflate, Lzw, Zstd };
inline constexpr std::array<std::string_view, 4> kCompressionNames{"none", "deflate", "lzw",
                                                                   "zstd"};

enum class BigTiffMode : std::uint8_t { Auto, Always };
inline constexpr std::array<std::string_view, 2> kBigTiffModeNames{"auto", "always"};

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
    TiledMap      ///< map.tmj, terrain.tsj, terrain.png (or chunk maps and map.world)
};
inline constexpr std::array<std::string_view, 10> kOutputFileNames{
    "height.tif", "classes.tif",  "walkable.tif", "preview.png",  "height.png",
    "stats.json", "height.r16",   "height16.png", "height16.tif", "map.tmj"};

/// Tiled (level editor) export settings: output.tiled.
struct TiledConfig {
    std::int64_t tilePixels = 0;      ///< edge of one tile in the tileset image, pixels
    bool walkableLayer = true;        ///< add a layer marking blocked cells
    std::int64_t chunkCells = 0;      ///< maps with a side above this are split into chunks
                                      ///< of chunkCells x chunkCells placed by map.world
};

/// How the map's cells lie: on a plane (world x, y), or as an equirectangular planet (columns
/// are longitudes -180..180, rows latitudes 90..-90; the noise is sampled on a sphere).
enum class Projection : std::uint8_t { Plane, Equirectangular };
inline constexpr std::array<std::string_view, 2> kProjectionNames{"plane", "equirectangular"};

struct MapConfig {
    std::int64_t width = 0;       ///< cells across
    std::int64_t height = 0;      ///< cells down
    std::int64_t tileSizeCells = 0;
    double cellSize = 0;          ///< world units (CRS units) per cell: degrees on a planet
    double originX = 0;           ///< world x of the map's left edge
    double originY = 0;           ///< world y of the map's top edge
    Projection projection = Projection::Plane;
    /// A tileable map: the noise is sampled on two circles in 4D, so the right edge continues
    /// into the left and the bottom into the top.
    bool wrap = false;
    /// Ground distance of one cell (world units; 0: cellSize). On a planet, the width of a cell
    /// at the equator (the config's map.cell_size), while cellSize is in degrees.
    double groundCellSize = 0;

    /// This map as a window of a bigger one (windowConfig): its cells are the cells
    /// [fullCol0, fullCol0 + width) x [fullRow0, fullRow0 + height) of a fullWidth x
    /// fullHeight map (0: this map is whole). Wrapping, the planet's longitudes and latitudes
    /// and the island falloff are functions of the full map's cells.
    std::int64_t fullCol0 = 0;
    std::int64_t fullRow0 = 0;
    std::int64_t fullWidth = 0;
    std::int64_t fullHeight = 0;

    std::int64_t wholeWidth() const noexcept { return fullWidth > 0 ? fullWidth : width; }
    std::int64_t wholeHeight() const noexcept { return fullHeight > 0 ? fullHeight : height; }
    double groundCell() const noexcept { return groundCellSize > 0 ? groundCellSize : cellSize; }
};

struct ElevationConfig {
    double minMeters = 0;  ///< elevation written for noise value 0
    double maxMeters = 0;  ///< elevation written for noise value 1
};

struct OutputConfig {
    std::string directory;
    std::vector<OutputFile> files;
    int epsg = 0;
    Compression compression = Compression::Deflate;
    BigTiffMode bigTiff = BigTiffMode::Auto;
    /// Edge of every GeoTIFF's blocks (TIFF tiles) in cells, a multiple of 16: a layout of
    /// the files alone, apart from map.tile_size (an execution parameter that changes no byte).
    std::int64_t geotiffBlockSize = 256;
    /// Longest side of preview.png / height.png in pixels; larger maps are downsampled.
    std::int64_t previewMaxSize = 0;
    Engine engine = Engine::None;
    /// Snap a map size the engine does not accept to the nearest one it does (else an error).
    bool engineSnap = false;
    /// height.r16 rows bottom to top instead of top to bottom.
    bool r16FlipY = false;
    TiledConfig tiled;
};

struct Config {
    std::uint64_t seed = 0;
    MapConfig map;
    LayerStackParams height;
    LayerStackParams moisture;
    ElevationConfig elevation;
    TerrainConfig terrain;
    OutputConfig output;

    /// The fully resolved config as JSON text (keys sorted, every default filled in).
    std::string resolvedJson;
    /// What loading decided for the user that they should be told, one sentence each (e.g.
    /// "map snapped from 1024 x 1024 to 1025 x 1025 cells for unity").
    std::vector<std::string> notes;

    /// 16 hex digits: a hash of resolvedJson without output.directory, so the same map written
    /// elsewhere keeps its hash.
    std::string hash;

    bool wants(OutputFile f) const;
    /// Whether any wanted output needs terrain classes (and so the moisture layer).
    bool needsClasses() const;
};

/// The built-in default config (configs/default.json as compiled in), as text.
std::string_view builtinConfigText();

/// Parses and validates config text (JSON with // and /* */ comments) merged over the built-in
/// defaults, then applies `overrides` ("key.path=value"; value is JSON, or a bare string).
/// `sourceName` names the text in messages (a file name, or "built-in default").
/// Throws ConfigError listing every problem.
Config parseConfig(std::string_view text, std::string_view sourceName,
                   const std::vector<std::string>& overrides = {});

/// Reads `path` and calls parseConfig. An unreadable file is a ConfigError naming the path.
Config loadConfig(const std::string& path, const std::vector<std::string>& overrides = {});

/// The built-in default with `overrides` applied.
Config defaultConfig(const std::vector<std::string>& overrides = {});

/// One documented option, for the README reference (and later the JSON Schema).
struct OptionInfo {
    std::string path;         ///< "height.octaves"
    std::string type;         ///< "integer", "number", "string", "boolean", "[number, number]", ...
    std::string defaultJson;  ///< the default from the built-in config, as JSON
    std::string range;        ///< "1..16", "one of: none, fbm, ...", "" when unrestricted
    std::string meaning;
};

/// Every option the parser accepts, in documentation order.
std::vector<OptionInfo> optionReference();

/// optionReference() as the Markdown table the README carries.
std::string optionReferenceMarkdown();

/// A JSON Schema (draft 2020-12) of the config: every key with its type, default, range and
/// description, unknown keys refused. configs/schema.json is this text.
std::string configSchemaJson();

}  // namespace terragrid
