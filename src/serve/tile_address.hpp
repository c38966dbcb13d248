#pragma once
// Where an explorer tile lies: its layer, zoom and column/row in the map's own pyramid, and
// the strict parse of its URL path. Private to src/serve.
//
// The pyramid is the map's own grid (design.md, "Serving tiles"): at the highest zoom one map
// cell per pixel, each lower zoom every 2^k-th cell, tile (0, 0) at the map's north-west
// corner, 256 x 256 pixels a tile.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace terragrid::serve {

inline constexpr std::int64_t kTilePixels = 256;

/// What a tile shows.
enum class TileLayer : std::uint8_t {
    Preview,    ///< class colours, hill-shaded: preview.png's pixels
    Height,     ///< the height ramp, hill-shaded: height.png's pixels
    Classes,    ///< the class colours alone (classes.tif's palette)
    Walkable,   ///< an overlay: cells no one can walk on, in red; walkable ones transparent
    Water,      ///< an overlay: the hydrology stage's lakes, sea and rivers (hydrology only)
    Terrarium,  ///< heights as Terrarium RGB, for 3D web maps
    Last = Terrarium
};
inline constexpr std::array<std::string_view, 6> kTileLayerNames{
    "preview", "height", "classes", "walkable", "water", "terrarium"};
static_assert(kTileLayerNames.size() == std::size_t(TileLayer::Last) + 1);

std::optional<TileLayer> tileLayerNamed(std::string_view name) noexcept;
std::string_view nameOf(TileLayer layer) noexcept;

struct TileAddress {
    TileLayer layer = TileLayer::Preview;
    int zoom = 0;
    std::int64_t x = 0;
    std::int64_t y = 0;
};

/// The zoom levels of a width x height map: maxZoom shows one cell per pixel, the smallest
/// zoom with the whole map in one tile is 0.
class TilePyramid {
public:
    TilePyramid(std::int64_t mapWidth, std::int64_t mapHeight);

    int maxZoom() const noexcept { return m_maxZoom; }
    std::int64_t mapWidth() const noexcept { return m_width; }
    std::int64_t mapHeight() const noexcept { return m_height; }
    /// Map cells per pixel at `zoom`: 2^(maxZoom - zoom).
    std::int64_t step(int zoom) const noexcept { return std::int64_t{1} << (m_maxZoom - zoom); }
    /// Pixels across and down the map at `zoom`: ceil(size / step).
    std::int64_t pixelsAcross(int zoom) const noexcept;
    std::int64_t pixelsDown(int zoom) const noexcept;
    /// Tiles across and down at `zoom` with at least one pixel of the map.
    std::int64_t tilesAcross(int zoom) const noexcept;
    std::int64_t tilesDown(int zoom) const noexcept;
    /// The cell a pixel of `zoom` shows along an axis of `cells` cells: the centre cell of
    /// the pixel's block, pixel * step + step / 2, clipped to the map (preview.png's rule for
    /// a pixel's class).
    std::int64_t centreCell(std::int64_t pixel, int zoom, std::int64_t cells) const noexcept;
    /// Whether `address` names a tile with at least one pixel of the map.
    bool contains(const TileAddress& address) const noexcept;

private:
    std::int64_t m_width;
    std::int64_t m_height;
    int m_maxZoom;
};

/// A request for a tile, or why it is not one.
struct TilePathResult {
    std::optional<TileAddress> address;
    int status = 0;       ///< with no address: 400 (malformed) or 404 (no such layer)
    std::string message;  ///< with no address: the reason, naming the part of the path
};

/// Parses `path` below "/tiles/" ("preview/3/1/2.png"): a known layer name, then zoom, x and
/// y as plain decimal digits (no sign, no leading '+', at most 18 digits, so 2^62 and other
/// huge numbers are refused as out of range before any arithmetic), then ".png". Nothing else
/// is accepted: no percent escapes, no empty or extra segments, no "..". Whether the tile is in
/// the map's pyramid is the caller's question (TilePyramid::contains).
TilePathResult parseTilePath(std::string_view path);

}  // namespace terragrid::serve
