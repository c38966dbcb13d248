// Version 3 simplex rows (rows::evaluateSimplexV3Row: every octave of a vector of columns in
// float lanes, the sum kept in a register) and points (rows::evaluateSimplexV3Points: a warped
// layer's moved points), written once with Google Highway for each x86-64
// target and dispatched at run time. Each lane performs NoiseField::unwarpedSimplexV3's float
// operations and fused multiply-adds in its order (simplex_v3.hpp, simplex.cpp), so every
// target gives the scalar reference's bits. Its own translation unit: rows_kernels.cpp is the
// slowest to compile already, and two files build on two cores.

#include "noise/rows_kernels.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "noise/simplex_v3_rows.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include <array>
#include <cstdint>

#include "noise/fused-inl.hpp"
#include "noise/hash_lanes-inl.hpp"
#include "noise/point_lanes-inl.hpp"
#include "noise/simplex_row_lanes-inl.hpp"
#include "noise/simplex_constants.hpp"
#include "noise/simplex_v3.hpp"
#include "terragrid/noise/detail/lattice_hash_parts.hpp"

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;
using DU32 = hn::RebindToUnsigned<DF>;
using VU32 = hn::Vec<DU32>;
using Parts = detail::LatticeHashParts;
using fused::mulAdd;
using hash_lanes::fmix32;
using simplex_row_lanes::repeated;  // simplex_row_lanes-inl.hpp
using simplex_row_lanes::skewedSum;
using simplex_row_lanes::SkewedLanes;
using simplex_row_lanes::uniformBit;

// simplex_v3::corner per lane: max(0.5 - x^2 - y^2, 0)^4 fma(gx, x, gy y). (Templates: the
// rows use whole float vectors, the point kernel as many floats as doubles.)
template <class VFT>
HWY_INLINE VFT corner(VFT gx, VFT gy, VFT x, VFT y) {
    const hn::DFromV<VFT> df;
    const VFT t = hn::Max(mulAdd(hn::Neg(y), y, mulAdd(hn::Neg(x), x, hn::Set(df, simplex::kRadius2f))),
                          hn::Zero(df));
    const VFT t2 = hn::Mul(t, t);
    return hn::Mul(hn::Mul(t2, t2), mulAdd(gx, x, hn::Mul(gy, y)));
}

alignas(64) constexpr std::array<float, 16> kGradX = repeated(simplex_v3::kGradX);
alignas(64) constexpr std::array<float, 16> kGradY = repeated(simplex_v3::kGradY);

// The corner of a hashed lattice point: its gradient picked by hash & 7 (a lane permutation
// where a vector holds all 8 entries, a gather from the table on narrower targets).
template <class VFT, class VU32T>
HWY_INLINE VFT hashedCorner(VU32T hash, VFT x, VFT y) {
    const hn::DFromV<VFT> df;
    const hn::DFromV<VU32T> du;
    const hn::RebindToSigned<decltype(df)> di;
    const auto index = hn::BitCast(di, hn::And(hash, hn::Set(du, 7u)));
    if constexpr (hn::MaxLanes(df) >= 8) {
        static_assert(hn::MaxLanes(df) <= 16);
        const auto lane = hn::IndicesFromVec(df, index);
        return corner(hn::TableLookupLanes(hn::Load(df, kGradX.data()), lane),
                      hn::TableLookupLanes(hn::Load(df, kGradY.data()), lane), x, y);
    } else {
        return corner(hn::GatherIndex(df, kGradX.data(), index),
                      hn::GatherIndex(df, kGradY.data(), index), x, y);
    }
}

// The gradients of the corners of the last lattice cell a whole vector of columns lay in (per
// octave): at the low octaves a cell spans many columns, so most vectors hash nothing.
struct CellGradients {
    bool valid = false;
    std::uint32_t lowI = 0, lowJ = 0;
    // The corners (i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1).
    float x[4] = {}, y[4] = {};
};

