// The SIMD kernels of points (NoiseField::unwarped per lane: a warped layer's moved points,
// and the rows of the noises without a separable form: generic lattice, cellular) and of the
// columns' fade, written once with Google Highway and compiled for each x86-64 target;
// HWY_DYNAMIC_DISPATCH picks the best one the CPU has at run time. Every lane performs the
// scalar reference's IEEE operations in the same order, so every target gives the same bits.
// Declared in rows_kernels.hpp with the rows' kernels (rows_kernels.cpp); compiled apart from
// them so that the two halves build on both cores (lattice_lanes-inl.hpp holds what both use).

#include "noise/rows_kernels.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "noise/point_kernels.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include <array>
#include <cstdlib>
#include <limits>
#include <type_traits>
#include <vector>

#include "noise/cellular_points.hpp"
#include "noise/fractal_lanes-inl.hpp"
#include "noise/lattice_lanes-inl.hpp"
#include "noise/point_lanes-inl.hpp"
#include "terragrid/noise/detail/lattice_hash_parts.hpp"

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;


using fractal_lanes::normalise;   // fractal_lanes-inl.hpp
using fractal_lanes::octaveTerm;

// ---------------------------------------------------------------------------------------------
// Points: every lane its own point (a warped layer's moved points), so every lane splits its
// coordinates and hashes its own corners, with the scalar reference's operations in its order.

// fade (value.cpp) per lane: fractal_lanes-inl.hpp's, shared with the curved rows.
HWY_INLINE V fadeLanes(FadeCurve curve, V t) { return fractal_lanes::fade(D(), curve, t); }

using point_lanes::latticeCoordinate;  // point_lanes-inl.hpp
using point_lanes::split;
using point_lanes::SplitLanes;

// The hashes of a cell's corners (ix, iy) .. (ix + 1, iy + 1).
struct CornerHashes {
    VU h00, h10, h01, h11;
};

HWY_INLINE CornerHashes cornerHashes(const rows::PointOctave& o, HashKind kind, VI ix, VI iy) {
    const DI di;
    const VI one = hn::Set(di, 1);
    const VU left = hashX(o, kind, ix);
    const VU right = hashX(o, kind, hn::Add(ix, one));
    const VI iy1 = hn::Add(iy, one);
    return {hashY(o, kind, left, iy), hashY(o, kind, right, iy), hashY(o, kind, left, iy1),
            hashY(o, kind, right, iy1)};
}

// cornerHashes of one cell in scalars (hashX and hashY's operations on one lane), broadcast
// to `where` of the lanes (the others keep h's).
HWY_INLINE void cellHashes(const rows::PointOctave& o, HashKind kind, std::int64_t ix,
                           std::int64_t iy, hn::Mask<DU> where, CornerHashes& h) {
    const DU du;
    std::uint64_t corner[4];
    if (kind == HashKind::Lattice) {
        const std::uint64_t left = terragrid::mix64(o.key + static_cast<std::uint64_t>(ix));
        const std::uint64_t right = terragrid::mix64(o.key + static_cast<std::uint64_t>(ix + 1));
        const auto y = [](std::uint64_t xPart, std::int64_t j) {
            return terragrid::mix64(xPart + static_cast<std::uint64_t>(j)) >> 32;
        };
        corner[0] = y(left, iy);
        corner[1] = y(right, iy);
        corner[2] = y(left, iy + 1);
        corner[3] = y(right, iy + 1);
    } else {
        const std::int64_t left = o.perm[ix & 255];
        const std::int64_t right = o.perm[(ix + 1) & 255];
        const auto y = [&](std::int64_t xPart, std::int64_t j) {
            return static_cast<std::uint64_t>(o.perm[xPart + (j & 255)]);
        };
        corner[0] = y(left, iy);
        corner[1] = y(right, iy);
        corner[2] = y(left, iy + 1);
        corner[3] = y(right, iy + 1);
    }
    h.h00 = hn::IfThenElse(where, hn::Set(du, corner[0]), h.h00);
    h.h10 = hn::IfThenElse(where, hn::Set(du, corner[1]), h.h10);
    h.h01 = hn::IfThenElse(where, hn::Set(du, corner[2]), h.h01);
    h.h11 = hn::IfThenElse(where, hn::Set(du, corner[3]), h.h11);
}

