// The SIMD inner loops of NoiseRows, written once with Google Highway and compiled for each
// x86-64 target (SSE4, AVX2, AVX-512, ...); HWY_DYNAMIC_DISPATCH picks the best one the CPU
// has at run time. Every lane performs the scalar reference's IEEE operations in the same
// order (separable-inl.hpp, simplex.cpp), so every target gives the same bits.

#include "noise/rows_kernels.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "noise/rows_kernels.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include <array>
#include <cstdlib>
#include <limits>
#include <type_traits>
#include <vector>

#include "noise/cellular_points.hpp"
#include "noise/fractal_lanes-inl.hpp"
#include "noise/hash_lanes-inl.hpp"
#include "noise/point_lanes-inl.hpp"
#include "noise/simplex_row_lanes-inl.hpp"
#include "noise/separable-inl.hpp"
#include "noise/simplex_constants.hpp"
#include "terragrid/noise/detail/lattice_hash_parts.hpp"

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<double>;
using DI = hn::RebindToSigned<D>;
using DU = hn::RebindToUnsigned<D>;
using V = hn::Vec<D>;
using VI = hn::Vec<DI>;
using VU = hn::Vec<DU>;

using fractal_lanes::normalise;   // fractal_lanes-inl.hpp
using fractal_lanes::octaveTerm;

// ---------------------------------------------------------------------------------------------
// Value and Perlin noise: per-cell coefficients looked up per lane.

template <NoiseKind kNoise>
HWY_INLINE V separableNoise(D d, const rows::SeparableOctave& o, std::size_t c) {
    const DI di;
    // The lanes' cells are consecutive from the first lane's, so a vector loaded there holds
    // every coefficient this vector needs; a lane permutation hands them out.
    const std::int64_t first = o.cell[c];
    const V u = hn::LoadU(d, o.fade + c);
    const auto evaluate = [&](const auto& at) {
        if constexpr (kNoise == NoiseKind::Perlin) {
            const separable::PerlinCoefficients<V> k{at(o.p), at(o.q), at(o.r), at(o.s)};
            return separable::perlinEvaluate(k, hn::LoadU(d, o.fx + c), u);
        }
        return separable::valueEvaluate(separable::ValueCoefficients<V>{at(o.p), at(o.r)}, u);
    };
    // The low octaves' cells span many columns: most vectors lie in one cell.
    if (o.cell[c + hn::Lanes(d) - 1] == first)
        return evaluate([&](const double* coefficients) { return hn::Set(d, coefficients[first]); });
    const auto lane =
        hn::IndicesFromVec(d, hn::Sub(hn::LoadU(di, o.cell + c), hn::Set(di, first)));
    return evaluate([&](const double* coefficients) {
        return hn::TableLookupLanes(hn::LoadU(d, coefficients + first), lane);
    });
}

void PerlinCoefficients(const rows::CornerRows& c, double* p, double* q, double* r, double* s) {
    const D d;
    const V fy = hn::Set(d, c.fy);
    const V fyMinus1 = hn::Set(d, c.fy - 1.0);
    const V v = hn::Set(d, c.v);
    for (std::size_t i = 0; i < c.count; i += hn::Lanes(d)) {
        const auto k = separable::perlinCoefficients(
            hn::LoadU(d, c.gx00 + i), hn::LoadU(d, c.gy00 + i), hn::LoadU(d, c.gx10 + i),
            hn::LoadU(d, c.gy10 + i), hn::LoadU(d, c.gx01 + i), hn::LoadU(d, c.gy01 + i),
            hn::LoadU(d, c.gx11 + i), hn::LoadU(d, c.gy11 + i), fy, fyMinus1, v);
        hn::StoreU(k.p, d, p + i);
        hn::StoreU(k.q, d, q + i);
        hn::StoreU(k.r, d, r + i);
        hn::StoreU(k.s, d, s + i);
    }
}

