#pragma once
// The SIMD inner loops of NoiseRows (rows.cpp), compiled for every x86-64 instruction set
// Highway targets and dispatched at run time (private to src/noise).
//
// Arrays are padded: column arrays to a multiple of kRowPadding entries (the padding repeats
// the last column), per-cell arrays by kRowPadding entries beyond the last cell.

#include "terragrid/noise.hpp"

#include <cstddef>
#include <cstdint>

namespace terragrid::rows {

/// More than the lanes of any target (8 doubles in AVX-512).
inline constexpr std::size_t kRowPadding = 16;

/// One octave's term, amplitude * term(n), added to a row of sums.
struct Accumulate {
    FractalKind fractal;
    double amplitude;
    double* sum;
    std::size_t count;  ///< columns, a multiple of kRowPadding
};

/// Value or Perlin noise of one row from per-cell coefficients (separable.hpp).
struct SeparableRow {
    const double* fx;         ///< per column: fraction in the lattice cell
    const double* fade;       ///< per column: fade(fx)
    const std::int64_t* cell; ///< per column: index of its cell in the row's cell arrays;
                              ///< never grows by more than 1 from one column to the next
    const double* p;          ///< per cell coefficients
    const double* q;          ///< null for value noise
    const double* r;
    const double* s;          ///< null for value noise
};
void accumulateSeparable(const SeparableRow& row, const Accumulate& into);

/// The cells' coefficients of one row: corners' gradients (Perlin) or values (value noise,
/// in gx*, with gy* null) at (ix, iy) .. (ix + 1, iy + 1) for `count` cells.
struct CornerRows {
    const double* gx00; const double* gy00;
    const double* gx10; const double* gy10;
    const double* gx01; const double* gy01;
    const double* gx11; const double* gy11;
    double fy, v;
    std::size_t count;  ///< a multiple of kRowPadding
};
void perlinCoefficients(const CornerRows& c, double* p, double* q, double* r, double* s);
void valueCoefficients(const CornerRows& c, double* p, double* r);

/// 2D simplex noise of one row: xs are the columns' lattice x coordinates, y the row's.
struct SimplexRow {
    const double* xs;
    double y;
    HashKind hash;
    std::uint64_t key;          ///< LatticeHash::key() (lattice hash)
    const std::int64_t* perm;   ///< 512 entries (permutation hashes)
};
void accumulateSimplex(const SimplexRow& row, const Accumulate& into);

}  // namespace terragrid::rows
