#pragma once
// The per-pixel loops of preview.png, height.png and the explorer's tiles (private to
// src/io/png): heights rounded to a quantum, Horn's hill shade of a row, and a row of colours
// times the shade factor rounded to bytes. Written once with Google Highway
// (preview_kernels.cpp) and compiled for every x86-64 target; HWY_DYNAMIC_DISPATCH picks the
// best one the CPU has at run time. Every lane performs the scalar reference's IEEE operations
// in the same order (HeightQuantum and shadeColour in preview.hpp, hornShade below), so every
// target gives the same bits; the tests compare each target the machine runs with the
// references (tests/preview_kernels_test.cpp).
//
// Why: a tile of the explorer paints 65536 pixels, and these loops were 40 % of its time as
// scalar code (painting 29 %, hill shade 8.5 %, rounding 3 %; docs/performance.md).

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace terragrid {
class HeightQuantum;  // preview.hpp
}

namespace terragrid::preview_kernels {

/// out[i] = quantum(meters[i]) for `count` heights (HeightQuantum::round).
void quantiseRow(const HeightQuantum& quantum, const float* meters, std::size_t count,
                 double* out);

/// Clamps to [lo, hi], sending NaN to lo (std::clamp would pass it through).
inline double clampOrLow(double value, double lo, double hi) noexcept {
    return value > lo ? (value < hi ? value : hi) : lo;
}

/// The sun as a hill shade lights a grid: a unit vector (east, south, up: rows count
/// southwards) and Horn's run, 8 pixel sizes (his weights sum to 4 per side, 2 pixels apart).
struct Light {
    double east = 0, south = 0, up = 1;
    double run = 8;
};

/// The shade on [0, 1] of pixel e from its neighbours a b c / d e f / g h i (row 0 north):
/// the reference every lane of hillshadeRow equals. The surface normal (-dzEast, -dzSouth, 1)
/// / |..| dotted with the sun: the same value as cos(zenith) cos(slope) + sin(zenith)
/// sin(slope) cos(azimuth - aspect), but with sqrt, which IEEE rounds exactly, as the only
/// function, so the picture does not depend on the platform's libm.
inline double hornShade(double a, double b, double c, double d, double f, double g, double h,
                        double i, const Light& light) noexcept {
    const double dzEast = ((c + 2.0 * f + i) - (a + 2.0 * d + g)) / light.run;
    const double dzSouth = ((g + 2.0 * h + i) - (a + 2.0 * b + c)) / light.run;
    const double lit = (light.up - dzEast * light.east - dzSouth * light.south) /
                       std::sqrt(1.0 + dzEast * dzEast + dzSouth * dzSouth);
    return clampOrLow(lit, 0.0, 1.0);
}

/// One row of a hill shade: out[x] = hornShade of column x, whose neighbours are in `above`,
/// `row` and `below` (`width` heights each; at the grid's top or bottom edge the row itself
/// stands for the missing one), the first and last column reusing their own for the missing
/// neighbour.
void hillshadeRow(const double* above, const double* row, const double* below, std::size_t width,
                  const Light& light, double* out);

/// A row of colours with channels on 0..255, unrounded, and each pixel's shade.
struct ColourRow {
    const double* r = nullptr;
    const double* g = nullptr;
    const double* b = nullptr;
    const double* shade = nullptr;
    std::size_t count = 0;
};

/// `count` pixels of `channels` bytes into `out`: shadeColour({r, g, b}, shade) (preview.hpp)
/// of every pixel, then with 4 channels an alpha of 255.
void shadeRow(const ColourRow& row, std::uint8_t* out, std::size_t channels);

}  // namespace terragrid::preview_kernels
