// Simplex noise (Perlin 2001, in Gustavson's formulation): sum radial kernels over the corners
// of the simplex containing the point. Cost grows with the dimension, not 2^dimension.

#include "terragrid/noise/noise.hpp"

#include "terragrid/noise/detail/lattice_hash_parts.hpp"

#include "noise/lattice.hpp"
#include "noise/simplex_constants.hpp"
#include "noise/simplex_v3.hpp"

#include <algorithm>
#include <cmath>

namespace terragrid {

namespace {

using namespace simplex;



// 2D gradients: the four axes and the four diagonals (+-1, +-1), Gustavson's 2D set:
// hash & 7 = 0..7 gives x, -x, y, -y, x + y, -x + y, x - y, -x - y. Written with the hash's
// bits selecting terms (not a switch) because the SIMD rows (rows_kernels.cpp) select the
// same way; an axis adds +0, so both produce the same bits, signed zeros included.
// (A template: version 2 uses it with float.)
template <class T>
T grad2(std::uint32_t hash, T x, T y) noexcept {
    const bool negate = (hash & 1u) != 0;
    const bool yAxis = (hash & 2u) != 0;
    const bool diagonal = (hash & 4u) != 0;
    const T first = yAxis && !diagonal ? y : x;
    const T second = diagonal ? (yAxis ? -y : y) : T(0);
    return (negate ? -first : first) + second;
}

float corner2f(std::uint32_t hash, float x, float y) noexcept {
    const float t = kRadius2f - x * x - y * y;
    if (!(t > 0.0f)) return 0.0f;
    const float t2 = t * t;
    return t2 * t2 * grad2(hash, x, y);
}

double corner2(std::uint32_t hash, double x, double y) noexcept {
    const double t = kRadius2 - x * x - y * y;
    if (t <= 0.0) return 0.0;
    const double t2 = t * t;
    return t2 * t2 * grad2(hash, x, y);
}

double corner3(std::uint32_t hash, double x, double y, double z) noexcept {
    const double t = kRadius2 - x * x - y * y - z * z;
    if (t <= 0.0) return 0.0;
    const double t2 = t * t;
    return t2 * t2 * lattice::grad3(hash, x, y, z);
}

// Which of the six tetrahedra of the skewed cube holds the point: the axes in decreasing
// order of the point's offset give the second (one step) and third (two steps) corners.
struct Tetrahedron {
    int i1, j1, k1, i2, j2, k2;
};

Tetrahedron tetrahedron(double x0, double y0, double z0) noexcept {
    if (x0 >= y0) {
        if (y0 >= z0) return {1, 0, 0, 1, 1, 0};
        if (x0 >= z0) return {1, 0, 0, 1, 0, 1};
        return {0, 0, 1, 1, 0, 1};
    }
    if (y0 < z0) return {0, 0, 1, 0, 1, 1};
    if (x0 < z0) return {0, 1, 0, 0, 1, 1};
    return {0, 1, 0, 1, 1, 0};
}

}  // namespace

double simplexNoise(double x, double y, const LatticeHash& h) noexcept {
    // Skew to find the cell, unskew its origin back to get the offset to the first corner.
    // (Far from the origin the offsets carry the rounding of x itself, ~1e-9 at 1e7.)
    const double s = (x + y) * kF2;
    const std::int64_t i = lattice::split(x + s).index;
    const std::int64_t j = lattice::split(y + s).index;
    const double t = static_cast<double>(i + j) * kG2;
    const double x0 = x - (static_cast<double>(i) - t);
    const double y0 = y - (static_cast<double>(j) - t);
    // Lower or upper triangle of the cell.
    const int i1 = x0 > y0 ? 1 : 0;
    const int j1 = 1 - i1;
    const double x1 = x0 - i1 + kG2;
    const double y1 = y0 - j1 + kG2;
    const double x2 = x0 - 1.0 + 2.0 * kG2;
    const double y2 = y0 - 1.0 + 2.0 * kG2;
    const double n = corner2(h(i, j), x0, y0) + corner2(h(i + i1, j + j1), x1, y1) +
                     corner2(h(i + 1, j + 1), x2, y2);
    return std::clamp(kScale2 * n, -1.0, 1.0);
}

namespace {

// Versions 2 and 3: the skewed cell of (x, y), the offsets from its first corner, and whether
// the point lies in the lower triangle (step in x first).
struct FloatCell {
    lattice::FloatCoord sx, sy;
};

FloatCell floatCell(double x, double y) noexcept {
    return {lattice::sumOf(lattice::splitFloat(x * kSkew2), lattice::splitFloat(y * kF2)),
            lattice::sumOf(lattice::splitFloat(x * kF2), lattice::splitFloat(y * kSkew2))};
}

// LatticeHash::hash32's input (before fmix32) of the corners (i, j), the middle one and
// (i + 1, j + 1), with the key of the high halves computed once when the corners share them
// (all but the points next to index 2^31 - 1). Version 2 finishes each with fmix32, version 3
// with simplex_v3::gradientIndex.
struct CornerHashes {
    std::uint32_t first, middle, far;
};

CornerHashes cornerHashes(const LatticeHash& h, std::int64_t i, std::int64_t j,
                          bool lower) noexcept {
    using Parts = detail::LatticeHashParts;
    const std::uint32_t hi = Parts::high(i);
    const std::uint32_t hj = Parts::high(j);
    const std::uint32_t key = Parts::key32(h, hi, hj);
    const auto hash = [&](std::int64_t ci, std::int64_t cj) {
        const std::uint32_t hci = Parts::high(ci);
        const std::uint32_t hcj = Parts::high(cj);
        const std::uint32_t k = hci == hi && hcj == hj ? key : Parts::key32(h, hci, hcj);
        return Parts::low(ci) * Parts::kHashX + Parts::low(cj) * Parts::kHashY + k;
    };
    return {hash(i, j), hash(i + (lower ? 1 : 0), j + (lower ? 0 : 1)), hash(i + 1, j + 1)};
}

}  // namespace

double simplexNoiseV2(double x, double y, const LatticeHash& h) noexcept {
    // The rows (rows_kernels.cpp) perform the same float operations in the same order.
    const auto [sx, sy] = floatCell(x, y);
    const float t = (sx.frac + sy.frac) * kG2f;
    const float x0 = sx.frac - t;
    const float y0 = sy.frac - t;
    const bool lower = x0 > y0;  // lower triangle: step in x first
    const float x1 = (x0 + kG2f) - (lower ? 1.0f : 0.0f);
    const float y1 = (y0 + kG2f) - (lower ? 0.0f : 1.0f);
    const float x2 = x0 + kCorner2f;
    const float y2 = y0 + kCorner2f;
    const CornerHashes c = cornerHashes(h, sx.index, sy.index, lower);
    using Parts = detail::LatticeHashParts;
    const float n = corner2f(Parts::fmix32(c.first), x0, y0) +
                    corner2f(Parts::fmix32(c.middle), x1, y1) + corner2f(Parts::fmix32(c.far), x2, y2);
    return static_cast<double>(std::clamp(kScale2f * n, -1.0f, 1.0f));
}

namespace {

// simplexNoiseV3's steps after the skewed cell, from the cell's fractions and its corners' hash
// inputs (given the triangle).
template <class Hashes>
float simplexV3FromCell(float fx, float fy, Hashes&& hashesOf) noexcept {
    using simplex_v3::falloff;
    using simplex_v3::gradientDot;
    using simplex_v3::gradientIndex;
    const float s = fx + fy;
    const float x0 = std::fma(-kG2f, s, fx);
    const float y0 = std::fma(-kG2f, s, fy);
    const bool lower = x0 > y0;
    const float x1 = x0 + (lower ? simplex_v3::kG2Minus1f : kG2f);
    const float y1 = y0 + (lower ? kG2f : simplex_v3::kG2Minus1f);
    const float x2 = x0 + kCorner2f;
    const float y2 = y0 + kCorner2f;
    const CornerHashes c = hashesOf(lower);
    const float n0 = falloff(x0, y0) * gradientDot(gradientIndex(c.first), x0, y0);
    const float n1 = std::fma(falloff(x1, y1), gradientDot(gradientIndex(c.middle), x1, y1), n0);
    const float n = std::fma(falloff(x2, y2), gradientDot(gradientIndex(c.far), x2, y2), n1);
    return kScale2f * n;
}

}  // namespace

float simplexNoiseV3(double x, double y, const LatticeHash& h) noexcept {
    // The rows (simplex_v3_rows.cpp) perform the same float operations in the same order.
    const auto [sx, sy] = floatCell(x, y);
    return simplexV3FromCell(sx.frac, sy.frac, [&](bool lower) { return cornerHashes(h, sx.index, sy.index, lower); });
}

float simplexTilingV6(double u, double v, const LatticeHash& h, std::array<std::int64_t, 2> cells) noexcept {
    // The rows (simplex_v3_rows.cpp, tiling) perform the same float operations in the same order.
    const lattice::FloatCoord sx = lattice::sumOf(lattice::splitFloat(u), lattice::splitFloat(v));
    const lattice::FloatCoord sy = lattice::splitFloat(2.0 * v);
    const std::uint32_t key = detail::LatticeHashParts::key32(h, 0, 0);
    // Each corner's representative, hashed as simplexNoiseV3 hashes a corner near the origin.
    const auto hash = [&](std::int64_t i, std::int64_t j) {
        return simplex_v3::tilingHashInput(simplex_v3::tilingCorner(i, j, cells), key);
    };
    return simplexV3FromCell(sx.frac, sy.frac, [&](bool lower) {
        return CornerHashes{hash(sx.index, sy.index), hash(sx.index + (lower ? 1 : 0), sy.index + (lower ? 0 : 1)),
                            hash(sx.index + 1, sy.index + 1)};
    });
}

double simplexNoise(double x, double y, double z, const LatticeHash& h) noexcept {
    const double s = (x + y + z) * kF3;
    const std::int64_t i = lattice::split(x + s).index;
    const std::int64_t j = lattice::split(y + s).index;
    const std::int64_t k = lattice::split(z + s).index;
    const double t = static_cast<double>(i + j + k) * kG3;
    const double x0 = x - (static_cast<double>(i) - t);
    const double y0 = y - (static_cast<double>(j) - t);
    const double z0 = z - (static_cast<double>(k) - t);
    const Tetrahedron c = tetrahedron(x0, y0, z0);
    const double x1 = x0 - c.i1 + kG3;
    const double y1 = y0 - c.j1 + kG3;
    const double z1 = z0 - c.k1 + kG3;
    const double x2 = x0 - c.i2 + 2.0 * kG3;
    const double y2 = y0 - c.j2 + 2.0 * kG3;
    const double z2 = z0 - c.k2 + 2.0 * kG3;
    const double x3 = x0 - 1.0 + 3.0 * kG3;
    const double y3 = y0 - 1.0 + 3.0 * kG3;
    const double z3 = z0 - 1.0 + 3.0 * kG3;
    const double n = corner3(h(i, j, k), x0, y0, z0) +
                     corner3(h(i + c.i1, j + c.j1, k + c.k1), x1, y1, z1) +
                     corner3(h(i + c.i2, j + c.j2, k + c.k2), x2, y2, z2) +
                     corner3(h(i + 1, j + 1, k + 1), x3, y3, z3);
    return std::clamp(kScale3 * n, -1.0, 1.0);
}

}  // namespace terragrid
