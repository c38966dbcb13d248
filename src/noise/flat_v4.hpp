#pragma once
// Version 4's 2D value and Perlin noise (flat maps) in float: the pieces the scalar reference
// (flat_v4.cpp, NoiseField) and the SIMD rows and points (flat_v4_rows.cpp) share, which must
// agree bit for bit (private to src/noise).
//
// What version 4 does for planets and tileable maps (curved_v4.hpp), for flat ones: the lattice
// coordinate is split in double into an int64 index and a fraction rounded to float; a corner
// is hashed by curved_v4's 32-bit hash (input linear in the low index halves, a key of the
// high ones); the cell is blended in float by the separable form of versions 1 to 3
// (separable-inl.hpp: per-cell coefficients of the row, then a polynomial of the column's
// fraction and fade) with fused multiply-adds; and the octaves are summed and normalised in
// float as every float version does (NoiseField::unwarpedFloat).

#include <array>
#include <cstdint>

#include "terragrid/noise/noise.hpp"

#include "noise/curved_v4.hpp"
#include "noise/simplex_v3.hpp"

namespace terragrid::flat_v4 {

/// The 2D Perlin gradients of versions 1 to 3 as floats: the axes scaled by sqrt(2) and the
/// four diagonals, so the noise spans [-1, 1]; picked by simplex_v3::gradientIndex (the top 3
/// bits of curved_v4::mixed).
constexpr float kSqrt2f = 1.41421356237309505f;
constexpr float kGradX[8] = {kSqrt2f, -kSqrt2f, 0.0f, 0.0f, 1.0f, -1.0f, 1.0f, -1.0f};
constexpr float kGradY[8] = {0.0f, 0.0f, kSqrt2f, -kSqrt2f, 1.0f, 1.0f, -1.0f, -1.0f};

/// Value noise's corner value on [-1, 1] (curved_v4's: the top 24 bits of the hash).
inline float cornerValue(std::uint32_t input) noexcept {
    return std::fma(static_cast<float>(curved_v4::mixed(input) >> 8), curved_v4::kValueScale, -1.0f);
}

/// Whether a layer's 2D noise is version 4's (value and Perlin with the lattice hash; the
/// permutation hashes keep versions 1 to 3's, as for simplex).
inline bool usesFlatV4(const NoiseParams& p) noexcept {
    return p.version >= NoiseVersion::V4 && p.hash == HashKind::Lattice &&
           (p.noise == NoiseKind::Value || p.noise == NoiseKind::Perlin);
}

/// Cells across a tiling layer's period (NoiseField::Octave::cells): {0, 0} where it does not
/// tile.
using Cells = std::array<std::int64_t, 2>;

/// A lattice index wrapped into [0, cells) where the layer tiles (cells > 0): the corners of
/// the cell `cells` along are those of cell 0, so the noise repeats.
constexpr std::int64_t wrapped(std::int64_t index, std::int64_t cells) noexcept {
    if (cells <= 0) return index;
    const std::int64_t r = index % cells;
    return r < 0 ? r + cells : r;
}

/// The index of the corner after `index` (itself wrapped): index + 1, back to 0 at `cells`.
constexpr std::int64_t next(std::int64_t index, std::int64_t cells) noexcept {
    return cells > 0 && index + 1 == cells ? 0 : index + 1;
}

/// Version 4's 2D value or Perlin noise of one octave at the lattice coordinates (u, v), on
/// [-1, 1] up to float rounding; version 5 wraps the corners' indices where `cells` says.
float noise(NoiseKind kind, FadeCurve fade, double u, double v, const LatticeHash& h,
            Cells cells = {0, 0}) noexcept;

}  // namespace terragrid::flat_v4
