// NoiseRows: a NoiseField over rows of fixed columns, the generator's hot path.
//
// Per octave, the constructor does everything that depends on x alone, once per column:
// the lattice coordinate, its cell and fraction, the fade weight, and the x half of the hash
// (value / Perlin), or just the coordinate (simplex, whose skewed cells mix x and y). Value
// and Perlin noise then need, per row, only the corners of the cells the row crosses; those
// change when the row enters a new lattice row, which at the octaves that matter is every few
// rows, and the cells' row coefficients (separable-inl.hpp) are shared by all their columns. The
// SIMD kernels (rows_kernels.cpp) combine the two. Version 4's value and Perlin layers do the
// same in float lanes through flat_v4::RowPlan (flat_v4_rows.hpp), and version 3's simplex
// through rowSimplexV3. A NoiseRows is per tile and per thread, so its per-row cache is not
// state shared between tiles (design.md principle 1).

#include "terragrid/noise/noise.hpp"

#include "noise/curved_v4.hpp"
#include "noise/flat_v4.hpp"
#include "noise/flat_v4_rows.hpp"
#include "noise/lattice.hpp"
#include "terragrid/noise/detail/lattice_hash_parts.hpp"
#include "noise/rows_kernels.hpp"
#include "noise/separable-inl.hpp"
#include "noise/simd_support.hpp"
#include "noise/simplex_constants.hpp"
#include "noise/simplex_v3.hpp"
#include "noise/split_lanes.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace terragrid {

using HashParts = detail::LatticeHashParts;

// The scalar code uses the separable form with double (the static target's copy).
namespace separable = HWY_NAMESPACE::separable;

namespace {

using rows::kRowPadding;

std::size_t paddedColumns(std::size_t n) {
    return (n + kRowPadding - 1) / kRowPadding * kRowPadding;
}

// A lattice row of corners for the cells a row crosses: gradient (Perlin) or value (value
// noise, in x) at each cell's left and right corner.
struct CornerRow {
    std::int64_t iy = 0;
    std::vector<double> leftX, leftY, rightX, rightY;

    void resize(std::size_t cells) {
        for (auto* v : {&leftX, &leftY, &rightX, &rightY}) v->assign(cells, 0.0);
    }
};

}  // namespace

// One octave's columns and its per-row cache.
struct OctaveRows {
    // Per column (padded by repeating the last column).
    std::vector<double> coordinate;  // lattice x: (x * f + offset) + shift
    std::vector<double> fx;
    std::vector<double> fade;
    std::vector<std::int64_t> cell;  // index into the per-cell arrays
    // Per cell the row crosses (padded by kRowPadding).
    std::vector<std::uint64_t> leftHash;  // LatticeHashParts::xPart of the cell's two x corners
    std::vector<std::uint64_t> rightHash;
    std::size_t cells = 0;
    // Whether each cell is the previous one's right neighbour (columns denser than the lattice),
    // so that a cell's right corners are the next cell's left ones: then only the cells + 1
    // left corners are filled, and a cell's right corners are read one entry further.
    bool contiguous = false;
    std::vector<std::int64_t> perm;  // the permutation as int64 (SIMD gathers)
    // Version 2 simplex, per column (padded): the split of x (1 + F) (a) and x F (b).
    std::vector<float> fracA, fracB;
    std::vector<std::uint32_t> lowA, lowB;
    std::vector<std::uint32_t> hashAB;  // (lowA kHashX + lowB kHashY) hashScale (the hash's column part)
    std::vector<std::uint32_t> run;     // columns from this one on with its (lowA, lowB)
    std::vector<std::int32_t> cellA;    // version 6 tiling simplex: a's index reduced into [0, n)
    std::int64_t minA = 0, maxA = 0, minB = 0, maxB = 0;  // their indices' range
    // The last row's hash key and the high halves it was mixed from: the rows of a map share
    // them (they change at +-2^31 cells), and mixing it per row and octave was a fifth of the
    // rows' per-row set-up.
    struct RowKey {
        bool set = false;
        std::uint32_t highA = 0, highB = 0, key = 0;
    } rowKey;
    // Per row.
    bool cached = false;
    CornerRow bottom, top;  // at iy and iy + 1
    std::vector<double> p, q, r, s;
};

