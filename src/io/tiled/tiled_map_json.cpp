#include "io/tiled/tiled_map_json.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "io/tiled/tiled_layer_data.hpp"
#include "io/tiled/tiled_tileset.hpp"

namespace terragrid {
namespace {

// Keys sorted (std::map), where the Tiled files of this folder built as ordered_json keep
// insertion order.
using SortedJson = nlohmann::json;

// Stand-ins for the layers' data while the document is built; the dumped text is cut at them.
// No other string in a map can look like this (the others are names, digits and hex).
std::string placeholder(std::size_t layer) {
    return "@terragrid-layer-data-" + std::to_string(layer) + "@";
}

// kTiledNextObjectId without its quotes.
constexpr std::string_view kNextObjectIdMarker =
    kTiledNextObjectId.substr(1, kTiledNextObjectId.size() - 2);

SortedJson property(const std::string& name, const std::string& type, SortedJson value) {
    return {{"name", name}, {"type", type}, {"value", std::move(value)}};
}

SortedJson tileLayer(std::int64_t id, const std::string& name, double opacity,
               const TiledMapInfo& info) {
    return {
        {"compression", "zlib"},
        {"data", placeholder(static_cast<std::size_t>(id - 1))},
        {"encoding", "base64"},
        {"height", info.height},
        {"id", id},
        {"name", name},
        {"opacity", opacity},
        {"type", "tilelayer"},
        {"visible", true},
        {"width", info.width},
        {"x", 0},
        {"y", 0},
    };
}

}  // namespace

std::vector<std::string> tiledMapPieces(const TiledMapInfo& info) {
    SortedJson layers = SortedJson::array({tileLayer(1, "terrain", 1.0, info)});
    // Opaque: the blocked tile itself is transparent but for its outline and hatching.
    if (info.blockedLayer) layers.push_back(tileLayer(2, "blocked", 1.0, info));
    // The water layers' whole objects go here, written when the map file is finished.
    if (info.waterLayers) layers.push_back(placeholder(layers.size()));

    // In name order, as Tiled writes them.
    SortedJson properties = SortedJson::array();
    if (info.chunk) {
        properties.push_back(property("cell_x", "int", info.chunk->col0));
        properties.push_back(property("cell_y", "int", info.chunk->row0));
        properties.push_back(property("chunk_x", "int", info.chunk->chunkX));
        properties.push_back(property("chunk_y", "int", info.chunk->chunkY));
    }
    properties.push_back(property("config_hash", "string", info.configHash));
    properties.push_back(property("noise_version", "int", info.noiseVersion));
    properties.push_back(property("seed", "string", info.seed));
    properties.push_back(property("terragrid_version", "string", info.version));

    SortedJson tilesets =
        SortedJson::array({{{"firstgid", 1}, {"source", std::string(kTerrainTilesetFile)}}});
    if (info.blockedLayer) {
        tilesets.push_back({{"firstgid", tiledBlockedGid(info.terrainTileCount)},
                            {"source", std::string(kBlockedTilesetFile)}});
    }

    const auto layerCount = static_cast<std::int64_t>(layers.size());
    const SortedJson document = {
        // Tiled uses this level when it saves the map again, so its files stay like ours.
        {"compressionlevel", kTiledZlibLevel},
        {"height", info.height},
        {"infinite", false},
        {"layers", std::move(layers)},
        // The water's one cut holds two layers.
        {"nextlayerid", layerCount + (info.waterLayers ? 2 : 1)},
        {"nextobjectid", info.waterLayers ? SortedJson(kNextObjectIdMarker) : SortedJson(1)},
        {"orientation", "orthogonal"},
        {"properties", std::move(properties)},
        {"renderorder", "right-down"},
        {"tiledversion", std::string(kTiledVersion)},
        {"tileheight", info.tilePixels},
        {"tilesets", std::move(tilesets)},
        {"tilewidth", info.tilePixels},
        {"type", "map"},
        {"version", std::string(kTiledFormatVersion)},
        {"width", info.width},
    };
    const std::string text = document.dump(1) + "\n";

    std::vector<std::string> pieces;
    std::size_t from = 0;
    for (std::size_t layer = 0; layer < static_cast<std::size_t>(layerCount); ++layer) {
        const std::string marker = placeholder(layer);
        const std::size_t at = text.find(marker, from);
        if (at == std::string::npos) {
            throw std::logic_error("tiledMapPieces: no place for the data of layer " +
                                   std::to_string(layer));
        }
        // An object layer is cut out whole, quotes and all.
        const bool objects = info.waterLayers && layer + 1 == static_cast<std::size_t>(layerCount);
        const std::size_t quote = objects ? 1 : 0;
        pieces.push_back(text.substr(from, at - quote - from));
        from = at + marker.size() + quote;
    }
    pieces.push_back(text.substr(from));
    return pieces;
}

std::string tiledNextObjectId(std::string piece, std::int64_t objects) {
    const std::size_t at = piece.find(kTiledNextObjectId);
    if (at == std::string::npos)
        throw std::logic_error("tiledNextObjectId: the map has no place for its nextobjectid");
    return piece.replace(at, kTiledNextObjectId.size(), std::to_string(objects + 1));
}

std::string tiledWorldJson(const std::vector<TiledWorldMap>& maps) {
    SortedJson entries = SortedJson::array();
    for (const TiledWorldMap& map : maps) {
        entries.push_back({{"fileName", map.fileName},
                           {"height", map.height},
                           {"width", map.width},
                           {"x", map.x},
                           {"y", map.y}});
    }
    const SortedJson document = {
        {"maps", std::move(entries)},
        // Every chunk at once: the world is one map cut for size, not rooms to walk between.
        {"onlyShowAdjacentMaps", false},
        {"type", "world"},
    };
    return document.dump(1) + "\n";
}

}  // namespace terragrid