void fillCell(CellGradients& cell, std::uint32_t lowI, std::uint32_t lowJ, std::uint32_t key) {
    const std::uint32_t base = lowI * Parts::kHashX + lowJ * Parts::kHashY + key;
    const std::uint32_t inputs[4] = {base, base + Parts::kHashX, base + Parts::kHashY,
                                     base + Parts::kHashX + Parts::kHashY};
    for (int k = 0; k < 4; ++k) {
        const std::uint32_t g = Parts::fmix32(inputs[k]) & 7u;
        cell.x[k] = simplex_v3::kGradX[g];
        cell.y[k] = simplex_v3::kGradY[g];
    }
    cell.valid = true;
    cell.lowI = lowI;
    cell.lowJ = lowJ;
}



// simplexNoiseV3 of the columns c .. c + lanes - 1 on the row.
HWY_INLINE VF simplexV3(const rows::SimplexV2Octave& o, std::size_t c, CellGradients& cell) {
    using namespace simplex;
    const DF df;
    const DU32 du;
    const SkewedLanes sx = skewedSum(hn::LoadU(df, o.fracA + c), o.fracC);
    const SkewedLanes sy = skewedSum(hn::LoadU(df, o.fracB + c), o.fracD);
    const VF s = hn::Add(sx.frac, sy.frac);
    const VF minusG = hn::Set(df, -kG2f);
    const VF x0 = mulAdd(minusG, s, sx.frac);
    const VF y0 = mulAdd(minusG, s, sy.frac);
    const auto lower = hn::Gt(x0, y0);
    const VF g = hn::Set(df, kG2f);
    const VF gMinus1 = hn::Set(df, simplex_v3::kG2Minus1f);
    const VF x1 = hn::Add(x0, hn::IfThenElse(lower, gMinus1, g));
    const VF y1 = hn::Add(y0, hn::IfThenElse(lower, g, gMinus1));
    const VF x2 = hn::Add(x0, hn::Set(df, kCorner2f));
    const VF y2 = hn::Add(y0, hn::Set(df, kCorner2f));
    VF n;
    const int carryX = o.run[c] >= hn::Lanes(df) ? uniformBit(sx.carry) : -1;
    const int carryY = carryX >= 0 ? uniformBit(sy.carry) : -1;
    if (carryY >= 0) {
        // Every lane in the cell (i, j): its corners' gradients once, then broadcast.
        const std::uint32_t lowI = o.lowA[c] + o.lowC + static_cast<std::uint32_t>(carryX);
        const std::uint32_t lowJ = o.lowB[c] + o.lowD + static_cast<std::uint32_t>(carryY);
        if (!cell.valid || cell.lowI != lowI || cell.lowJ != lowJ) fillCell(cell, lowI, lowJ, o.key);
        const auto at = [&](int k, const float* table) { return hn::Set(df, table[k]); };
        const auto middle = [&](const float* table) {
            return hn::IfThenElse(lower, at(1, table), at(2, table));
        };
        n = hn::Add(hn::Add(corner(at(0, cell.x), at(0, cell.y), x0, y0),
                            corner(middle(cell.x), middle(cell.y), x1, y1)),
                    corner(at(3, cell.x), at(3, cell.y), x2, y2));
    } else {
        // hash32 of the three corners, as version 2's rows split it (rows_kernels.cpp).
        const VU32 h = hn::Add(hn::LoadU(du, o.hashAB + c), hn::Set(du, o.hashCD));
        const VU32 hx = hn::IfThenElse(hn::RebindMask(du, sx.carry),
                                       hn::Add(h, hn::Set(du, Parts::kHashX)), h);
        const VU32 h0 = hn::IfThenElse(hn::RebindMask(du, sy.carry),
                                       hn::Add(hx, hn::Set(du, Parts::kHashY)), hx);
        const VU32 h1 = hn::Add(h0, hn::IfThenElse(hn::RebindMask(du, lower),
                                                   hn::Set(du, Parts::kHashX),
                                                   hn::Set(du, Parts::kHashY)));
        const VU32 h2 = hn::Add(h0, hn::Set(du, Parts::kHashX + Parts::kHashY));
        n = hn::Add(hn::Add(hashedCorner(fmix32(h0), x0, y0), hashedCorner(fmix32(h1), x1, y1)),
                    hashedCorner(fmix32(h2), x2, y2));
    }
    return hn::Mul(hn::Set(df, kScale2f), n);
}