// The lanes' corner hashes, one distinct cell at a time in scalars, where that is cheaper
// than hashing every lane: below AVX-512 a vector has at most 4 double lanes and its 64-bit
// multiplies are emulated (three 32-bit multiplies each), and the points of a vector mostly
// share one or two cells.
#if HWY_TARGET > HWY_AVX3
constexpr bool kCellsInScalars = true;
#else
constexpr bool kCellsInScalars = false;
#endif

HWY_INLINE CornerHashes cornerHashesByCell(const rows::PointOctave& o, HashKind kind, VI ix,
                                           VI iy) {
    const DI di;
    const DU du;
    CornerHashes h{hn::Zero(du), hn::Zero(du), hn::Zero(du), hn::Zero(du)};
    constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(std::int64_t);
    alignas(64) std::int64_t xs[kMaxLanes];
    alignas(64) std::int64_t ys[kMaxLanes];
    hn::Store(ix, di, xs);
    hn::Store(iy, di, ys);
    auto remaining = hn::FirstN(di, hn::Lanes(di));
    while (!hn::AllFalse(di, remaining)) {
        const auto first = static_cast<std::size_t>(hn::FindFirstTrue(di, remaining));
        const auto same = hn::And(hn::Eq(ix, hn::Set(di, xs[first])), hn::Eq(iy, hn::Set(di, ys[first])));
        cellHashes(o, kind, xs[first], ys[first], hn::RebindMask(du, same), h);
        remaining = hn::AndNot(same, remaining);
    }
    return h;
}

// The last cell a whole vector of points fell in, per octave: at the low octaves a cell spans
// many columns, so the next vectors usually fall in it too and skip the hash (what a kernel
// keeps of the corners is a function of the cell alone: same bits).
struct CellKey {
    bool valid = false;
    std::int64_t ix = 0, iy = 0;
};

// The corner hashes of the lanes' cells into h, unless every lane lies in key's cell (then
// returns false: what the caller kept of that cell serves). A vector in one cell hashes that
// cell once, in scalars, whatever the target.
HWY_INLINE bool hashCells(const rows::PointOctave& o, HashKind kind, const SplitLanes& cx,
                          const SplitLanes& cy, CellKey& key, CornerHashes& h) {
    const DI di;
    const std::int64_t ix = hn::GetLane(cx.index);
    const std::int64_t iy = hn::GetLane(cy.index);
    const bool oneCell = hn::AllTrue(di, hn::And(hn::Eq(cx.index, hn::Set(di, ix)),
                                                 hn::Eq(cy.index, hn::Set(di, iy))));
    if (oneCell && key.valid && key.ix == ix && key.iy == iy) return false;
    if (oneCell) {
        const DU du;
        h = {hn::Zero(du), hn::Zero(du), hn::Zero(du), hn::Zero(du)};
        cellHashes(o, kind, ix, iy, hn::FirstN(du, hn::Lanes(du)), h);
    } else if (kCellsInScalars) {
        h = cornerHashesByCell(o, kind, cx.index, cy.index);
    } else {
        h = cornerHashes(o, kind, cx.index, cy.index);
    }
    key = {oneCell, ix, iy};
    return true;
}

// Per octave, what the point kernels keep of the last cell: Perlin its corners' gradients,
// generic lattice noise their hashes.
struct CellCache {
    CellKey key;
    GradientLanes g00, g10, g01, g11;
    CornerHashes h;
};

