// Version 4's 3D and 4D value, Perlin and simplex noise in float: the scalar reference the rows
// of planets and tileable maps (curved_v4_rows.cpp) repeat lane by lane (curved_v4.hpp says
// what the two share and why).

#include "noise/curved_v4.hpp"

#include <cassert>
#include <cmath>

#include "noise/lattice.hpp"

namespace terragrid::curved_v4 {

namespace {

using lattice::FloatCoord;
using lattice::splitFloat;
using Index = std::array<std::int64_t, 4>;

/// The hash input of the corner `origin + step` (step_d in {0, 1}).
std::uint32_t cornerInput(const LatticeHash& h, const Index& origin, const Index& step, int dims) {
    Index at{};
    for (std::size_t d = 0; d < 4; ++d) at[d] = origin[d] + step[d];
    return input(h, at, dims);
}

/// 3D value (kValue) or Perlin noise: the corners blended along x, then y, then z.
template <bool kValue>
float lattice3(FadeCurve f, const std::array<double, 4>& u, const LatticeHash& h) {
    const FloatCoord c[3] = {splitFloat(u[0]), splitFloat(u[1]), splitFloat(u[2])};
    const Index origin{c[0].index, c[1].index, c[2].index, 0};
    const float fx = fade(f, c[0].frac);
    const float fy = fade(f, c[1].frac);
    const float fz = fade(f, c[2].frac);
    const auto corner = [&](int a, int b, int e) {
        const std::uint32_t in = cornerInput(h, origin, {a, b, e, 0}, 3);
        if constexpr (kValue)
            return std::fma(static_cast<float>(mixed(in) >> 8), kValueScale, -1.0f);
        // The offset from the corner: the fraction, less 1 along the axes stepped on.
        return dot3(gradient(in), a != 0 ? c[0].frac - 1.0f : c[0].frac,
                    b != 0 ? c[1].frac - 1.0f : c[1].frac, e != 0 ? c[2].frac - 1.0f : c[2].frac);
    };
    const auto face = [&](int e) {
        return lerp(fy, lerp(fx, corner(0, 0, e), corner(1, 0, e)),
                    lerp(fx, corner(0, 1, e), corner(1, 1, e)));
    };
    return lerp(fz, face(0), face(1));
}

/// 4D Perlin noise: blended along x, y, z, then w, and scaled onto about [-1, 1].
float perlin4(FadeCurve f, const std::array<double, 4>& u, const LatticeHash& h) {
    const FloatCoord c[4] = {splitFloat(u[0]), splitFloat(u[1]), splitFloat(u[2]), splitFloat(u[3])};
    const Index origin{c[0].index, c[1].index, c[2].index, c[3].index};
    float fd[4];
    for (int d = 0; d < 4; ++d) fd[d] = fade(f, c[d].frac);
    const auto offset = [&](int d, int step) { return step != 0 ? c[d].frac - 1.0f : c[d].frac; };
    const auto corner = [&](int a, int b, int e, int g) {
        return dot4(gradient(cornerInput(h, origin, {a, b, e, g}, 4)), offset(0, a), offset(1, b),
                    offset(2, e), offset(3, g));
    };
    const auto face = [&](int e, int g) {
        return lerp(fd[1], lerp(fd[0], corner(0, 0, e, g), corner(1, 0, e, g)),
                    lerp(fd[0], corner(0, 1, e, g), corner(1, 1, e, g)));
    };
    const float nearW = lerp(fd[2], face(0, 0), face(1, 0));
    const float farW = lerp(fd[2], face(0, 1), face(1, 1));
    return perlin4Scale(f) * lerp(fd[3], nearW, farW);
}

/// The skewed cell of a simplex: the skewed coordinates split into an index and a float
/// fraction, and the offsets d0 from the cell's first corner: the fraction less (sum of the
/// fractions) G, the unskewed offset.
template <int kDims>
struct SkewedCell {
    Index origin{};
    std::array<float, kDims> d0{};
};

/// The cell's offsets d0 from its skewed coordinates' fractions.
template <int kDims>
void unskew(SkewedCell<kDims>& cell, const std::array<float, kDims>& frac, float g) {
    float fracSum = frac[0];
    for (std::size_t k = 1; k < kDims; ++k) fracSum += frac[k];
    for (std::size_t k = 0; k < kDims; ++k) cell.d0[k] = std::fma(-g, fracSum, frac[k]);
}

/// 3D: each coordinate plus s = (x + y + z) F3, split.
SkewedCell<3> skewedCell3(const std::array<double, 4>& u) {
    const double s = ((u[0] + u[1]) + u[2]) * simplex::kF3;
    SkewedCell<3> cell;
    std::array<float, 3> frac{};
    for (std::size_t k = 0; k < 3; ++k) {
        const FloatCoord c = splitFloat(u[k] + s);
        cell.origin[k] = c.index;
        frac[k] = c.frac;
    }
    unskew<3>(cell, frac, kG3f);
    return cell;
}

/// 4D: the skew s = (x + y + z + w) F4 as the first two axes' part cs = (x + y) F4 and the
/// last two's rs = (z + w) F4 (a torus's column and row: the rows split the first once per
/// column, the second once per row), each sum split exactly and added with a carry
/// (lattice::sumOf): X = (x + cs) + rs, Y = (y + cs) + rs, Z = cs + (z + rs), W = cs + (w + rs).
SkewedCell<4> skewedCell4(const std::array<double, 4>& u) {
    const double cs = (u[0] + u[1]) * noise4d::kF4;
    const double rs = (u[2] + u[3]) * noise4d::kF4;
    const FloatCoord c[4] = {lattice::sumOf(splitFloat(u[0] + cs), splitFloat(rs)),
                             lattice::sumOf(splitFloat(u[1] + cs), splitFloat(rs)),
                             lattice::sumOf(splitFloat(cs), splitFloat(u[2] + rs)),
                             lattice::sumOf(splitFloat(cs), splitFloat(u[3] + rs))};
    SkewedCell<4> cell;
    std::array<float, 4> frac{};
    for (std::size_t k = 0; k < 4; ++k) {
        cell.origin[k] = c[k].index;
        frac[k] = c[k].frac;
    }
    unskew<4>(cell, frac, kG4f);
    return cell;
}

/// 3D simplex noise: the tetrahedron from three comparisons (ties as written), four corners.
float simplex3(const std::array<double, 4>& u, const LatticeHash& h) {
    const SkewedCell<3> cell = skewedCell3(u);
    const float x0 = cell.d0[0], y0 = cell.d0[1], z0 = cell.d0[2];
    const bool xy = x0 >= y0, yz = y0 >= z0, xz = x0 >= z0;
    // The axes stepped on by the second and the third corner.
    const Index first{xy && xz, !xy && yz, !xz && !yz, 0};
    const Index second{xy || xz, !xy || yz, !xz || !yz, 0};
    const Index last{1, 1, 1, 0};
    const Index none{};
    const Index* steps[4] = {&none, &first, &second, &last};
    float n = 0.0f;
    for (int k = 0; k < 4; ++k) {
        const Index& step = *steps[k];
        float d[3];
        for (std::size_t a = 0; a < 3; ++a)
            d[a] = k == 0 ? cell.d0[a]
                          : cell.d0[a] + (step[a] != 0 ? kSteps3.move[k] : kSteps3.stay[k]);
        const float f = falloff3(d[0], d[1], d[2]);
        const float dot = dot3(gradient(cornerInput(h, cell.origin, step, 3)), d[0], d[1], d[2]);
        n = k == 0 ? f * dot : std::fma(f, dot, n);
    }
    return kScale3f * n;
}

/// 4D simplex noise: each axis's rank among the four offsets (ties to the later axis, as
/// version 2) says at which step it is stepped on; five corners.
float simplex4(const std::array<double, 4>& u, const LatticeHash& h) {
    const SkewedCell<4> cell = skewedCell4(u);
    std::array<int, 4> rank{};
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) ++rank[cell.d0[a] > cell.d0[b] ? a : b];
    float n = 0.0f;
    for (int k = 0; k <= 4; ++k) {
        Index step{};
        float d[4];
        for (std::size_t a = 0; a < 4; ++a) {
            step[a] = rank[a] >= 4 - k ? 1 : 0;
            d[a] = k == 0 ? cell.d0[a]
                          : cell.d0[a] + (step[a] != 0 ? kSteps4.move[k] : kSteps4.stay[k]);
        }
        const float f = falloff4(d[0], d[1], d[2], d[3]);
        const float dot = dot4(gradient(cornerInput(h, cell.origin, step, 4)), d[0], d[1], d[2], d[3]);
        n = k == 0 ? f * dot : std::fma(f, dot, n);
    }
    return kScale4f * n;
}

}  // namespace

float noise(NoiseKind kind, FadeCurve fade, const std::array<double, 4>& u, int dimensions,
            const LatticeHash& h) noexcept {
    assert(dimensions == 3 || dimensions == 4);
    const bool four = dimensions == 4;
    switch (kind) {
    case NoiseKind::Value:
        return lattice3<true>(fade, u, h);  // value noise has no 4D form (hasDimensions)
    case NoiseKind::Perlin:
        return four ? perlin4(fade, u, h) : lattice3<false>(fade, u, h);
    case NoiseKind::Simplex:
        return four ? simplex4(u, h) : simplex3(u, h);
    default:
        assert(false);
        return 0.0f;
    }
}

}  // namespace terragrid::curved_v4
