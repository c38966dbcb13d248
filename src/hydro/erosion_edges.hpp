#pragma once
// Open edges for the erosion model (ErosionEdges::Open): the land runs on past the map's
// border. The grid is eroded with a ring of cells around it that stands for the land beyond:
// before every step each ring cell takes the current height of the border cell beside it (at
// a corner, of the corner cell), and the ring is the base level the border drains to. Border
// cells are then uplifted, eroded and diffused like any other, so no band of the map is held at
// its initial height while the rest rises (the wall of fixed edges); a border cell with no
// lower neighbour inside drains across the border over level ground (the depression routing
// finds that way), so it is not incised: hills at the edge rise with the land, and a large
// river leaving the map keeps its valley low, its incision balancing the uplift.
//
// Why not extrapolate the border's profile outward (2 h_border - h_inside): a river running
// along the border, or a small catchment beside a large one, then lowers the ring by more than
// the border cell can follow each step, and the border digs itself down without bound (tried:
// -1.7e19 m on the rivers preset). The border's own height feeds nothing back. Private to
// src/hydro.

#include <cstdint>
#include <span>
#include <vector>

namespace terragrid::hydro::detail {

/// `values` (width x height, row-major) inside a ring of one cell: (width + 2) x (height + 2),
/// the ring set to `ring`.
template <typename T, typename A>
std::vector<T, A> withRing(const std::vector<T, A>& values, std::int32_t width, std::int32_t height,
                        T ring) {
    const std::size_t w = std::size_t(width) + 2;
    std::vector<T, A> out(w * (std::size_t(height) + 2), ring);
    for (std::int32_t y = 0; y < height; ++y)
        for (std::int32_t x = 0; x < width; ++x)
            out[(std::size_t(y) + 1) * w + std::size_t(x) + 1] =
                values[std::size_t(y) * std::size_t(width) + std::size_t(x)];
    return out;
}

/// The inside of a ringed grid (withRing's inverse).
template <typename T, typename A>
std::vector<T, A> withoutRing(const std::vector<T, A>& ringed, std::int32_t width, std::int32_t height) {
    const std::size_t w = std::size_t(width) + 2;
    std::vector<T, A> out(std::size_t(width) * std::size_t(height));
    for (std::int32_t y = 0; y < height; ++y)
        for (std::int32_t x = 0; x < width; ++x)
            out[std::size_t(y) * std::size_t(width) + std::size_t(x)] =
                ringed[(std::size_t(y) + 1) * w + std::size_t(x) + 1];
    return out;
}

/// Sets each ring cell of `h` ((width + 2) x (height + 2), the map's width and height given) to
/// the height of the map cell beside it (the corner cell's at the corners).
void levelRing(std::span<double> h, std::int32_t width, std::int32_t height);

}  // namespace terragrid::hydro::detail
