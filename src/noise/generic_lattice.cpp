// Generic lattice noise (README "How the map is made"): every corner of a lattice cell
// contributes proximity(d, hash) weighted by the fade, and the four contributions are summed.
// Value and Perlin noise are two of its proximities; the others give ridged textures.

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

using lattice::split;
using separable::Gradient;
using separable::perlinGradient;

// The ridged proximities' sign comes from hash bit 3, just above the three bits that pick the
// gradient, so the direction of a crest and whether it is a crest or a trough are independent.
// Bit 3 carries information for every HashKind (the permutation kinds fill 8 bits).
constexpr std::uint32_t kSignBit = 8u;

double hashedSign(std::uint32_t hash) noexcept { return (hash & kSignBit) == 0 ? 1.0 : -1.0; }

}  // namespace

// Every proximity below is continuous in d, so the noise is continuous across cell walls: on a
// wall the far corners' fade weight is 0 and the near corners see the same offsets from both
// cells. Every proximity except Gradient has |c| <= 1 for d in [-1, 1]^2; the fade weights are
// non-negative and sum to 1, so the noise, a convex combination of the corners, stays in
// [-1, 1]. Gradient is Perlin's 2D noise, whose bound is 1 at a cell centre (noise_test.cpp).
//
// G is Perlin's 2D gradient of the hash (length sqrt 2), so |G.d| <= sqrt 2 * sqrt 2 = 2 and
// t = G.d / 2 lies in [-1, 1]; s = +-1 is the hashed sign. The crest of the ridged kinds is
// the line through the lattice point perpendicular to G (t = 0).
double latticeProximity(Proximity p, double dx, double dy, std::uint32_t hash,
                        const LatticeHash& h) noexcept {
    if (p == Proximity::Constant) return signedValue(h, hash);  // value noise
    const Gradient g = perlinGradient(hash);
    const double dot = g.x * dx + g.y * dy;
    const double t = 0.5 * dot;
    const double s = hashedSign(hash);
    switch (p) {
    case Proximity::Constant:
        break;
    case Proximity::Gradient:
        // Perlin noise: a ramp through the lattice point.
        return dot;
    case Proximity::Triangular:
        // A sharp crest of triangular cross-section: s at t = 0, falling linearly to -s at
        // |t| = 1. s (1 - 2|t|) is in [-1, 1].
        return s * (1.0 - 2.0 * std::fabs(t));
    case Proximity::Ridged: {
        // The ridged fractal's (1 - |n|)^2 profile: a sharp crest with flanks that curve out
        // into flat valleys, (1 - |t|)^2 in [0, 1] mapped onto [-1, 1].
        const double r = 1.0 - std::fabs(t);
        return s * (2.0 * r * r - 1.0);
    }
    case Proximity::SemiRidged:
        // Half gradient, half triangular crest: the crest leans, gentle on the side G points
        // to and steep on the other. |t| <= 1 and |1 - 2|t|| <= 1, so the mean is in [-1, 1].
        return 0.5 * (t + s * (1.0 - 2.0 * std::fabs(t)));
    }
    return 0.0;
}

double genericLatticeNoise(double x, double y, Proximity p, FadeCurve f,
                           const LatticeHash& h) noexcept {
    const lattice::Coord cx = split(x);
    const lattice::Coord cy = split(y);
    const std::uint64_t left = HashParts::xPart(h, cx.index);
    const std::uint64_t right = HashParts::xPart(h, cx.index + 1);
    const std::int64_t iy = cy.index;
    const double fx = cx.frac;
    const double fy = cy.frac;
    const double c00 = latticeProximity(p, fx, fy, HashParts::withY(h, left, iy), h);
    const double c10 = latticeProximity(p, fx - 1.0, fy, HashParts::withY(h, right, iy), h);
    const double c01 = latticeProximity(p, fx, fy - 1.0, HashParts::withY(h, left, iy + 1), h);
    const double c11 =
        latticeProximity(p, fx - 1.0, fy - 1.0, HashParts::withY(h, right, iy + 1), h);
    // The sum of c_ab times the fade weights (1 - u)(1 - v), u(1 - v), (1 - u)v, uv, in the
    // expanded form valueNoise uses (separable-inl.hpp): with the constant proximity the two
    // perform the same operations and agree bit for bit.
    const auto k = separable::valueCoefficients(c00, c10, c01, c11, fade(f, fy));
    return separable::valueEvaluate(k, fade(f, fx));
}

}  // namespace terragrid
