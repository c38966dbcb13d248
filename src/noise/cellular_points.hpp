#pragma once
// Cellular noise's feature points and search block (private to src/noise): the scalar
// reference (cellular.cpp) and the SIMD point kernels (point_kernels.cpp) take them from here,
// so both see the same points.

#include <cstdint>

#include "terragrid/noise/noise.hpp"

namespace terragrid::cellular {

/// The block searched around the sample's cell: offsets -2..2 on both axes, the inner 3 x 3
/// first, so the outer ring can be skipped by its distance bound (cellular.cpp says why 5 x 5
/// always holds the two nearest points).
constexpr int kInnerReach = 1;
constexpr int kOuterReach = 2;

/// A feature point in its cell's local coordinates, [0, 1) on each axis.
struct Point {
    double x, y;
};

/// Cell (ix, iy)'s feature point: the cell centre moved by up to jitter / 2 along each axis.
/// Two hashes of the cell (third coordinate 0 and 1) give the two axes, so every HashKind
/// works (the permutation kinds carry only 8 bits per hash).
inline Point featurePoint(std::int64_t ix, std::int64_t iy, double jitter,
                          const LatticeHash& h) noexcept {
    return {0.5 + jitter * (h.unit(h(ix, iy, 0)) - 0.5),
            0.5 + jitter * (h.unit(h(ix, iy, 1)) - 0.5)};
}

}  // namespace terragrid::cellular
