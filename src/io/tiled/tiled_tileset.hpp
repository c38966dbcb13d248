#pragma once
// The tilesets of the Tiled export: terrain.tsj + terrain.png (one tile per terrain class, then
// the corner tiles between each pair of classes, all in a Wang set so Tiled's terrain brush
// can paint with the classes) and blocked.tsj + blocked.png (one hatched tile marking cells
// that cannot be walked on). External tilesets (.tsj beside the map) rather than embedded
// ones, so chunk maps share one tileset and an engine or a designer can restyle every map by
// editing one file.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// The Tiled JSON format version (and the Tiled release) the files are written for. Format
/// 1.10 is the one where a tile's Class is stored as "type" again, which is also where
/// Tiled 1.8 and earlier read a tile's Type; tests/tools/tiled_tool_test.cpp checks that the
/// Debian Tiled 1.8 opens the files.
inline constexpr std::string_view kTiledFormatVersion = "1.10";
inline constexpr std::string_view kTiledVersion = "1.10.2";

inline constexpr std::string_view kTerrainTilesetFile = "terrain.tsj";
inline constexpr std::string_view kTerrainImageFile = "terrain.png";
inline constexpr std::string_view kBlockedTilesetFile = "blocked.tsj";
inline constexpr std::string_view kBlockedImageFile = "blocked.png";

/// The colour of the blocked tile's outline and hatching; the rest of the tile is transparent,
/// so the terrain shows through unchanged (a half-transparent fill would tint it: red over a
/// blue lake reads as purple).
inline constexpr Rgb kBlockedColour{220, 30, 30};

/// The transition tiles are left out when the terrain image would pass this many pixels
/// (8 MiB as RGBA): the terrain brush then paints whole cells.
inline constexpr std::int64_t kMaxTerrainTilesetPixels = std::int64_t{1} << 21;

/// How a tile is drawn.
enum class TilePattern : std::uint8_t {
    Fill,   ///< each quarter in its corner's colour, with a darker 1-pixel border
    Hatch,  ///< transparent, with an outline and diagonal lines in the corner colour
};

/// One tile of a tileset: its look and what it means.
struct TiledTile {
    /// The colour of each corner: top-left, top-right, bottom-right, bottom-left.
    std::array<Rgb, 4> corners{};
    std::string className;  ///< Tiled's Class field ("type" in the file); empty: none
    bool walkable = true;   ///< the `walkable` property
    /// The Wang colour (class index + 1) of each corner, in the order of `corners`; all 0
    /// for a tile outside the Wang set.
    std::array<std::uint8_t, 4> wangCorners{};
    TilePattern pattern = TilePattern::Fill;
};

/// A tileset of plain tiles in one row.
struct TiledTileset {
    std::string name;       ///< "terrain", "blocked"
    std::string imageFile;  ///< relative to the tileset file
    std::int64_t tilePixels = 0;
    std::vector<TiledTile> tiles;
    /// The Wang set's colours, one per class (its tile: the class's solid tile); empty: none.
    std::vector<TerrainClass> wangColours;
};

/// Tiles in the terrain tileset for `classCount` classes: one per class, and 14 per pair of
/// classes (every corner pattern of two colours) unless the image would pass
/// kMaxTerrainTilesetPixels.
std::int64_t terrainTileCount(std::int64_t classCount, std::int64_t tilePixels) noexcept;

/// The terrain tileset: tile i < class count is class i, whole, so a cell's gid is its class
/// index + firstgid; the transition tiles follow.
TiledTileset terrainTileset(const Terrain& terrain, std::int64_t tilePixels);

/// The one-tile tileset of the "blocked" layer.
TiledTileset blockedTileset(std::int64_t tilePixels);

/// The image of `tileCount` tiles: columns and rows of tiles. One row: Tiled 1.8 counts the
/// tiles from the image's size, so a padded last row would shift every later tileset's gids.
struct TilesetGrid {
    std::int64_t columns = 0;
    std::int64_t rows = 0;
};
TilesetGrid tilesetGrid(std::int64_t tileCount) noexcept;

/// The tileset's image as RGBA bytes, row-major, tiles laid out by tilesetGrid. Tiles of 4
/// pixels and more get a 1-pixel border in a darker shade so the cell grid stays visible on
/// large even areas (smaller tiles would be mostly border).
std::vector<std::uint8_t> tilesetImageRgba(const TiledTileset& tileset);

/// The darker shade of the border: three quarters of each channel.
Rgb tileBorderColour(Rgb colour) noexcept;

/// The tileset as Tiled JSON (.tsj): name, tile size, tile count, columns, image and its size,
/// per tile its Class and the property `walkable` (bool), and the Wang set.
std::string tilesetJson(const TiledTileset& tileset);

}  // namespace terragrid