struct NoiseRows::State {
    const NoiseField& field;
    std::size_t n;
    bool simd;                    // false: rows are scalar samples (hasSimdRows)
    bool simplexV2;               // version 2 simplex: octave by octave (rowSimplexV2)
    bool simplexV3;               // version 3 simplex: float lanes (rowSimplexV3)
    std::vector<double> columns;  // world x of each column
    std::vector<OctaveRows> octaves;
    std::vector<rows::SeparableOctave> separable;  // per octave, refreshed per row
    std::vector<rows::SimplexOctave> simplex;
    std::vector<double> values;  // the row, padded
    // A warped layer: its warp fields' rows (ordinary rows: the warp is Perlin fBm), one per
    // axis, and their values on the row.
    std::vector<std::unique_ptr<NoiseRows>> warp;
    std::vector<double> warpX, warpY;
    // The points a point kernel evaluates the layer at (hasPointRows), padded: a warped
    // layer's moved points, or the columns on the row.
    std::vector<double> movedX, movedY;
    std::vector<rows::PointOctave> pointOctaves;
    std::vector<std::vector<std::int64_t>> perms;  // per octave, the permutation as int64
    // Versions 3 and 6 simplex: the row's float sum, 64 floats over for alignment.
    std::vector<float> simplexSums;
    // Version 4 value and Perlin (flat_v4_rows.hpp): the rows' plan, or the point kernel's
    // keys per octave.
    std::unique_ptr<flat_v4::RowPlan> flatV4;
    std::vector<std::uint32_t> flatV4Keys;
    std::vector<flat_v4::TilingOctave> tiling;  // a tiling layer's octaves (NoiseField::tiles)
    bool simplexTiling = false;  // version 6 tiling simplex: float lanes (rowSimplexTiling)

    /// simplexSums for a row, aligned to 256 bytes, enough for any vector's aligned loads.
    float* alignedSums() {
        simplexSums.resize(values.size() + 64);
        const auto address = reinterpret_cast<std::uintptr_t>(simplexSums.data());
        return simplexSums.data() + ((256 - address % 256) % 256) / sizeof(float);
    }
};

namespace {

void planColumns(OctaveRows& o, const LatticeHash& hash, const double* lattice, std::size_t n,
                 bool separableKind) {
    const std::size_t padded = paddedColumns(n);
    o.coordinate.assign(lattice, lattice + n);
    o.coordinate.resize(padded, n > 0 ? lattice[n - 1] : 0.0);
    if (!separableKind) return;
    o.fx.resize(padded);
    o.cell.resize(padded);
    std::int64_t previous = 0;
    o.contiguous = true;
    for (std::size_t c = 0; c < padded; ++c) {
        const lattice::Coord x = lattice::split(o.coordinate[c]);
        o.fx[c] = x.frac;
        if (c == 0 || x.index != previous) {
            if (c > 0 && x.index != previous + 1) o.contiguous = false;
            o.leftHash.push_back(HashParts::xPart(hash, x.index));
            o.rightHash.push_back(HashParts::xPart(hash, x.index + 1));
            previous = x.index;
        }
        o.cell[c] = static_cast<std::int64_t>(o.leftHash.size()) - 1;
    }
    o.cells = o.leftHash.size();
    o.contiguous = o.contiguous && o.cells > 0;
    const std::size_t cellsPadded = o.cells + kRowPadding;
    o.leftHash.resize(cellsPadded, 0);  // the SIMD corner fill reads whole vectors
    o.rightHash.resize(cellsPadded, 0);
    if (o.contiguous) o.leftHash[o.cells] = o.rightHash[o.cells - 1];  // the last right corner
    for (auto* v : {&o.p, &o.q, &o.r, &o.s}) v->assign(cellsPadded, 0.0);
    o.bottom.resize(cellsPadded);
    o.top.resize(cellsPadded);
}

// The corners of every cell at lattice row iy: gradients for Perlin, values for value noise.
// The lattice hash runs in SIMD; the permutation hashes are table lookups, kept scalar.
void fillCorners(CornerRow& row, const OctaveRows& o, const LatticeHash& hash, NoiseKind kind,
                 std::int64_t iy) {
    row.iy = iy;
    const std::size_t count = o.contiguous ? o.cells + 1 : o.cells;
    if (hash.kind() == HashKind::Lattice) {
        rows::fillCorners({o.leftHash.data(), o.contiguous ? nullptr : o.rightHash.data(), count,
                           iy, kind, row.leftX.data(), row.leftY.data(), row.rightX.data(),
                           row.rightY.data()});
        return;
    }
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint32_t left = HashParts::withY(hash, o.leftHash[k], iy);
        if (kind == NoiseKind::Perlin) {
            const separable::Gradient a = separable::perlinGradient(left);
            row.leftX[k] = a.x;
            row.leftY[k] = a.y;
        } else {
            row.leftX[k] = signedValue(hash, left);
        }
        if (o.contiguous) continue;
        const std::uint32_t right = HashParts::withY(hash, o.rightHash[k], iy);
        if (kind == NoiseKind::Perlin) {
            const separable::Gradient b = separable::perlinGradient(right);
            row.rightX[k] = b.x;
            row.rightY[k] = b.y;
        } else {
            row.rightX[k] = signedValue(hash, right);
        }
    }
}

