#pragma once
// Small pieces every lattice noise shares (private to src/noise).

#include <cmath>
#include <cstdint>

#include "terragrid/noise/noise.hpp"

namespace terragrid {

/// A lattice point's value noise value on [-1, 1]. (Inline: the curved rows' cell cache calls
/// it for every corner of every cell it meets.)
inline double signedValue(const LatticeHash& h, std::uint32_t hash) noexcept {
    return 2.0 * h.unit(hash) - 1.0;
}

}  // namespace terragrid

namespace terragrid::lattice {

/// A coordinate split into an int64 lattice index and its fraction in [0, 1). The subtraction
/// is exact (Perlin's `x -= Math.floor(x)`), so a point a million cells out keeps the
/// fraction's full precision, and the index is not truncated to 32 bits.
struct Coord {
    std::int64_t index;
    double frac;
};

inline Coord split(double x) noexcept {
    const double cell = std::floor(x);
    return {static_cast<std::int64_t>(cell), x - cell};
}

/// Version 2's split of a skewed coordinate (simplexNoiseV2): the index and the fraction of
/// a sum of two doubles, each split exactly and its fraction rounded to float; the fractions
/// are added in float and a carry moves into the index. Rows split `a` once per column and
/// `b` once per row.
struct FloatCoord {
    std::int64_t index;
    float frac;
};

inline FloatCoord splitFloat(double x) noexcept {
    const double cell = std::floor(x);
    return {static_cast<std::int64_t>(cell), static_cast<float>(x - cell)};
}

inline FloatCoord sumOf(FloatCoord a, FloatCoord b) noexcept {
    const float sum = a.frac + b.frac;
    const bool carry = sum >= 1.0f;
    return {a.index + b.index + (carry ? 1 : 0), carry ? sum - 1.0f : sum};
}

/// Whether a layer's 2D noise is simplexNoiseV2 (version 2 changes simplex with the lattice
/// hash only).
inline bool usesSimplexV2(const NoiseParams& p) noexcept {
    return p.version == NoiseVersion::V2 && p.noise == NoiseKind::Simplex &&
           p.hash == HashKind::Lattice;
}

/// Whether a layer's 2D noise is simplexNoiseV3, summed in float (NoiseField::unwarpedFloat).
inline bool usesSimplexV3(const NoiseParams& p) noexcept {
    return p.version >= NoiseVersion::V3 && p.noise == NoiseKind::Simplex &&
           p.hash == HashKind::Lattice;
}

/// One octave's term of the fractal sum (marble's phase is moved by the turbulence sum).
inline double octaveTerm(FractalKind kind, double n) noexcept {
    switch (kind) {
    case FractalKind::None:
    case FractalKind::Fbm:
        return n;
    case FractalKind::Turbulence:
    case FractalKind::Marble:
        return std::fabs(n);
    case FractalKind::Ridged: {
        const double r = 1.0 - std::fabs(n);
        return r * r;
    }
    }
    return n;
}

/// The fractal whose sum a layer's octaves make: marble's octaves sum as turbulence's do (the
/// same term, the same normalisation), and its stripes come after the sum (marble() below), so
/// the SIMD kernels sum turbulence for it and the rows add the stripes per column.
constexpr FractalKind summedFractal(FractalKind kind) noexcept {
    return kind == FractalKind::Marble ? FractalKind::Turbulence : kind;
}

/// Marble, sin(x k + turbulence) (README "Generic lattice noise and marble"), from the point's
/// first coordinate x and the normalised turbulence sum in [0, 1], both in cycles, onto
/// [0, 1]. (Inline: the rows call it once per column.)
inline double marble(const NoiseParams& p, double x, double turbulence) noexcept {
    constexpr double kTwoPi = 6.283185307179586;
    const double cycles = x * p.marbleFrequency + p.marbleTurbulence * turbulence;
    // Only the fraction of a cycle matters: reducing it first keeps sin's argument below 2 pi,
    // so stripes far from the origin are as exact as near it.
    const double phase = cycles - std::floor(cycles);
    return (std::sin(kTwoPi * phase) + 1.0) / 2.0;
}

/// a + t (b - a): Perlin's form, exact at t = 0 and equal to a when a == b.
inline double lerp(double t, double a, double b) noexcept { return a + t * (b - a); }

/// Perlin's 3D gradient dotted with (x, y, z): the 12 cube-edge vectors, padded to 16 by
/// repeating (1,1,0), (-1,1,0), (0,-1,1), (0,-1,-1) so the low 4 bits select without a modulo.
inline double grad3(std::uint32_t hash, double x, double y, double z) noexcept {
    const std::uint32_t h = hash & 15u;
    const double u = h < 8 ? x : y;
    const double v = h < 4 ? y : (h == 12 || h == 14 ? x : z);
    return ((h & 1u) == 0 ? u : -u) + ((h & 2u) == 0 ? v : -v);
}

}  // namespace terragrid::lattice