void ValueCoefficients(const rows::CornerRows& c, double* p, double* r) {
    const D d;
    const V v = hn::Set(d, c.v);
    for (std::size_t i = 0; i < c.count; i += hn::Lanes(d)) {
        const auto k = separable::valueCoefficients(
            hn::LoadU(d, c.gx00 + i), hn::LoadU(d, c.gx10 + i), hn::LoadU(d, c.gx01 + i),
            hn::LoadU(d, c.gx11 + i), v);
        hn::StoreU(k.p, d, p + i);
        hn::StoreU(k.r, d, r + i);
    }
}

// ---------------------------------------------------------------------------------------------
// Simplex noise: everything per lane, the lattice hash included.

using point_lanes::mix64;  // point_lanes-inl.hpp

// LatticeHashParts::xPart and withY per lane (the octave's `key` and `perm`); the gradients
// read only the hash's low 3 bits.
template <class Octave>
HWY_INLINE VU hashX(const Octave& o, HashKind kind, VI ix) {
    const DU du;
    const DI di;
    if (kind == HashKind::Lattice) return mix64(hn::Add(hn::Set(du, o.key), hn::BitCast(du, ix)));
    return hn::BitCast(du, hn::GatherIndex(di, o.perm, hn::And(ix, hn::Set(di, 255))));
}

template <class Octave>
HWY_INLINE VU hashY(const Octave& o, HashKind kind, VU xPart, VI iy) {
    const DU du;
    const DI di;
    if (kind == HashKind::Lattice) return hn::ShiftRight<32>(mix64(hn::Add(xPart, hn::BitCast(du, iy))));
    const VI index = hn::Add(hn::BitCast(di, xPart), hn::And(iy, hn::Set(di, 255)));
    return hn::BitCast(du, hn::GatherIndex(di, o.perm, index));
}

// simplex.cpp's grad2: the hash's bits select the terms.
HWY_INLINE V grad2(VU hash, V x, V y) {
    const D d;
    const DU du;
    const auto bit = [&](std::uint64_t b) {
        return hn::RebindMask(d, hn::TestBit(hash, hn::Set(du, b)));
    };
    const auto negate = bit(1);
    const auto yAxis = bit(2);
    const auto diagonal = bit(4);
    const V first = hn::IfThenElse(hn::AndNot(diagonal, yAxis), y, x);
    const V second = hn::IfThenElseZero(diagonal, hn::IfThenElse(yAxis, hn::Neg(y), y));
    return hn::Add(hn::IfThenElse(negate, hn::Neg(first), first), second);
}

HWY_INLINE V corner2(VU hash, V x, V y) {
    const D d;
    const V t = hn::Sub(hn::Sub(hn::Set(d, simplex::kRadius2), hn::Mul(x, x)), hn::Mul(y, y));
    const V t2 = hn::Mul(t, t);
    return hn::IfThenElseZero(hn::Gt(t, hn::Zero(d)), hn::Mul(hn::Mul(t2, t2), grad2(hash, x, y)));
}

template <class Octave>
HWY_INLINE V simplex2(const Octave& o, HashKind kind, V x, V y) {
    using namespace simplex;
    const D d;
    const DI di;
    const V s = hn::Mul(hn::Add(x, y), hn::Set(d, kF2));
    const V fi = hn::Floor(hn::Add(x, s));
    const V fj = hn::Floor(hn::Add(y, s));
    const V t = hn::Mul(hn::Add(fi, fj), hn::Set(d, kG2));
    const V x0 = hn::Sub(x, hn::Sub(fi, t));
    const V y0 = hn::Sub(y, hn::Sub(fj, t));
    const auto lower = hn::Gt(x0, y0);  // lower triangle: step in x first
    const V i1 = hn::IfThenElseZero(lower, hn::Set(d, 1.0));
    const V j1 = hn::IfThenZeroElse(lower, hn::Set(d, 1.0));
    const V x1 = hn::Add(hn::Sub(x0, i1), hn::Set(d, kG2));
    const V y1 = hn::Add(hn::Sub(y0, j1), hn::Set(d, kG2));
    const V x2 = hn::Add(hn::Sub(x0, hn::Set(d, 1.0)), hn::Set(d, 2.0 * kG2));
    const V y2 = hn::Add(hn::Sub(y0, hn::Set(d, 1.0)), hn::Set(d, 2.0 * kG2));
    // The corners are (i, j), (i + i1, j + j1) and (i + 1, j + 1): two x halves of the hash
    // serve all three.
    const VI i = hn::ConvertTo(di, fi);
    const VI j = hn::ConvertTo(di, fj);
    const VI one = hn::Set(di, 1);
    const auto lowerI = hn::RebindMask(di, lower);
    const VU hx0 = hashX(o, kind, i);
    const VU hx1 = hashX(o, kind, hn::Add(i, one));
    const VU hxMiddle = hn::IfThenElse(hn::RebindMask(DU(), lowerI), hx1, hx0);
    const VI jMiddle = hn::Add(j, hn::IfThenZeroElse(lowerI, one));
    const V n = hn::Add(hn::Add(corner2(hashY(o, kind, hx0, j), x0, y0),
                                corner2(hashY(o, kind, hxMiddle, jMiddle), x1, y1)),
                        corner2(hashY(o, kind, hx1, hn::Add(j, one)), x2, y2));
    return hn::Min(hn::Max(hn::Mul(hn::Set(d, kScale2), n), hn::Set(d, -1.0)), hn::Set(d, 1.0));
}

