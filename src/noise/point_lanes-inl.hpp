// What the point kernels share (every lane its own point: point_kernels.cpp, simplex_v3_rows.cpp):
// the split of a coordinate into an int64 index and a fraction, and version 2 and 3 simplex's
// skewed cell and 32-bit corner hashes, in double lanes and float lanes as many (the 64-bit and
// 32-bit hashes themselves: lattice_lanes-inl.hpp) (private to src/noise).
//
// A Highway "-inl" header: included once per SIMD target (HWY_TARGET_TOGGLE flips with each
// pass), because Highway vectors may only be used in code compiled for their target.

#if defined(TERRAGRID_NOISE_POINT_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TERRAGRID_NOISE_POINT_LANES_INL_H_
#undef TERRAGRID_NOISE_POINT_LANES_INL_H_
#else
#define TERRAGRID_NOISE_POINT_LANES_INL_H_
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <hwy/highway.h>

#include "noise/curved_v4.hpp"
#include "noise/lattice_lanes-inl.hpp"
#include "noise/simplex_constants.hpp"
#include "terragrid/noise/detail/lattice_hash_parts.hpp"

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace point_lanes {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<double>;
using DI = hn::RebindToSigned<D>;
using DU = hn::RebindToUnsigned<D>;
using V = hn::Vec<D>;
using VI = hn::Vec<DI>;
using VU = hn::Vec<DU>;
// Float lanes as many as the doubles.
using DH = hn::Rebind<float, D>;
using VH = hn::Vec<DH>;
using DHI = hn::RebindToSigned<DH>;
using DHU = hn::RebindToUnsigned<DH>;
using VHU = hn::Vec<DHU>;

// A float vector of points is two double vectors' worth (one on the scalar target, where the
// double vector fills the float one): the point kernels split each double vector, then compute
// the cell in whole float vectors (flat_v4_rows.cpp, simplex_v3_rows.cpp).
constexpr std::size_t kHalves = HWY_TARGET == HWY_SCALAR ? 1 : 2;

// The whole vector of two halves' lanes, lo's first.
template <class VHT>
HWY_INLINE auto combined(VHT lo, VHT hi) {
#if HWY_TARGET == HWY_SCALAR
    (void)hi;
    return lo;
#else
    const hn::DFromV<VHT> dh;
    return hn::Combine(hn::Twice<decltype(dh)>(), hi, lo);
#endif
}

// Half h of a whole float vector (the lanes of double vector h).
template <class VT>
HWY_INLINE VH halfOf(VT v, std::size_t h) {
#if HWY_TARGET == HWY_SCALAR
    (void)h;
    return v;
#else
    return h == 0 ? hn::LowerHalf(DH(), v) : hn::UpperHalf(DH(), v);
#endif
}

// NoiseField::latticeCoordinates per lane: (p f + offset) + shift, the reference's operations
// in its order.
HWY_INLINE V latticeCoordinate(V p, V frequency, V offset, V shift) {
    return hn::Add(hn::Add(hn::Mul(p, frequency), offset), shift);
}

// lattice::split per lane: the int64 index and the exact fraction.
struct SplitLanes {
    VI index;
    V frac;
};

// An integral double as int64 lanes. Below AVX-512 Highway emulates the conversion (about 20
// instructions); when every lane is below 2^51 in magnitude, adding 1.5 * 2^52 puts the value
// exactly into the mantissa's low bits, whose difference from the constant's bits is the
// integer: the same int64, exactly.
HWY_INLINE VI toIndex(V cell) {
    const DI di;
#if HWY_TARGET > HWY_AVX3
    const D d;
    const V magic = hn::Set(d, 6755399441055744.0);  // 2^52 + 2^51
    if (hn::AllTrue(d, hn::Lt(hn::Abs(cell), hn::Set(d, 2251799813685248.0)))) {  // 2^51
        return hn::Sub(hn::BitCast(di, hn::Add(cell, magic)), hn::BitCast(di, magic));
    }
#endif
    return hn::ConvertTo(di, cell);
}

// std::floor per lane. Without SSE4's rounding Highway floors by conversions, which lose -0's
// sign: std::floor keeps it (and -0 - -0 is +0, where -0 - +0 is -0), and a floor always has
// x's sign.
HWY_INLINE V floorOf(V x) {
#if HWY_TARGET >= HWY_SSSE3
    return hn::CopySign(hn::Floor(x), x);
#else
    return hn::Floor(x);
#endif
}

// An integer x (below 2^53) as quotient q and remainder x - q period in [0, period), exact: the
// quotient's floor by the reciprocal can be one off, which the corrections take back.
struct Reduced {
    V quotient, remainder;
};

HWY_INLINE Reduced reducedBy(V x, double period) {
    const D d;
    const V n = hn::Set(d, period);
    V q = floorOf(hn::Mul(x, hn::Set(d, 1.0 / period)));
    V r = hn::NegMulAdd(q, n, x);
    const auto under = hn::Lt(r, hn::Zero(d));
    q = hn::IfThenElse(under, hn::Sub(q, hn::Set(d, 1.0)), q);
    r = hn::IfThenElse(under, hn::Add(r, n), r);
    const auto over = hn::Ge(r, n);
    return {hn::IfThenElse(over, hn::Add(q, hn::Set(d, 1.0)), q), hn::IfThenElse(over, hn::Sub(r, n), r)};
}

HWY_INLINE SplitLanes split(V x) {
    const V cell = floorOf(x);
    return {toIndex(cell), hn::Sub(x, cell)};
}


// Where every octave's lattice coordinates (p f + offset) + shift lie within +-reach, for points
// (x, y) with |x| < InBound::x and |y| < InBound::y: per layer and row, so that a kernel checks
// a vector of points once rather than every octave's indices. The margin of one lattice cell
// covers the rounding of the coordinates' three operations (2^-22 at 2^31) and of these
// bounds' own. `Points`: a point kernel's arguments (octave, octaves, offsetX, offsetY, xs, ys).
struct InBound {
    double x, y;
};

// (With the largest frequency and shifts of any octave: two divisions per row where one per
// octave and axis was 1 % of a warped layer.)
template <class Points>
InBound inBound(const Points& p, double reach) {
    double frequency = 0.0, shiftX = 0.0, shiftY = 0.0;
    for (int i = 0; i < p.octaves; ++i) {
        frequency = std::max(frequency, std::abs(p.octave[i].frequency));
        shiftX = std::max(shiftX, std::abs(p.octave[i].shiftX));
        shiftY = std::max(shiftY, std::abs(p.octave[i].shiftY));
    }
    reach -= 1.0;  // the margin
    return {(reach - std::abs(p.offsetX) - shiftX) / frequency, (reach - std::abs(p.offsetY) - shiftY) / frequency};
}

// The reach (inBound's) of lattice coordinates x, y whose simplex cells (versions 2 and 3) lie
// within +-(2^31 - 2), their far corners too: a skewed index is at most
// |x| (1 + F) + |y| F + 3 <= 2 max(|x|, |y|) + 3 in magnitude (two floors and a carry).
constexpr double kSkewedReach = (static_cast<double>(curved_v4::kIndexBound) - 4.0) / 2.0;

// Whether the points of `vectors` double vectors from c lie within `bound`.
template <std::size_t vectors, class Points>
HWY_INLINE bool within(const Points& p, std::size_t c, const InBound& bound) {
    const D d;
    for (std::size_t k = 0; k < vectors; ++k) {
        const std::size_t at = c + k * hn::Lanes(d);
        if (!hn::AllTrue(d, hn::And(hn::Lt(hn::Abs(hn::LoadU(d, p.xs + at)), hn::Set(d, bound.x)),
                                    hn::Lt(hn::Abs(hn::LoadU(d, p.ys + at)), hn::Set(d, bound.y)))))
            return false;
    }
    return true;
}

// lattice::splitFloat per lane of x whose cells lie within int32 (the caller knows it, by an
// InBound): the cell converted straight to 32-bit lanes, no int64 on the way.
struct Split32Lanes {
    hn::Vec<DHI> index;
    VH frac;
};

HWY_INLINE Split32Lanes splitFloat32(V x) {
    const V cell = floorOf(x);
    return {hn::DemoteTo(DHI(), cell), hn::DemoteTo(DH(), hn::Sub(x, cell))};
}

// lattice::FloatCoord per lane.
struct FloatSplitLanes {
    VI index;
    VH frac;
};

// A float lane's mask as int64 lanes: -1 where set, else 0.
HWY_INLINE VI widenMask(hn::Mask<DH> m) {
    return hn::PromoteTo(DI(), hn::BitCast(DHI(), hn::VecFromMask(DH(), m)));
}

HWY_INLINE FloatSplitLanes splitFloat(V x) {
    const SplitLanes s = split(x);
    return {s.index, hn::DemoteTo(DH(), s.frac)};
}

// lattice::sumOf per lane, for splits of any lanes (`index`, `frac`): `minusOne` turns the
// carry's mask into index lanes, -1 where set (subtracting it adds 1).
template <class Split, class MinusOne>
HWY_INLINE Split sumOfSplits(const Split& a, const Split& b, MinusOne minusOne) {
    const hn::DFromV<decltype(a.frac)> df;
    const auto sum = hn::Add(a.frac, b.frac);
    const auto carry = hn::Ge(sum, hn::Set(df, 1.0f));
    return {hn::Sub(hn::Add(a.index, b.index), minusOne(carry)),
            hn::IfThenElse(carry, hn::Sub(sum, hn::Set(df, 1.0f)), sum)};
}

HWY_INLINE FloatSplitLanes sumOf(const FloatSplitLanes& a, const FloatSplitLanes& b) {
    return sumOfSplits(a, b, widenMask);
}

// LatticeHashParts::high (the high half of i + 2^31), in 64-bit lanes.
HWY_INLINE VU highHalf(VI i) {
    const DU du;
    return hn::ShiftRight<32>(hn::Add(hn::BitCast(du, i), hn::Set(du, std::uint64_t{1} << 31)));
}

// LatticeHashParts::key32 of the high halves, in 64-bit lanes.
HWY_INLINE VU key32(std::uint64_t seed, VU hi, VU hj) {
    const DU du;
    return hn::ShiftRight<32>(mix64(hn::Xor(hn::Set(du, seed), hn::Or(hn::ShiftLeft<32>(hi), hj))));
}

// LatticeHash::hash32's input (before fmix32) of (ci, cj) given key32 of their high halves.
HWY_INLINE VHU hashInput32(VI ci, VI cj, VU key) {
    using Parts = detail::LatticeHashParts;
    const DU du;
    const DHU dhu;
    const VHU lowI = hn::TruncateTo(dhu, hn::BitCast(du, ci));
    const VHU lowJ = hn::TruncateTo(dhu, hn::BitCast(du, cj));
    return hn::Add(hn::Add(hn::Mul(lowI, hn::Set(dhu, Parts::kHashX)),
                           hn::Mul(lowJ, hn::Set(dhu, Parts::kHashY))),
                   hn::TruncateTo(dhu, key));
}

// Versions 2 and 3: the skewed cell of (x, y) (simplex.cpp's floatCell): X = x (1 + F) + y F and
// Y = y (1 + F) + x F, each a sum of two products split exactly and added in float.
struct SkewedCell {
    FloatSplitLanes sx, sy;
};

HWY_INLINE SkewedCell skewedCell(V x, V y) {
    using namespace simplex;
    const D d;
    return {sumOf(splitFloat(hn::Mul(x, hn::Set(d, kSkew2))), splitFloat(hn::Mul(y, hn::Set(d, kF2)))),
            sumOf(splitFloat(hn::Mul(x, hn::Set(d, kF2))), splitFloat(hn::Mul(y, hn::Set(d, kSkew2))))};
}

// simplex.cpp's cornerHashes per lane: hash32's input (before fmix32) of the corners (i, j), (i + 1, j) in the lower
// triangle or (i, j + 1) in the upper, and (i + 1, j + 1).
struct CornerHashes32 {
    VHU first, middle, far;
};

HWY_INLINE CornerHashes32 cornerHashes32(std::uint64_t seed, VI i, VI j, hn::Mask<DH> lower) {
    const DI di;
    const VI oneI = hn::Set(di, 1);
    const VI lowerI = widenMask(lower);  // -1 in the lower triangle
    const VI iMiddle = hn::Sub(i, lowerI);
    const VI jMiddle = hn::Add(j, hn::Add(lowerI, oneI));
    const VI iFar = hn::Add(i, oneI);
    const VI jFar = hn::Add(j, oneI);
    // One key serves all three corners unless a lane's cell straddles a change of high half
    // (index 2^31 - 1); the key is a function of the high halves, so both give the same bits.
    const VU hi = highHalf(i);
    const VU hj = highHalf(j);
    const VU key = key32(seed, hi, hj);
    VU keyMiddle = key;
    VU keyFar = key;
    const VU hiFar = highHalf(iFar);
    const VU hjFar = highHalf(jFar);
    if (!hn::AllTrue(DU(), hn::And(hn::Eq(hi, hiFar), hn::Eq(hj, hjFar)))) {
        keyMiddle = key32(seed, highHalf(iMiddle), highHalf(jMiddle));
        keyFar = key32(seed, hiFar, hjFar);
    }
    return {hashInput32(i, j, key), hashInput32(iMiddle, jMiddle, keyMiddle),
            hashInput32(iFar, jFar, keyFar)};
}

// cornerHashes32 where every index lies within +-(2^31 - 2) (the caller checked the points
// against an InBound): the high halves are all 0, so `key`, key32 of (0, 0), serves every
// corner, and the middle and far corners' inputs are a step from the first's (the input is
// linear in the indices' low halves, modulo 2^32).
HWY_INLINE CornerHashes32 cornerHashes32InBound(std::uint32_t key, VI i, VI j, hn::Mask<DH> lower) {
    using Parts = detail::LatticeHashParts;
    const DU du;
    const DHU dhu;
    const VHU first = hashInput32(i, j, hn::Set(du, key));
    const VHU middle = hn::Add(first, hn::IfThenElse(hn::RebindMask(dhu, lower), hn::Set(dhu, Parts::kHashX),
                                                     hn::Set(dhu, Parts::kHashY)));
    return {first, middle, hn::Add(first, hn::Set(dhu, Parts::kHashX + Parts::kHashY))};
}

}  // namespace point_lanes
}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#endif  // TERRAGRID_NOISE_POINT_LANES_INL_H_
