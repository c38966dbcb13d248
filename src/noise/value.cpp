// Fade curves and value noise: hashed scalars at lattice points, blended with the fade curve.

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

using lattice::lerp;
using lattice::split;

}  // namespace

double fade(FadeCurve curve, double t) noexcept {
    switch (curve) {
    case FadeCurve::Linear:
        return t;
    case FadeCurve::Cubic:
        return t * t * (3.0 - 2.0 * t);
    case FadeCurve::Quintic:
        // Written exactly as Perlin's Java fade() so the reference noise agrees bit for bit.
        return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
    }
    return t;
}

double valueNoise(double x, FadeCurve f, const LatticeHash& h) noexcept {
    const lattice::Coord cx = split(x);
    const double a = signedValue(h, h(cx.index));
    const double b = signedValue(h, h(cx.index + 1));
    return lerp(fade(f, cx.frac), a, b);
}

double valueNoise(double x, double y, FadeCurve f, const LatticeHash& h) noexcept {
    const lattice::Coord cx = split(x);
    const lattice::Coord cy = split(y);
    const std::uint64_t left = HashParts::xPart(h, cx.index);
    const std::uint64_t right = HashParts::xPart(h, cx.index + 1);
    const std::int64_t iy = cy.index;
    // Bilinear, in the separable form the SIMD rows use (separable-inl.hpp).
    const auto k = separable::valueCoefficients(
        signedValue(h, HashParts::withY(h, left, iy)),
        signedValue(h, HashParts::withY(h, right, iy)),
        signedValue(h, HashParts::withY(h, left, iy + 1)),
        signedValue(h, HashParts::withY(h, right, iy + 1)),
        fade(f, cy.frac));
    return separable::valueEvaluate(k, fade(f, cx.frac));
}

double valueNoise(double x, double y, double z, FadeCurve f, const LatticeHash& h) noexcept {
    const lattice::Coord cx = split(x);
    const lattice::Coord cy = split(y);
    const lattice::Coord cz = split(z);
    const double u = fade(f, cx.frac);
    const double v = fade(f, cy.frac);
    const double w = fade(f, cz.frac);
    // Trilinear: one bilinear blend per z face, then along z.
    auto face = [&](std::int64_t iz) {
        const std::int64_t ix = cx.index;
        const std::int64_t iy = cy.index;
        const double bottom =
            lerp(u, signedValue(h, h(ix, iy, iz)), signedValue(h, h(ix + 1, iy, iz)));
        const double top =
            lerp(u, signedValue(h, h(ix, iy + 1, iz)), signedValue(h, h(ix + 1, iy + 1, iz)));
        return lerp(v, bottom, top);
    };
    return lerp(w, face(cz.index), face(cz.index + 1));
}

}  // namespace terragrid