// perlinNoise (perlin.cpp) per lane.
HWY_INLINE V perlinPoint(const rows::PointOctave& o, HashKind kind, FadeCurve fade, V x, V y,
                         CellCache& cache) {
    const D d;
    const SplitLanes cx = split(x);
    const SplitLanes cy = split(y);
    CornerHashes h;
    if (hashCells(o, kind, cx, cy, cache.key, h)) {
        cache.g00 = perlinGradient(h.h00);
        cache.g10 = perlinGradient(h.h10);
        cache.g01 = perlinGradient(h.h01);
        cache.g11 = perlinGradient(h.h11);
    }
    const auto k = separable::perlinCoefficients(
        cache.g00.x, cache.g00.y, cache.g10.x, cache.g10.y, cache.g01.x, cache.g01.y, cache.g11.x,
        cache.g11.y, cy.frac, hn::Sub(cy.frac, hn::Set(d, 1.0)), fadeLanes(fade, cy.frac));
    return separable::perlinEvaluate(k, cx.frac, fadeLanes(fade, cx.frac));
}

// latticeProximity (generic_lattice.cpp) per lane, its operations in its order; s = +-1 from
// hash bit 3 multiplies as the scalar's hashedSign does (signed zeros included).
template <Proximity kProximity>
HWY_INLINE V proximityLanes(HashKind kind, VU hash, V dx, V dy) {
    if constexpr (kProximity == Proximity::Constant) {
        return signedValue(kind, hash);
    } else {
        const D d;
        const DU du;
        const GradientLanes g = perlinGradient(hash);
        const V dot = hn::Add(hn::Mul(g.x, dx), hn::Mul(g.y, dy));
        if constexpr (kProximity == Proximity::Gradient) return dot;
        const V one = hn::Set(d, 1.0);
        const V two = hn::Set(d, 2.0);
        const V t = hn::Mul(hn::Set(d, 0.5), dot);
        const auto negative = hn::RebindMask(d, hn::TestBit(hash, hn::Set(du, 8)));
        const V s = hn::IfThenElse(negative, hn::Neg(one), one);
        const V crest = hn::Sub(one, hn::Mul(two, hn::Abs(t)));  // 1 - 2|t|
        if constexpr (kProximity == Proximity::Triangular) return hn::Mul(s, crest);
        if constexpr (kProximity == Proximity::Ridged) {
            const V r = hn::Sub(one, hn::Abs(t));
            return hn::Mul(s, hn::Sub(hn::Mul(hn::Mul(two, r), r), one));
        }
        return hn::Mul(hn::Set(d, 0.5), hn::Add(t, hn::Mul(s, crest)));  // SemiRidged
    }
}

// genericLatticeNoise (generic_lattice.cpp) per lane. Out of line: one copy per proximity and
// target instead of one per proximity, fractal and target.
template <Proximity kProximity>
HWY_NOINLINE V genericPoint(const rows::PointOctave& o, HashKind kind, FadeCurve fade, V x, V y,
                          CellCache& cache) {
    const D d;
    const SplitLanes cx = split(x);
    const SplitLanes cy = split(y);
    hashCells(o, kind, cx, cy, cache.key, cache.h);
    const CornerHashes& h = cache.h;
    const V fx1 = hn::Sub(cx.frac, hn::Set(d, 1.0));
    const V fy1 = hn::Sub(cy.frac, hn::Set(d, 1.0));
    const auto k = separable::valueCoefficients(
        proximityLanes<kProximity>(kind, h.h00, cx.frac, cy.frac),
        proximityLanes<kProximity>(kind, h.h10, fx1, cy.frac),
        proximityLanes<kProximity>(kind, h.h01, cx.frac, fy1),
        proximityLanes<kProximity>(kind, h.h11, fx1, fy1), fadeLanes(fade, cy.frac));
    return separable::valueEvaluate(k, fadeLanes(fade, cx.frac));
}

