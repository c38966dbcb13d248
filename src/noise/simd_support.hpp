#pragma once
// Which layers the SIMD kernels evaluate, for the flat rows (rows.cpp) and the rows of planets
// and tileable maps (curved_rows.cpp) alike: the same noises and fractals have kernels in both.

#include "terragrid/noise/noise.hpp"

namespace terragrid {

/// Whether the SIMD kernels sum this fractal's octaves. (Switches, so the compiler points at
/// these functions when an enum grows.)
inline bool hasSimdFractal(FractalKind fractal) {
    switch (fractal) {
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

/// Whether SIMD row kernels evaluate this noise and fractal: the flat rows' separable and
/// simplex kernels and the curved rows' 3D and 4D ones. Kinds without one are evaluated with
/// the scalar reference itself, so a new kind is correct in rows from the start and can be made
/// fast later.
inline bool hasSimdKernel(const NoiseParams& params) {
    switch (params.noise) {
    case NoiseKind::Value:
    case NoiseKind::Perlin:
    case NoiseKind::Simplex:
        return hasSimdFractal(params.fractal);
    case NoiseKind::GenericLattice:  // proximities other than constant are not separable
    case NoiseKind::Cellular:        // a nearest-point search, not a blend of lattice values
    default:
        return false;
    }
}

/// Whether the flat rows' point kernels (every lane its own 2D point) evaluate this noise and
/// fractal: a warped layer's moved points, and the noises without a separable form (generic
/// lattice; cellular, a nearest-point search) on their rows.
inline bool hasPointKernel(const NoiseParams& params) {
    switch (params.noise) {
    case NoiseKind::Value:
    case NoiseKind::Perlin:
    case NoiseKind::Simplex:
    case NoiseKind::GenericLattice:
    case NoiseKind::Cellular:
        return hasSimdFractal(params.fractal);
    default:
        return false;
    }
}

}  // namespace terragrid
