#pragma once
// 4D noise's constants, shared by the scalar reference (noise4d.cpp) and the SIMD rows of
// tileable maps (curved_rows_kernels.cpp), which must agree bit for bit (private to src/noise).
// noise4d.cpp says how the bounds were found.

#include <array>

#include "terragrid/noise/noise.hpp"

namespace terragrid::noise4d {

// The largest |unscaled 4D Perlin noise| per fade curve (FadeCurve order), rounded up.
constexpr std::array<double, 3> kPerlin4Max{1.5654, 1.5453, 1.5366};
static_assert(kPerlin4Max.size() == kFadeCurveNames.size());

// Skew (F4) and unskew (G4) factors, the correctly rounded (sqrt(5) - 1) / 4 and
// (5 - sqrt(5)) / 20.
constexpr double kF4 = 0.30901699437494745;
constexpr double kG4 = 0.13819660112501053;
// Kernel radius^2: as in 2D and 3D, the largest for which a corner's kernel vanishes before
// the point leaves the simplexes around that corner, so the sum is continuous.
constexpr double kRadius2 = 0.5;
constexpr double kSimplex4Scale = 62.77;

}  // namespace terragrid::noise4d
