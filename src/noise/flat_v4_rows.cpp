// Version 4's rows and points of flat value and Perlin layers, written once with Google Highway
// and compiled for each x86-64 target; HWY_DYNAMIC_DISPATCH picks the best one the CPU has at
// run time. Every lane performs flat_v4.cpp's float operations and fused multiply-adds in its
// order (the separable form's V4 templates, separable-inl.hpp, serve both), so every target
// gives the scalar reference's bits.
//
// Rows: per row, each cell's corners are hashed and its coefficients computed in float lanes
// over the cells (fillCells); then per vector of 16 columns (AVX-512) every octave's
// polynomial, the coefficients of the vector's cells handed out by a lane permutation, summed
// in a register. Points: each lane its own cell, split in double lanes.

#include "noise/flat_v4_rows.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "noise/flat_v4_rows.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include <array>
#include <cstdint>

#include "noise/flat_v4.hpp"
#include "noise/fractal_lanes-inl.hpp"
#include "noise/fused-inl.hpp"
#include "noise/mix32_lanes-inl.hpp"
#include "noise/point_lanes-inl.hpp"
#include "noise/separable-inl.hpp"
#include "noise/simplex_row_lanes-inl.hpp"
#include "terragrid/noise/detail/lattice_hash_parts.hpp"

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;
using DI32 = hn::RebindToSigned<DF>;
using DU32 = hn::RebindToUnsigned<DF>;
using VU32 = hn::Vec<DU32>;
using Parts = detail::LatticeHashParts;
using fused::mulAdd;

alignas(64) constexpr std::array<float, 16> kGradX = simplex_row_lanes::repeated(flat_v4::kGradX);
alignas(64) constexpr std::array<float, 16> kGradY = simplex_row_lanes::repeated(flat_v4::kGradY);

/// The steps from a cell's first corner's premixed hash input to its other corners'.
constexpr std::uint32_t kStepX = curved_v4::premix(Parts::kHashX);
constexpr std::uint32_t kStepY = curved_v4::premix(Parts::kHashY);

// The premixed hash inputs of a cell's four corners (flat_v4::noise's input(a, b)).
template <class VU>
struct Corners {
    VU c00, c10, c01, c11;
};

// Those of a point's cell from its first corner's and the premixed steps to the next corner
// along x and y (the axes' own steps, or back to index 0 from a tiling layer's last cell).
template <class VU>
HWY_INLINE Corners<VU> cornersAfter(VU c00, VU stepX, VU stepY) {
    const VU c01 = hn::Add(c00, stepY);
    return {c00, hn::Add(c00, stepX), c01, hn::Add(c01, stepX)};
}

// A cell's coefficients from its corners' premixed hash inputs (flat_v4::noise's, lane by
// lane): Perlin's p, q, r, s; value noise's p and r (q and s zero).
template <NoiseKind kNoise, class VFT, class VU>
HWY_INLINE separable::PerlinCoefficients<VFT> cellCoefficients(const Corners<VU>& c, VFT fy, VFT fade) {
    const hn::DFromV<VFT> df;
    const hn::RebindToSigned<decltype(df)> di;
    if constexpr (kNoise == NoiseKind::Value) {
        const auto value = [&](VU h) { return mix32_lanes::value(df, h); };
        const auto k = separable::valueCoefficientsV4(value(c.c00), value(c.c10), value(c.c01), value(c.c11), fade);
        return {k.p, hn::Zero(df), k.r, hn::Zero(df)};
    } else {
        const auto index = [&](VU h) { return hn::BitCast(di, hn::ShiftRight<29>(mix32_lanes::finish(h))); };
        const auto i00 = index(c.c00), i10 = index(c.c10), i01 = index(c.c01), i11 = index(c.c11);
        const float* gx = kGradX.data();
        const float* gy = kGradY.data();
        const auto lookup = [&](const float* table, auto i) { return mix32_lanes::lookup8(df, table, i); };
        return separable::perlinCoefficientsV4(
            lookup(gx, i00), lookup(gy, i00), lookup(gx, i10), lookup(gy, i10), lookup(gx, i01),
            lookup(gy, i01), lookup(gx, i11), lookup(gy, i11), fy,
            hn::Sub(fy, hn::Set(df, 1.0f)), fade);
    }
}

