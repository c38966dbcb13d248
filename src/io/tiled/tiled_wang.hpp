#pragma once
// The corner Wang set of the terrain tileset ("terrain set" in Tiled's editor): with a tile for
// every pattern of two classes over a tile's four corners, Tiled's terrain brush can paint a
// class and draw the borders with its neighbours itself.

#include <array>
#include <cstdint>
#include <vector>

#include "io/tiled/tiled_tileset.hpp"

namespace terragrid {

/// The transition tiles for `classCount` classes: 14 per pair of classes (the 16 patterns of
/// two colours over four corners, less the two solid ones, which are the classes' own tiles).
std::int64_t transitionTileCount(std::int64_t classCount) noexcept;

/// Appends the transition tiles to `tiles`, pair by pair in class order (a < b), each pair's
/// patterns in the order of a 4-bit mask whose bit i gives corner i class b.
void appendTransitionTiles(const std::vector<TerrainClass>& classes,
                           std::vector<TiledTile>& tiles);

/// Tiled's wangid of a corner tile: eight colours clockwise from the top edge (top, top-right,
/// right, bottom-right, bottom, bottom-left, left, top-left), edges 0 in a corner set.
/// `corners` are top-left, top-right, bottom-right, bottom-left.
std::array<std::uint8_t, 8> cornerWangId(const std::array<std::uint8_t, 4>& corners) noexcept;

}  // namespace terragrid
