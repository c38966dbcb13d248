// 4D Perlin and simplex noise: the base of tileable maps, where x walks a circle in (x, z) and
// y a circle in (y, w), so both edges meet without a seam (README "Tileable maps").
//
// Both use the 32 gradients of Gustavson's 4D set: one coordinate 0, the other three +-1.
//
// Scales. With a gradient per corner chosen to point at the sample, the best a corner can give
// is the sum of the three largest |d_i| of its offset d, and the fade / kernel weights are
// non-negative, so the largest |noise| is the maximum over the cell of the weighted sum of
// those best values; found numerically (3 million random points of the cell, then hill
// climbing from the best; for simplex also from 20000 random starts):
//   Perlin: 1.5 at the cell centre, but more off it, depending on the fade: 1.56531 (linear),
//     1.54520 (cubic), 1.53658 (quintic); kPerlin4Max rounds each up, so the maximum maps to
//     about 0.99998.
//   Simplex, radius^2 = 0.5: at most 0.0159292; kSimplex4Scale = 62.77 maps it onto 0.99988.

#include "terragrid/noise/noise.hpp"

#include "noise/lattice.hpp"
#include "noise/noise4d_constants.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace terragrid {

namespace {

using lattice::lerp;
using lattice::split;

using namespace noise4d;

/// Gradient (hash & 31) dotted with (x, y, z, w): axis (hash >> 3) & 3 is 0, bits 2, 1, 0 negate
/// the other three in order.
double grad4(std::uint32_t hash, double x, double y, double z, double w) noexcept {
    const std::uint32_t g = hash & 31u;
    const std::uint32_t zero = g >> 3;
    const std::array<double, 4> d{x, y, z, w};
    std::array<double, 3> rest{};
    for (std::uint32_t axis = 0, n = 0; axis < 4; ++axis)
        if (axis != zero) rest[n++] = d[axis];
    const double a = (g & 4u) != 0 ? -rest[0] : rest[0];
    const double b = (g & 2u) != 0 ? -rest[1] : rest[1];
    const double c = (g & 1u) != 0 ? -rest[2] : rest[2];
    return a + b + c;
}

double corner4(std::uint32_t hash, double x, double y, double z, double w) noexcept {
    const double t = kRadius2 - x * x - y * y - z * z - w * w;
    if (t <= 0.0) return 0.0;
    const double t2 = t * t;
    return t2 * t2 * grad4(hash, x, y, z, w);
}

}  // namespace

double perlinNoise(double x, double y, double z, double w, FadeCurve f,
                   const LatticeHash& h) noexcept {
    const lattice::Coord c[4] = {split(x), split(y), split(z), split(w)};
    const double fade0 = fade(f, c[0].frac);
    const double fade1 = fade(f, c[1].frac);
    const double fade2 = fade(f, c[2].frac);
    const double fade3 = fade(f, c[3].frac);
    // The corner (a, b, e, g) in {0, 1}^4 of the cell: its gradient dotted with the offset.
    auto corner = [&](int a, int b, int e, int g) {
        return grad4(h(c[0].index + a, c[1].index + b, c[2].index + e, c[3].index + g),
                     c[0].frac - a, c[1].frac - b, c[2].frac - e, c[3].frac - g);
    };
    // Blended along x, then y, z, w (the 3D form's nesting, one level deeper).
    auto face = [&](int e, int g) {
        return lerp(fade1, lerp(fade0, corner(0, 0, e, g), corner(1, 0, e, g)),
                    lerp(fade0, corner(0, 1, e, g), corner(1, 1, e, g)));
    };
    const double nearW = lerp(fade2, face(0, 0), face(1, 0));
    const double farW = lerp(fade2, face(0, 1), face(1, 1));
    const double scale = 1.0 / kPerlin4Max[static_cast<std::size_t>(f)];
    return std::clamp(scale * lerp(fade3, nearW, farW), -1.0, 1.0);
}

double simplexNoise(double x, double y, double z, double w, const LatticeHash& h) noexcept {
    // Skew to find the cell, unskew its origin back to get the offset to the first corner.
    const double s = (x + y + z + w) * kF4;
    const std::int64_t i = split(x + s).index;
    const std::int64_t j = split(y + s).index;
    const std::int64_t k = split(z + s).index;
    const std::int64_t l = split(w + s).index;
    const double t = static_cast<double>(i + j + k + l) * kG4;
    const std::array<double, 4> d0{x - (static_cast<double>(i) - t),
                                   y - (static_cast<double>(j) - t),
                                   z - (static_cast<double>(k) - t),
                                   w - (static_cast<double>(l) - t)};
    // Which of the 24 simplexes of the skewed cube: the rank of each offset among the four
    // (3 for the largest) says after how many steps that axis is incremented.
    std::array<int, 4> rank{};
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) ++rank[d0[a] > d0[b] ? a : b];
    const std::array<std::int64_t, 4> base{i, j, k, l};
    double n = 0.0;
    for (int step = 0; step <= 4; ++step) {
        // Corner `step`: the axes of rank >= 4 - step are incremented.
        std::array<std::int64_t, 4> at{};
        std::array<double, 4> d{};
        for (int a = 0; a < 4; ++a) {
            const int inc = rank[a] >= 4 - step ? 1 : 0;
            at[a] = base[a] + inc;
            d[a] = d0[a] - inc + step * kG4;
        }
        n += corner4(h(at[0], at[1], at[2], at[3]), d[0], d[1], d[2], d[3]);
    }
    return std::clamp(kSimplex4Scale * n, -1.0, 1.0);
}

}  // namespace terragrid