// cellularNoise (cellular.cpp) per lane. The feature points come from the scalar reference's
// own function, per cell (lanes mostly share a cell), kept in a small per-octave cache of
// blocks; the distances, the two nearest and the outer ring's skip test run in the lanes with
// the reference's operations, each lane's outer cells visited exactly when the reference
// visits them.

// A cell's 5 x 5 block of feature points, offsets -2..2 on both axes (k = (dy + 2) 5 + dx + 2);
// the inner 3 x 3 filled when the block is made, the outer ring when a lane first needs it.
struct CellularBlock {
    std::int64_t ix = 0, iy = 0;
    std::uint64_t stamp = 0;  // the last vector that used it (0: empty)
    std::uint32_t filled = 0;  // bit k: point k is computed
    double x[25], y[25];
};

constexpr int kBlockSide = 2 * cellular::kOuterReach + 1;
constexpr std::size_t kMaxPointLanes = HWY_MAX_BYTES / sizeof(double);

// Enough blocks for every lane of a vector in its own cell, and some to spare for the next
// vectors, which usually revisit the cells the last ones met.
constexpr std::size_t kCellularBlocks = kMaxPointLanes + 4;
struct CellularCache {
    CellularBlock blocks[kCellularBlocks];
    std::uint64_t vector = 0;  // counts the vectors (stamps)
    std::size_t next = 0;      // where the next new block goes (round robin)
};

HWY_INLINE void fillPoint(CellularBlock& b, int k, double jitter, const LatticeHash& h) {
    if (b.filled & (1u << k)) return;
    const cellular::Point p = cellular::featurePoint(
        b.ix + (k % kBlockSide - cellular::kOuterReach),
        b.iy + (k / kBlockSide - cellular::kOuterReach), jitter, h);
    b.x[k] = p.x;
    b.y[k] = p.y;
    b.filled |= 1u << k;
}

// The block of cell (ix, iy), made if the cache lacks it (never replacing a block this vector
// uses: the cache has more blocks than a vector has lanes).
HWY_INLINE CellularBlock& blockOf(CellularCache& cache, std::int64_t ix, std::int64_t iy,
                                  double jitter, const LatticeHash& h) {
    for (CellularBlock& b : cache.blocks) {
        if (b.stamp != 0 && b.ix == ix && b.iy == iy) {
            b.stamp = cache.vector;
            return b;
        }
    }
    while (cache.blocks[cache.next].stamp == cache.vector) cache.next = (cache.next + 1) % kCellularBlocks;
    CellularBlock& b = cache.blocks[cache.next];
    cache.next = (cache.next + 1) % kCellularBlocks;
    b.ix = ix;
    b.iy = iy;
    b.stamp = cache.vector;
    b.filled = 0;
    for (int dy = -cellular::kInnerReach; dy <= cellular::kInnerReach; ++dy)
        for (int dx = -cellular::kInnerReach; dx <= cellular::kInnerReach; ++dx)
            fillPoint(b, (dy + cellular::kOuterReach) * kBlockSide + dx + cellular::kOuterReach,
                      jitter, h);
    return b;
}

// cellular.cpp's metric per lane.
HWY_INLINE V cellularMetric(CellularDistance metric, V dx, V dy) {
    if (metric == CellularDistance::Manhattan) return hn::Add(hn::Abs(dx), hn::Abs(dy));
    return hn::Sqrt(hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy)));
}

// cellular.cpp's axisGap per lane: max(0, (centre - half) - f, f - (centre + half)).
HWY_INLINE V axisGapLanes(int c, V f, double half) {
    const D d;
    const double centre = static_cast<double>(c) + 0.5;
    return hn::Max(hn::Max(hn::Zero(d), hn::Sub(hn::Set(d, centre - half), f)),
                   hn::Sub(f, hn::Set(d, centre + half)));
}

