// Perlin gradient noise: a hashed gradient per lattice point, dotted with the offset to the
// sample and blended with the fade curve. 0 at every lattice point.

#include "terragrid/noise.hpp"

#include "noise/lattice.hpp"

#include <cmath>

namespace terragrid {

namespace {

using lattice::grad3;
using lattice::lerp;
using lattice::split;

constexpr double kSqrt2 = 1.4142135623730951;

// 2D: the four axes and the four unit diagonals, with the final "times sqrt(2)" folded into
// the gradients: axis x*sqrt(2), diagonal (x + y)/sqrt(2)*sqrt(2) = x + y. Same function, but
// the cell-centre maximum comes out as exactly 1 instead of rounding to 1 + 2^-52.
double grad2(std::uint32_t hash, double x, double y) noexcept {
    switch (hash & 7u) {
    case 0: return kSqrt2 * x;
    case 1: return -kSqrt2 * x;
    case 2: return kSqrt2 * y;
    case 3: return -kSqrt2 * y;
    case 4: return x + y;
    case 5: return -x + y;
    case 6: return x - y;
    default: return -x - y;
    }
}

}  // namespace

double perlinNoise(double x, FadeCurve f, const LatticeHash& h) noexcept {
    const lattice::Coord cx = split(x);
    const double t = cx.frac;
    // Gradient slopes in [-1, 1] from the hash; the ramp g*t vanishes at its own lattice point.
    const double g0 = 2.0 * h.unit(h(cx.index)) - 1.0;
    const double g1 = 2.0 * h.unit(h(cx.index + 1)) - 1.0;
    return lerp(fade(f, t), g0 * t, g1 * (t - 1.0));
}

double perlinNoise(double x, double y, FadeCurve f, const LatticeHash& h) noexcept {
    const lattice::Coord cx = split(x);
    const lattice::Coord cy = split(y);
    const std::int64_t ix = cx.index;
    const std::int64_t iy = cy.index;
    const double fx = cx.frac;
    const double fy = cy.frac;
    const double u = fade(f, fx);
    const double v = fade(f, fy);
    // Lerp in x, then y (the same order as the 3D reference).
    const double bottom = lerp(u, grad2(h(ix, iy), fx, fy), grad2(h(ix + 1, iy), fx - 1.0, fy));
    const double top = lerp(u, grad2(h(ix, iy + 1), fx, fy - 1.0),
                            grad2(h(ix + 1, iy + 1), fx - 1.0, fy - 1.0));
    return lerp(v, bottom, top);
}

double perlinNoise(double x, double y, double z, FadeCurve f, const LatticeHash& h) noexcept {
    const lattice::Coord cx = split(x);
    const lattice::Coord cy = split(y);
    const lattice::Coord cz = split(z);
    const std::int64_t ix = cx.index;
    const std::int64_t iy = cy.index;
    const std::int64_t iz = cz.index;
    const double fx = cx.frac;
    const double fy = cy.frac;
    const double fz = cz.frac;
    const double u = fade(f, fx);
    const double v = fade(f, fy);
    const double w = fade(f, fz);
    // Perlin's corner order and blend nesting (AA, BA, AB, BB, then the same at z + 1), so
    // HashKind::Reference with the quintic fade reproduces ImprovedNoise.noise bit for bit.
    const double nearZ =
        lerp(v, lerp(u, grad3(h(ix, iy, iz), fx, fy, fz),
                     grad3(h(ix + 1, iy, iz), fx - 1.0, fy, fz)),
             lerp(u, grad3(h(ix, iy + 1, iz), fx, fy - 1.0, fz),
                  grad3(h(ix + 1, iy + 1, iz), fx - 1.0, fy - 1.0, fz)));
    const double farZ =
        lerp(v, lerp(u, grad3(h(ix, iy, iz + 1), fx, fy, fz - 1.0),
                     grad3(h(ix + 1, iy, iz + 1), fx - 1.0, fy, fz - 1.0)),
             lerp(u, grad3(h(ix, iy + 1, iz + 1), fx, fy - 1.0, fz - 1.0),
                  grad3(h(ix + 1, iy + 1, iz + 1), fx - 1.0, fy - 1.0, fz - 1.0)));
    return lerp(w, nearZ, farZ);
}

}  // namespace terragrid