// A cell's right corners in a filled lattice row (see OctaveRows::contiguous).
const double* rightX(const CornerRow& row, const OctaveRows& o) {
    return o.contiguous ? row.leftX.data() + 1 : row.rightX.data();
}
const double* rightY(const CornerRow& row, const OctaveRows& o) {
    return o.contiguous ? row.leftY.data() + 1 : row.rightY.data();
}

// Brings the cached lattice rows to iy and iy + 1, reusing what it can: rows usually move
// down the map a fraction of a lattice row at a time.
void updateCorners(OctaveRows& o, const LatticeHash& hash, NoiseKind kind, std::int64_t iy) {
    if (o.cached && o.bottom.iy == iy) return;
    if (o.cached && o.top.iy == iy) {
        std::swap(o.bottom, o.top);
    } else {
        fillCorners(o.bottom, o, hash, kind, iy);
    }
    fillCorners(o.top, o, hash, kind, iy + 1);
    o.cached = true;
}

// Version 2 simplex: what depends on x alone (simplexNoiseV2's a and b) per column, and the
// column's part of the corners' hash input. The runs of columns in one (a, b) cell let the
// kernel see in one comparison that a whole vector of columns lies in one lattice cell (the
// low octaves, where a cell spans many columns), whose corners it then hashes once.
// `hashScale` multiplies the hash's column part: 1 for version 2, simplex_v3::kGradientMix1 for
// version 3, whose gradient index multiplies the input first (the rows multiply its parts).
// Version 3's kernel reads neither the low halves nor the runs (`withRuns` false).
void planSimplexV2(OctaveRows& o, std::uint32_t hashScale, bool withRuns) {
    const std::size_t padded = o.coordinate.size();
    o.fracA.resize(padded);
    o.fracB.resize(padded);
    o.hashAB.resize(padded);
    if (withRuns) {
        o.lowA.resize(padded);
        o.lowB.resize(padded);
        o.run.resize(padded);
    }
    std::vector<std::int64_t> a(padded), b(padded);  // the indices
    split_lanes::splitScaled(o.coordinate.data(), simplex::kSkew2, padded, a.data(), o.fracA.data());
    split_lanes::splitScaled(o.coordinate.data(), simplex::kF2, padded, b.data(), o.fracB.data());
    for (std::size_t c = 0; c < padded; ++c) {
        const std::uint32_t lowA = HashParts::low(a[c]);
        const std::uint32_t lowB = HashParts::low(b[c]);
        o.hashAB[c] = (lowA * HashParts::kHashX + lowB * HashParts::kHashY) * hashScale;
        if (withRuns) {
            o.lowA[c] = lowA;
            o.lowB[c] = lowB;
        }
    }
    if (padded > 0) {
        const auto [minA, maxA] = std::ranges::minmax(a);
        const auto [minB, maxB] = std::ranges::minmax(b);
        o.minA = minA;
        o.maxA = maxA;
        o.minB = minB;
        o.maxB = maxB;
    }
    if (!withRuns) return;
    for (std::size_t c = padded; c-- > 0;) {
        const bool same = c + 1 < padded && o.lowA[c + 1] == o.lowA[c] && o.lowB[c + 1] == o.lowB[c];
        o.run[c] = same ? o.run[c + 1] + 1 : 1;
    }
}

// Version 6 tiling simplex (simplexTilingV6): per column the split of the lattice coordinate u
// (a), its index reduced into [0, cells), and that index's part of the hash input times
// simplex_v3::kGradientMix1.
void planSimplexTiling(OctaveRows& o, std::int64_t cells) {
    const std::size_t padded = o.coordinate.size();
    o.fracA.resize(padded);
    o.cellA.resize(padded);
    o.hashAB.resize(padded);
    std::vector<std::int64_t> a(padded);
    split_lanes::splitScaled(o.coordinate.data(), 1.0, padded, a.data(), o.fracA.data());
    for (std::size_t c = 0; c < padded; ++c) {
        const std::int64_t i = flat_v4::wrapped(a[c], cells);
        o.cellA[c] = static_cast<std::int32_t>(i);
        o.hashAB[c] = HashParts::low(i) * HashParts::kHashX * simplex_v3::kGradientMix1;
    }
}