// Out of line: one copy per target instead of one per fractal (the kernel is large and its
// call is a small part of its cost).
HWY_NOINLINE V cellularPointNoise(const rows::Points& p, const rows::PointOctave& o, V x, V y,
                                  CellularCache& cache) {
    const D d;
    const DI di;
    const SplitLanes cx = split(x);
    const SplitLanes cy = split(y);
    const std::size_t lanes = hn::Lanes(d);
    alignas(64) std::int64_t ixs[kMaxPointLanes];
    alignas(64) std::int64_t iys[kMaxPointLanes];
    hn::Store(cx.index, di, ixs);
    hn::Store(cy.index, di, iys);
    ++cache.vector;
    CellularBlock* block[kMaxPointLanes];
    bool oneCell = true;
    for (std::size_t l = 0; l < lanes; ++l) {
        const bool same = l > 0 && ixs[l] == ixs[l - 1] && iys[l] == iys[l - 1];
        block[l] = same ? block[l - 1] : &blockOf(cache, ixs[l], iys[l], p.cellularJitter, *o.hash);
        oneCell = oneCell && block[l] == block[0];
    }
    // Point k of every lane's block, as lanes.
    const auto points = [&](int k, V& px, V& py) {
        if (oneCell) {
            fillPoint(*block[0], k, p.cellularJitter, *o.hash);
            px = hn::Set(d, block[0]->x[k]);
            py = hn::Set(d, block[0]->y[k]);
            return;
        }
        alignas(64) double bx[kMaxPointLanes];
        alignas(64) double by[kMaxPointLanes];
        for (std::size_t l = 0; l < lanes; ++l) {
            fillPoint(*block[l], k, p.cellularJitter, *o.hash);
            bx[l] = block[l]->x[k];
            by[l] = block[l]->y[k];
        }
        px = hn::Load(d, bx);
        py = hn::Load(d, by);
    };
    // The two nearest so far (cellular.cpp's Nearest::add, where `visit` is set).
    V f1 = hn::Set(d, std::numeric_limits<double>::infinity());
    V f2 = f1;
    const auto visit = [&](int dx, int dy, hn::Mask<D> where) {
        V px, py;
        points((dy + cellular::kOuterReach) * kBlockSide + dx + cellular::kOuterReach, px, py);
        const V ox = hn::Sub(hn::Add(hn::Set(d, static_cast<double>(dx)), px), cx.frac);
        const V oy = hn::Sub(hn::Add(hn::Set(d, static_cast<double>(dy)), py), cy.frac);
        const V dist = cellularMetric(p.cellularDistance, ox, oy);
        const auto nearer = hn::And(where, hn::Lt(dist, f1));
        const auto second = hn::AndNot(nearer, hn::And(where, hn::Lt(dist, f2)));
        f2 = hn::IfThenElse(nearer, f1, hn::IfThenElse(second, dist, f2));
        f1 = hn::IfThenElse(nearer, dist, f1);
    };
    const auto all = hn::FirstN(d, lanes);
    constexpr int kInner = cellular::kInnerReach;
    constexpr int kOuter = cellular::kOuterReach;
    for (int dy = -kInner; dy <= kInner; ++dy)
        for (int dx = -kInner; dx <= kInner; ++dx) visit(dx, dy, all);
    const double half = 0.5 * p.cellularJitter;
    const bool f1Only = p.cellularReturn == CellularReturn::F1;
    for (int dy = -kOuter; dy <= kOuter; ++dy) {
        for (int dx = -kOuter; dx <= kOuter; ++dx) {
            if (std::abs(dx) <= kInner && std::abs(dy) <= kInner) continue;
            // The reference visits the cell unless metric(gaps) >= limit.
            const V gap = cellularMetric(p.cellularDistance, axisGapLanes(dx, cx.frac, half),
                                         axisGapLanes(dy, cy.frac, half));
            const auto reachable = hn::Not(hn::Ge(gap, f1Only ? f1 : f2));
            if (!hn::AllFalse(d, reachable)) visit(dx, dy, reachable);
        }
    }
    const V value = f1Only ? f1
                    : p.cellularReturn == CellularReturn::F2 ? f2
                                                             : hn::Sub(f2, f1);
    const V mapped = hn::Sub(hn::Div(hn::Mul(hn::Set(d, 2.0), value), hn::Set(d, p.cellularBound)),
                             hn::Set(d, 1.0));
    return hn::Min(hn::Max(mapped, hn::Set(d, -1.0)), hn::Set(d, 1.0));
}

