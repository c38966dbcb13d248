#pragma once
// Version 4's rows of planets and tileable maps in float lanes (curved_v4_rows.cpp), compiled
// for every x86-64 instruction set Highway targets and dispatched at run time; CurvedRows
// (curved_rows.cpp) plans them (private to src/noise).

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "terragrid/noise/noise.hpp"

namespace terragrid::curved_v4 {

/// Per-column arrays of one octave, kPadding-aligned lengths: each lane axis's lattice index,
/// low 32 bits, and fraction (curved_v4.hpp's split). Perlin and value noise have two lane axes
/// (x and y; z and w are the row's), simplex noise all of them, skewed.
struct Columns {
    std::array<float*, 6> frac{};  ///< (six: PointTorusSkew's parts)
    std::array<std::uint32_t*, 6> low{};
    /// A torus's Perlin noise (its columns split once per tile): x's and y's fades, and the hash
    /// input of x's and y's low halves, premultiplied by kGradientMix1.
    std::array<float*, 2> fade{};
    std::uint32_t* origin = nullptr;
};

/// How fillColumns splits a column (p the column's point (p[0][c], p[1][c]): on a sphere the
/// row radius times the column's pair, on a torus the pair itself; u_d = (p_d f +
/// offset[d]) + shift[d] its lattice coordinates):
///   Lattice:   u_0 and u_1 (Perlin and value noise; the row's axes are split per row);
///   Skewed3:   a sphere's simplex cell, u_d + s for d < 3, s = ((u_0 + u_1) + rowU[0]) F3 and
///              u_2 = rowU[0];
///   TorusSkew: the columns' part of a torus's simplex skew (curved_v4.cpp's skewedCell4):
///              u_0 + cs, u_1 + cs and cs, cs = (u_0 + u_1) F4.
/// and for points each with its own z (and w: p[2], p[3], a warped layer's moved points; u_2 =
/// (p_2 f + 0) + shift[2], u_3 likewise):
///   PointLattice:   u_0, u_1 and u_2 (a planet's Perlin and value noise);
///   PointSkewed3:   as Skewed3 with the lane's u_2 for rowU[0];
///   PointTorusSkew: a torus's simplex skew, both parts in the lanes: u_0 + cs, u_1 + cs, cs,
///                   rs, u_2 + rs and u_3 + rs, rs = (u_2 + u_3) F4 (six axes).
enum class Split : unsigned char { Lattice, Skewed3, TorusSkew, PointLattice, PointSkewed3, PointTorusSkew };

struct Fill {
    const double* p[4];  ///< p[2], p[3]: the Point splits' z and w
    std::size_t columns;  ///< a multiple of kPadding
    double frequency;
    std::array<double, 2> offset;
    std::array<double, 4> shift;
    Split split;
    double rowU;  ///< Skewed3: the row's lattice coordinate z
    /// Whether the lanes check the bound below (else the caller has bounded the coordinates).
    bool checked;
    /// Lattice: also out.fade (with this curve) and out.origin, when out.origin is set.
    FadeCurve fade;
    Columns out;
};
/// A torus's simplex skew adds a row's part to a column's, each below kTorusSkewBound, so that
/// their sum stays within kIndexBound (curved_v4.hpp).
inline constexpr std::int64_t kTorusSkewBound = (std::int64_t{1} << 30) - 2;

/// Splits the columns; if `checked`, false where a lane's index lies outside (-2^31 + 2, 2^31 - 2) (TorusSkew:
/// (-2^30 + 2, 2^30 - 2), the row's part being added), where the rows' shared hash key does not hold
/// (the caller then takes the scalar reference).
bool fillColumns(const Fill& fill);

/// One octave as a row's lanes see it.
struct Octave {
    Columns columns;
    /// The row's part, split: fraction, fade and low 32 bits of the index. Perlin and value
    /// noise: the row's axes (z; z and w); a torus's simplex skew: rs, z + rs and w + rs
    /// (curved_v4.cpp's skewedCell4).
    std::array<float, 3> rowFrac{};
    std::array<float, 3> rowFade{};
    std::array<std::uint32_t, 3> rowLow{};
    std::uint32_t key = 0;  ///< curved_v4::key of high halves 0 (the octave's hash)
    float amplitude = 0.0f;
};

/// A whole row: every octave's noise at every column, summed and normalised in float, widened.
struct Row {
    NoiseKind noise;
    FractalKind fractal;  ///< the summed one (lattice::summedFractal)
    FadeCurve fade;
    int dimensions;
    int octaves;
    const Octave* octave;
    float scale;  ///< simplex_v3::normaliseScale
    std::size_t columns;  ///< a multiple of kPadding
    float* sums;  ///< 2 columns floats: the sums, then one octave's noise
    double* out;
    /// Points each with its own z (the Point splits): 3D value and Perlin noise take z from the
    /// lanes' third axis instead of the row's.
    bool laneZ = false;
};
void evaluateRow(const Row& row);

/// One octave of a layer as NoiseField holds it.
struct OctaveParams {
    double frequency;
    double amplitude;
    std::array<double, 4> shift;
    const LatticeHash* hash;
};

/// CurvedRows' version 4 path for a warped layer on a planet (any noise) or a torus (simplex):
/// the layer at its moved points, each its own 3D or 4D point, through the rows' kernels (every
/// axis split per lane).
class PointPlan {
public:
    /// Whether the kernels take `params`' moved points in `dimensions` (3, or 4 for simplex).
    static bool serves(const NoiseParams& params, int dimensions);
    PointPlan(const NoiseParams& params, double amplitudeSum, std::vector<OctaveParams> octaves,
              int dimensions, std::size_t count);
    /// out[i] = the normalised fractal sum at (p[0][i], p[1][i], p[2][i] (, p[3][i])), i <
    /// count (a multiple of kPadding; no marble stripes); false, with out untouched, where a
    /// lattice index leaves the rows' bound (the caller takes the reference).
    bool points(const std::array<const double*, 4>& p, double* out);

private:
    NoiseParams m_params;
    std::vector<OctaveParams> m_octaveParams;
    int m_dimensions;
    std::size_t m_count;
    float m_scale;
    std::vector<float> m_frac;          ///< octaves x 6 axes x count
    std::vector<std::uint32_t> m_low;   ///< the same
    std::vector<Octave> m_octaves;
    std::vector<float> m_sums;          ///< Row::sums
};

/// CurvedRows' version 4 path: the arrays a layer's rows on one set of columns reuse.
class RowPlan {
public:
    /// `a`, `b`: the columns' pairs (curved_rows.hpp), `columns` of them, a multiple of
    /// kPadding; they must outlive the plan.
    RowPlan(const NoiseParams& params, double amplitudeSum, std::vector<OctaveParams> octaves,
            bool torus, const double* a, const double* b, std::size_t columns);
    /// out[0, columns) = the normalised fractal sum at the row's points (no marble stripes);
    /// false, with out untouched, where a lattice index leaves the rows' bound (fillColumns).
    bool row(double A, double B, double* out);

private:
    bool bounded(const OctaveParams& o, double A, double rowU) const;
    void placeRow(double A);
    bool fill(std::size_t octave, double A, double rowU);
    bool splitRow(Octave& o, const std::array<double, 2>& rowU) const;

    NoiseParams m_params;
    std::vector<OctaveParams> m_octaveParams;
    bool m_torus;
    const double* m_a;
    const double* m_b;
    std::size_t m_columns;
    float m_scale;
    std::array<double, 2> m_largest{};  ///< the largest |a| and |b| of the columns
    std::vector<float> m_frac;          ///< octaves x 4 axes x columns
    std::vector<std::uint32_t> m_low;   ///< the same
    std::vector<float> m_fade;          ///< a torus's Perlin: octaves x 2 axes x columns
    std::vector<std::uint32_t> m_origin;  ///< ... and octaves x columns (Columns::origin)
    std::vector<Octave> m_octaves;
    std::vector<float> m_sums;          ///< Row::sums
    std::vector<double> m_points;       ///< a sphere's row: A a_c, then A b_c (the points' x, y)
    /// A torus's columns are split once: -1 not yet, else whether they were within the bound.
    int m_fixedColumns = -1;
};

}  // namespace terragrid::curved_v4