// Whether every index from lo + shift to hi + shift + 2 (the carry and the far corner) has
// the same high half, so one key32 serves the row: both ends do, and the range is shorter
// than 2^31. (Unsigned: wraps instead of overflowing.)
bool sameHigh(std::int64_t lo, std::int64_t hi, std::int64_t shift) {
    const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 2;
    if (span >= (std::uint64_t{1} << 31)) return false;
    const std::uint64_t first = static_cast<std::uint64_t>(lo) + static_cast<std::uint64_t>(shift);
    return HashParts::high(static_cast<std::int64_t>(first)) ==
           HashParts::high(static_cast<std::int64_t>(first + span));
}

// Versions 2 and 3 simplex: every octave's lattice row coordinate v, split as c = v F and
// d = v (1 + F) in lanes over the octaves (split_lanes): one at a time, the scalar floors were
// a third of the rows' per-row set-up.
struct RowSplits {
    std::array<double, kMaxOctaves> v;
    std::array<std::int64_t, kMaxOctaves> cIndex, dIndex;
    std::array<float, kMaxOctaves> cFrac, dFrac;

    /// At row y of a layer whose first `octaves` of `octave` (NoiseField's) have offset offsetY.
    template <class Octaves>
    RowSplits(const Octaves& octave, int octaves, double y, double offsetY) {
        const auto n = static_cast<std::size_t>(octaves);
        for (std::size_t i = 0; i < n; ++i)  // NoiseField::sample's operations
            v[i] = (y * octave[i].frequency + offsetY) + octave[i].shiftY;
        split_lanes::splitScaled(v.data(), simplex::kF2, n, cIndex.data(), cFrac.data());
        split_lanes::splitScaled(v.data(), simplex::kSkew2, n, dIndex.data(), dFrac.data());
    }
    lattice::FloatCoord c(int i) const { return {cIndex[std::size_t(i)], cFrac[std::size_t(i)]}; }
    lattice::FloatCoord d(int i) const { return {dIndex[std::size_t(i)], dFrac[std::size_t(i)]}; }
};

// Versions 2 and 3 simplex: one octave's row parts from the split of its lattice row coordinate
// v (c = v F and d = v (1 + F), RowSplits): the hash key of the row's high halves and the row's
// part of the hash input, with the columns' into `row` (amplitude included; fractal, columns and
// sum left to the caller). False when the row crosses a change of the high halves (sameHigh):
// then its kernels cannot serve it.
bool simplexRowOctave(OctaveRows& o, const LatticeHash& hash, double amplitude,
                      lattice::FloatCoord c, lattice::FloatCoord d, rows::SimplexV2Octave& row) {
    if (!sameHigh(o.minA, o.maxA, c.index) || !sameHigh(o.minB, o.maxB, d.index)) return false;
    const std::uint32_t highA = HashParts::high(o.minA + c.index);
    const std::uint32_t highB = HashParts::high(o.minB + d.index);
    OctaveRows::RowKey& cached = o.rowKey;
    if (!cached.set || cached.highA != highA || cached.highB != highB)
        cached = {true, highA, highB, HashParts::key32(hash, highA, highB)};
    const std::uint32_t key = cached.key;
    const std::uint32_t lowC = HashParts::low(c.index);
    const std::uint32_t lowD = HashParts::low(d.index);
    row = {o.fracA.data(), o.fracB.data(), o.lowA.data(), o.lowB.data(), o.hashAB.data(),
           o.run.data(), c.frac, d.frac, lowC, lowD, key,
           lowC * HashParts::kHashX + lowD * HashParts::kHashY + key, amplitude,
           FractalKind::None, 0, nullptr};
    return true;
}

// Rows of an unwarped layer (a warped layer samples points off the row, each moved its own way).
bool hasSimdRows(const NoiseParams& params) {
    return params.warp.amplitude <= 0.0 && hasSimdKernel(params);
}

// Rows evaluated point by point (rows::evaluatePoints): a warped layer's noise at its moved
// points, and the layers without a row kernel (generic lattice, cellular) on their rows.
bool hasPointRows(const NoiseParams& params) {
    return (params.warp.amplitude > 0.0 || !hasSimdKernel(params)) && hasPointKernel(params);
}