// valueNoise (value.cpp) per lane.
HWY_INLINE V valuePoint(const rows::PointOctave& o, HashKind kind, FadeCurve fade, V x, V y) {
    const SplitLanes cx = split(x);
    const SplitLanes cy = split(y);
    const CornerHashes h = cornerHashes(o, kind, cx.index, cy.index);
    const auto k = separable::valueCoefficients(signedValue(kind, h.h00), signedValue(kind, h.h10),
                                                signedValue(kind, h.h01), signedValue(kind, h.h11),
                                                fadeLanes(fade, cy.frac));
    return separable::valueEvaluate(k, fadeLanes(fade, cx.frac));
}

// simplexNoiseV2 (simplex.cpp) per lane of two double vectors (one on the scalar target): the
// coordinates split in double, the cell in one float vector of both halves
// (point_lanes::combined: 8 float lanes on AVX2 where each half has 4) and the 32-bit lattice
// hash (point_lanes-inl.hpp). `inBound`: the caller knows every index of these lanes lies
// within +-(2^31 - 2), so the octave's originKey32 serves every corner (cornerHashes32InBound).
using point_lanes::kHalves;

HWY_INLINE void simplexV2Points(const rows::PointOctave& o, const V (&x)[kHalves], const V (&y)[kHalves],
                                bool inBound, V (&n)[kHalves]) {
    using namespace simplex;
    using point_lanes::combined;
    using point_lanes::halfOf;
    const D d;
    const DF df;
    point_lanes::SkewedCell cell[kHalves];
    for (std::size_t h = 0; h < kHalves; ++h) cell[h] = point_lanes::skewedCell(x[h], y[h]);
    const VF sx = combined(cell[0].sx.frac, cell[kHalves - 1].sx.frac);
    const VF sy = combined(cell[0].sy.frac, cell[kHalves - 1].sy.frac);
    const VF t = hn::Mul(hn::Add(sx, sy), hn::Set(df, kG2f));
    const VF x0 = hn::Sub(sx, t);
    const VF y0 = hn::Sub(sy, t);
    const auto lower = hn::Gt(x0, y0);
    const VF one = hn::Set(df, 1.0f);
    const VF x1 = hn::Sub(hn::Add(x0, hn::Set(df, kG2f)), hn::IfThenElseZero(lower, one));
    const VF y1 = hn::Sub(hn::Add(y0, hn::Set(df, kG2f)), hn::IfThenZeroElse(lower, one));
    const VF x2 = hn::Add(x0, hn::Set(df, kCorner2f));
    const VF y2 = hn::Add(y0, hn::Set(df, kCorner2f));
    point_lanes::CornerHashes32 half[kHalves];
    for (std::size_t h = 0; h < kHalves; ++h) {
        // The triangle per double vector's lanes: the offsets' halves compared as a whole.
        const auto lowerHalf = hn::Gt(halfOf(x0, h), halfOf(y0, h));
        const point_lanes::SkewedCell& c = cell[h];
        half[h] = inBound ? point_lanes::cornerHashes32InBound(o.originKey32, c.sx.index, c.sy.index, lowerHalf)
                          : point_lanes::cornerHashes32(o.key, c.sx.index, c.sy.index, lowerHalf);
    }
    const auto hash = [&](auto corner) {
        return fmix32(combined(half[0].*corner, half[kHalves - 1].*corner));
    };
    using Hashes = point_lanes::CornerHashes32;
    const VF sum = hn::Add(hn::Add(corner2f(hash(&Hashes::first), x0, y0), corner2f(hash(&Hashes::middle), x1, y1)),
                           corner2f(hash(&Hashes::far), x2, y2));
    const VF value = hn::Min(hn::Max(hn::Mul(hn::Set(df, kScale2f), sum), hn::Set(df, -1.0f)), one);
    for (std::size_t h = 0; h < kHalves; ++h) n[h] = hn::PromoteTo(d, halfOf(value, h));
}