// ---------------------------------------------------------------------------------------------
// Version 2 simplex noise (simplex.cpp: simplexNoiseV2) in float lanes, twice as many per
// vector as doubles, with the 32-bit lattice hash.

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;
using DU32 = hn::RebindToUnsigned<DF>;
using VU32 = hn::Vec<DU32>;

using hash_lanes::fmix32;  // hash_lanes-inl.hpp

// simplex.cpp's grad2 and corner2f per lane.
template <class VFT, class VU32T>
HWY_INLINE VFT grad2f(VU32T hash, VFT x, VFT y) {
    const hn::DFromV<VFT> df;
    const hn::DFromV<VU32T> du;
    const auto bit = [&](std::uint32_t b) {
        return hn::RebindMask(df, hn::TestBit(hash, hn::Set(du, b)));
    };
    const auto negate = bit(1);
    const auto yAxis = bit(2);
    const auto diagonal = bit(4);
    const VFT first = hn::IfThenElse(hn::AndNot(diagonal, yAxis), y, x);
    const VFT second = hn::IfThenElseZero(diagonal, hn::IfThenElse(yAxis, hn::Neg(y), y));
    return hn::Add(hn::IfThenElse(negate, hn::Neg(first), first), second);
}

template <class VFT, class VU32T>
HWY_INLINE VFT corner2f(VU32T hash, VFT x, VFT y) {
    const hn::DFromV<VFT> df;
    const VFT t = hn::Sub(hn::Sub(hn::Set(df, simplex::kRadius2f), hn::Mul(x, x)), hn::Mul(y, y));
    const VFT t2 = hn::Mul(t, t);
    return hn::IfThenElseZero(hn::Gt(t, hn::Zero(df)), hn::Mul(hn::Mul(t2, t2), grad2f(hash, x, y)));
}

using simplex_row_lanes::skewedSum;  // simplex_row_lanes-inl.hpp
using simplex_row_lanes::SkewedLanes;
using simplex_row_lanes::uniformBit;
using simplex_row_lanes::repeated;

// A corner's kernel (corner2f) with its gradient given as simplex::kGradX / kGradY / kGradZ
// entries (same bits as grad2, see simplex_constants.hpp).
HWY_INLINE VF cornerWith(VF gx, VF gy, VF gz, VF x, VF y) {
    const DF df;
    const VF t = hn::Sub(hn::Sub(hn::Set(df, simplex::kRadius2f), hn::Mul(x, x)), hn::Mul(y, y));
    const VF t2 = hn::Mul(t, t);
    const VF grad = hn::Add(hn::Add(hn::Mul(gx, x), hn::Mul(gy, y)), gz);
    return hn::IfThenElseZero(hn::Gt(t, hn::Zero(df)), hn::Mul(hn::Mul(t2, t2), grad));
}


