#pragma once
// The tilesets of the Tiled export: terrain.tsj + terrain.png (one tile per terrain class) and
// blocked.tsj + blocked.png (one tile marking cells that cannot be walked on). External
// tilesets (.tsj beside the map) rather than embedded ones, so chunk maps share one tileset
// and an engine or a designer can restyle every map by editing one file.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// The Tiled JSON format version (and the Tiled release) the files are written for, and
/// checked against by tests/tools/tiled_tool_test.cpp.
inline constexpr std::string_view kTiledFormatVersion = "1.8";
inline constexpr std::string_view kTiledVersion = "1.8.2";

inline constexpr std::string_view kTerrainTilesetFile = "terrain.tsj";
inline constexpr std::string_view kTerrainImageFile = "terrain.png";
inline constexpr std::string_view kBlockedTilesetFile = "blocked.tsj";
inline constexpr std::string_view kBlockedImageFile = "blocked.png";

/// The colour of the blocked tile. Opaque, because the PNG writer writes RGB only; the
/// "blocked" layer is drawn at kBlockedLayerOpacity instead, which Tiled and most engines
/// honour, so the terrain shows through.
inline constexpr Rgb kBlockedColour{220, 30, 30};
inline constexpr double kBlockedLayerOpacity = 0.5;

/// One tile of a tileset: its colour and what it means.
struct TiledTile {
    Rgb colour;
    std::string className;  ///< the `class` property; empty: none
    bool walkable = true;   ///< the `walkable` property
};

/// A tileset of plain coloured tiles in one row.
struct TiledTileset {
    std::string name;       ///< "terrain", "blocked"
    std::string imageFile;  ///< relative to the tileset file
    std::int64_t tilePixels = 0;
    std::vector<TiledTile> tiles;
};

/// The terrain tileset: tile i is class i, so a cell's gid is its class index + firstgid.
TiledTileset terrainTileset(const Terrain& terrain, std::int64_t tilePixels);

/// The one-tile tileset of the "blocked" layer.
TiledTileset blockedTileset(std::int64_t tilePixels);

/// The tileset's image as RGB bytes, row-major: tilePixels high, tilePixels x tile count wide.
/// Each tile is filled with its colour; tiles of 4 pixels and more get a 1-pixel border in a
/// darker shade so the cell grid stays visible on large even areas (smaller tiles would be
/// mostly border).
std::vector<std::uint8_t> tilesetImageRgb(const TiledTileset& tileset);

/// The darker shade of the border: three quarters of each channel.
Rgb tileBorderColour(Rgb colour) noexcept;

/// The tileset as Tiled JSON (.tsj): name, tile size, tile count, columns, image and its size,
/// and per tile the properties `class` (string) and `walkable` (bool).
std::string tilesetJson(const TiledTileset& tileset);

}  // namespace terragrid