// simplex_v3::octaveTerm per lane.
template <FractalKind kKind, class VFT>
HWY_INLINE VFT octaveTerm(VFT n) {
    if constexpr (kKind == FractalKind::Turbulence) return hn::Abs(n);
    if constexpr (kKind == FractalKind::Ridged) {
        const VFT r = hn::Sub(hn::Set(hn::DFromV<VFT>(), 1.0f), hn::Abs(n));
        return hn::Mul(r, r);
    }
    return n;
}

// simplex_v3::normalise per lane.
template <FractalKind kKind, class VFT>
HWY_INLINE VFT normalise(VFT sum, float scale) {
    const hn::DFromV<VFT> df;
    VFT value;
    if constexpr (kKind == FractalKind::None || kKind == FractalKind::Fbm)
        value = mulAdd(sum, hn::Set(df, scale), hn::Set(df, 0.5f));
    else
        value = hn::Mul(sum, hn::Set(df, scale));
    return hn::Min(hn::Max(value, hn::Zero(df)), hn::Set(df, 1.0f));
}

template <FractalKind kKind>
void rowOf(const rows::SimplexV3Row& row) {
    const DF df;
    const hn::ScalableTag<double> d;
    const hn::Rebind<float, decltype(d)> dHalf;  // as many floats as doubles
    const std::size_t step = hn::Lanes(df);
    std::array<CellGradients, kMaxOctaves> cells{};
    HWY_ALIGN float values[2 * hn::MaxLanes(df)];
    const auto store = [&](std::size_t c, std::size_t count) {
        for (std::size_t k = 0; k < count; k += hn::Lanes(d))
            hn::StoreU(hn::PromoteTo(d, hn::Load(dHalf, values + k)), d, row.out + c + k);
    };
    const auto amplitude = [&](int i) {
        return hn::Set(df, static_cast<float>(row.octave[i].amplitude));
    };
    std::size_t c = 0;
    // Two vectors per step give the CPU two independent chains of octaves to interleave.
    for (; c + 2 * step <= row.columns; c += 2 * step) {
        VF sum0 = hn::Zero(df);
        VF sum1 = hn::Zero(df);
        for (int i = 0; i < row.octaves; ++i) {
            CellGradients& cell = cells[static_cast<std::size_t>(i)];
            const VF n0 = simplexV3(row.octave[i], c, cell);
            const VF n1 = simplexV3(row.octave[i], c + step, cell);
            sum0 = mulAdd(amplitude(i), octaveTerm<kKind>(n0), sum0);
            sum1 = mulAdd(amplitude(i), octaveTerm<kKind>(n1), sum1);
        }
        hn::Store(normalise<kKind>(sum0, row.scale), df, values);
        hn::Store(normalise<kKind>(sum1, row.scale), df, values + step);
        store(c, 2 * step);
    }
    for (; c < row.columns; c += step) {
        VF sum = hn::Zero(df);
        for (int i = 0; i < row.octaves; ++i) {
            const VF n = simplexV3(row.octave[i], c, cells[static_cast<std::size_t>(i)]);
            sum = mulAdd(amplitude(i), octaveTerm<kKind>(n), sum);
        }
        hn::Store(normalise<kKind>(sum, row.scale), df, values);
        store(c, step);
    }
}

// ---------------------------------------------------------------------------------------------
// Points: every lane its own point (a warped layer's moved points), split in double lanes as
// simplexNoiseV3 splits it (point_lanes-inl.hpp), the cell in float lanes as many.

using point_lanes::D;
using point_lanes::DH;
using point_lanes::V;
using VH = hn::Vec<DH>;

