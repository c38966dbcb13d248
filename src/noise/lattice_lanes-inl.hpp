// The lattice lanes both SIMD kernel files need: Highway's tags, the 64-bit lattice hash and
// the permutation hashes per lane, simplex noise per lane (doubles, and version 2's float
// corners), and the lattice corners' Perlin gradients and value-noise values. Shared by the rows
// (rows_kernels.cpp) and the points (point_kernels.cpp), two translation units so that neither
// is the long tail of a build: each file's kernels are compiled once per SIMD target, and under
// the sanitizers rows_kernels.cpp alone took 271 s of CPU before the split (private to
// src/noise).
//
// A Highway "-inl" header: included once per SIMD target (HWY_TARGET_TOGGLE flips with each
// pass), because Highway vectors may only be used in code compiled for their target.

#if defined(TERRAGRID_NOISE_LATTICE_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TERRAGRID_NOISE_LATTICE_LANES_INL_H_
#undef TERRAGRID_NOISE_LATTICE_LANES_INL_H_
#else
#define TERRAGRID_NOISE_LATTICE_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include <cstdint>

#include "noise/separable-inl.hpp"
#include "noise/simplex_constants.hpp"
#include "terragrid/noise/noise.hpp"

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

// ---------------------------------------------------------------------------------------------
// Simplex noise: everything per lane, the lattice hash included.

// 64-bit multiply modulo 2^64. AVX-512 has it; the other x86 targets build it from 32x32->64
// products (the high x high product only affects bits above 64).
HWY_INLINE VU mul64(VU a, VU b) {
#if HWY_ARCH_X86 && HWY_TARGET > HWY_AVX3 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
    const DU du;
    const hn::RepartitionToNarrow<DU> du32;
    const VU low = hn::MulEven(hn::BitCast(du32, a), hn::BitCast(du32, b));
    const VU cross1 = hn::MulEven(hn::BitCast(du32, hn::ShiftRight<32>(a)), hn::BitCast(du32, b));
    const VU cross2 = hn::MulEven(hn::BitCast(du32, a), hn::BitCast(du32, hn::ShiftRight<32>(b)));
    (void)du;
    return hn::Add(low, hn::ShiftLeft<32>(hn::Add(cross1, cross2)));
#else
    return hn::Mul(a, b);
#endif
}

// mix64 (hash.cpp) per lane.
HWY_INLINE VU mix64(VU x) {
    const DU du;
    x = mul64(hn::Xor(x, hn::ShiftRight<30>(x)), hn::Set(du, 0xBF58476D1CE4E5B9ULL));
    x = mul64(hn::Xor(x, hn::ShiftRight<27>(x)), hn::Set(du, 0x94D049BB133111EBULL));
    return hn::Xor(x, hn::ShiftRight<31>(x));
}

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

// murmur3's fmix32 (LatticeHashParts::fmix32) per lane.
template <class VU32T>
HWY_INLINE VU32T fmix32(VU32T x) {
    const hn::DFromV<VU32T> du;
    x = hn::Xor(x, hn::ShiftRight<16>(x));
    x = hn::Mul(x, hn::Set(du, 0x85EBCA6Bu));
    x = hn::Xor(x, hn::ShiftRight<13>(x));
    x = hn::Mul(x, hn::Set(du, 0xC2B2AE35u));
    return hn::Xor(x, hn::ShiftRight<16>(x));
}

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

}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#endif  // TERRAGRID_NOISE_LATTICE_LANES_INL_H_
