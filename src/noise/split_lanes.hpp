#pragma once
// lattice::splitFloat over an array, in SIMD lanes (split_lanes.cpp, compiled for every x86-64
// target Highway has and dispatched at run time): what the rows split once per tile (each
// column's skewed coordinates) and once per row (each octave's), which the scalar floor of
// the baseline target made 3 % of version 3's simplex rows (private to src/noise).

#include <cstddef>
#include <cstdint>

namespace terragrid::split_lanes {

/// index[i], frac[i] = lattice::splitFloat(x[i] * scale) for i < n, the same bits.
void splitScaled(const double* x, double scale, std::size_t n, std::int64_t* index, float* frac);

}  // namespace terragrid::split_lanes