// sample()'s last step for marble: the stripes over the turbulence sum the kernels left in
// out (lattice::summedFractal), at each point's x.
void addStripes(const NoiseParams& params, const double* xs, std::size_t n, double* out) {
    if (params.fractal != FractalKind::Marble) return;
    for (std::size_t c = 0; c < n; ++c) out[c] = lattice::marble(params, xs[c], out[c]);
}

// Where a kernel writes a row of whole vectors (padded.size() columns): straight into the
// caller's row of n when that is already whole vectors (a 256-column tile's), else into
// `padded`, to be copied. The copy was 1.2 % of version 3's simplex rows.
double* paddedRow(std::vector<double>& padded, std::size_t n, double* out) {
    return padded.size() == n ? out : padded.data();
}

}  // namespace

NoiseRows::NoiseRows(const NoiseField& field, const double* xs, std::size_t n)
    : m_state(new State{field, n, hasSimdRows(field.params()),
                        lattice::usesSimplexV2(field.params()),
                        lattice::usesSimplexV3(field.params()), std::vector<double>(xs, xs + n),
                        {}, {}, {}, std::vector<double>(paddedColumns(n)), {}, {}, {}, {}, {},
                        {}, {}, {}, {}, {}, {}}) {
    const NoiseParams& params = field.params();
    const bool flatV4 = flat_v4::usesFlatV4(params);
    m_state->simplexTiling = m_state->simplexV3 && field.tiles();
    if (!field.m_warp.empty()) {
        // The warp fields have no warp of their own, so their rows are SIMD rows.
        for (std::size_t axis = 0; axis < 2; ++axis)
            m_state->warp.push_back(std::make_unique<NoiseRows>(field.m_warp[axis], xs, n));
        m_state->warpX.resize(n);
        m_state->warpY.resize(n);
    }
    if (hasPointRows(params)) {
        // What the point kernel reads of each octave; the points' x are the columns (padded by
        // repeating the last) unless a warp moves them.
        m_state->movedX.assign(xs, xs + n);
        m_state->movedX.resize(paddedColumns(n), n > 0 ? xs[n - 1] : 0.0);
        m_state->movedY.resize(paddedColumns(n));
        m_state->perms.resize(static_cast<std::size_t>(field.m_octaves));
        for (int i = 0; i < field.m_octaves; ++i) {
            const NoiseField::Octave& octave = field.m_octave[i];
            std::vector<std::int64_t>& perm = m_state->perms[static_cast<std::size_t>(i)];
            if (octave.hash.kind() != HashKind::Lattice) {
                const auto& table = HashParts::permutation(octave.hash);
                perm.assign(table.begin(), table.end());
            }
            m_state->pointOctaves.push_back({octave.frequency, octave.shiftX, octave.shiftY,
                                             octave.amplitude, HashParts::key(octave.hash),
                                             HashParts::key32(octave.hash, 0, 0), perm.data(),
                                             &octave.hash});
            if (flatV4) m_state->flatV4Keys.push_back(curved_v4::originKey(octave.hash));
            if (field.tiles()) m_state->tiling.push_back({octave.frequencyY, octave.cells});
        }
    }
    if (!m_state->simd) return;
    if (flatV4) {
        std::vector<flat_v4::OctaveParams> octaves;
        for (int i = 0; i < field.m_octaves; ++i) {
            const NoiseField::Octave& o = field.m_octave[i];
            octaves.push_back({o.frequency, o.frequencyY, o.amplitude, o.shiftX, o.shiftY, &o.hash, o.cells});
        }
        std::vector<double> padded(xs, xs + n);
        padded.resize(paddedColumns(n), n > 0 ? xs[n - 1] : 0.0);
        m_state->flatV4 = std::make_unique<flat_v4::RowPlan>(
            params, field.m_amplitudeSum, std::move(octaves), padded.data(), padded.size());
        return;
    }
    const bool separableKind = params.noise != NoiseKind::Simplex;
    std::vector<double> lattice(n);
    const auto octaves = static_cast<std::size_t>(field.m_octaves);
    m_state->octaves.resize(octaves);
    m_state->separable.resize(octaves);
    m_state->simplex.resize(octaves);
    for (int i = 0; i < field.m_octaves; ++i) {
        const NoiseField::Octave& octave = field.m_octave[i];
        OctaveRows& o = m_state->octaves[static_cast<std::size_t>(i)];
        // The same operations, in the same order, as NoiseField::sample.
        for (std::size_t c = 0; c < n; ++c)
            lattice[c] = (xs[c] * octave.frequency + params.offsetX) + octave.shiftX;
        planColumns(o, octave.hash, lattice.data(), n, separableKind);
        if (m_state->simplexTiling) planSimplexTiling(o, octave.cells[0]);
        else if (m_state->simplexV3) planSimplexV2(o, simplex_v3::kGradientMix1, false);
        else if (m_state->simplexV2) planSimplexV2(o, 1, true);
        if (separableKind) {
            o.fade.resize(o.fx.size());
            rows::fadeColumns(params.fade, o.fx.data(), o.fade.data(), o.fx.size());
        }
        if (octave.hash.kind() != HashKind::Lattice) {
            const auto& table = HashParts::permutation(octave.hash);
            o.perm.assign(table.begin(), table.end());
        }
    }
}