// corner2f of a hashed corner: where a vector holds the 8 gradients, three lane permutations
// of the tables are cheaper than grad2f's bit tests and selects; narrower targets use grad2f.
HWY_INLINE VF cornerHashed(VU32 hash, VF x, VF y) {
    const DF df;
    if constexpr (hn::MaxLanes(df) >= 8) {
        const DU32 du;
        const hn::RebindToSigned<DF> di;
        // simplex::kGradX / Y / Z repeated to fill a vector (lookups index lanes 0..7 only).
        alignas(64) static constexpr std::array<float, 16> kX = repeated(simplex::kGradX);
        alignas(64) static constexpr std::array<float, 16> kY = repeated(simplex::kGradY);
        alignas(64) static constexpr std::array<float, 16> kZ = repeated(simplex::kGradZ);
        static_assert(hn::MaxLanes(df) <= 16);
        const auto lane = hn::IndicesFromVec(df, hn::BitCast(di, hn::And(hash, hn::Set(du, 7u))));
        return cornerWith(hn::TableLookupLanes(hn::Load(df, kX.data()), lane),
                          hn::TableLookupLanes(hn::Load(df, kY.data()), lane),
                          hn::TableLookupLanes(hn::Load(df, kZ.data()), lane), x, y);
    } else {
        return corner2f(hash, x, y);
    }
}

// The gradients of the corners of the last lattice cell a whole vector of columns lay in.
// At the low octaves a cell spans many columns, so most vectors reuse them and hash nothing
// (the gradients are a function of the cell alone: same bits).
struct CellGradients {
    bool valid = false;
    std::uint32_t lowI = 0, lowJ = 0;
    // The corners (i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1).
    float x[4] = {}, y[4] = {}, z[4] = {};
};

HWY_INLINE void fillCell(CellGradients& cell, std::uint32_t lowI, std::uint32_t lowJ,
                         std::uint32_t key) {
    using Parts = detail::LatticeHashParts;
    const std::uint32_t base = lowI * Parts::kHashX + lowJ * Parts::kHashY + key;
    const std::uint32_t inputs[4] = {base, base + Parts::kHashX, base + Parts::kHashY,
                                     base + Parts::kHashX + Parts::kHashY};
    for (int k = 0; k < 4; ++k) {
        const std::uint32_t g = Parts::fmix32(inputs[k]) & 7u;
        cell.x[k] = simplex::kGradX[g];
        cell.y[k] = simplex::kGradY[g];
        cell.z[k] = simplex::kGradZ[g];
    }
    cell.valid = true;
    cell.lowI = lowI;
    cell.lowJ = lowJ;
}


HWY_INLINE VF simplex2f(const rows::SimplexV2Octave& o, std::size_t c, CellGradients& cell) {
    using namespace simplex;
    using Parts = detail::LatticeHashParts;
    const DF df;
    const DU32 du;
    const SkewedLanes sx = skewedSum(hn::LoadU(df, o.fracA + c), o.fracC);
    const SkewedLanes sy = skewedSum(hn::LoadU(df, o.fracB + c), o.fracD);
    const VF t = hn::Mul(hn::Add(sx.frac, sy.frac), hn::Set(df, kG2f));
    const VF x0 = hn::Sub(sx.frac, t);
    const VF y0 = hn::Sub(sy.frac, t);
    const auto lower = hn::Gt(x0, y0);
    const VF one = hn::Set(df, 1.0f);
    // (x0 + G) - 1 or - 0; subtracting +0 gives the same bits as not subtracting.
    const VF x0g = hn::Add(x0, hn::Set(df, kG2f));
    const VF y0g = hn::Add(y0, hn::Set(df, kG2f));
    const VF x1 = hn::IfThenElse(lower, hn::Sub(x0g, one), x0g);
    const VF y1 = hn::IfThenElse(lower, y0g, hn::Sub(y0g, one));
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
        const auto at = [&](int k, const float* g) { return hn::Set(df, g[k]); };
        const auto middle = [&](const float* g) { return hn::IfThenElse(lower, at(1, g), at(2, g)); };
        n = hn::Add(hn::Add(cornerWith(at(0, cell.x), at(0, cell.y), at(0, cell.z), x0, y0),
                            cornerWith(middle(cell.x), middle(cell.y), middle(cell.z), x1, y1)),
                    cornerWith(at(3, cell.x), at(3, cell.y), at(3, cell.z), x2, y2));
    } else {
        // hash32 of the three corners: lo(i) P + lo(j) Q + key, with lo(i) = lo(a) + lo(c)
        // + carry and lo(j) likewise, so the column's and the row's parts are added and each
        // carry adds P or Q (modulo 2^32, like the scalar products); then one step in x and / or
        // y adds P and / or Q.
        const VU32 h = hn::Add(hn::LoadU(du, o.hashAB + c), hn::Set(du, o.hashCD));
        const VU32 hx = hn::IfThenElse(hn::RebindMask(du, sx.carry), hn::Add(h, hn::Set(du, Parts::kHashX)), h);
        const VU32 h0 = hn::IfThenElse(hn::RebindMask(du, sy.carry), hn::Add(hx, hn::Set(du, Parts::kHashY)), hx);
        const VU32 h1 = hn::Add(h0, hn::IfThenElse(hn::RebindMask(du, lower), hn::Set(du, Parts::kHashX),
                                                   hn::Set(du, Parts::kHashY)));
        const VU32 h2 = hn::Add(h0, hn::Set(du, Parts::kHashX + Parts::kHashY));
        n = hn::Add(hn::Add(cornerHashed(fmix32(h0), x0, y0), cornerHashed(fmix32(h1), x1, y1)),
                    cornerHashed(fmix32(h2), x2, y2));
    }
    return hn::Min(hn::Max(hn::Mul(hn::Set(df, kScale2f), n), hn::Set(df, -1.0f)), one);
}