// The noise of a cell's coefficients at a column's fraction and fade.
template <NoiseKind kNoise, class VFT>
HWY_INLINE VFT evaluate(const separable::PerlinCoefficients<VFT>& k, VFT frac, VFT fade) {
    if constexpr (kNoise == NoiseKind::Value)
        return separable::valueEvaluateV4(separable::ValueCoefficients<VFT>{k.p, k.r}, fade);
    else
        return separable::perlinEvaluateV4(k, frac, fade);
}

// ---------------------------------------------------------------------------------------------
// Rows.

template <NoiseKind kNoise>
void cellsOf(const flat_v4::CellRow& row) {
    const DF df;
    const DU32 du;
    const VF fy = hn::Set(df, row.fy);
    const VF fade = fractal_lanes::fadeFloat(row.fade, fy);
    const VU32 bottom = hn::Set(du, row.bottom);
    const VU32 top = hn::Set(du, row.top);
    for (std::size_t k = 0; k < row.cells; k += hn::Lanes(df)) {
        const VU32 left = hn::LoadU(du, row.left + k);
        const VU32 right = hn::LoadU(du, row.right + k);
        const Corners<VU32> corners{hn::Add(left, bottom), hn::Add(right, bottom), hn::Add(left, top),
                                    hn::Add(right, top)};
        const auto c = cellCoefficients<kNoise>(corners, fy, fade);
        hn::StoreU(c.p, df, row.p + k);
        hn::StoreU(c.r, df, row.r + k);
        if constexpr (kNoise == NoiseKind::Perlin) {
            hn::StoreU(c.q, df, row.q + k);
            hn::StoreU(c.s, df, row.s + k);
        }
    }
}

// One octave's noise at the columns c .. c + lanes - 1.
template <NoiseKind kNoise>
HWY_INLINE VF octaveNoise(const flat_v4::Octave& o, std::size_t c) {
    const DF df;
    const DI32 di;
    // The lanes' cells are consecutive from the first lane's, so a vector loaded there holds
    // every coefficient this vector needs; a lane permutation hands them out.
    const std::int32_t first = o.cell[c];
    const VF frac = hn::LoadU(df, o.frac + c);
    const VF fade = hn::LoadU(df, o.fade + c);
    const bool perlin = kNoise == NoiseKind::Perlin;
    // The low octaves' cells span many columns: most vectors lie in one cell.
    if (o.cell[c + hn::Lanes(df) - 1] == first) {
        const separable::PerlinCoefficients<VF> k{hn::Set(df, o.p[first]),
                                                  hn::Set(df, perlin ? o.q[first] : 0.0f),
                                                  hn::Set(df, o.r[first]),
                                                  hn::Set(df, perlin ? o.s[first] : 0.0f)};
        return evaluate<kNoise>(k, frac, fade);
    }
    const auto lane = hn::IndicesFromVec(df, hn::Sub(hn::LoadU(di, o.cell + c), hn::Set(di, first)));
    const auto at = [&](const float* coefficients) {
        return hn::TableLookupLanes(hn::LoadU(df, coefficients + first), lane);
    };
    const separable::PerlinCoefficients<VF> k{at(o.p), perlin ? at(o.q) : hn::Zero(df), at(o.r),
                                              perlin ? at(o.s) : hn::Zero(df)};
    return evaluate<kNoise>(k, frac, fade);
}