NoiseRows::~NoiseRows() = default;

std::size_t NoiseRows::size() const noexcept { return m_state->n; }

// Version 2 simplex, octave by octave into the row's sum: SIMD when one hash key serves the
// row (always, but for rows that cross a multiple of 2^32 lattice cells), else the scalar
// reference per column.
void NoiseRows::rowSimplexV2(double y, double* out) {
    State& st = *m_state;
    const NoiseField& field = st.field;
    const NoiseParams& params = field.params();
    double* values = paddedRow(st.values, st.n, out);
    std::fill_n(values, st.values.size(), 0.0);
    const RowSplits splits(field.m_octave, field.m_octaves, y, params.offsetY);
    for (int i = 0; i < field.m_octaves; ++i) {
        const NoiseField::Octave& octave = field.m_octave[i];
        OctaveRows& o = st.octaves[static_cast<std::size_t>(i)];
        const double v = splits.v[std::size_t(i)];
        rows::SimplexV2Octave row{};
        if (simplexRowOctave(o, octave.hash, octave.amplitude, splits.c(i), splits.d(i), row)) {
            row.fractal = lattice::summedFractal(params.fractal);
            row.columns = st.values.size();
            row.sum = values;
            rows::addSimplexV2Octave(row);
            continue;
        }
        for (std::size_t col = 0; col < st.values.size(); ++col) {
            const double n = simplexNoiseV2(o.coordinate[col], v, octave.hash);
            values[col] += octave.amplitude * lattice::octaveTerm(params.fractal, n);
        }
    }
    rows::normaliseRow(lattice::summedFractal(params.fractal), field.m_amplitudeSum,
                       values, st.values.size());
    if (values != out) std::copy_n(values, st.n, out);
}

// Version 3 simplex: every octave's row parts (version 2's split), then one pass of float
// lanes over the columns. False, with nothing written, when an octave's row crosses a change
// of the hash key's high halves (rows more than 2^31 lattice cells out): the caller then
// samples the row.
bool NoiseRows::rowSimplexV3(double y, double* out) {
    State& st = *m_state;
    const NoiseField& field = st.field;
    const NoiseParams& params = field.params();
    // Not value-initialised: zeroing every octave (about 4 KB) per row cost 1 % of the rows;
    // simplexRowOctave assigns each octave in use whole.
    std::array<rows::SimplexV2Octave, kMaxOctaves> octaves;
    const RowSplits splits(field.m_octave, field.m_octaves, y, params.offsetY);
    for (int i = 0; i < field.m_octaves; ++i) {
        const NoiseField::Octave& octave = field.m_octave[i];
        if (!simplexRowOctave(st.octaves[static_cast<std::size_t>(i)], octave.hash, octave.amplitude,
                              splits.c(i), splits.d(i), octaves[static_cast<std::size_t>(i)]))
            return false;
    }
    const FractalKind summed = lattice::summedFractal(params.fractal);
    double* values = paddedRow(st.values, st.n, out);
    rows::evaluateSimplexV3Row({octaves.data(), field.m_octaves, summed,
                                simplex_v3::normaliseScale(summed, field.m_amplitudeSum),
                                st.values.size(), st.alignedSums(), values});
    if (values != out) std::copy_n(values, st.n, out);
    addStripes(params, st.columns.data(), st.n, out);
    return true;
}

