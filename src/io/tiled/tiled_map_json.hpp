#pragma once
// The JSON documents of the Tiled export around the tile data: a map (.tmj) with holes where
// its layers' data go, and the world (.world) that places chunk maps side by side.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "terragrid/model/terrain.hpp"

namespace terragrid {

/// Where a chunk map lies in the whole map: its chunk indices and its top-left cell.
struct TiledChunkPlace {
    std::int64_t chunkX = 0;
    std::int64_t chunkY = 0;
    std::int64_t col0 = 0;
    std::int64_t row0 = 0;
};

/// What a map file says besides its tile data.
struct TiledMapInfo {
    std::int64_t width = 0;   ///< tiles (cells) across
    std::int64_t height = 0;  ///< tiles (cells) down
    std::int64_t tilePixels = 0;
    std::int64_t terrainTileCount = 0;  ///< tiles in the terrain tileset
    bool blockedLayer = false;    ///< a second layer, "blocked", with the blocked tileset
    /// Object layers "lakes" and "rivers" after the tile layers (with hydrology).
    bool waterLayers = false;
    Rgb lakeColour;   ///< the lake layer's colour
    Rgb riverColour;  ///< the river layer's colour
    std::string seed;             ///< the map properties: text, as Tiled's ints are 32-bit
    std::string configHash;
    std::string version;
    int noiseVersion = 0;  ///< the map's noise_version
    std::optional<TiledChunkPlace> chunk;  ///< set for the chunks of a split map
};

/// The gid of the blocked tile: the blocked tileset comes after the terrain tileset's
/// terrainTileCount tiles, whose gids are 1..terrainTileCount.
inline std::uint32_t tiledBlockedGid(std::int64_t terrainTileCount) noexcept {
    return static_cast<std::uint32_t>(terrainTileCount + 1);
}

/// The map as Tiled JSON cut where the layers' data go: the file is pieces[0], the base64 text
/// of layer 0 ("terrain"), pieces[1], the text of layer 1 ("blocked", when there is one), and
/// the last piece; with info.waterLayers the last cut is where the two object layers go
/// (TiledLakes::writeLayer, a comma, TiledRivers::writeLayer: two elements of the layers
/// array), cut out like the data but without quotes around it, and the last piece holds
/// kTiledNextObjectId where the map's nextobjectid goes (replace it with the layers' object
/// count + 1: tiledNextObjectId). The quotes around the data are in the pieces. Orthogonal, right-down,
/// finite, one tile per cell; the layers declare "encoding": "base64" and "compression": "zlib".
/// Map properties: seed, config_hash and terragrid_version as strings, noise_version an int; for a chunk also
/// chunk_x, chunk_y (which chunk) and cell_x, cell_y (its top-left cell in the whole map).
std::vector<std::string> tiledMapPieces(const TiledMapInfo& info);

/// Stands for the map's nextobjectid in the last piece of a map with a river layer.
inline constexpr std::string_view kTiledNextObjectId = "\"@terragrid-next-object-id@\"";

/// `piece` with kTiledNextObjectId replaced by `objects` + 1. Throws std::logic_error when the
/// piece has no such place.
std::string tiledNextObjectId(std::string piece, std::int64_t objects);

/// The layer id of the lake layer, after the tile layers; the river layer's is the next.
inline std::int64_t tiledLakeLayerId(const TiledMapInfo& info) noexcept {
    return info.blockedLayer ? 3 : 2;
}

/// One map of a world, in pixels.
struct TiledWorldMap {
    std::string fileName;  ///< relative to the .world file
    std::int64_t x = 0;
    std::int64_t y = 0;
    std::int64_t width = 0;
    std::int64_t height = 0;
};

/// A Tiled world (.world): {"maps": [...], "onlyShowAdjacentMaps": false, "type": "world"}.
std::string tiledWorldJson(const std::vector<TiledWorldMap>& maps);

}  // namespace terragrid