// One octave over the row, its terms added into sums[0, columns): the octave's pointers and
// constants stay in registers for the whole row (a copy: stores into the sums could alias the
// caller's octave, whose fields the compiler then reloads per vector), and a row of floats
// stays in L1 (as simplex_v3_rows.cpp's). The octaves are added in the reference's order, so
// the bits are those of summing each point's octaves in turn.
template <NoiseKind kNoise, FractalKind kKind>
HWY_INLINE void addOctave(const flat_v4::Octave o, bool first, float* sums, std::size_t columns) {
    const DF df;
    const VF amplitude = hn::Set(df, o.amplitude);
    for (std::size_t c = 0; c < columns; c += hn::Lanes(df)) {
        const VF sum = first ? hn::Zero(df) : hn::Load(df, sums + c);
        const VF n = octaveNoise<kNoise>(o, c);
        hn::Store(mulAdd(amplitude, fractal_lanes::octaveTerm<kKind>(df, n), sum), df, sums + c);
    }
}

template <NoiseKind kNoise, FractalKind kKind>
void rowOf(const flat_v4::Row& row) {
    const DF df;
    const hn::ScalableTag<double> d;
    const hn::Rebind<float, decltype(d)> dHalf;  // as many floats as doubles
    for (int i = 0; i < row.octaves; ++i)
        addOctave<kNoise, kKind>(row.octave[i], i == 0, row.sums, row.columns);
    for (std::size_t c = 0; c < row.columns; c += hn::Lanes(df)) {
        const VF value = fractal_lanes::normaliseFloat<kKind>(df, hn::Load(df, row.sums + c), row.scale);
        hn::Store(value, df, row.sums + c);
        for (std::size_t k = 0; k < hn::Lanes(df); k += hn::Lanes(d))
            hn::StoreU(hn::PromoteTo(d, hn::Load(dHalf, row.sums + c + k)), d, row.out + c + k);
    }
}

template <NoiseKind kNoise>
void rowOfNoise(const flat_v4::Row& row) {
    fractal_lanes::withFractal(row.fractal, [&](auto k) { rowOf<kNoise, decltype(k)::value>(row); });
}

// ---------------------------------------------------------------------------------------------
// Points: every lane its own point, split in double lanes; two double vectors' splits are
// combined into one float vector (one on the scalar target), so the cell is computed in full
// float vectors: 16 lanes on AVX-512, and 8 on AVX2, where a vector then holds the 8 gradients
// (no gathers).

using point_lanes::D;
using point_lanes::DH;
using point_lanes::V;
using VH = hn::Vec<DH>;
using VHU = point_lanes::VHU;

// Whether every lane's index lies within kIndexBound, where the octave's one key holds.
HWY_INLINE bool bounded(point_lanes::VI index) {
    const point_lanes::DI di;
    return hn::AllTrue(di, hn::Lt(hn::Abs(index), hn::Set(di, curved_v4::kIndexBound)));
}

// One octave's lattice coordinates of the double vector of points from c, as
// NoiseField::latticeCoordinates computes them.
struct Coordinates {
    V u, v;
};

HWY_INLINE Coordinates coordinates(const flat_v4::Points& p, int i, std::size_t c) {
    const D d;
    const rows::PointOctave& o = p.octave[i];
    const double frequencyY = p.tiling != nullptr ? p.tiling[i].frequencyY : o.frequency;
    return {point_lanes::latticeCoordinate(hn::LoadU(d, p.xs + c), hn::Set(d, o.frequency),
                                           hn::Set(d, p.offsetX), hn::Set(d, o.shiftX)),
            point_lanes::latticeCoordinate(hn::LoadU(d, p.ys + c), hn::Set(d, frequencyY),
                                           hn::Set(d, p.offsetY), hn::Set(d, o.shiftY))};
}

// Those coordinates split: fractions and the first corners' premixed hash inputs; for a tiling
// layer also the steps from the first corner to the next along x and y (flat_v4::next: the
// axis's step, or back to index 0 from the last cell; unset for the others, whose steps are
// the axes' own).
struct HalfSplit {
    VH fx, fy;
    VHU corner;
    bool bounded;
    VHU stepX, stepY;
};

// One axis of a tiling layer's double vector of points: the fraction, the low halves of the
// wrapped index (flat_v4::wrapped) and the premixed step to the next corner's.
struct TiledAxis {
    VH frac;
    VHU low;
    VHU step;
};