// NoiseField::unwarped for version 2 simplex, two double vectors of points at a time: the
// octaves summed from 0.0 in order per lane, then normalised. Vectors whose skewed indices stay
// within +-(2^31 - 2) (point_lanes::InBound, kSkewedReach) hash every corner with one key per
// octave.
template <FractalKind kKind>
void simplexV2PointsOf(const rows::Points& p) {
    const D d;
    const point_lanes::InBound bound = point_lanes::inBound(p, point_lanes::kSkewedReach);
    const std::size_t lanes = hn::Lanes(d);
    for (std::size_t c = 0; c < p.count; c += kHalves * lanes) {
        const bool inBound = point_lanes::within<kHalves>(p, c, bound);
        V x[kHalves], y[kHalves], sum[kHalves];
        for (std::size_t h = 0; h < kHalves; ++h) {
            x[h] = hn::LoadU(d, p.xs + c + h * lanes);
            y[h] = hn::LoadU(d, p.ys + c + h * lanes);
            sum[h] = hn::Zero(d);
        }
        for (int i = 0; i < p.octaves; ++i) {
            const rows::PointOctave& o = p.octave[i];
            const V frequency = hn::Set(d, o.frequency);
            V u[kHalves], v[kHalves], n[kHalves];
            for (std::size_t h = 0; h < kHalves; ++h) {
                u[h] = latticeCoordinate(x[h], frequency, hn::Set(d, p.offsetX), hn::Set(d, o.shiftX));
                v[h] = latticeCoordinate(y[h], frequency, hn::Set(d, p.offsetY), hn::Set(d, o.shiftY));
            }
            simplexV2Points(o, u, v, inBound, n);
            for (std::size_t h = 0; h < kHalves; ++h)
                sum[h] = hn::Add(sum[h], hn::Mul(hn::Set(d, o.amplitude), octaveTerm<kKind>(d, n[h])));
        }
        for (std::size_t h = 0; h < kHalves; ++h)
            hn::StoreU(normalise<kKind>(d, sum[h], p.amplitudeSum), d, p.out + c + h * lanes);
    }
}

// What a point kernel keeps per octave between vectors.
template <NoiseKind kNoise>
using PointCache = std::conditional_t<kNoise == NoiseKind::Cellular, CellularCache, CellCache>;

template <NoiseKind kNoise>
HWY_INLINE V pointNoise(const rows::Points& p, const rows::PointOctave& o, V x, V y,
                        PointCache<kNoise>& cache) {
    if constexpr (kNoise == NoiseKind::Cellular) return cellularPointNoise(p, o, x, y, cache);
    if constexpr (kNoise == NoiseKind::Perlin) return perlinPoint(o, p.hash, p.fade, x, y, cache);
    if constexpr (kNoise == NoiseKind::Value) return valuePoint(o, p.hash, p.fade, x, y);
    if constexpr (kNoise == NoiseKind::GenericLattice) {
        switch (p.proximity) {
        case Proximity::Constant:
            return genericPoint<Proximity::Constant>(o, p.hash, p.fade, x, y, cache);
        case Proximity::Gradient:
            return genericPoint<Proximity::Gradient>(o, p.hash, p.fade, x, y, cache);
        case Proximity::Triangular:
            return genericPoint<Proximity::Triangular>(o, p.hash, p.fade, x, y, cache);
        case Proximity::Ridged:
            return genericPoint<Proximity::Ridged>(o, p.hash, p.fade, x, y, cache);
        case Proximity::SemiRidged:
            return genericPoint<Proximity::SemiRidged>(o, p.hash, p.fade, x, y, cache);
        }
    }
    return simplex2(o, p.hash, x, y);  // version 1 (version 2: simplexV2PointsOf)
}

