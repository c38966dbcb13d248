// Perlin gradient noise: a hashed gradient per lattice point, dotted with the offset to the
// sample and blended with the fade curve. 0 at every lattice point.

#include "terragrid/noise/noise.hpp"

#include "terragrid/noise/detail/lattice_hash_parts.hpp"

#include "noise/lattice.hpp"
#include "noise/separable-inl.hpp"

#include <cmath>

namespace terragrid {

using HashParts = detail::LatticeHashParts;

// The scalar code uses the separable form with double (the static target's copy).
namespace separable = HWY_NAMESPACE::separable;

namespace {

using lattice::grad3;
using lattice::lerp;
using lattice::split;
using separable::Gradient;
using separable::perlinGradient;

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
    const std::uint64_t left = HashParts::xPart(h, cx.index);
    const std::uint64_t right = HashParts::xPart(h, cx.index + 1);
    const std::int64_t iy = cy.index;
    const double fy = cy.frac;
    // Lerp in x, then y (the 3D reference's order), in the separable form of separable-inl.hpp.
    const Gradient g00 = perlinGradient(HashParts::withY(h, left, iy));
    const Gradient g10 = perlinGradient(HashParts::withY(h, right, iy));
    const Gradient g01 = perlinGradient(HashParts::withY(h, left, iy + 1));
    const Gradient g11 = perlinGradient(HashParts::withY(h, right, iy + 1));
    const auto k = separable::perlinCoefficients(g00.x, g00.y, g10.x, g10.y, g01.x, g01.y,
                                                 g11.x, g11.y, fy, fy - 1.0, fade(f, fy));
    return separable::perlinEvaluate(k, cx.frac, fade(f, cx.frac));
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