HWY_INLINE TiledAxis tiledAxis(V u, std::int64_t cells, std::uint32_t hashAxis) {
    const point_lanes::DHI dhi;
    const point_lanes::DHU dhu;
    const V cell = point_lanes::floorOf(u);
    const auto index = hn::DemoteTo(dhi, point_lanes::reducedBy(cell, static_cast<double>(cells)).remainder);
    const auto last = hn::RebindMask(dhu, hn::Eq(index, hn::Set(dhi, static_cast<std::int32_t>(cells - 1))));
    const auto wrap = static_cast<std::uint32_t>(1 - cells);  // low(0) - low(cells - 1), mod 2^32
    return {hn::DemoteTo(DH(), hn::Sub(u, cell)), hn::BitCast(dhu, index),
            hn::IfThenElse(last, hn::Set(dhu, curved_v4::premix(hashAxis * wrap)),
                           hn::Set(dhu, curved_v4::premix(hashAxis)))};
}

// premix(low(ix) kHashX + low(iy) kHashY + key), by parts.
HWY_INLINE VHU cornerInput(VHU lowX, VHU lowY, std::uint32_t key) {
    const point_lanes::DHU dhu;
    const auto premixed = [&](std::uint32_t k) { return hn::Set(dhu, curved_v4::premix(k)); };
    return hn::Add(hn::Add(hn::Mul(lowX, premixed(Parts::kHashX)), hn::Mul(lowY, premixed(Parts::kHashY))),
                   premixed(key));
}

// kInBound: the caller knows every index of these points lies within the bound (point_lanes::InBound), so
// the cells convert straight to 32-bit lanes (their low halves) and nothing is checked.
// kTiles: a tiling layer's points, whose wrapped indices always lie within the bound.
template <bool kInBound, bool kTiles>
HWY_INLINE HalfSplit splitHalf(const flat_v4::Points& p, int i, std::size_t c) {
    const point_lanes::DU du;
    const point_lanes::DHU dhu;
    const Coordinates at = coordinates(p, i, c);
    if constexpr (kTiles) {
        const flat_v4::Cells& cells = p.tiling[i].cells;
        const TiledAxis x = tiledAxis(at.u, cells[0], Parts::kHashX);
        const TiledAxis y = tiledAxis(at.v, cells[1], Parts::kHashY);
        return {x.frac, y.frac, cornerInput(x.low, y.low, p.keys[i]), true, x.step, y.step};
    } else if constexpr (kInBound) {
        const point_lanes::Split32Lanes x = point_lanes::splitFloat32(at.u);
        const point_lanes::Split32Lanes y = point_lanes::splitFloat32(at.v);
        return {x.frac, y.frac, cornerInput(hn::BitCast(dhu, x.index), hn::BitCast(dhu, y.index), p.keys[i]),
                true, hn::Zero(dhu), hn::Zero(dhu)};
    } else {
        const point_lanes::FloatSplitLanes x = point_lanes::splitFloat(at.u);
        const point_lanes::FloatSplitLanes y = point_lanes::splitFloat(at.v);
        const auto low = [&](point_lanes::VI index) { return hn::TruncateTo(dhu, hn::BitCast(du, index)); };
        return {x.frac, y.frac, cornerInput(low(x.index), low(y.index), p.keys[i]),
                bounded(x.index) && bounded(y.index), hn::Zero(dhu), hn::Zero(dhu)};
    }
}

// Far out (an index beyond the bound): the scalar reference per lane, whose keys follow each
// corner's high halves. Rare, so the coordinates are computed again here rather than stored on
// the way for every vector.
template <NoiseKind kNoise>
HWY_NOINLINE VF referenceNoise(const flat_v4::Points& p, int i, std::size_t c) {
    const DF df;
    const D d;
    HWY_ALIGN double us[hn::MaxLanes(df)];
    HWY_ALIGN double vs[hn::MaxLanes(df)];
    HWY_ALIGN float n[hn::MaxLanes(df)];
    for (std::size_t k = 0; k < hn::Lanes(df); k += hn::Lanes(d)) {
        const Coordinates at = coordinates(p, i, c + k);
        hn::Store(at.u, d, us + k);
        hn::Store(at.v, d, vs + k);
    }
    for (std::size_t k = 0; k < hn::Lanes(df); ++k)
        n[k] = flat_v4::noise(kNoise, p.fade, us[k], vs[k], *p.octave[i].hash);
    return hn::Load(df, n);
}

