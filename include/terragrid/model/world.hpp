#pragma once
// The plain description of a map that the model and the pipeline read: its grid and where it
// lies, its two noise layers, the elevation range and the terrain rules, under one seed. The
// config loader (src/config) fills it in from JSON; nothing here knows a config key.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

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
};

}  // namespace terragrid