// Version 6 tiling simplex: every octave's row parts (rows_kernels.hpp SimplexTilingOctave),
// then one pass of float lanes over the columns. Every row has one: the indices are reduced
// into the period, so no row crosses a change of the hash key.
void NoiseRows::rowSimplexTiling(double y, double* out) {
    State& st = *m_state;
    const NoiseField& field = st.field;
    const NoiseParams& params = field.params();
    std::array<rows::SimplexTilingOctave, kMaxOctaves> octaves;
    for (int i = 0; i < field.m_octaves; ++i) {
        const NoiseField::Octave& octave = field.m_octave[i];
        const OctaveRows& o = st.octaves[static_cast<std::size_t>(i)];
        // simplexTilingV6's split, its operations as NoiseField::latticeCoordinates'.
        const double v = (y * octave.frequencyY + params.offsetY) + octave.shiftY;
        const lattice::FloatCoord row = lattice::splitFloat(v);
        const lattice::FloatCoord skewedY = lattice::splitFloat(2.0 * v);
        const std::uint32_t key = HashParts::key32(octave.hash, 0, 0);
        rows::SimplexTilingOctave& t = octaves[static_cast<std::size_t>(i)];
        t = {o.fracA.data(), o.cellA.data(), o.hashAB.data(), row.frac, skewedY.frac,
             static_cast<std::int32_t>(octave.cells[0]), 0, 0, 0, 0, octave.amplitude};
        // The row's part of each lattice row's corners: j and j + 1.
        const auto part = [&](std::int64_t j, std::int32_t& index, std::uint32_t& hash) {
            const simplex_v3::TilingCorner c = simplex_v3::tilingCorner(row.index, j, octave.cells);
            index = static_cast<std::int32_t>(c.i);
            hash = simplex_v3::tilingHashInput(c, key) * simplex_v3::kGradientMix1;
        };
        part(skewedY.index, t.indexBottom, t.hashBottom);
        part(skewedY.index + 1, t.indexTop, t.hashTop);
    }
    const FractalKind summed = lattice::summedFractal(params.fractal);
    double* values = paddedRow(st.values, st.n, out);
    rows::evaluateSimplexTilingRow({octaves.data(), field.m_octaves, summed,
                                    simplex_v3::normaliseScale(summed, field.m_amplitudeSum), st.values.size(),
                                    st.alignedSums(), values});
    if (values != out) std::copy_n(values, st.n, out);
    addStripes(params, st.columns.data(), st.n, out);
}

