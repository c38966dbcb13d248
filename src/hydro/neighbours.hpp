#pragma once
// The 8 neighbours of a cell (D8), in one fixed order: every tie between neighbours is broken
// by this order, so results never depend on anything but the grid.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "terragrid/hydro/grid.hpp"

namespace terragrid::hydro::detail {

/// Row-major: NW, N, NE, W, E, SW, S, SE.
inline constexpr int kDx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
inline constexpr int kDy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
/// 1 / length of the step to each neighbour, in cells.
inline constexpr double kInvDistance[8] = {0.70710678118654752440, 1, 0.70710678118654752440, 1,
                                           1, 0.70710678118654752440, 1, 0.70710678118654752440};

/// The grid's shape, with the neighbour offsets as index steps.
struct Shape {
    std::int32_t width, height;
    std::int64_t offset[8];
    /// ceil(2^64 / width): i / width is (i * m) >> 64 exactly for every 32-bit i and width >= 2
    /// (Lemire, Kaser & Kurz 2019), a multiplication instead of a division in the hot loops.
    /// Width 1 wraps to 0 and is handled apart.
    std::uint64_t widthMagic;

    Shape(std::int32_t w, std::int32_t h)
        : width(w), height(h), widthMagic(~std::uint64_t{0} / static_cast<std::uint64_t>(w) + 1) {
        for (int k = 0; k < 8; ++k) offset[k] = std::int64_t{kDy[k]} * w + kDx[k];
    }

    /// The row of cell i.
    std::int32_t rowOf(std::uint32_t i) const {
        __extension__ using Wide = unsigned __int128;
        if (width == 1) return static_cast<std::int32_t>(i);
        return static_cast<std::int32_t>((static_cast<Wide>(widthMagic) * i) >> 64);
    }
    std::size_t cells() const { return static_cast<std::size_t>(width) * static_cast<std::size_t>(height); }
    bool onBorder(std::int32_t x, std::int32_t y) const {
        return x == 0 || y == 0 || x == width - 1 || y == height - 1;
    }
    bool onBorder(std::uint32_t i) const {
        const std::int32_t y = rowOf(i);
        return onBorder(static_cast<std::int32_t>(i - static_cast<std::uint32_t>(y) * static_cast<std::uint32_t>(width)), y);
    }

    /// Calls f(k, neighbourIndex) for each neighbour of cell (x, y) inside the grid, in order.
    template <class F>
    void forEachNeighbour(std::int32_t x, std::int32_t y, F&& f) const {
        const std::int64_t i = std::int64_t{y} * width + x;
        if (!onBorder(x, y)) {
            for (int k = 0; k < 8; ++k) f(k, static_cast<std::uint32_t>(i + offset[k]));
            return;
        }
        for (int k = 0; k < 8; ++k) {
            const std::int32_t nx = x + kDx[k], ny = y + kDy[k];
            if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
            f(k, static_cast<std::uint32_t>(i + offset[k]));
        }
    }
    /// Same, for the neighbours in rows [y0, y1) only (a strip of the grid).
    template <class F>
    void forEachNeighbourInRows(std::int32_t x, std::int32_t y, std::int32_t y0, std::int32_t y1,
                                F&& f) const {
        const std::int64_t i = std::int64_t{y} * width + x;
        if (x > 0 && x < width - 1 && y > y0 && y < y1 - 1) {
            for (int k = 0; k < 8; ++k) f(k, static_cast<std::uint32_t>(i + offset[k]));
            return;
        }
        for (int k = 0; k < 8; ++k) {
            const std::int32_t nx = x + kDx[k], ny = y + kDy[k];
            if (nx < 0 || ny < y0 || nx >= width || ny >= y1) continue;
            f(k, static_cast<std::uint32_t>(i + offset[k]));
        }
    }
    template <class F>
    void forEachNeighbour(std::uint32_t i, F&& f) const {
        const std::int32_t y = rowOf(i);
        forEachNeighbour(static_cast<std::int32_t>(i - static_cast<std::uint32_t>(y) * static_cast<std::uint32_t>(width)), y, f);
    }
};

/// Throws std::invalid_argument unless the grid is non-empty, its cells fit a uint32 index
/// (below kNoReceiver, which is reserved) and z has one value per cell.
inline Shape checkedShape(const Grid& grid, const char* function) {
    const auto cells = static_cast<std::uint64_t>(grid.width < 0 ? 0 : grid.width) *
                       static_cast<std::uint64_t>(grid.height < 0 ? 0 : grid.height);
    if (grid.width <= 0 || grid.height <= 0 || cells >= 0xFFFFFFF0u || grid.z.size() != cells)
        throw std::invalid_argument(std::string(function) + ": the grid must have 1 to 2^32 - 16 cells and one height per cell (got " +
                                    std::to_string(grid.width) + " x " + std::to_string(grid.height) + ", " +
                                    std::to_string(grid.z.size()) + " heights)");
    return Shape(grid.width, grid.height);
}

/// Whether cell i (height h) is an outlet.
inline bool isOutlet(const Shape& shape, const Outlets& outlets, std::uint32_t i, float h) {
    return (outlets.seaLevel && h <= *outlets.seaLevel) || (outlets.edges && shape.onBorder(i));
}

}  // namespace terragrid::hydro::detail
