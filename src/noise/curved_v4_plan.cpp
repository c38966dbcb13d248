// RowPlan: version 4's rows of a layer on one set of columns (a tile's): the per-octave arrays
// the SIMD kernels (curved_v4_rows.cpp) split the columns into, and the row's own axes, split
// here as curved_v4.cpp's scalar reference splits them.

#include <algorithm>
#include <cmath>
#include <utility>

#include "noise/curved_v4.hpp"
#include "noise/curved_v4_rows.hpp"
#include "noise/lattice.hpp"

namespace terragrid::curved_v4 {

namespace {

// A row axis's lattice coordinate as NoiseField::unwarped computes it (its offset is 0).
double rowCoordinate(double p, const OctaveParams& o, int axis) {
    return (p * o.frequency + 0.0) + o.shift[static_cast<std::size_t>(axis)];
}

// An octave's arrays in the plans' per-octave blocks (`axes` arrays of `count` floats and
// low halves each, from `frac` and `low`), its key and its amplitude.
void bindOctave(Octave& o, const OctaveParams& params, float* frac, std::uint32_t* low, std::size_t axes,
                std::size_t count) {
    for (std::size_t axis = 0; axis < axes; ++axis) {
        o.columns.frac[axis] = frac + axis * count;
        o.columns.low[axis] = low + axis * count;
    }
    o.key = originKey(*params.hash);
    o.amplitude = static_cast<float>(params.amplitude);
}

Split splitOf(const NoiseParams& params, bool torus) {
    if (params.noise != NoiseKind::Simplex) return Split::Lattice;
    return torus ? Split::TorusSkew : Split::Skewed3;
}

}  // namespace

RowPlan::RowPlan(const NoiseParams& params, double amplitudeSum, std::vector<OctaveParams> octaves,
                 bool torus, const double* a, const double* b, std::size_t columns)
    : m_params(params),
      m_octaveParams(std::move(octaves)),
      m_torus(torus),
      m_a(a),
      m_b(b),
      m_columns(columns),
      m_scale(simplex_v3::normaliseScale(lattice::summedFractal(params.fractal), amplitudeSum)) {
    const std::size_t count = m_octaveParams.size();
    m_frac.resize(count * 4 * columns);
    m_low.resize(count * 4 * columns);
    m_sums.resize(2 * columns);
    if (!torus) m_points.resize(2 * columns);
    for (std::size_t c = 0; c < columns; ++c) {
        m_largest[0] = std::max(m_largest[0], std::fabs(a[c]));
        m_largest[1] = std::max(m_largest[1], std::fabs(b[c]));
    }
    m_octaves.resize(count);
    // A torus's Perlin noise keeps its columns' fades and hash inputs too: the split is made
    // once per tile (Columns).
    const bool prepared = torus && splitOf(params, torus) == Split::Lattice;
    if (prepared) {
        m_fade.resize(count * 2 * columns);
        m_origin.resize(count * columns);
    }
    for (std::size_t i = 0; i < count; ++i) {
        Octave& o = m_octaves[i];
        bindOctave(o, m_octaveParams[i], m_frac.data() + 4 * i * columns, m_low.data() + 4 * i * columns, 4,
                   columns);
        if (prepared) {  // (data() + offset: a window of no columns has empty arrays)
            o.columns.fade = {m_fade.data() + 2 * i * columns, m_fade.data() + (2 * i + 1) * columns};
            o.columns.origin = m_origin.data() + i * columns;
        }
    }
}

// Whether every lane's split lies well inside fillColumns' bound, from the largest column
// coordinates: then the lanes need not check it. A bound of the sums, with a margin far beyond
// their rounding errors; near the bound the lanes check each index themselves.
bool RowPlan::bounded(const OctaveParams& o, double A, double rowU) const {
    const double scale = m_torus ? 1.0 : std::fabs(A);
    const double x = (scale * m_largest[0] * o.frequency + std::fabs(m_params.offsetX)) + o.shift[0];
    const double y = (scale * m_largest[1] * o.frequency + std::fabs(m_params.offsetY)) + o.shift[1];
    double largest = std::max(x, y);
    switch (splitOf(m_params, m_torus)) {
    case Split::Lattice:
        break;
    case Split::Skewed3:  // z = rowU + s too
        largest = std::max(largest, std::fabs(rowU)) + (x + y + std::fabs(rowU)) * simplex::kF3;
        break;
    case Split::TorusSkew:
        largest += (x + y) * noise4d::kF4;
        return largest * (1.0 + 1e-9) + 4.0 < static_cast<double>(kTorusSkewBound);
    case Split::PointLattice:  // (PointPlan's, which checks every lane)
    case Split::PointSkewed3:
    case Split::PointTorusSkew:
        return false;
    }
    return largest * (1.0 + 1e-9) + 4.0 < static_cast<double>(kIndexBound);
}

bool RowPlan::fill(std::size_t octave, double A, double rowU) {
    const OctaveParams& o = m_octaveParams[octave];
    const double* x = m_torus ? m_a : m_points.data();
    const double* y = m_torus ? m_b : m_points.data() + m_columns;
    const Fill f{{x, y, nullptr, nullptr},
                 m_columns,
                 o.frequency,
                 {m_params.offsetX, m_params.offsetY},
                 {o.shift[0], o.shift[1], 0.0, 0.0},
                 splitOf(m_params, m_torus),
                 rowU,
                 !bounded(o, A, rowU),
                 m_params.fade,
                 m_octaves[octave].columns};
    return fillColumns(f);
}

bool RowPlan::splitRow(Octave& o, const std::array<double, 2>& rowU) const {
    const auto put = [&](std::size_t k, double u, std::int64_t bound) {
        const lattice::FloatCoord c = lattice::splitFloat(u);
        o.rowFrac[k] = c.frac;
        o.rowFade[k] = fade(m_params.fade, c.frac);
        o.rowLow[k] = Parts::low(c.index);
        return withinBound(c.index, bound);
    };
    switch (splitOf(m_params, m_torus)) {
    case Split::Lattice:
        return put(0, rowU[0], kIndexBound) && (!m_torus || put(1, rowU[1], kIndexBound));
    case Split::TorusSkew: {
        // curved_v4.cpp's skewedCell4: the row's part of the skew.
        const double rs = (rowU[0] + rowU[1]) * noise4d::kF4;
        return put(0, rs, kTorusSkewBound) && put(1, rowU[0] + rs, kTorusSkewBound) &&
               put(2, rowU[1] + rs, kTorusSkewBound);
    }
    case Split::Skewed3:
        return true;  // the row's z is part of every column's skew (fill)
    case Split::PointLattice:  // (PointPlan's: no row)
    case Split::PointSkewed3:
    case Split::PointTorusSkew:
        return false;
    }
    return true;
}

// A sphere's points on the row, as the reference builds them: (A a_c, A b_c), once for every
// octave's split.
void RowPlan::placeRow(double A) {
    for (std::size_t c = 0; c < m_columns; ++c) {
        m_points[c] = A * m_a[c];
        m_points[m_columns + c] = A * m_b[c];
    }
}

bool RowPlan::row(double A, double B, double* out) {
    if (!m_torus) placeRow(A);
    for (std::size_t i = 0; i < m_octaves.size(); ++i) {
        const OctaveParams& o = m_octaveParams[i];
        // The point's row coordinates: (A a_c .., B) on a sphere, (.., A, B) on a torus.
        const std::array<double, 2> rowU =
            m_torus ? std::array<double, 2>{rowCoordinate(A, o, 2), rowCoordinate(B, o, 3)}
                    : std::array<double, 2>{rowCoordinate(B, o, 2), 0.0};
        if (!splitRow(m_octaves[i], rowU)) return false;
        // A torus's columns are the same points on every row: split once.
        if (m_torus && m_fixedColumns >= 0) continue;
        if (!fill(i, A, rowU[0])) {
            if (m_torus) m_fixedColumns = 0;
            return false;
        }
    }
    if (m_torus) {
        if (m_fixedColumns == 0) return false;
        m_fixedColumns = 1;
    }
    evaluateRow({m_params.noise, lattice::summedFractal(m_params.fractal), m_params.fade,
                 m_torus ? 4 : 3, static_cast<int>(m_octaves.size()), m_octaves.data(), m_scale,
                 m_columns, m_sums.data(), out});
    return true;
}

bool PointPlan::serves(const NoiseParams& params, int dimensions) {
    return usesCurvedV4(params) && (dimensions == 3 || params.noise == NoiseKind::Simplex);
}

PointPlan::PointPlan(const NoiseParams& params, double amplitudeSum, std::vector<OctaveParams> octaves,
                     int dimensions, std::size_t count)
    : m_params(params),
      m_octaveParams(std::move(octaves)),
      m_dimensions(dimensions),
      m_count(count),
      m_scale(simplex_v3::normaliseScale(lattice::summedFractal(params.fractal), amplitudeSum)),
      m_frac(m_octaveParams.size() * 6 * count),
      m_low(m_octaveParams.size() * 6 * count),
      m_octaves(m_octaveParams.size()),
      m_sums(2 * count) {
    for (std::size_t i = 0; i < m_octaves.size(); ++i)
        bindOctave(m_octaves[i], m_octaveParams[i], m_frac.data() + 6 * i * count, m_low.data() + 6 * i * count,
                   6, count);
}

bool PointPlan::points(const std::array<const double*, 4>& p, double* out) {
    const bool simplex = m_params.noise == NoiseKind::Simplex;
    const Split split = m_dimensions == 4 ? Split::PointTorusSkew
                        : simplex          ? Split::PointSkewed3
                                           : Split::PointLattice;
    for (std::size_t i = 0; i < m_octaves.size(); ++i) {
        const OctaveParams& o = m_octaveParams[i];
        // Moved points have no bound known beforehand: the lanes check every index.
        const Fill f{{p[0], p[1], p[2], p[3]}, m_count, o.frequency, {m_params.offsetX, m_params.offsetY},
                     o.shift, split, 0.0, true, m_params.fade, m_octaves[i].columns};
        if (!fillColumns(f)) return false;
    }
    evaluateRow({m_params.noise, lattice::summedFractal(m_params.fractal), m_params.fade, m_dimensions,
                 static_cast<int>(m_octaves.size()), m_octaves.data(), m_scale, m_count, m_sums.data(),
                 out, true});
    return true;
}

}  // namespace terragrid::curved_v4
