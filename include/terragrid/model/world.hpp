#pragma once
// The plain description of a map that the model and the pipeline read: its grid and where it
// lies, its two noise layers, the elevation range and the terrain rules, under one seed. The
// config loader (src/config) fills it in from JSON; nothing here knows a config key.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "terragrid/climate/climate_model.hpp"
#include "terragrid/model/terrain.hpp"
#include "terragrid/noise/layers.hpp"

namespace terragrid {

/// How the map's cells lie: on a plane (world x, y), or as an equirectangular planet (columns
/// are longitudes -180..180, rows latitudes 90..-90; the noise is sampled on a sphere).
enum class Projection : std::uint8_t { Plane, Equirectangular, Last = Equirectangular };
inline constexpr std::array<std::string_view, 2> kProjectionNames{"plane", "equirectangular"};
static_assert(kProjectionNames.size() == std::size_t(Projection::Last) + 1);

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
    /// The full map's origin, when this map is a window (fullWidth > 0): the window's cells
    /// sit on the noise grid where the full map's do (GridGeometry), whatever the rounding of
    /// its own origin.
    double fullOriginX = 0;
    double fullOriginY = 0;

    /// The full map's width and height in cells: this map's own unless it is a window.
    std::int64_t wholeWidth() const noexcept;
    std::int64_t wholeHeight() const noexcept;
    /// The full map's origin: fullOriginX/Y for a window, else this map's own.
    double wholeOriginX() const noexcept;
    double wholeOriginY() const noexcept;
    /// Ground distance of one cell in world units (groundCellSize, else cellSize).
    double groundCell() const noexcept;
};

struct ElevationConfig {
    double minMeters = 0;  ///< elevation written for noise value 0
    double maxMeters = 0;  ///< elevation written for noise value 1
};

/// Where rain falls for flow accumulation: the same on every cell, in proportion to the
/// moisture layer (0..1), or the climate stage's precipitation (metres a year).
enum class Rainfall : std::uint8_t { Uniform, Moisture, Climate, Last = Climate };
inline constexpr std::array<std::string_view, 3> kRainfallNames{"uniform", "moisture", "climate"};
static_assert(kRainfallNames.size() == std::size_t(Rainfall::Last) + 1);

/// What the noise height is to erosion: the uplift rate's scale (ranges rise where it is high
/// and rivers cut them as they rise), or the initial relief that erosion carves.
enum class NoiseRole : std::uint8_t { Uplift, Relief, Last = Relief };
inline constexpr std::array<std::string_view, 2> kNoiseRoleNames{"uplift", "relief"};
static_assert(kNoiseRoleNames.size() == std::size_t(NoiseRole::Last) + 1);

/// `hydrology.erosion`: the stream-power and hillslope-diffusion landscape evolution run on
/// the hydrology grid before lakes and rivers are found (Braun and Willett 2013).
struct ErosionConfig {
    bool enabled = false;
    NoiseRole noiseRole = NoiseRole::Uplift;
    std::int32_t steps = 0;     ///< time steps
    double timeStepYears = 0;   ///< length of one step
    double k = 0;               ///< erodibility of the stream-power law E = k A^m S^n
    double m = 0;               ///< area exponent
    double n = 0;               ///< slope exponent
    double diffusion = 0;       ///< hillslope diffusivity, m^2 per year
    double upliftMetersPerYear = 0;  ///< uplift rate (times the noise height with Uplift)
};

/// Where water leaves the map, and what erosion does at the map's edge. Edges: every border
/// cell is an outlet, held by erosion at its initial height (terragrid before issue 29: the
/// eroded land ramps down to the border). Sea: only the sea (cells below hydrology.sea_level)
/// drains; the edges are closed. Open: every border cell is an outlet, and erosion treats it
/// like the land inside, draining to the land beyond, which continues the border's profile.
/// Without erosion, edges and open are the same (water leaves at the border cell's height).
enum class OutletMode : std::uint8_t { Edges, Sea, Open, Last = Open };
inline constexpr std::array<std::string_view, 3> kOutletModeNames{"edges", "sea", "open"};
static_assert(kOutletModeNames.size() == std::size_t(OutletMode::Last) + 1);

/// `hydrology`: water on the whole map, computed once before the tiles (design.md, data
/// flow) on a grid `resolution` times coarser than the map (see HydrologyStage).
struct HydrologyConfig {
    bool enabled = false;
    /// Map cells per hydrology cell along each side: 1 the map's own grid; 0 chooses
    /// (hydrologyFactor in pipeline/hydrology_stage.hpp).
    std::int64_t resolution = 0;
    double minLakeDepthMeters = 0;   ///< a filled depression at least this deep is a lake
    double minLakeAreaSquareMeters = 0;  ///< ... or one at least this large
    /// Rivers where the upstream area (weighted by the rainfall) exceeds this, in square
    /// world units (square metres on a metre CRS): the same rivers at any cell size.
    double riverThresholdSquareMeters = 0;
    Rainfall rainfall = Rainfall::Uniform;
    /// Noise height (0..1) below which cells are sea: outlets, drawn as standing water at sea
    /// level. 0: no sea (only the map edge drains).
    double seaLevel = 0;
    OutletMode outlets = OutletMode::Open;
    Rgb riverColour{};
    bool riverWalkable = false;
    /// Rivers of Strahler order up to this are fords: walkable whatever riverWalkable says
    /// (0: no fords).
    std::int32_t fordMaxOrder = 0;
    ErosionConfig erosion;
};

/// `climate`: temperature and precipitation of the whole map (climate_model.hpp), computed once
/// before the tiles (pipeline/climate_stage.hpp). Off: nothing changes.
struct ClimateConfig {
    bool enabled = false;
    /// Plane maps: the latitude (degrees) of the map's top and bottom edges; rows between lie
    /// evenly between them. A planet has its own.
    double latitudeNorth = 0, latitudeSouth = 0;
    climate::Params model;
    double evaporation = 0;  ///< mm a year from open water at 15 C (lakes' water balance)
};

/// Everything that decides a map's cells: the same World gives the same cells, bit for bit.
struct World {
    std::uint64_t seed = 0;
    /// The noise algorithms' generation (noise.hpp); every layer's NoiseParams::version.
    NoiseVersion noiseVersion = NoiseVersion::V1;
    MapConfig map;
    LayerStackParams height;
    LayerStackParams moisture;
    ElevationConfig elevation;
    TerrainConfig terrain;
    HydrologyConfig hydrology;
    ClimateConfig climate;
};

}  // namespace terragrid
