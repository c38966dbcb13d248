#pragma once
// Version 4's 3D and 4D noise (planets and tileable maps) in float: the pieces the scalar
// reference (curved_v4.cpp, NoiseField) and the SIMD rows (curved_v4_rows.cpp) share, which
// must agree bit for bit (private to src/noise).
//
// Version 4 does for the sphere and the torus what version 3 did for 2D simplex noise: the
// lattice coordinate is split in double into an int64 index and a fraction rounded to float;
// everything in the cell is float arithmetic with fused multiply-adds (std::fma here, the
// instruction or an exact emulation in the lanes: fused-inl.hpp), each step in the order
// written; corners are hashed with a 32-bit hash whose input is linear in the corner's low
// index halves (so a lane reaches a cell's other corners by adding constants); and the octaves
// are summed and normalised in float (simplex_v3.hpp's octaveTerm and normalise).

#include <array>
#include <cstdint>

#include "terragrid/noise/detail/lattice_hash_parts.hpp"
#include "terragrid/noise/noise.hpp"

#include "noise/noise4d_constants.hpp"
#include "noise/simplex_constants.hpp"
#include "noise/simplex_v3.hpp"

namespace terragrid::curved_v4 {

using Parts = detail::LatticeHashParts;

/// The multipliers of the corner's low index halves in the hash input: hash32's two for x and
/// y, xxHash's PRIME32_3 and PRIME32_4 (odd) for z and w.
constexpr std::array<std::uint32_t, 4> kHashAxis{Parts::kHashX, Parts::kHashY, 0xC2B2AE3Du,
                                                 0x27D4EB2Fu};

/// The key of a corner's high index halves (LatticeHashParts::high of each axis; 0 for an axis
/// a 3D point does not have): a mix64 of the layer's key with them, so the hash never repeats.
inline std::uint32_t key(const LatticeHash& h, const std::array<std::uint32_t, 4>& high) noexcept {
    constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;
    const std::uint64_t xy = (static_cast<std::uint64_t>(high[0]) << 32) | high[1];
    const std::uint64_t zw = (static_cast<std::uint64_t>(high[2]) << 32) | high[3];
    return static_cast<std::uint32_t>(mix64(Parts::key(h) ^ xy ^ mix64(zw + kGolden)) >> 32);
}

/// The key of corners whose high halves are all 0 (indices within kIndexBound): the one key the
/// rows use per octave.
inline std::uint32_t originKey(const LatticeHash& h) noexcept { return key(h, {0, 0, 0, 0}); }

/// A corner's hash input: sum of lo(index_d) kHashAxis[d] plus the key of its high halves,
/// modulo 2^32. For corners whose high halves are those of the cell's origin (every map within
/// 2^31 - 2 lattice cells of the origin) the input of the corner one step along axis d is the
/// origin's plus kHashAxis[d].
inline std::uint32_t input(const LatticeHash& h, const std::array<std::int64_t, 4>& index,
                           int dimensions) noexcept {
    std::array<std::uint32_t, 4> high{};
    std::uint32_t sum = 0;
    for (int d = 0; d < dimensions; ++d) {
        const auto k = static_cast<std::size_t>(d);
        high[k] = Parts::high(index[k]);
        sum += Parts::low(index[k]) * kHashAxis[k];
    }
    return sum + key(h, high);
}

/// The hash's first multiply. It distributes over the input's sum modulo 2^32, so the rows
/// multiply each part of the linear input once (per column, row or corner step) and add them.
constexpr std::uint32_t premix(std::uint32_t input) noexcept {
    return input * simplex_v3::kGradientMix1;
}

/// The hash proper: a multiply, an xor-shift and a multiply (simplex_v3::gradientIndex's
/// mixer, lowbias32's constants), which carries every input bit into the top ones.
constexpr std::uint32_t mixed(std::uint32_t input) noexcept {
    const std::uint32_t x = premix(input);
    return (x ^ (x >> 16)) * simplex_v3::kGradientMix2;
}

/// The lattice indices whose cell keeps high halves 0 (LatticeHashParts::high) with the cell
/// after it, where one key per octave (originKey) serves every corner: |index| < kIndexBound.
/// The rows serve those and leave the others to the reference.
inline constexpr std::int64_t kIndexBound = (std::int64_t{1} << 31) - 2;
constexpr bool withinBound(std::int64_t index, std::int64_t bound = kIndexBound) noexcept {
    return index > -bound && index < bound;
}

/// A corner's gradient: the top 4 bits of the hash, an index into the tables below.
constexpr std::uint32_t gradient(std::uint32_t input) noexcept { return mixed(input) >> 28; }

/// Value noise's corner value on [-1, 1]: the top 24 bits of the hash (exact in a float),
/// times 2 / (2^24 - 1), minus 1, in one fused multiply-add.
constexpr float kValueScale = static_cast<float>(2.0 / 16777215.0);

/// 3D gradients: Perlin's 12 cube edges, padded to 16 with his (1,1,0), (-1,1,0), (0,-1,1) and
/// (0,-1,-1).
constexpr float kGrad3X[16] = {1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0, 1, -1, 0, 0};
constexpr float kGrad3Y[16] = {1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, 1, -1, -1};
constexpr float kGrad3Z[16] = {0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1, 0, 0, 1, -1};

/// 4D gradients: 16 of Gustavson's 32 (one axis 0, the others +-1): axis g >> 2 is 0, and the
/// other three take the signs +++, ---, +-+ or -+- (g & 3), a set closed under negation with
/// mean 0 for each zero axis. Versions 1 to 3 use all 32; 16 fit one lookup in a 16-lane
/// vector.
constexpr std::array<std::array<float, 4>, 16> gradients4() {
    constexpr float kSigns[4][3] = {{1, 1, 1}, {-1, -1, -1}, {1, -1, 1}, {-1, 1, -1}};
    std::array<std::array<float, 4>, 16> g{};
    for (int i = 0; i < 16; ++i) {
        const int zero = i >> 2;
        for (int axis = 0, n = 0; axis < 4; ++axis)
            g[i][axis] = axis == zero ? 0.0f : kSigns[i & 3][n++];
    }
    return g;
}
constexpr std::array<float, 16> gradient4Axis(int axis) {
    std::array<float, 16> a{};
    for (int i = 0; i < 16; ++i) a[i] = gradients4()[i][axis];
    return a;
}
constexpr std::array<float, 16> kGrad4X = gradient4Axis(0);
constexpr std::array<float, 16> kGrad4Y = gradient4Axis(1);
constexpr std::array<float, 16> kGrad4Z = gradient4Axis(2);
constexpr std::array<float, 16> kGrad4W = gradient4Axis(3);

/// The fade curves in float (value.cpp's fade): linear t; cubic (t t) fma(-2, t, 3); quintic
/// ((t t) t) fma(t, fma(t, 6, -15), 10).
inline float fade(FadeCurve curve, float t) noexcept {
    switch (curve) {
    case FadeCurve::Cubic:
        return (t * t) * std::fma(-2.0f, t, 3.0f);
    case FadeCurve::Quintic:
        return ((t * t) * t) * std::fma(t, std::fma(t, 6.0f, -15.0f), 10.0f);
    default:
        return t;
    }
}

/// a + t (b - a) with one rounding of the product and sum: fma(t, b - a, a).
inline float lerp(float t, float a, float b) noexcept { return std::fma(t, b - a, a); }

/// The gradient dot products, the last axis innermost: fma(gx, x, fma(gy, y, gz z)) and
/// fma(gx, x, fma(gy, y, fma(gz, z, gw w))). The rows compute the inner term per row where z
/// (and w) are the row's, with the same operations.
inline float dot3(std::uint32_t g, float x, float y, float z) noexcept {
    return std::fma(kGrad3X[g], x, std::fma(kGrad3Y[g], y, kGrad3Z[g] * z));
}
inline float dot4(std::uint32_t g, float x, float y, float z, float w) noexcept {
    return std::fma(kGrad4X[g], x, std::fma(kGrad4Y[g], y, std::fma(kGrad4Z[g], z, kGrad4W[g] * w)));
}

/// A simplex corner's radial falloff max(0.5 - |d|^2, 0)^4, the squares subtracted in axis
/// order by fused multiply-adds.
inline float falloff3(float x, float y, float z) noexcept {
    const float r = std::fma(-z, z, std::fma(-y, y, std::fma(-x, x, simplex::kRadius2f)));
    const float t = simplex_v3::maxOf(r, 0.0f);
    const float t2 = t * t;
    return t2 * t2;
}
inline float falloff4(float x, float y, float z, float w) noexcept {
    const float r =
        std::fma(-w, w, std::fma(-z, z, std::fma(-y, y, std::fma(-x, x, simplex::kRadius2f))));
    const float t = simplex_v3::maxOf(r, 0.0f);
    const float t2 = t * t;
    return t2 * t2;
}

/// The simplex corners' offsets from the first: a corner `step` steps along the simplex from
/// the origin adds step G to each axis, minus 1 on the axes it has moved along; as floats.
template <int kSteps>
struct SimplexSteps {
    std::array<float, kSteps + 1> stay{};  ///< step G
    std::array<float, kSteps + 1> move{};  ///< step G - 1
};
constexpr SimplexSteps<3> simplexSteps3() {
    SimplexSteps<3> s;
    for (int k = 0; k <= 3; ++k) {
        s.stay[k] = static_cast<float>(k * simplex::kG3);
        s.move[k] = static_cast<float>(k * simplex::kG3 - 1.0);
    }
    return s;
}
constexpr SimplexSteps<4> simplexSteps4() {
    SimplexSteps<4> s;
    for (int k = 0; k <= 4; ++k) {
        s.stay[k] = static_cast<float>(k * noise4d::kG4);
        s.move[k] = static_cast<float>(k * noise4d::kG4 - 1.0);
    }
    return s;
}
constexpr SimplexSteps<3> kSteps3 = simplexSteps3();
constexpr SimplexSteps<4> kSteps4 = simplexSteps4();
constexpr float kG3f = static_cast<float>(simplex::kG3);
constexpr float kG4f = static_cast<float>(noise4d::kG4);
constexpr float kScale3f = static_cast<float>(simplex::kScale3);
constexpr float kScale4f = static_cast<float>(noise4d::kSimplex4Scale);

/// 4D Perlin's scale (noise4d.cpp's bound of the 32-gradient set, which bounds the 16 too).
inline float perlin4Scale(FadeCurve f) noexcept {
    return static_cast<float>(1.0 / noise4d::kPerlin4Max[static_cast<std::size_t>(f)]);
}

/// Whether a layer's 3D and 4D noise is version 4's (the lattice hash only: the permutation
/// kinds keep version 2's, as for 2D simplex).
inline bool usesCurvedV4(const NoiseParams& p) noexcept {
    return p.version >= NoiseVersion::V4 && p.hash == HashKind::Lattice &&
           (p.noise == NoiseKind::Value || p.noise == NoiseKind::Perlin ||
            p.noise == NoiseKind::Simplex);
}

/// Version 4's noise of one octave at the lattice coordinates u (3 or 4 of them), unscaled to
/// the layer: within about [-1, 1] (3D Perlin, as in every version, reaches about 1.04).
float noise(NoiseKind kind, FadeCurve fade, const std::array<double, 4>& u, int dimensions,
            const LatticeHash& h) noexcept;

}  // namespace terragrid::curved_v4