template <FractalKind kKind>
void addSimplexV2(const rows::SimplexV2Octave& o) {
    const D d;
    const DF df;
    const hn::Rebind<float, D> dHalf;  // as many floats as doubles
    const std::size_t lanes = hn::Lanes(d);
    const V amplitude = hn::Set(d, o.amplitude);
    const std::size_t step = hn::Lanes(df);
    HWY_ALIGN float noise[2 * hn::MaxLanes(df)];
    CellGradients cell;
    // The sum in double, octave by octave, like NoiseField::sample.
    const auto add = [&](std::size_t c, std::size_t count) {
        for (std::size_t k = 0; k < count; k += lanes) {
            const V n = hn::PromoteTo(d, hn::Load(dHalf, noise + k));
            const V sum = hn::LoadU(d, o.sum + c + k);
            hn::StoreU(hn::Add(sum, hn::Mul(amplitude, octaveTerm<kKind>(d, n))), d, o.sum + c + k);
        }
    };
    std::size_t c = 0;
    // Two vectors per step give the CPU two independent chains to interleave.
    for (; c + 2 * step <= o.columns; c += 2 * step) {
        const VF n0 = simplex2f(o, c, cell);
        const VF n1 = simplex2f(o, c + step, cell);
        hn::Store(n0, df, noise);
        hn::Store(n1, df, noise + step);
        add(c, 2 * step);
    }
    for (; c < o.columns; c += step) {
        hn::Store(simplex2f(o, c, cell), df, noise);
        add(c, step);
    }
}

template <FractalKind kKind>
void normaliseAll(double amplitudeSum, double* sums, std::size_t columns) {
    const D d;
    for (std::size_t c = 0; c < columns; c += hn::Lanes(d))
        hn::StoreU(normalise<kKind>(d, hn::LoadU(d, sums + c), amplitudeSum), d, sums + c);
}

void NormaliseRow(FractalKind fractal, double amplitudeSum, double* sums, std::size_t columns) {
    switch (fractal) {
    case FractalKind::None: return normaliseAll<FractalKind::None>(amplitudeSum, sums, columns);
    case FractalKind::Fbm: return normaliseAll<FractalKind::Fbm>(amplitudeSum, sums, columns);
    case FractalKind::Turbulence:
        return normaliseAll<FractalKind::Turbulence>(amplitudeSum, sums, columns);
    case FractalKind::Ridged: return normaliseAll<FractalKind::Ridged>(amplitudeSum, sums, columns);
    default: return;  // kinds without a SIMD path never get here (rows.cpp: hasSimdRows)
    }
}