// NoiseField::unwarped per lane: the octaves summed from 0.0 in order, then normalised.
template <NoiseKind kNoise, FractalKind kKind>
void pointsOf(const rows::Points& p) {
    const D d;
    const V offsetX = hn::Set(d, p.offsetX);
    const V offsetY = hn::Set(d, p.offsetY);
    // Cellular noise's blocks take kilobytes per octave: on the heap. The other caches hold
    // vectors, aligned beyond what operator new promises: on the stack.
    std::conditional_t<kNoise == NoiseKind::Cellular, std::vector<CellularCache>,
                       std::array<CellCache, kMaxOctaves>>
        cache{};
    if constexpr (kNoise == NoiseKind::Cellular) cache.resize(static_cast<std::size_t>(p.octaves));
    for (std::size_t c = 0; c < p.count; c += hn::Lanes(d)) {
        const V x = hn::LoadU(d, p.xs + c);
        const V y = hn::LoadU(d, p.ys + c);
        V sum = hn::Zero(d);
        for (int i = 0; i < p.octaves; ++i) {
            const rows::PointOctave& o = p.octave[i];
            const V frequency = hn::Set(d, o.frequency);
            const V u = latticeCoordinate(x, frequency, offsetX, hn::Set(d, o.shiftX));
            const V v = latticeCoordinate(y, frequency, offsetY, hn::Set(d, o.shiftY));
            const V n = pointNoise<kNoise>(p, o, u, v, cache[i]);
            sum = hn::Add(sum, hn::Mul(hn::Set(d, o.amplitude), octaveTerm<kKind>(d, n)));
        }
        hn::StoreU(normalise<kKind>(d, sum, p.amplitudeSum), d, p.out + c);
    }
}

template <NoiseKind kNoise>
void pointsOfKind(const rows::Points& p) {
    if (kNoise == NoiseKind::Simplex && p.simplexV2) {
        fractal_lanes::withFractal(p.fractal, [&](auto k) { simplexV2PointsOf<decltype(k)::value>(p); });
        return;
    }
    fractal_lanes::withFractal(p.fractal, [&](auto k) { pointsOf<kNoise, decltype(k)::value>(p); });
}

void EvaluatePoints(const rows::Points& p) {
    switch (p.noise) {
    case NoiseKind::Value: return pointsOfKind<NoiseKind::Value>(p);
    case NoiseKind::Perlin: return pointsOfKind<NoiseKind::Perlin>(p);
    case NoiseKind::Simplex: return pointsOfKind<NoiseKind::Simplex>(p);
    case NoiseKind::GenericLattice: return pointsOfKind<NoiseKind::GenericLattice>(p);
    case NoiseKind::Cellular: return pointsOfKind<NoiseKind::Cellular>(p);
    default: return;  // kinds without a point kernel never get here (rows.cpp)
    }
}

// value.cpp's fade of each column's fraction (NoiseRows' constructor, per tile and octave).
void FadeColumns(FadeCurve curve, const double* t, double* out, std::size_t count) {
    const D d;
    for (std::size_t c = 0; c < count; c += hn::Lanes(d))
        hn::StoreU(fadeLanes(curve, hn::LoadU(d, t + c)), d, out + c);
}

}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace terragrid::rows {

HWY_EXPORT(EvaluatePoints);
HWY_EXPORT(FadeColumns);

void evaluatePoints(const Points& points) { HWY_DYNAMIC_DISPATCH(EvaluatePoints)(points); }

void fadeColumns(FadeCurve curve, const double* t, double* out, std::size_t count) {
    HWY_DYNAMIC_DISPATCH(FadeColumns)(curve, t, out, count);
}

}  // namespace terragrid::rows
#endif  // HWY_ONCE