// A float vector of points from c split: its double vectors' halves combined
// (point_lanes::combined).
struct Split {
    VF fx, fy;
    VU32 corner;
    bool bounded;
    VU32 stepX, stepY;  ///< to the next corner along x and y (cornersAfter)
};

template <bool kInBound, bool kTiles>
HWY_INLINE Split split(const flat_v4::Points& p, int i, std::size_t c) {
    HalfSplit half[point_lanes::kHalves];
    bool bounded = true;
    for (std::size_t h = 0; h < point_lanes::kHalves; ++h) {
        half[h] = splitHalf<kInBound, kTiles>(p, i, c + h * hn::Lanes(D()));
        bounded = bounded && half[h].bounded;
    }
    const HalfSplit& lo = half[0];
    const HalfSplit& hi = half[point_lanes::kHalves - 1];
    Split s{point_lanes::combined(lo.fx, hi.fx), point_lanes::combined(lo.fy, hi.fy),
            point_lanes::combined(lo.corner, hi.corner), bounded, hn::Set(DU32(), kStepX),
            hn::Set(DU32(), kStepY)};
    if constexpr (kTiles) {
        s.stepX = point_lanes::combined(lo.stepX, hi.stepX);
        s.stepY = point_lanes::combined(lo.stepY, hi.stepY);
    }
    return s;
}

// One octave's noise at the points of N float vectors from c, each step of every vector next
// to the others' (as simplex_v3_rows.cpp's columns), so that one vector's dependent steps
// overlap the others'.
template <NoiseKind kNoise, bool kInBound, bool kTiles, std::size_t N>
HWY_INLINE void pointNoise(const flat_v4::Points& p, int i, std::size_t c, VF (&n)[N]) {
    const std::size_t step = hn::Lanes(DF());
    Split at[N];
    bool inBound = true;
    for (std::size_t k = 0; k < N; ++k) {
        at[k] = split<kInBound, kTiles>(p, i, c + k * step);
        inBound = inBound && at[k].bounded;
    }
    if (!kInBound && !kTiles && !inBound) {
        for (std::size_t k = 0; k < N; ++k) n[k] = referenceNoise<kNoise>(p, i, c + k * step);
        return;
    }
    separable::PerlinCoefficients<VF> cell[N];
    for (std::size_t k = 0; k < N; ++k)
        cell[k] = cellCoefficients<kNoise>(cornersAfter(at[k].corner, at[k].stepX, at[k].stepY), at[k].fy, fractal_lanes::fadeFloat(p.fade, at[k].fy));
    for (std::size_t k = 0; k < N; ++k)
        n[k] = evaluate<kNoise>(cell[k], at[k].fx, fractal_lanes::fadeFloat(p.fade, at[k].fx));
}

// The float vectors of points pointNoise interleaves (fractal_lanes::kInterleaved): four make a
// warped layer 8 % faster than one on AVX-512 and 13 % on AVX2 (Zen 4, terragrid_noise_bench
// rows/perlin-warped).
using fractal_lanes::kInterleaved;

// Every octave of the N float vectors of points from c, summed and normalised into p.out.
template <NoiseKind kNoise, FractalKind kKind, bool kInBound, bool kTiles, std::size_t N>
HWY_INLINE void octaveSums(const flat_v4::Points& p, std::size_t c, VF (&sum)[N]) {
    const DF df;
    for (std::size_t k = 0; k < N; ++k) sum[k] = hn::Zero(df);
    for (int i = 0; i < p.octaves; ++i) {
        VF n[N];
        pointNoise<kNoise, kInBound, kTiles>(p, i, c, n);
        const VF amplitude = hn::Set(df, static_cast<float>(p.octave[i].amplitude));
        for (std::size_t k = 0; k < N; ++k)
            sum[k] = mulAdd(amplitude, fractal_lanes::octaveTerm<kKind>(df, n[k]), sum[k]);
    }
}