void AddSimplexV2Octave(const rows::SimplexV2Octave& o) {
    switch (o.fractal) {
    case FractalKind::None: return addSimplexV2<FractalKind::None>(o);
    case FractalKind::Fbm: return addSimplexV2<FractalKind::Fbm>(o);
    case FractalKind::Turbulence: return addSimplexV2<FractalKind::Turbulence>(o);
    case FractalKind::Ridged: return addSimplexV2<FractalKind::Ridged>(o);
    default: return;  // kinds without a SIMD path never get here (rows.cpp: hasSimdRows)
    }
}

// ---------------------------------------------------------------------------------------------
// Corners of a lattice row (lattice hash): the hash's y step per lane, then the gradient
// (Perlin, the table of separable-inl.hpp selected by the hash's bits) or value.

// separable-inl.hpp's perlinGradient per lane: the hash's bits select (not a table lookup).
struct GradientLanes {
    V x, y;
};

HWY_INLINE GradientLanes perlinGradient(VU h) {
    const D d;
    const DU du;
    const V one = hn::Set(d, 1.0);
    const V root = hn::Set(d, separable::kSqrt2);
    const auto bit = [&](std::uint64_t b) {
        return hn::RebindMask(d, hn::TestBit(h, hn::Set(du, b)));
    };
    const auto negate = bit(1);
    const auto yAxis = bit(2);
    const auto diagonal = bit(4);
    const V signedOne = hn::IfThenElse(negate, hn::Neg(one), one);
    const V signedRoot = hn::IfThenElse(negate, hn::Neg(root), root);
    return {hn::IfThenElse(diagonal, signedOne, hn::IfThenZeroElse(yAxis, signedRoot)),
            hn::IfThenElse(diagonal, hn::IfThenElse(yAxis, hn::Neg(one), one),
                           hn::IfThenElseZero(yAxis, signedRoot))};
}

// signedValue (value.cpp) per lane: LatticeHash::unit onto [-1, 1].
HWY_INLINE V signedValue(HashKind kind, VU h) {
    const D d;
    const DI di;
    const DU du;
    // The lattice hash: its top 24 of 32 bits / (2^24 - 1); the permutations: h / 255.
    const V unit = kind == HashKind::Lattice
                       ? hn::Div(hn::ConvertTo(d, hn::BitCast(di, hn::ShiftRight<8>(h))),
                                 hn::Set(d, 16777215.0))
                       : hn::Div(hn::ConvertTo(d, hn::BitCast(di, hn::And(h, hn::Set(du, 0xFF)))),
                                 hn::Set(d, 255.0));
    return hn::Sub(hn::Mul(hn::Set(d, 2.0), unit), hn::Set(d, 1.0));
}

void FillCorners(const rows::CornerFill& f) {
    const D d;
    const DI di;
    const DU du;
    const VU iy = hn::BitCast(du, hn::Set(di, f.iy));
    const auto store = [&](VU xPart, double* x, double* y, std::size_t i) {
        const VU h = hn::ShiftRight<32>(mix64(hn::Add(xPart, iy)));
        if (f.noise == NoiseKind::Value) {
            hn::StoreU(signedValue(HashKind::Lattice, h), d, x + i);
            return;
        }
        const GradientLanes g = perlinGradient(h);
        hn::StoreU(g.x, d, x + i);
        hn::StoreU(g.y, d, y + i);
    };
    for (std::size_t i = 0; i < f.count; i += hn::Lanes(d)) {
        store(hn::LoadU(du, f.left + i), f.leftX, f.leftY, i);
        if (f.right != nullptr) store(hn::LoadU(du, f.right + i), f.rightX, f.rightY, i);
    }
}

// ---------------------------------------------------------------------------------------------
// Points: every lane its own point (a warped layer's moved points), so every lane splits its
// coordinates and hashes its own corners, with the scalar reference's operations in its order.

// fade (value.cpp) per lane: fractal_lanes-inl.hpp's, shared with the curved rows.
HWY_INLINE V fadeLanes(FadeCurve curve, V t) { return fractal_lanes::fade(D(), curve, t); }

