#pragma once
// Version 3 simplex noise's float arithmetic, shared by the scalar reference (simplex_v3.cpp,
// NoiseField) and the SIMD rows (simplex_v3_rows.cpp), which must agree bit for bit (private to
// src/noise).
//
// Every step is one IEEE float operation or a fused multiply-add (std::fma here, fused or
// emulated exactly in the lanes: fused-inl.hpp), in the order written. The cut-offs and the
// clamp are written as x86's maxps / minps compute them (`a > b ? a : b`, `a < b ? a : b`), which
// is what Highway's Max and Min do, so signed zeros agree too.

#include <array>
#include <cmath>
#include <cstdint>

#include "terragrid/noise/detail/lattice_hash_parts.hpp"
#include "terragrid/noise/noise.hpp"

#include "noise/simplex_constants.hpp"

namespace terragrid::simplex_v3 {

/// G - 1: the middle corner's offset along the axis it steps on.
constexpr float kG2Minus1f = static_cast<float>(simplex::kG2 - 1.0);

/// The gradients, selected by hash & 7 (the same 8 directions as versions 1 and 2: the axes and
/// the diagonals); the dot product is fma(gx, x, gy y).
constexpr float kGradX[8] = {1.0f, -1.0f, 0.0f, 0.0f, 1.0f, -1.0f, 1.0f, -1.0f};
constexpr float kGradY[8] = {0.0f, 0.0f, 1.0f, -1.0f, 1.0f, 1.0f, -1.0f, -1.0f};

inline float maxOf(float a, float b) noexcept { return a > b ? a : b; }
inline float minOf(float a, float b) noexcept { return a < b ? a : b; }

/// gradientIndex's multipliers: lowbias32's (Wellons, hash-prospector).
constexpr std::uint32_t kGradientMix1 = 0x7FEB352Du;
constexpr std::uint32_t kGradientMix2 = 0x846CA68Bu;

/// A corner's gradient (an index into kGradX / kGradY) from its hash input, the 32-bit lattice
/// hash before fmix32 (lo(i) kHashX + lo(j) kHashY + key32): a multiply, an xor-shift and a
/// multiply, then the top 3 bits. The input is linear in the indices; the xor-shift breaks
/// that and the multiplies carry every bit into the top ones. 5 operations per lane where
/// fmix32 and a mask take 9 (NoiseTest.SimplexV3NeighbourGradientsAreIndependent checks the
/// neighbours' gradients as fmix32's pass: one multiply and xor-shift fewer do not).
constexpr std::uint32_t gradientIndex(std::uint32_t input) noexcept {
    const std::uint32_t x = input * kGradientMix1;
    return ((x ^ (x >> 16)) * kGradientMix2) >> 29;
}

/// A corner's radial falloff: max(0.5 - x^2 - y^2, 0)^4.
inline float falloff(float x, float y) noexcept {
    const float t = maxOf(std::fma(-y, y, std::fma(-x, x, simplex::kRadius2f)), 0.0f);
    const float t2 = t * t;
    return t2 * t2;
}

/// The dot product of gradient g with the offset (x, y): fma(gx, x, gy y).
inline float gradientDot(std::uint32_t g, float x, float y) noexcept {
    return std::fma(kGradX[g], x, kGradY[g] * y);
}

/// A tiling corner (simplexTilingV6): lattice point (i, j) less whole periods (m, 2m) until j
/// is in [0, 2m), then (n, 0) until i is in [0, n), for cells {n, m}. The rows reduce a row's
/// part of i this way too, and add the column's part in lanes.
struct TilingCorner {
    std::int64_t i, j;
};

inline TilingCorner tilingCorner(std::int64_t i, std::int64_t j, std::array<std::int64_t, 2> cells) noexcept {
    const std::int64_t rows = 2 * cells[1];
    std::int64_t k = j / rows;
    if (k * rows > j) --k;  // floor
    std::int64_t wi = (i - k * cells[1]) % cells[0];
    if (wi < 0) wi += cells[0];
    return {wi, j - k * rows};
}

/// A tiling corner's hash input (before gradientIndex): simplexNoiseV3's for a corner near the
/// origin, whose indices' high halves are 0 and whose key is `key` (LatticeHashParts::key32(h,
/// 0, 0)). The reference hashes each corner so; the rows each corner row's part of it.
inline std::uint32_t tilingHashInput(TilingCorner c, std::uint32_t key) noexcept {
    using Parts = detail::LatticeHashParts;
    return Parts::low(c.i) * Parts::kHashX + Parts::low(c.j) * Parts::kHashY + key;
}

/// The octave's term of the fractal sum, in float (lattice::octaveTerm's).
inline float octaveTerm(FractalKind kind, float n) noexcept {
    switch (kind) {
    case FractalKind::Turbulence:
    case FractalKind::Marble:
        return std::fabs(n);
    case FractalKind::Ridged: {
        const float r = 1.0f - std::fabs(n);
        return r * r;
    }
    default:
        return n;
    }
}

/// What normalise multiplies the sum by: 0.5 / sum of amplitudes for the signed fractals (none,
/// fBm), whose value then is sum * that + 0.5, and 1 / sum of amplitudes for the others.
inline float normaliseScale(FractalKind kind, double amplitudeSum) noexcept {
    const bool isSigned = kind == FractalKind::None || kind == FractalKind::Fbm;
    return static_cast<float>((isSigned ? 0.5 : 1.0) / amplitudeSum);
}

/// The float sum onto [0, 1] (NoiseField::normalise's role): one fused multiply-add for the
/// signed fractals, a product for the others, then the clamp.
inline float normalise(FractalKind kind, float sum, float scale) noexcept {
    const bool isSigned = kind == FractalKind::None || kind == FractalKind::Fbm;
    const float value = isSigned ? std::fma(sum, scale, 0.5f) : sum * scale;
    return minOf(maxOf(value, 0.0f), 1.0f);
}

}  // namespace terragrid::simplex_v3
