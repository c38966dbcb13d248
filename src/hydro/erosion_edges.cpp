#include "hydro/erosion_edges.hpp"

#include <algorithm>

namespace terragrid::hydro::detail {

void levelRing(std::span<double> h, std::int32_t width, std::int32_t height) {
    const std::int64_t w = std::int64_t(width) + 2;
    const auto at = [&](std::int64_t x, std::int64_t y) -> double& { return h[std::size_t(y * w + x)]; };
    // Ring cell (x, y) takes the map cell nearest it, clamped into the map.
    const auto copy = [&](std::int64_t x, std::int64_t y) {
        at(x, y) = at(std::clamp<std::int64_t>(x, 1, width), std::clamp<std::int64_t>(y, 1, height));
    };
    for (std::int64_t x = 0; x <= width + 1; ++x) {
        copy(x, 0);
        copy(x, height + 1);
    }
    for (std::int64_t y = 1; y <= height; ++y) {
        copy(0, y);
        copy(width + 1, y);
    }
}

}  // namespace terragrid::hydro::detail
