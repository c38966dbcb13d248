#include "serve/tile_address.hpp"

#include <algorithm>

#include "model/ceil_div.hpp"

namespace terragrid::serve {
namespace {

/// Plain decimal digits, at most 18 (below 10^18 < 2^63): nullopt otherwise.
std::optional<std::int64_t> parseIndex(std::string_view text) {
    if (text.empty() || text.size() > 18) return std::nullopt;
    std::int64_t value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

}  // namespace

std::optional<TileLayer> tileLayerNamed(std::string_view name) noexcept {
    for (std::size_t i = 0; i < kTileLayerNames.size(); ++i)
        if (kTileLayerNames[i] == name) return static_cast<TileLayer>(i);
    return std::nullopt;
}

std::string_view nameOf(TileLayer layer) noexcept {
    return kTileLayerNames[static_cast<std::size_t>(layer)];
}

TilePyramid::TilePyramid(std::int64_t mapWidth, std::int64_t mapHeight)
    : m_width(mapWidth), m_height(mapHeight), m_maxZoom(0) {
    // The smallest zoom count whose lowest level fits the longer side in one tile.
    const std::int64_t longer = std::max(mapWidth, mapHeight);
    while ((kTilePixels << m_maxZoom) < longer) ++m_maxZoom;
}

std::int64_t TilePyramid::pixelsAcross(int zoom) const noexcept {
    return ceilDiv(m_width, step(zoom));
}

std::int64_t TilePyramid::pixelsDown(int zoom) const noexcept {
    return ceilDiv(m_height, step(zoom));
}

std::int64_t TilePyramid::tilesAcross(int zoom) const noexcept {
    return ceilDiv(pixelsAcross(zoom), kTilePixels);
}

std::int64_t TilePyramid::tilesDown(int zoom) const noexcept {
    return ceilDiv(pixelsDown(zoom), kTilePixels);
}

std::int64_t TilePyramid::centreCell(std::int64_t pixel, int zoom,
                                     std::int64_t cells) const noexcept {
    const std::int64_t s = step(zoom);
    return std::min(pixel * s + s / 2, cells - 1);
}

bool TilePyramid::contains(const TileAddress& a) const noexcept {
    return a.zoom >= 0 && a.zoom <= m_maxZoom && a.x >= 0 && a.y >= 0 &&
           a.x < tilesAcross(a.zoom) && a.y < tilesDown(a.zoom);
}

TilePathResult parseTilePath(std::string_view path) {
    TilePathResult result;
    const auto fail = [&](int status, std::string message) {
        result.status = status;
        result.message = std::move(message);
        return result;
    };
    std::string_view parts[4];
    std::size_t count = 0;
    std::string_view rest = path;
    while (!rest.empty()) {
        const auto slash = rest.find('/');
        const std::string_view part = rest.substr(0, slash);
        if (count == 4) return fail(400, "a tile path is /tiles/LAYER/Z/X/Y.png (too many parts)");
        parts[count++] = part;
        if (slash == std::string_view::npos) break;
        rest = rest.substr(slash + 1);
        if (rest.empty()) return fail(400, "a tile path is /tiles/LAYER/Z/X/Y.png (empty part)");
    }
    if (count != 4) return fail(400, "a tile path is /tiles/LAYER/Z/X/Y.png");
    const auto layer = tileLayerNamed(parts[0]);
    if (!layer) {
        std::string names;
        for (const auto name : kTileLayerNames) names += (names.empty() ? "" : ", ") + std::string(name);
        return fail(404, "no tile layer '" + std::string(parts[0].substr(0, 40)) +
                             "' (layers: " + names + ")");
    }
    std::string_view last = parts[3];
    if (last.size() < 4 || last.substr(last.size() - 4) != ".png")
        return fail(400, "a tile path ends in Y.png");
    last.remove_suffix(4);
    const auto zoom = parseIndex(parts[1]);
    const auto x = parseIndex(parts[2]);
    const auto y = parseIndex(last);
    if (!zoom || !x || !y)
        return fail(400, "tile zoom, x and y must be whole numbers from 0 (at most 18 digits)");
    if (*zoom > 62) return fail(404, "no zoom " + std::to_string(*zoom) + " in this map");
    result.address = TileAddress{*layer, static_cast<int>(*zoom), *x, *y};
    return result;
}

}  // namespace terragrid::serve
