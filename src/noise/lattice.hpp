#pragma once
// Small pieces every lattice noise shares (private to src/noise).

#include <cmath>
#include <cstdint>

namespace terragrid {

class LatticeHash;

/// A lattice point's value noise value on [-1, 1] (value.cpp).
double signedValue(const LatticeHash& h, std::uint32_t hash) noexcept;

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
