#pragma once
// The SIMD inner loops of NoiseRows (rows.cpp), compiled for every x86-64 instruction set
// Highway targets and dispatched at run time (private to src/noise).
//
// Arrays are padded: column arrays to a multiple of kRowPadding entries (the padding repeats
// the last column), per-cell arrays by kRowPadding entries beyond the last cell.

#include "terragrid/noise/noise.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace terragrid::rows {

/// More than the lanes of any target (8 doubles in AVX-512).
inline constexpr std::size_t kRowPadding = 16;

/// One octave of value or Perlin noise on one row, from per-cell coefficients
/// (separable-inl.hpp).
struct SeparableOctave {
    const double* fx;          ///< per column: fraction in the lattice cell
    const double* fade;        ///< per column: fade(fx)
    const std::int64_t* cell;  ///< per column: index of its cell in the coefficient arrays;
                               ///< grows by at most 1 from one column to the next
    const double* p;           ///< per cell coefficients
    const double* q;           ///< (Perlin only)
    const double* r;
    const double* s;  ///< (Perlin only)
    double amplitude;
};

/// One octave of simplex noise on one row.
struct SimplexOctave {
    const double* xs;  ///< per column: lattice x coordinate
    double y;          ///< the row's lattice y coordinate
    std::uint64_t key;         ///< LatticeHash::key() (lattice hash)
    const std::int64_t* perm;  ///< 512 entries (permutation hashes)
    double amplitude;
};

/// A whole row: every octave's term summed per column, then normalised as
/// NoiseField::normalise does, into out[0, columns).
struct Row {
    NoiseKind noise;
    FractalKind fractal;
    HashKind hash;
    int octaves;
    const SeparableOctave* separable;  ///< value / Perlin
    const SimplexOctave* simplex;      ///< simplex
    double amplitudeSum;
    std::size_t columns;  ///< a multiple of kRowPadding
    double* out;
};
void evaluateRow(const Row& row);

/// One octave of a layer at arbitrary points (NoiseField::Octave's parts a kernel reads).
struct PointOctave {
    double frequency;
    double shiftX, shiftY;
    double amplitude;
    std::uint64_t key;         ///< LatticeHash::key() (lattice hash)
    /// LatticeHashParts::key32 of high halves (0, 0): the 32-bit hash's key of every corner
    /// within +-(2^31 - 2) lattice cells (versions 2 and 3 simplex's points within the bound).
    std::uint32_t originKey32;
    const std::int64_t* perm;  ///< 512 entries (permutation hashes)
    const LatticeHash* hash;   ///< the octave's hash itself (cellular noise's feature points)
};

/// NoiseField::unwarped at `count` points (xs[i], ys[i]) each its own (a warped layer's moved
/// points, or the row of a layer without a separable form) into out: value, Perlin, simplex,
/// generic lattice or cellular noise; fractal none, fbm, turbulence or ridged.
struct Points {
    NoiseKind noise;
    bool simplexV2;  ///< simplexNoiseV2 (lattice::usesSimplexV2), not simplexNoise
    FractalKind fractal;
    HashKind hash;
    FadeCurve fade;
    Proximity proximity;  ///< generic lattice noise only
    /// Cellular noise only: what it returns, its metric, jitter and cellularBound.
    CellularReturn cellularReturn;
    CellularDistance cellularDistance;
    double cellularJitter;
    double cellularBound;
    int octaves;
    const PointOctave* octave;
    double offsetX, offsetY;
    double amplitudeSum;
    const double* xs;
    const double* ys;
    std::size_t count;  ///< a multiple of kRowPadding
    double* out;
};
void evaluatePoints(const Points& points);

/// One octave of version 2 simplex noise (simplexNoiseV2) on one row, added into a sum: for
/// each column, sum[c] += amplitude * term(noise), term the fractal's octave term. The
/// skewed coordinates are split per column (a = x (1 + F), b = x F) and per row (c = y F,
/// d = y (1 + F)); valid when every lattice point the row can touch shares the high halves of
/// its indices, whose key32 is `key`. The hash's input lo(i) kHashX + lo(j) kHashY + key
/// (modulo 2^32) is split the same way: a per-column part, a per-row part, and the carries.
struct SimplexV2Octave {
    const float* fracA;  ///< per column
    const float* fracB;
    const std::uint32_t* lowA;  ///< per column: low 32 bits of the index
    const std::uint32_t* lowB;
    const std::uint32_t* hashAB;  ///< per column: lowA kHashX + lowB kHashY (version 3: times
                                  ///< simplex_v3::kGradientMix1)
    const std::uint32_t* run;     ///< per column: columns from it on with its (lowA, lowB)
    float fracC, fracD;  ///< the row's
    std::uint32_t lowC, lowD;
    std::uint32_t key;
    std::uint32_t hashCD;  ///< lowC kHashX + lowD kHashY + key
    double amplitude;
    FractalKind fractal;  ///< none, fbm, turbulence or ridged
    std::size_t columns;  ///< a multiple of kRowPadding
    double* sum;
};
void addSimplexV2Octave(const SimplexV2Octave& octave);

