#pragma once
// An explorer tile from the batch pictures' own functions (design.md principle 9): the cells
// through generateCells (the rows, classes and hydrology rule of every run), heights rounded
// and hill-shaded as preview.png's, colours from the same PreviewPainter, rivers widened by
// the same rule, the PNG from the same encoder. Only the set of cells differs: every
// 2^k-th cell centre at zoom maxZoom - k, so a tile costs the same at every zoom. At the
// highest zoom a tile is, pixel for pixel, the batch picture at one pixel per cell.
// Private to src/serve.

#include <cstdint>
#include <vector>

#include "serve/explored_map.hpp"
#include "serve/tile_address.hpp"

namespace terragrid::serve {

/// The tile's pixels, 256 x 256 RGBA (row-major, not premultiplied): pixels outside the map
/// transparent (Terrarium: opaque, at the elevation range's minimum). `water` is the map's
/// water (null: without, as before its stage is done); TileLayer::Water needs it.
/// Preconditions: map.pyramid().contains(address); water for TileLayer::Water.
/// Thread-safe; runs on the calling thread alone (its hill shade in a one-thread arena).
std::vector<std::uint8_t> renderTileRgba(const ExploredMap& map, const MapWater* water,
                                         const TileAddress& address);

/// The tile as a PNG: RGB when every pixel is opaque (terrarium tiles always, the other layers
/// inside the map), else RGBA.
std::vector<std::uint8_t> renderTilePng(const ExploredMap& map, const MapWater* water,
                                        const TileAddress& address);

/// Terrarium's encoding of `meters`: red * 256 + green + blue / 256 - 32768, the value
/// rounded down to 1/256 m and clamped to what the three bytes hold.
std::array<std::uint8_t, 3> terrariumRgb(double meters) noexcept;

}  // namespace terragrid::serve
