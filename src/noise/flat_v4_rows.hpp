#pragma once
// Version 4's rows and points of flat maps' value and Perlin noise in float lanes
// (flat_v4_rows.cpp), compiled for every x86-64 instruction set Highway targets and dispatched
// at run time; RowPlan (flat_v4_plan.cpp) plans the rows, NoiseRows (rows.cpp) uses both
// (private to src/noise).
//
// The rows keep the separable form's split (separable-inl.hpp, as versions 1 to 3's double
// rows): per tile and octave, each column's fraction, fade and cell; per row, the coefficients
// of the cells the row crosses; per column a polynomial of its fraction and fade. Arrays are
// padded as rows_kernels.hpp says (kRowPadding).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "terragrid/noise/noise.hpp"

#include "noise/flat_v4.hpp"
#include "noise/rows_kernels.hpp"

namespace terragrid::flat_v4 {

/// The cells one row of one octave crosses: their coefficients from their corners.
struct CellRow {
    NoiseKind noise;
    /// Per cell: premix(low(ix) kHashX), the column part of its left corners' hash input
    /// (curved_v4::premix distributes over the input's parts), and that of its right corners
    /// (index ix + 1, or 0 where a tiling layer wraps).
    const std::uint32_t* left;
    const std::uint32_t* right;
    std::size_t cells;  ///< whole vectors are computed, into the padding
    /// premix(low(iy) kHashY + key): the row's part, key the octave's curved_v4::originKey;
    /// `top` the same for the row's upper corners (iy + 1, or 0 where the layer wraps).
    std::uint32_t bottom;
    std::uint32_t top;
    float fy;          ///< the row's fraction in its lattice cell
    FadeCurve fade;    ///< the layer's (the kernel fades fy)
    float* p;
    float* q;  ///< (Perlin only)
    float* r;
    float* s;  ///< (Perlin only)
};
void fillCells(const CellRow& row);

/// out[c] = curved_v4::fade(curve, t[c]) for c < count (a multiple of kRowPadding).
void fadeColumns(FadeCurve curve, const float* t, float* out, std::size_t count);

/// One octave of a row: the columns' split (per tile) and the cells' coefficients (per row).
struct Octave {
    const float* frac;          ///< per column: fraction in its lattice cell
    const float* fade;          ///< per column: its fade
    const std::int32_t* cell;   ///< per column: its cell's entry in p, q, r, s; grows by at
                                ///< most 1 from one column to the next
    const float* p;
    const float* q;
    const float* r;
    const float* s;
    float amplitude;
};

/// A whole row: every octave's noise at every column, summed and normalised in float as
/// NoiseField::unwarpedFloat does, widened into out[0, columns).
struct Row {
    NoiseKind noise;
    FractalKind fractal;  ///< the summed one (lattice::summedFractal): none, fbm, turbulence, ridged
    int octaves;
    const Octave* octave;
    float scale;          ///< simplex_v3::normaliseScale
    std::size_t columns;  ///< a multiple of kRowPadding
    float* sums;          ///< columns floats, aligned to 64 bytes: the octaves' sum
    double* out;
};
void evaluateRow(const Row& row);

/// NoiseField::unwarpedFloat at `count` points (xs[i], ys[i]) each its own (a warped layer's
/// moved points): each octave's lattice coordinates split per vector of double lanes, two such
/// vectors' splits combined into one float vector for the cell; a vector with an index beyond
/// curved_v4::kIndexBound takes flat_v4::noise per lane for that octave. A tiling layer's
/// indices are wrapped per lane (flat_v4::wrapped), always within the bound.
using TilingOctave = rows::TilingOctave;

struct Points {
    NoiseKind noise;
    FractalKind fractal;  ///< the summed one
    FadeCurve fade;
    int octaves;
    const rows::PointOctave* octave;
    const std::uint32_t* keys;  ///< per octave: curved_v4::originKey
    float scale;
    double offsetX, offsetY;
    const double* xs;
    const double* ys;
    std::size_t count;  ///< a multiple of kRowPadding
    double* out;
    /// Per octave where the layer tiles by its lattice (NoiseField::tiles): its wrap; else null.
    const TilingOctave* tiling = nullptr;
};
void evaluatePoints(const Points& points);

/// One octave of a layer as NoiseField holds it.
struct OctaveParams {
    double frequency;
    double frequencyY;  ///< frequency, but where the layer tiles
    double amplitude;
    double shiftX, shiftY;
    const LatticeHash* hash;
    Cells cells;  ///< where the layer tiles: cells across its period; else {0, 0}
};

/// NoiseRows' version 4 path for flat value and Perlin layers: the arrays a layer's rows on one
/// set of columns (a tile's) reuse.
class RowPlan {
public:
    /// `xs`: the columns' world x, `columns` of them, a multiple of kRowPadding.
    RowPlan(const NoiseParams& params, double amplitudeSum, std::vector<OctaveParams> octaves,
            const double* xs, std::size_t columns);
    /// out[0, columns) = the normalised fractal sum on row y (no marble stripes); false, with
    /// out untouched, where a lattice index leaves curved_v4::kIndexBound (the caller samples
    /// the row).
    bool row(double y, double* out);

private:
    struct Plan {
        std::vector<float> frac, fade;
        std::vector<std::int32_t> cell;
        std::vector<std::uint32_t> left, right;
        std::vector<float> p, q, r, s;
        std::uint32_t key = 0;
    };

    NoiseParams m_params;
    std::vector<OctaveParams> m_octaveParams;
    std::size_t m_columns;
    float m_scale;
    bool m_bounded = true;  ///< every column's index within curved_v4::kIndexBound, every octave
    std::vector<Plan> m_plans;
    std::vector<Octave> m_octaves;
    std::vector<float> m_sums;  ///< Row::sums, 16 floats over for the alignment
};

}  // namespace terragrid::flat_v4
