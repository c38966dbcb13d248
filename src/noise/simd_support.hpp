#pragma once
// Which layers the SIMD kernels evaluate, for the flat rows (rows.cpp) and the rows of planets
// and tileable maps (curved_rows.cpp) alike: the same noises and fractals have kernels in both.

#include "terragrid/noise/noise.hpp"

namespace terragrid {

/// Whether SIMD kernels evaluate this noise and fractal. Kinds without one are evaluated with
/// the scalar reference itself, so a new kind is correct in rows from the start and can be made
/// fast later. (A switch, so the compiler points at this function when an enum grows.)
inline bool hasSimdKernel(const NoiseParams& params) {
    switch (params.noise) {
    case NoiseKind::Value:
    case NoiseKind::Perlin:
    case NoiseKind::Simplex:
        break;
    case NoiseKind::GenericLattice:  // proximities other than constant are not separable
        return false;
    case NoiseKind::Cellular:  // a nearest-point search, not a blend of lattice values
        return false;
    default:
        return false;
    }
    switch (params.fractal) {
    case FractalKind::None:
    case FractalKind::Fbm:
    case FractalKind::Turbulence:
    case FractalKind::Ridged:
    case FractalKind::Marble:  // its sum is turbulence's; the rows add the stripes per column
        return true;
    default:
        return false;
    }
}

}  // namespace terragrid