/// A whole row of a simplex layer summed in float (NoiseField::unwarpedFloat): per vector of
/// float lanes every octave's noise, its term summed with a fused multiply-add, then
/// normalised, into out[0, columns) as doubles. simplex_v3_rows.cpp. Version 3's octaves
/// (SimplexV3Row: simplexNoiseV3 from the octave's split as for version 2; its `sum` is not
/// used, its amplitude is read as float) or version 6's tiling ones (SimplexTilingRow).
template <class Octave>
struct SimplexFloatRow {
    const Octave* octave;
    int octaves;
    FractalKind fractal;  ///< the summed fractal: none, fbm, turbulence or ridged
    float scale;          ///< simplex_v3::normaliseScale
    std::size_t columns;  ///< a multiple of kRowPadding
    float* sums;          ///< columns floats, aligned to the vector size (the octaves' sum)
    double* out;
};
using SimplexV3Row = SimplexFloatRow<SimplexV2Octave>;
void evaluateSimplexV3Row(const SimplexV3Row& row);

/// One octave of a version 6 tiling simplex layer (simplexTilingV6) on one row. The skewed x is
/// split per column (the split of u) and per row (of v); the skewed y, the split of 2v, is the
/// row's alone. Per column: the fraction, the index reduced into [0, cells), and that index
/// times kHashX kGradientMix1. Per row: its lattice row j and the next, each with the row's
/// part of x's index (the split of v's, less m per period j stepped over, reduced into
/// [0, cells)) and of the hash input (that part times kHashX, plus j's representative times
/// kHashY and the key, all times kGradientMix1).
struct SimplexTilingOctave {
    const float* frac;            ///< per column
    const std::int32_t* index;    ///< per column, in [0, cells)
    const std::uint32_t* hash;    ///< per column
    float fracRow, fracY;         ///< the row's part of x's fraction, and y's fraction
    std::int32_t cells;           ///< n, at most 2^30
    std::int32_t indexBottom, indexTop;   ///< in [0, cells): lattice rows j and j + 1
    std::uint32_t hashBottom, hashTop;
    double amplitude;
};

using SimplexTilingRow = SimplexFloatRow<SimplexTilingOctave>;
void evaluateSimplexTilingRow(const SimplexTilingRow& row);

/// A tiling layer's octave as the point kernels read it beside PointOctave (whose frequency is
/// the one along x): its frequency down the map and its cells (NoiseField::Octave's).
struct TilingOctave {
    double frequencyY;
    std::array<std::int64_t, 2> cells;
};

/// NoiseField::unwarpedFloat at `count` points (xs[i], ys[i]) each its own (a warped
/// version 3 or 6 simplex layer's moved points) into out: per vector of double lanes, each octave's
/// point split as simplexNoiseV3 splits it, its cell in float lanes as many, the terms summed
/// in float. simplex_v3_rows.cpp.
struct SimplexV3Points {
    const PointOctave* octave;
    int octaves;
    FractalKind fractal;  ///< the summed fractal: none, fbm, turbulence or ridged
    float scale;          ///< simplex_v3::normaliseScale
    double offsetX, offsetY;
    const double* xs;
    const double* ys;
    std::size_t count;  ///< a multiple of kRowPadding
    double* out;
    /// Per octave where the layer tiles by its lattice (version 6): simplexTilingV6 at the
    /// points; else null.
    const TilingOctave* tiling = nullptr;
};
void evaluateSimplexV3Points(const SimplexV3Points& points);

/// sums[c] = NoiseField::normalise(sums[c]) for c < columns (a multiple of kRowPadding).
void normaliseRow(FractalKind fractal, double amplitudeSum, double* sums, std::size_t columns);

/// The corners of `count` cells at lattice row iy for the lattice hash: from the
/// x halves of the hash at each cell's left and right corner (LatticeHashParts::xPart), the
/// gradients (Perlin) or the values (value noise, in leftX / rightX) of those corners.
struct CornerFill {
    const std::uint64_t* left;
    const std::uint64_t* right;  ///< null: fill the left corners only
    std::size_t count;  ///< cells; whole vectors are computed, into the padding
    std::int64_t iy;
    NoiseKind noise;
    double* leftX; double* leftY;
    double* rightX; double* rightY;
};
void fillCorners(const CornerFill& fill);

/// out[c] = fade(curve, t[c]) (value.cpp) for c < count, a multiple of kRowPadding.
void fadeColumns(FadeCurve curve, const double* t, double* out, std::size_t count);

/// The cells' row coefficients: the corners' gradients (Perlin) or values (value noise, in
/// gx*; gy* unused) at (ix, iy) .. (ix + 1, iy + 1).
struct CornerRows {
    const double* gx00; const double* gy00;
    const double* gx10; const double* gy10;
    const double* gx01; const double* gy01;
    const double* gx11; const double* gy11;
    double fy, v;
    std::size_t count;  ///< cells; whole vectors are computed, into the padding
};
void perlinCoefficients(const CornerRows& c, double* p, double* q, double* r, double* s);
void valueCoefficients(const CornerRows& c, double* p, double* r);

}  // namespace terragrid::rows