using point_lanes::split;  // point_lanes-inl.hpp
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

// simplexNoiseV2 (simplex.cpp) per lane: the coordinates split in double, the cell in float
// lanes (as many as the doubles) and the 32-bit lattice hash.
using point_lanes::CornerHashes32;  // point_lanes-inl.hpp
using point_lanes::cornerHashes32;
using point_lanes::DH;
using point_lanes::skewedCell;
using VH = hn::Vec<DH>;

HWY_INLINE V simplexV2Point(const rows::PointOctave& o, V x, V y) {
    using namespace simplex;
    const D d;
    const DH dh;
    const auto [sx, sy] = skewedCell(x, y);
    const VH t = hn::Mul(hn::Add(sx.frac, sy.frac), hn::Set(dh, kG2f));
    const VH x0 = hn::Sub(sx.frac, t);
    const VH y0 = hn::Sub(sy.frac, t);
    const auto lower = hn::Gt(x0, y0);
    const VH one = hn::Set(dh, 1.0f);
    const VH x1 = hn::Sub(hn::Add(x0, hn::Set(dh, kG2f)), hn::IfThenElseZero(lower, one));
    const VH y1 = hn::Sub(hn::Add(y0, hn::Set(dh, kG2f)), hn::IfThenZeroElse(lower, one));
    const VH x2 = hn::Add(x0, hn::Set(dh, kCorner2f));
    const VH y2 = hn::Add(y0, hn::Set(dh, kCorner2f));
    const CornerHashes32 h = cornerHashes32(o.key, sx.index, sy.index, lower);
    const VH n = hn::Add(hn::Add(corner2f(h.first, x0, y0), corner2f(h.middle, x1, y1)),
                         corner2f(h.far, x2, y2));
    return hn::PromoteTo(d, hn::Min(hn::Max(hn::Mul(hn::Set(dh, kScale2f), n), hn::Set(dh, -1.0f)), one));
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
    return p.simplexV2 ? simplexV2Point(o, x, y) : simplex2(o, p.hash, x, y);
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
            const V u = hn::Add(hn::Add(hn::Mul(x, frequency), offsetX), hn::Set(d, o.shiftX));
            const V v = hn::Add(hn::Add(hn::Mul(y, frequency), offsetY), hn::Set(d, o.shiftY));
            const V n = pointNoise<kNoise>(p, o, u, v, cache[i]);
            sum = hn::Add(sum, hn::Mul(hn::Set(d, o.amplitude), octaveTerm<kKind>(d, n)));
        }
        hn::StoreU(normalise<kKind>(d, sum, p.amplitudeSum), d, p.out + c);
    }
}