// Points within the bound (nearly all) take the split without checks; the others check each
// octave and fall back to the reference where an index is beyond it.
template <NoiseKind kNoise, FractalKind kKind, std::size_t N>
HWY_INLINE void pointVectors(const flat_v4::Points& p, std::size_t c, const point_lanes::InBound& bound) {
    const DF df;
    const D d;
    VF sum[N];
    if (p.tiling != nullptr) octaveSums<kNoise, kKind, true, true>(p, c, sum);
    else if (point_lanes::within<N * point_lanes::kHalves>(p, c, bound)) octaveSums<kNoise, kKind, true, false>(p, c, sum);
    else octaveSums<kNoise, kKind, false, false>(p, c, sum);
    for (std::size_t k = 0; k < N; ++k) {
        const VF value = fractal_lanes::normaliseFloat<kKind>(df, sum[k], p.scale);
        for (std::size_t h = 0; h < point_lanes::kHalves; ++h)
            hn::StoreU(hn::PromoteTo(d, point_lanes::halfOf(value, h)), d,
                       p.out + c + (k * point_lanes::kHalves + h) * hn::Lanes(d));
    }
}

template <NoiseKind kNoise, FractalKind kKind>
void pointsOf(const flat_v4::Points& p) {
    const std::size_t step = hn::Lanes(DF());
    // The lattice coordinates within the bound less one cell: their cells are within it.
    const point_lanes::InBound bound =
        point_lanes::inBound(p, static_cast<double>(curved_v4::kIndexBound) - 1.0);
    std::size_t c = 0;
    for (; c + kInterleaved * step <= p.count; c += kInterleaved * step)
        pointVectors<kNoise, kKind, kInterleaved>(p, c, bound);
    for (; c < p.count; c += step) pointVectors<kNoise, kKind, 1>(p, c, bound);
}

template <NoiseKind kNoise>
void pointsOfNoise(const flat_v4::Points& p) {
    fractal_lanes::withFractal(p.fractal, [&](auto k) { pointsOf<kNoise, decltype(k)::value>(p); });
}

}  // namespace

void FadeColumns(FadeCurve curve, const float* t, float* out, std::size_t count) {
    const DF df;
    for (std::size_t c = 0; c < count; c += hn::Lanes(df))
        hn::StoreU(fractal_lanes::fadeFloat(curve, hn::LoadU(df, t + c)), df, out + c);
}

void FillCells(const flat_v4::CellRow& row) {
    if (row.noise == NoiseKind::Perlin) return cellsOf<NoiseKind::Perlin>(row);
    return cellsOf<NoiseKind::Value>(row);
}

void EvaluateRow(const flat_v4::Row& row) {
    if (row.noise == NoiseKind::Perlin) return rowOfNoise<NoiseKind::Perlin>(row);
    return rowOfNoise<NoiseKind::Value>(row);
}

void EvaluatePoints(const flat_v4::Points& p) {
    if (p.noise == NoiseKind::Perlin) return pointsOfNoise<NoiseKind::Perlin>(p);
    return pointsOfNoise<NoiseKind::Value>(p);
}

}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace terragrid::flat_v4 {

HWY_EXPORT(FadeColumns);
HWY_EXPORT(FillCells);
HWY_EXPORT(EvaluateRow);
HWY_EXPORT(EvaluatePoints);

void fadeColumns(FadeCurve curve, const float* t, float* out, std::size_t count) {
    HWY_DYNAMIC_DISPATCH(FadeColumns)(curve, t, out, count);
}
void fillCells(const CellRow& row) { HWY_DYNAMIC_DISPATCH(FillCells)(row); }
void evaluateRow(const Row& row) { HWY_DYNAMIC_DISPATCH(EvaluateRow)(row); }
void evaluatePoints(const Points& points) { HWY_DYNAMIC_DISPATCH(EvaluatePoints)(points); }

}  // namespace terragrid::flat_v4
#endif
