#include "io/tiled_tileset.hpp"

#include <nlohmann/json.hpp>

namespace terragrid {

using Json = nlohmann::json;

TiledTileset terrainTileset(const Terrain& terrain, std::int64_t tilePixels) {
    TiledTileset tileset{"terrain", std::string(kTerrainImageFile), tilePixels, {}};
    for (const TerrainClass& c : terrain.classes()) {
        tileset.tiles.push_back({c.colour, c.name, c.walkable});
    }
    return tileset;
}

TiledTileset blockedTileset(std::int64_t tilePixels) {
    return {"blocked", std::string(kBlockedImageFile), tilePixels, {{kBlockedColour, "", false}}};
}

Rgb tileBorderColour(Rgb colour) noexcept {
    const auto darker = [](std::uint8_t v) { return static_cast<std::uint8_t>(v * 3 / 4); };
    return {darker(colour.r), darker(colour.g), darker(colour.b)};
}

std::vector<std::uint8_t> tilesetImageRgb(const TiledTileset& tileset) {
    const auto p = static_cast<std::size_t>(tileset.tilePixels);
    const std::size_t width = p * tileset.tiles.size();
    const bool bordered = p >= 4;
    std::vector<std::uint8_t> rgb(width * p * 3);
    for (std::size_t y = 0; y < p; ++y) {
        for (std::size_t x = 0; x < width; ++x) {
            const std::size_t inTile = x % p;
            const bool border =
                bordered && (y == 0 || y == p - 1 || inTile == 0 || inTile == p - 1);
            const Rgb fill = tileset.tiles[x / p].colour;
            const Rgb c = border ? tileBorderColour(fill) : fill;
            std::uint8_t* out = &rgb[(y * width + x) * 3];
            out[0] = c.r;
            out[1] = c.g;
            out[2] = c.b;
        }
    }
    return rgb;
}

std::string tilesetJson(const TiledTileset& tileset) {
    Json tiles = Json::array();
    for (std::size_t i = 0; i < tileset.tiles.size(); ++i) {
        const TiledTile& tile = tileset.tiles[i];
        Json properties = Json::array();
        if (!tile.className.empty()) {
            properties.push_back(
                {{"name", "class"}, {"type", "string"}, {"value", tile.className}});
        }
        properties.push_back({{"name", "walkable"}, {"type", "bool"}, {"value", tile.walkable}});
        tiles.push_back({{"id", i}, {"properties", std::move(properties)}});
    }
    const auto count = static_cast<std::int64_t>(tileset.tiles.size());
    const Json document = {
        {"columns", count},
        {"image", tileset.imageFile},
        {"imageheight", tileset.tilePixels},
        {"imagewidth", tileset.tilePixels * count},
        {"margin", 0},
        {"name", tileset.name},
        {"spacing", 0},
        {"tilecount", count},
        {"tiledversion", std::string(kTiledVersion)},
        {"tileheight", tileset.tilePixels},
        {"tiles", std::move(tiles)},
        {"tilewidth", tileset.tilePixels},
        {"type", "tileset"},
        {"version", std::string(kTiledFormatVersion)},
    };
    return document.dump(1) + "\n";
}

}  // namespace terragrid