template <NoiseKind kNoise>
void pointsOfKind(const rows::Points& p) {
    switch (p.fractal) {
    case FractalKind::None: return pointsOf<kNoise, FractalKind::None>(p);
    case FractalKind::Fbm: return pointsOf<kNoise, FractalKind::Fbm>(p);
    case FractalKind::Turbulence: return pointsOf<kNoise, FractalKind::Turbulence>(p);
    case FractalKind::Ridged: return pointsOf<kNoise, FractalKind::Ridged>(p);
    default: return;  // kinds without a point kernel never get here (rows.cpp)
    }
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

// ---------------------------------------------------------------------------------------------
// Whole rows: all octaves per vector of columns, the sum kept in a register.

template <NoiseKind kNoise>
HWY_INLINE V octaveNoise(D d, const rows::Row& row, int i, std::size_t c) {
    if constexpr (kNoise == NoiseKind::Simplex) {
        const rows::SimplexOctave& o = row.simplex[i];
        return simplex2(o, row.hash, hn::LoadU(d, o.xs + c), hn::Set(d, o.y));
    } else {
        return separableNoise<kNoise>(d, row.separable[i], c);
    }
}

template <NoiseKind kNoise>
HWY_INLINE double octaveAmplitude(const rows::Row& row, int i) {
    if constexpr (kNoise == NoiseKind::Simplex) return row.simplex[i].amplitude;
    return row.separable[i].amplitude;
}

// Two vectors of columns per step (the padding allows it) give the CPU two independent
// chains of octaves to interleave.
template <NoiseKind kNoise, FractalKind kKind>
void rowOf(const rows::Row& row) {
    const D d;
    const std::size_t lanes = hn::Lanes(d);
    for (std::size_t c = 0; c < row.columns; c += 2 * lanes) {
        // Summed from 0.0 in octave order, like NoiseField::sample.
        V sum0 = hn::Zero(d);
        V sum1 = hn::Zero(d);
        for (int i = 0; i < row.octaves; ++i) {
            const V amplitude = hn::Set(d, octaveAmplitude<kNoise>(row, i));
            const V n0 = octaveNoise<kNoise>(d, row, i, c);
            const V n1 = octaveNoise<kNoise>(d, row, i, c + lanes);
            sum0 = hn::Add(sum0, hn::Mul(amplitude, octaveTerm<kKind>(d, n0)));
            sum1 = hn::Add(sum1, hn::Mul(amplitude, octaveTerm<kKind>(d, n1)));
        }
        hn::StoreU(normalise<kKind>(d, sum0, row.amplitudeSum), d, row.out + c);
        hn::StoreU(normalise<kKind>(d, sum1, row.amplitudeSum), d, row.out + c + lanes);
    }
}

template <NoiseKind kNoise>
void rowOfKind(const rows::Row& row) {
    switch (row.fractal) {
    case FractalKind::None: return rowOf<kNoise, FractalKind::None>(row);
    case FractalKind::Fbm: return rowOf<kNoise, FractalKind::Fbm>(row);
    case FractalKind::Turbulence: return rowOf<kNoise, FractalKind::Turbulence>(row);
    case FractalKind::Ridged: return rowOf<kNoise, FractalKind::Ridged>(row);
    default: return;  // kinds without a SIMD path never get here (rows.cpp: hasSimdRows)
    }
}

void EvaluateRow(const rows::Row& row) {
    switch (row.noise) {
    case NoiseKind::Value: return rowOfKind<NoiseKind::Value>(row);
    case NoiseKind::Perlin: return rowOfKind<NoiseKind::Perlin>(row);
    case NoiseKind::Simplex: return rowOfKind<NoiseKind::Simplex>(row);
    default: return;  // kinds without a SIMD path never get here (rows.cpp: hasSimdRows)
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace terragrid::rows {

HWY_EXPORT(EvaluateRow);
HWY_EXPORT(EvaluatePoints);
HWY_EXPORT(AddSimplexV2Octave);
HWY_EXPORT(NormaliseRow);
HWY_EXPORT(FillCorners);
HWY_EXPORT(FadeColumns);
HWY_EXPORT(PerlinCoefficients);
HWY_EXPORT(ValueCoefficients);

void evaluateRow(const Row& row) { HWY_DYNAMIC_DISPATCH(EvaluateRow)(row); }

void evaluatePoints(const Points& points) { HWY_DYNAMIC_DISPATCH(EvaluatePoints)(points); }

void addSimplexV2Octave(const SimplexV2Octave& octave) {
    HWY_DYNAMIC_DISPATCH(AddSimplexV2Octave)(octave);
}

void normaliseRow(FractalKind fractal, double amplitudeSum, double* sums, std::size_t columns) {
    HWY_DYNAMIC_DISPATCH(NormaliseRow)(fractal, amplitudeSum, sums, columns);
}

void fillCorners(const CornerFill& fill) { HWY_DYNAMIC_DISPATCH(FillCorners)(fill); }

void fadeColumns(FadeCurve curve, const double* t, double* out, std::size_t count) {
    HWY_DYNAMIC_DISPATCH(FadeColumns)(curve, t, out, count);
}

void perlinCoefficients(const CornerRows& c, double* p, double* q, double* r, double* s) {
    HWY_DYNAMIC_DISPATCH(PerlinCoefficients)(c, p, q, r, s);
}

void valueCoefficients(const CornerRows& c, double* p, double* r) {
    HWY_DYNAMIC_DISPATCH(ValueCoefficients)(c, p, r);
}

}  // namespace terragrid::rows
#endif  // HWY_ONCE
