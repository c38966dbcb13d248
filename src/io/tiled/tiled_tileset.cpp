#include "io/tiled/tiled_tileset.hpp"

#include <nlohmann/json.hpp>

#include "io/tiled/tiled_wang.hpp"

namespace terragrid {

// Keys sorted (std::map), where the Tiled files of this folder built as ordered_json keep
// insertion order.
using SortedJson = nlohmann::json;

namespace {

TiledTile solidTile(const TerrainClass& c, std::size_t index) {
    const auto colour = static_cast<std::uint8_t>(index + 1);
    return {{c.colour, c.colour, c.colour, c.colour},
            c.name,
            c.walkable,
            {colour, colour, colour, colour},
            TilePattern::Fill};
}

// Which corner's quarter (x, y) of a p-pixel tile lies in: 0 top-left, 1 top-right,
// 2 bottom-right, 3 bottom-left.
std::size_t quarter(std::int64_t x, std::int64_t y, std::int64_t p) noexcept {
    const bool right = 2 * x >= p, bottom = 2 * y >= p;
    return bottom ? (right ? 2 : 3) : (right ? 1 : 0);
}

// One pixel of a tile as RGBA.
std::array<std::uint8_t, 4> tilePixel(const TiledTile& tile, std::int64_t x, std::int64_t y,
                                      std::int64_t p) {
    const bool edge = x == 0 || y == 0 || x == p - 1 || y == p - 1;
    const Rgb colour = tile.corners[quarter(x, y, p)];
    if (tile.pattern == TilePattern::Hatch) {
        // Two diagonals a half tile apart: enough to mark the cell, sparse enough that the
        // terrain's own colour still reads between them. Tiles under 4 pixels are too small
        // to hatch and are filled.
        const std::int64_t stride = p / 2;
        const bool line = p < 4 || edge || (x + y) % stride == 0;
        return {colour.r, colour.g, colour.b, static_cast<std::uint8_t>(line ? 255 : 0)};
    }
    const Rgb c = p >= 4 && edge ? tileBorderColour(colour) : colour;
    return {c.r, c.g, c.b, 255};
}

SortedJson wangSetJson(const TiledTileset& tileset) {
    SortedJson colours = SortedJson::array();
    for (std::size_t i = 0; i < tileset.wangColours.size(); ++i) {
        const TerrainClass& c = tileset.wangColours[i];
        colours.push_back({{"color", hexColour(c.colour)},
                           {"name", c.name},
                           {"probability", 1},
                           {"tile", i}});
    }
    SortedJson wangTiles = SortedJson::array();
    for (std::size_t i = 0; i < tileset.tiles.size(); ++i) {
        const auto& w = tileset.tiles[i].wangCorners;
        if (w == std::array<std::uint8_t, 4>{}) continue;
        wangTiles.push_back({{"tileid", i}, {"wangid", cornerWangId(w)}});
    }
    return {{"colors", std::move(colours)},
            {"name", tileset.name},
            {"tile", -1},
            {"type", "corner"},
            {"wangtiles", std::move(wangTiles)}};
}

}  // namespace

std::int64_t terrainTileCount(std::int64_t classCount, std::int64_t tilePixels) noexcept {
    const std::int64_t all = classCount + transitionTileCount(classCount);
    return all * tilePixels * tilePixels <= kMaxTerrainTilesetPixels ? all : classCount;
}

TiledTileset terrainTileset(const Terrain& terrain, std::int64_t tilePixels) {
    TiledTileset tileset{"terrain", std::string(kTerrainImageFile), tilePixels, {}, {}};
    const std::vector<TerrainClass>& classes = terrain.classes();
    for (std::size_t i = 0; i < classes.size(); ++i) tileset.tiles.push_back(solidTile(classes[i], i));
    const auto count = static_cast<std::int64_t>(classes.size());
    if (terrainTileCount(count, tilePixels) > count) appendTransitionTiles(classes, tileset.tiles);
    tileset.wangColours = classes;
    return tileset;
}

TiledTileset blockedTileset(std::int64_t tilePixels) {
    TiledTile tile;
    tile.corners = {kBlockedColour, kBlockedColour, kBlockedColour, kBlockedColour};
    tile.walkable = false;
    tile.pattern = TilePattern::Hatch;
    return {"blocked", std::string(kBlockedImageFile), tilePixels, {tile}, {}};
}

TilesetGrid tilesetGrid(std::int64_t tileCount) noexcept {
    return {tileCount, tileCount > 0 ? 1 : 0};
}

Rgb tileBorderColour(Rgb colour) noexcept {
    const auto darker = [](std::uint8_t v) { return static_cast<std::uint8_t>(v * 3 / 4); };
    return {darker(colour.r), darker(colour.g), darker(colour.b)};
}

std::vector<std::uint8_t> tilesetImageRgba(const TiledTileset& tileset) {
    const std::int64_t p = tileset.tilePixels;
    const TilesetGrid grid = tilesetGrid(std::ssize(tileset.tiles));
    const std::int64_t width = grid.columns * p;
    std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width * grid.rows * p * 4));  // 0: clear
    for (std::size_t i = 0; i < tileset.tiles.size(); ++i) {
        const std::int64_t x0 = static_cast<std::int64_t>(i) % grid.columns * p;
        const std::int64_t y0 = static_cast<std::int64_t>(i) / grid.columns * p;
        for (std::int64_t y = 0; y < p; ++y) {
            for (std::int64_t x = 0; x < p; ++x) {
                const auto px = tilePixel(tileset.tiles[i], x, y, p);
                std::copy(px.begin(), px.end(),
                          rgba.begin() + ((y0 + y) * width + x0 + x) * 4);
            }
        }
    }
    return rgba;
}

std::string tilesetJson(const TiledTileset& tileset) {
    SortedJson tiles = SortedJson::array();
    for (std::size_t i = 0; i < tileset.tiles.size(); ++i) {
        const TiledTile& tile = tileset.tiles[i];
        SortedJson entry = {{"id", i},
                      {"properties", SortedJson::array({{{"name", "walkable"},
                                                   {"type", "bool"},
                                                   {"value", tile.walkable}}})}};
        if (!tile.className.empty()) {
            // Tiled 1.10+ shows "type" as the tile's Class and Tiled 1.8 as its Type; Tiled 1.9
            // alone stored the Class as "class", so both are written.
            entry["type"] = tile.className;
            entry["class"] = tile.className;
        }
        tiles.push_back(std::move(entry));
    }
    const auto count = static_cast<std::int64_t>(tileset.tiles.size());
    const TilesetGrid grid = tilesetGrid(count);
    SortedJson document = {
        {"columns", grid.columns},
        {"image", tileset.imageFile},
        {"imageheight", tileset.tilePixels * grid.rows},
        {"imagewidth", tileset.tilePixels * grid.columns},
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
    if (!tileset.wangColours.empty()) {
        document["wangsets"] = SortedJson::array({wangSetJson(tileset)});
    }
    return document.dump(1) + "\n";
}

}  // namespace terragrid