void NoiseRows::row(double y, double* out) {
    State& st = *m_state;
    const NoiseField& field = st.field;
    const NoiseParams& params = field.params();
    // The layer at the points (movedX, movedY) in SIMD, then marble's stripes at their x.
    const auto points = [&] {
        const FractalKind summed = lattice::summedFractal(params.fractal);
        const float floatScale = simplex_v3::normaliseScale(summed, field.m_amplitudeSum);
        double* values = paddedRow(st.values, st.n, out);
        if (!st.flatV4Keys.empty()) {
            flat_v4::evaluatePoints({params.noise, summed, params.fade, field.m_octaves,
                                     st.pointOctaves.data(), st.flatV4Keys.data(), floatScale,
                                     params.offsetX, params.offsetY, st.movedX.data(),
                                     st.movedY.data(), st.values.size(), values,
                                     st.tiling.empty() ? nullptr : st.tiling.data()});
        } else if (st.simplexV3) {
            rows::evaluateSimplexV3Points(
                {st.pointOctaves.data(), field.m_octaves, summed, floatScale, params.offsetX,
                 params.offsetY, st.movedX.data(), st.movedY.data(), st.values.size(),
                 values, st.tiling.empty() ? nullptr : st.tiling.data()});
        } else {
            rows::evaluatePoints({params.noise, st.simplexV2, summed, params.hash, params.fade,
                                  params.proximity, params.cellularReturn,
                                  params.cellularDistance, params.cellularJitter,
                                  cellularBound(params.cellularReturn, params.cellularDistance,
                                                params.cellularJitter),
                                  field.m_octaves, st.pointOctaves.data(), params.offsetX,
                                  params.offsetY, field.m_amplitudeSum, st.movedX.data(),
                                  st.movedY.data(), st.values.size(), values});
        }
        if (values != out) std::copy_n(values, st.n, out);
        addStripes(params, st.movedX.data(), st.n, out);
    };
    if (!st.warp.empty()) {
        // NoiseField::sample's warp, with the warp fields' values from their rows; the layer
        // itself is then evaluated at each moved point.
        st.warp[0]->row(y, st.warpX.data());
        st.warp[1]->row(y, st.warpY.data());
        const double amplitude = params.warp.amplitude;
        if (!st.pointOctaves.empty()) {
            // The moved points (sample()'s operations, as in the loop below), the padding
            // repeating the last (a loop the compiler vectorises: with the padding in it, 7 %
            // of a warped layer).
            for (std::size_t c = 0; c < st.n; ++c) {
                st.movedX[c] = NoiseField::warped(st.columns[c], amplitude, st.warpX[c]);
                st.movedY[c] = NoiseField::warped(y, amplitude, st.warpY[c]);
            }
            if (st.n < st.movedX.size()) {
                std::fill(st.movedX.begin() + st.n, st.movedX.end(), st.movedX[st.n - 1]);
                std::fill(st.movedY.begin() + st.n, st.movedY.end(), st.movedY[st.n - 1]);
            }
            points();
            return;
        }
        for (std::size_t c = 0; c < st.n; ++c) {
            const NoisePoint moved{{NoiseField::warped(st.columns[c], amplitude, st.warpX[c]),
                                    NoiseField::warped(y, amplitude, st.warpY[c]), 0.0, 0.0},
                                   2};
            out[c] = field.unwarped(moved);
        }
        return;
    }
    if (!st.pointOctaves.empty()) {
        // Generic lattice and cellular noise: every column's point on the row.
        std::fill(st.movedY.begin(), st.movedY.end(), y);
        points();
        return;
    }
    if (!st.simd) {
        for (std::size_t c = 0; c < st.n; ++c) out[c] = field.sample(st.columns[c], y);
        return;
    }
    if (st.flatV4) {
        double* values = paddedRow(st.values, st.n, out);
        if (st.flatV4->row(y, values)) {
            if (values != out) std::copy_n(values, st.n, out);
            addStripes(params, st.columns.data(), st.n, out);
            return;
        }
        for (std::size_t c = 0; c < st.n; ++c) out[c] = field.sample(st.columns[c], y);
        return;
    }
    if (st.simplexTiling) {
        rowSimplexTiling(y, out);
        return;
    }
    if (st.simplexV3) {
        if (rowSimplexV3(y, out)) return;
        for (std::size_t c = 0; c < st.n; ++c) out[c] = field.sample(st.columns[c], y);
        return;
    }
    if (st.simplexV2) {
        rowSimplexV2(y, out);
        addStripes(params, st.columns.data(), st.n, out);
        return;
    }
    // Value, Perlin and version 1 simplex: per octave what the row adds (the cells'
    // coefficients, simplex's y), then every octave per vector of columns (evaluateRow).
    double* values = paddedRow(st.values, st.n, out);
    const bool simplexKind = params.noise == NoiseKind::Simplex;
    const bool perlin = params.noise == NoiseKind::Perlin;
    for (int i = 0; i < field.m_octaves; ++i) {
        const NoiseField::Octave& octave = field.m_octave[i];
        OctaveRows& o = st.octaves[static_cast<std::size_t>(i)];
        // The same operations, in the same order, as NoiseField::sample.
        const double v = (y * octave.frequency + params.offsetY) + octave.shiftY;
        if (simplexKind) {
            st.simplex[i] = {o.coordinate.data(), v, HashParts::key(octave.hash), o.perm.data(),
                             octave.amplitude};
            continue;
        }
        const lattice::Coord cy = lattice::split(v);
        updateCorners(o, octave.hash, params.noise, cy.index);
        const rows::CornerRows corners{
            o.bottom.leftX.data(), o.bottom.leftY.data(), rightX(o.bottom, o),
            rightY(o.bottom, o),    o.top.leftX.data(),   o.top.leftY.data(),
            rightX(o.top, o),       rightY(o.top, o),     cy.frac,
            fade(params.fade, cy.frac), o.cells};
        if (perlin) {
            rows::perlinCoefficients(corners, o.p.data(), o.q.data(), o.r.data(), o.s.data());
        } else {
            rows::valueCoefficients(corners, o.p.data(), o.r.data());
        }
        st.separable[i] = {o.fx.data(), o.fade.data(), o.cell.data(), o.p.data(),
                           o.q.data(),  o.r.data(),    o.s.data(),    octave.amplitude};
    }
    rows::evaluateRow({params.noise, lattice::summedFractal(params.fractal), params.hash,
                       field.m_octaves, st.separable.data(), st.simplex.data(),
                       field.m_amplitudeSum, st.values.size(), values});
    if (values != out) std::copy_n(values, st.n, out);
    addStripes(params, st.columns.data(), st.n, out);
}

}  // namespace terragrid
