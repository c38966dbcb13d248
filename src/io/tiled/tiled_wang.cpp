#include "io/tiled/tiled_wang.hpp"

namespace terragrid {

namespace {
constexpr int kPatternsPerPair = 14;  // 2^4 corner patterns less the two solid ones
}

std::int64_t transitionTileCount(std::int64_t classCount) noexcept {
    return kPatternsPerPair * (classCount * (classCount - 1) / 2);
}

void appendTransitionTiles(const std::vector<TerrainClass>& classes,
                           std::vector<TiledTile>& tiles) {
    for (std::size_t a = 0; a < classes.size(); ++a) {
        for (std::size_t b = a + 1; b < classes.size(); ++b) {
            for (unsigned mask = 1; mask <= kPatternsPerPair; ++mask) {
                TiledTile tile;
                tile.walkable = classes[a].walkable && classes[b].walkable;
                for (std::size_t corner = 0; corner < 4; ++corner) {
                    const std::size_t c = (mask >> corner & 1U) != 0 ? b : a;
                    tile.corners[corner] = classes[c].colour;
                    tile.wangCorners[corner] = static_cast<std::uint8_t>(c + 1);
                }
                tiles.push_back(tile);
            }
        }
    }
}

std::array<std::uint8_t, 8> cornerWangId(const std::array<std::uint8_t, 4>& corners) noexcept {
    const auto [topLeft, topRight, bottomRight, bottomLeft] = corners;
    return {0, topRight, 0, bottomRight, 0, bottomLeft, 0, topLeft};
}

}  // namespace terragrid
