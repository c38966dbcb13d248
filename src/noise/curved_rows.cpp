// CurvedRows: a NoiseField over rows of a sphere or a torus, and the per-octave cache of
// lattice cells its SIMD kernel (curved_rows_kernels.cpp) draws the corners' hashes from.
//
// On these surfaces a point's lattice cell depends on its column and its row together (the
// sphere's x and y shrink with the latitude; simplex cells are skewed across all axes), so
// nothing like NoiseRows' per-column hash halves exists. But at the octaves that matter a
// lattice cell spans several columns and rows: hashing each cell once, when a lane first
// meets it, leaves the lanes only the noise's arithmetic.

#include "terragrid/noise/curved_rows.hpp"

#include "terragrid/noise/detail/lattice_hash_parts.hpp"

#include "noise/curved_rows_kernels.hpp"
#include "noise/curved_v4.hpp"
#include "noise/curved_v4_rows.hpp"
#include "noise/lattice.hpp"
#include "noise/simd_support.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>

namespace terragrid {

namespace curved {

namespace {

using HashParts = detail::LatticeHashParts;

/// lattice::grad3 as selector bits (the kernel's grad3 reads them): bit 0, the first term is
/// y (else x); bit 1, the second is x; bit 2, the second is z (neither: y); bits 3 and 4
/// negate the first and the second.
constexpr std::uint8_t gradient3Code(std::uint32_t hash) noexcept {
    const std::uint32_t h = hash & 15u;
    const bool secondX = h >= 4 && (h == 12 || h == 14);
    const bool secondZ = h >= 4 && !secondX;
    return static_cast<std::uint8_t>((h >= 8 ? 1u : 0u) | (secondX ? 2u : 0u) |
                                     (secondZ ? 4u : 0u) | ((h & 1u) != 0 ? 8u : 0u) |
                                     ((h & 2u) != 0 ? 16u : 0u));
}

/// noise4d.cpp's grad4 as selector bits: the gradient's zero axis leaves three terms A, B, C
/// (in axis order); bit 0: A is y (else x); bit 1: B is z (else y); bit 2: C is w (else z);
/// bits 3, 4, 5 negate A, B, C.
constexpr std::uint8_t gradient4Code(std::uint32_t hash) noexcept {
    const std::uint32_t g = hash & 31u;
    const std::uint32_t zero = g >> 3;
    return static_cast<std::uint8_t>((zero == 0 ? 1u : 0u) | (zero <= 1 ? 2u : 0u) |
                                     (zero <= 2 ? 4u : 0u) | ((g & 4u) != 0 ? 8u : 0u) |
                                     ((g & 2u) != 0 ? 16u : 0u) | ((g & 1u) != 0 ? 32u : 0u));
}

/// The codes of every hash's low bits, looked up: the hashes are random, so computing a code
/// with branches mispredicted about once per corner (profiled: most of refill's time).
template <std::size_t kSize, typename Code>
constexpr std::array<std::uint8_t, kSize> codeTable(Code code) {
    std::array<std::uint8_t, kSize> table{};
    for (std::uint32_t h = 0; h < kSize; ++h) table[h] = code(h);
    return table;
}
constexpr auto kGradient3Codes = codeTable<16>(gradient3Code);
constexpr auto kGradient4Codes = codeTable<32>(gradient4Code);

}  // namespace

CellCache::CellCache(const LatticeHash& hash, NoiseKind noise, int dimensions)
    : m_hash(hash), m_noise(noise), m_dimensions(dimensions), m_entries(1u << kBits) {
    if (noise == NoiseKind::Value) m_values.resize(std::size_t{8} << kBits);
}

void CellCache::refill(Entry& e, std::size_t slot, const std::array<std::int64_t, 4>& key) {
    if (m_dimensions == 3) refillCorners<3>(e, slot, key);
    else refillCorners<4>(e, slot, key);
}

// The corners' hashes in stages (LatticeHashParts::next), so corners that share their first
// axes share those stages, exactly as LatticeHash's own 3D and 4D operators chain them. The
// codes are gathered in registers and the entry written once.
template <int kDims>
void CellCache::refillCorners(Entry& e, std::size_t slot, const std::array<std::int64_t, 4>& origin) {
    constexpr int kCorners = 1 << kDims;
    std::array<std::uint64_t, kCorners> parts;
    parts[0] = HashParts::xPart(m_hash, origin[0]);
    parts[1] = HashParts::xPart(m_hash, origin[0] + 1);
    for (int d = 1; d < kDims; ++d) {
        // Corners below 2^d are done along axes < d; corner c + 2^d adds 1 along axis d.
        const int done = 1 << d;
        for (int c = done - 1; c >= 0; --c) {
            parts[c + done] = HashParts::next(m_hash, parts[c], origin[d] + 1);
            parts[c] = HashParts::next(m_hash, parts[c], origin[d]);
        }
    }
    std::array<std::uint64_t, 2> code{0, 0};
    double* values = m_values.empty() ? nullptr : &m_values[8 * slot];
    for (int c = 0; c < kCorners; ++c) {
        const std::uint32_t hash = HashParts::finish(m_hash, parts[c]);
        if (values != nullptr) {
            values[c] = signedValue(m_hash, hash);
            continue;
        }
        const std::uint64_t bits = kDims == 3 ? kGradient3Codes[hash & 15u] : kGradient4Codes[hash & 31u];
        code[c >> 3] |= bits << (8 * (c & 7));
    }
    e.key = origin;
    e.data = {code, values};
    e.valid = true;
}

}  // namespace curved

namespace {

std::size_t padded(std::size_t n) {
    return (n + curved::kPadding - 1) / curved::kPadding * curved::kPadding;
}

// The point of column pair (a, b) on row (A, B) (curved_rows.hpp's shapes), as sample() takes it.
NoisePoint curvedPoint(CurvedShape shape, double a, double b, double A, double B) {
    return shape == CurvedShape::Torus ? NoisePoint{{a, b, A, B}, 4} : NoisePoint{{A * a, A * b, B, 0.0}, 3};
}

// Kinds without a SIMD kernel are evaluated with the scalar reference itself, as NoiseRows
// does; the kinds with one (simd_support.hpp) all have a 3D and a 4D form (hasDimensions).
bool hasSimdRows(const NoiseParams& params) {
    if (params.warp.amplitude > 0.0) return false;  // points moved off the row, each its own way
    return hasSimdKernel(params);
}

}  // namespace

struct CurvedRows::State {
    const NoiseField& field;
    CurvedShape shape;
    std::size_t n;
    bool simd;  // version 2's kernel (curved_rows_kernels.cpp)
    std::vector<double> a, b;  // padded by repeating the last column
    std::vector<curved::CellCache> caches;
    std::vector<curved::Octave> octaves;
    std::vector<double> values;
    std::unique_ptr<curved_v4::RowPlan> v4;  // version 4's kernel (curved_v4_rows.cpp)
    // A warped layer: its warp fields' rows (unwarped Perlin fBm: SIMD rows), one per axis of
    // the surface, and their values on the row; the layer itself is then evaluated at the
    // moved points (by `points` below where it serves the layer, else the reference).
    std::vector<std::unique_ptr<CurvedRows>> warp;
    std::vector<std::vector<double>> warpValues;
    // A warped layer of version 4 (a planet's, a torus's simplex): the layer at its moved
    // points through the rows' kernels (curved_v4::PointPlan), padded by repeating the last.
    std::unique_ptr<curved_v4::PointPlan> points;
    std::array<std::vector<double>, 4> moved;
};

CurvedRows::CurvedRows(const NoiseField& field, CurvedShape shape, const double* a,
                       const double* b, std::size_t n)
    : m_state(new State{field, shape, n, false, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}) {
    // A layer that tiles by its lattice samples the torus's plane coordinates, which the
    // column pairs do not carry: NoiseRows serves it (LayerStackRows).
    assert(!field.tiles());
    State& st = *m_state;
    st.a.assign(a, a + n);
    st.b.assign(b, b + n);
    st.a.resize(padded(n), n > 0 ? a[n - 1] : 0.0);
    st.b.resize(padded(n), n > 0 ? b[n - 1] : 0.0);
    const NoiseParams& params = field.params();
    const int dimensions = shape == CurvedShape::Sphere ? 3 : 4;
    // The layer's octaves as version 4's plans take them.
    const auto v4Octaves = [&field] {
        std::vector<curved_v4::OctaveParams> octaves;
        for (int i = 0; i < field.m_octaves; ++i) {
            const NoiseField::Octave& o = field.m_octave[i];
            octaves.push_back({o.frequency, o.amplitude, {o.shiftX, o.shiftY, o.shiftZ, o.shiftW}, &o.hash});
        }
        return octaves;
    };
    if (params.warp.amplitude > 0.0) {
        for (int d = 0; d < dimensions; ++d) {
            st.warp.push_back(std::make_unique<CurvedRows>(field.m_warp[std::size_t(d)], shape, a, b, n));
            st.warpValues.emplace_back(n);
        }
    }
    if (!st.warp.empty() && curved_v4::PointPlan::serves(params, dimensions) && hasSimdKernel(params)) {
        st.points = std::make_unique<curved_v4::PointPlan>(params, field.m_amplitudeSum, v4Octaves(),
                                                           dimensions, st.a.size());
        for (int d = 0; d < dimensions; ++d) st.moved[std::size_t(d)].resize(st.a.size());
        st.values.resize(st.a.size());
        return;
    }
    if (curved_v4::usesCurvedV4(params)) {
        // Version 4 never takes version 2's kernel: without its own (a warp, a fractal
        // without a SIMD sum) it is the scalar reference.
        if (!hasSimdRows(params)) return;
        st.values.resize(st.a.size());
        st.v4 = std::make_unique<curved_v4::RowPlan>(params, field.m_amplitudeSum, v4Octaves(),
                                                     shape == CurvedShape::Torus, st.a.data(),
                                                     st.b.data(), st.a.size());
        return;
    }
    st.simd = hasSimdRows(params);
    if (!st.simd) return;
    st.values.resize(st.a.size());
    st.caches.reserve(static_cast<std::size_t>(field.m_octaves));
    for (int i = 0; i < field.m_octaves; ++i) {
        const NoiseField::Octave& o = field.m_octave[i];
        st.caches.emplace_back(o.hash, field.params().noise, dimensions);
        curved::Octave octave;
        octave.frequency = o.frequency;
        octave.amplitude = o.amplitude;
        octave.shift = {o.shiftX, o.shiftY, o.shiftZ, o.shiftW};
        st.octaves.push_back(octave);
    }
    for (std::size_t i = 0; i < st.octaves.size(); ++i) st.octaves[i].cells = &st.caches[i];
}

CurvedRows::~CurvedRows() = default;

bool CurvedRows::movedPoints(State& st, double A, double B) {
    if (st.n == 0) return false;
    const double amplitude = st.field.params().warp.amplitude;
    const bool torus = st.shape == CurvedShape::Torus;
    for (std::size_t i = 0; i < st.a.size(); ++i) {
        const std::size_t k = std::min(i, st.n - 1);  // the padding repeats the last point
        // sample()'s point and its move, as the reference loop below has them.
        const std::array<double, 4> at = curvedPoint(st.shape, st.a[k], st.b[k], A, B).at;
        for (std::size_t d = 0; d < st.warp.size(); ++d)
            st.moved[d][i] = NoiseField::warped(at[d], amplitude, st.warpValues[d][k]);
    }
    return st.points->points({st.moved[0].data(), st.moved[1].data(), st.moved[2].data(),
                              torus ? st.moved[3].data() : nullptr},
                             st.values.data());
}

void CurvedRows::finishRow(const State& st, double A, double* out) {
    std::copy_n(st.values.begin(), st.n, out);
    const NoiseParams& params = st.field.params();
    if (params.fractal != FractalKind::Marble) return;
    // sample()'s last step for marble: the stripes over the turbulence sum, at the point's
    // first coordinate (the one row() builds for the reference above).
    for (std::size_t i = 0; i < st.n; ++i)
        out[i] = lattice::marble(params, curvedPoint(st.shape, st.a[i], st.b[i], A, 0.0).at[0], out[i]);
}

std::size_t CurvedRows::size() const noexcept { return m_state->n; }

void CurvedRows::row(double A, double B, double* out) {
    State& st = *m_state;
    const bool torus = st.shape == CurvedShape::Torus;
    const NoiseParams& params = st.field.params();
    if (st.v4 != nullptr && st.v4->row(A, B, st.values.data())) {
        finishRow(st, A, out);
        return;
    }
    if (!st.simd) {
        // sample() per column; a warped layer's warp fields come from their rows (each equals
        // its field's sample() bit for bit), and sample()'s move of the point is repeated here.
        for (std::size_t d = 0; d < st.warp.size(); ++d) st.warp[d]->row(A, B, st.warpValues[d].data());
        if (st.points != nullptr && movedPoints(st, A, B)) {
            std::copy_n(st.values.begin(), st.n, out);
            // sample()'s stripes for marble, at the moved point's x.
            if (params.fractal == FractalKind::Marble)
                for (std::size_t i = 0; i < st.n; ++i) out[i] = lattice::marble(params, st.moved[0][i], out[i]);
            return;
        }
        for (std::size_t i = 0; i < st.n; ++i) {
            const NoisePoint p = curvedPoint(st.shape, st.a[i], st.b[i], A, B);
            if (st.warp.empty()) {
                out[i] = st.field.sample(p);
                continue;
            }
            NoisePoint moved = p;
            for (std::size_t d = 0; d < st.warp.size(); ++d)
                moved.at[d] = NoiseField::warped(moved.at[d], params.warp.amplitude, st.warpValues[d][i]);
            out[i] = st.field.unwarped(moved);
        }
        return;
    }
    curved::evaluateRow({params.noise, lattice::summedFractal(params.fractal), params.fade, torus,
                         st.a.data(), st.b.data(), A, B, params.offsetX, params.offsetY,
                         st.field.m_octaves, st.octaves.data(), st.field.m_amplitudeSum,
                         st.a.size(), st.values.data()});
    finishRow(st, A, out);
}

}  // namespace terragrid
