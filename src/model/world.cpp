// The figures a map derives from its description (terragrid/model/world.hpp).

#include "terragrid/model/world.hpp"

namespace terragrid {

std::int64_t MapConfig::wholeWidth() const noexcept { return fullWidth > 0 ? fullWidth : width; }

std::int64_t MapConfig::wholeHeight() const noexcept {
    return fullHeight > 0 ? fullHeight : height;
}

double MapConfig::wholeOriginX() const noexcept { return fullWidth > 0 ? fullOriginX : originX; }

double MapConfig::wholeOriginY() const noexcept { return fullWidth > 0 ? fullOriginY : originY; }

double MapConfig::groundCell() const noexcept {
    return groundCellSize > 0 ? groundCellSize : cellSize;
}

}  // namespace terragrid