// simplexNoiseV3 per lane.
HWY_INLINE VH simplexV3Point(std::uint64_t seed, V x, V y) {
    using namespace simplex;
    const DH dh;
    const auto [sx, sy] = point_lanes::skewedCell(x, y);
    const VH s = hn::Add(sx.frac, sy.frac);
    const VH minusG = hn::Set(dh, -kG2f);
    const VH x0 = mulAdd(minusG, s, sx.frac);
    const VH y0 = mulAdd(minusG, s, sy.frac);
    const auto lower = hn::Gt(x0, y0);
    const VH g = hn::Set(dh, kG2f);
    const VH gMinus1 = hn::Set(dh, simplex_v3::kG2Minus1f);
    const VH x1 = hn::Add(x0, hn::IfThenElse(lower, gMinus1, g));
    const VH y1 = hn::Add(y0, hn::IfThenElse(lower, g, gMinus1));
    const VH x2 = hn::Add(x0, hn::Set(dh, kCorner2f));
    const VH y2 = hn::Add(y0, hn::Set(dh, kCorner2f));
    const point_lanes::CornerHashes32 h =
        point_lanes::cornerHashes32(seed, sx.index, sy.index, lower);
    const VH n = hn::Add(hn::Add(hashedCorner(h.first, x0, y0), hashedCorner(h.middle, x1, y1)),
                         hashedCorner(h.far, x2, y2));
    return hn::Mul(hn::Set(dh, kScale2f), n);
}

template <FractalKind kKind>
void pointsOf(const rows::SimplexV3Points& p) {
    const D d;
    const DH dh;
    const V offsetX = hn::Set(d, p.offsetX);
    const V offsetY = hn::Set(d, p.offsetY);
    for (std::size_t c = 0; c < p.count; c += hn::Lanes(d)) {
        const V x = hn::LoadU(d, p.xs + c);
        const V y = hn::LoadU(d, p.ys + c);
        VH sum = hn::Zero(dh);
        for (int i = 0; i < p.octaves; ++i) {
            const rows::PointOctave& o = p.octave[i];
            // The lattice coordinates as NoiseField::unwarpedSimplexV3 computes them.
            const V frequency = hn::Set(d, o.frequency);
            const V u = hn::Add(hn::Add(hn::Mul(x, frequency), offsetX), hn::Set(d, o.shiftX));
            const V v = hn::Add(hn::Add(hn::Mul(y, frequency), offsetY), hn::Set(d, o.shiftY));
            const VH n = simplexV3Point(o.key, u, v);
            sum = mulAdd(hn::Set(dh, static_cast<float>(o.amplitude)), octaveTerm<kKind>(n), sum);
        }
        hn::StoreU(hn::PromoteTo(d, normalise<kKind>(sum, p.scale)), d, p.out + c);
    }
}

}  // namespace

void EvaluateSimplexV3Points(const rows::SimplexV3Points& p) {
    switch (p.fractal) {
    case FractalKind::None: return pointsOf<FractalKind::None>(p);
    case FractalKind::Fbm: return pointsOf<FractalKind::Fbm>(p);
    case FractalKind::Turbulence: return pointsOf<FractalKind::Turbulence>(p);
    case FractalKind::Ridged: return pointsOf<FractalKind::Ridged>(p);
    default: return;  // kinds without a SIMD path never get here (rows.cpp)
    }
}

void EvaluateSimplexV3Row(const rows::SimplexV3Row& row) {
    switch (row.fractal) {
    case FractalKind::None: return rowOf<FractalKind::None>(row);
    case FractalKind::Fbm: return rowOf<FractalKind::Fbm>(row);
    case FractalKind::Turbulence: return rowOf<FractalKind::Turbulence>(row);
    case FractalKind::Ridged: return rowOf<FractalKind::Ridged>(row);
    default: return;  // kinds without a SIMD path never get here (rows.cpp: hasSimdRows)
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace terragrid::rows {

HWY_EXPORT(EvaluateSimplexV3Row);
HWY_EXPORT(EvaluateSimplexV3Points);

void evaluateSimplexV3Points(const SimplexV3Points& points) {
    HWY_DYNAMIC_DISPATCH(EvaluateSimplexV3Points)(points);
}

void evaluateSimplexV3Row(const SimplexV3Row& row) {
    HWY_DYNAMIC_DISPATCH(EvaluateSimplexV3Row)(row);
}

}  // namespace terragrid::rows
#endif
