// The SIMD inner loops of NoiseRows, written once with Google Highway and compiled for each
// x86-64 target (SSE4, AVX2, AVX-512, ...); HWY_DYNAMIC_DISPATCH picks the best one the CPU
// has at run time. Every lane performs the scalar reference's IEEE operations in the same
// order (separable-inl.hpp, simplex.cpp), so every target gives the same bits.

#include "noise/rows_kernels.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "noise/rows_kernels.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include "noise/separable-inl.hpp"
#include "noise/simplex_constants.hpp"

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

// One octave's term of the fractal sum (NoiseField's octaveTerm).
V octaveTerm(D d, FractalKind kind, V n) {
    switch (kind) {
    case FractalKind::Turbulence:
        return hn::Abs(n);
    case FractalKind::Ridged: {
        const V r = hn::Sub(hn::Set(d, 1.0), hn::Abs(n));
        return hn::Mul(r, r);
    }
    default:
        return n;
    }
}

void addTerm(D d, const rows::Accumulate& into, std::size_t c, V n) {
    const V term = hn::Mul(hn::Set(d, into.amplitude), octaveTerm(d, into.fractal, n));
    hn::StoreU(hn::Add(hn::LoadU(d, into.sum + c), term), d, into.sum + c);
}

// ---------------------------------------------------------------------------------------------
// Value and Perlin noise: per-cell coefficients looked up per lane.

void AccumulateSeparable(const rows::SeparableRow& row, const rows::Accumulate& into) {
    const D d;
    const DI di;
    const std::size_t lanes = hn::Lanes(d);
    for (std::size_t c = 0; c < into.count; c += lanes) {
        // The lanes' cells are consecutive from the first lane's, so a vector loaded there
        // holds every coefficient this vector needs; a lane permutation hands them out.
        const std::int64_t first = row.cell[c];
        const auto lane = hn::IndicesFromVec(
            d, hn::Sub(hn::LoadU(di, row.cell + c), hn::Set(di, first)));
        const auto at = [&](const double* coefficients) {
            return hn::TableLookupLanes(hn::LoadU(d, coefficients + first), lane);
        };
        const V u = hn::LoadU(d, row.fade + c);
        V n;
        if (row.q != nullptr) {
            const separable::PerlinCoefficients<V> k{at(row.p), at(row.q), at(row.r), at(row.s)};
            n = separable::perlinEvaluate(k, hn::LoadU(d, row.fx + c), u);
        } else {
            n = separable::valueEvaluate(separable::ValueCoefficients<V>{at(row.p), at(row.r)}, u);
        }
        addTerm(d, into, c, n);
    }
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

// 64-bit multiply modulo 2^64. AVX-512 has it; the other x86 targets build it from 32x32->64
// products (the high x high product only affects bits above 64).
VU mul64(VU a, VU b) {
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
VU mix64(VU x) {
    const DU du;
    x = mul64(hn::Xor(x, hn::ShiftRight<30>(x)), hn::Set(du, 0xBF58476D1CE4E5B9ULL));
    x = mul64(hn::Xor(x, hn::ShiftRight<27>(x)), hn::Set(du, 0x94D049BB133111EBULL));
    return hn::Xor(x, hn::ShiftRight<31>(x));
}

// LatticeHash(ix, iy) per lane; only the low 3 bits matter to the gradient.
VU hash2(const rows::SimplexRow& row, VI ix, VI iy) {
    const DU du;
    const DI di;
    if (row.hash == HashKind::Lattice) {
        const VU hx = mix64(hn::Add(hn::Set(du, row.key), hn::BitCast(du, ix)));
        return hn::ShiftRight<32>(mix64(hn::Add(hx, hn::BitCast(du, iy))));
    }
    const VI mask = hn::Set(di, 255);
    const VI px = hn::GatherIndex(di, row.perm, hn::And(ix, mask));
    return hn::BitCast(du, hn::GatherIndex(di, row.perm, hn::Add(px, hn::And(iy, mask))));
}

// simplex.cpp's grad2: the hash's bits select the terms.
V grad2(VU hash, V x, V y) {
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

V corner2(VU hash, V x, V y) {
    const D d;
    const V t = hn::Sub(hn::Sub(hn::Set(d, simplex::kRadius2), hn::Mul(x, x)), hn::Mul(y, y));
    const V t2 = hn::Mul(t, t);
    return hn::IfThenElseZero(hn::Gt(t, hn::Zero(d)), hn::Mul(hn::Mul(t2, t2), grad2(hash, x, y)));
}

V simplex2(const rows::SimplexRow& row, V x, V y) {
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
    const VI i = hn::ConvertTo(di, fi);
    const VI j = hn::ConvertTo(di, fj);
    const VI one = hn::Set(di, 1);
    const auto lowerI = hn::RebindMask(di, lower);
    const VI i1i = hn::IfThenElseZero(lowerI, one);
    const VI j1i = hn::IfThenZeroElse(lowerI, one);
    const V n = hn::Add(hn::Add(corner2(hash2(row, i, j), x0, y0),
                                corner2(hash2(row, hn::Add(i, i1i), hn::Add(j, j1i)), x1, y1)),
                        corner2(hash2(row, hn::Add(i, one), hn::Add(j, one)), x2, y2));
    return hn::Min(hn::Max(hn::Mul(hn::Set(d, kScale2), n), hn::Set(d, -1.0)), hn::Set(d, 1.0));
}

void AccumulateSimplex(const rows::SimplexRow& row, const rows::Accumulate& into) {
    const D d;
    const V y = hn::Set(d, row.y);
    for (std::size_t c = 0; c < into.count; c += hn::Lanes(d)) {
        addTerm(d, into, c, simplex2(row, hn::LoadU(d, row.xs + c), y));
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace terragrid::rows {

HWY_EXPORT(AccumulateSeparable);
HWY_EXPORT(PerlinCoefficients);
HWY_EXPORT(ValueCoefficients);
HWY_EXPORT(AccumulateSimplex);

void accumulateSeparable(const SeparableRow& row, const Accumulate& into) {
    HWY_DYNAMIC_DISPATCH(AccumulateSeparable)(row, into);
}

void perlinCoefficients(const CornerRows& c, double* p, double* q, double* r, double* s) {
    HWY_DYNAMIC_DISPATCH(PerlinCoefficients)(c, p, q, r, s);
}

void valueCoefficients(const CornerRows& c, double* p, double* r) {
    HWY_DYNAMIC_DISPATCH(ValueCoefficients)(c, p, r);
}

void accumulateSimplex(const SimplexRow& row, const Accumulate& into) {
    HWY_DYNAMIC_DISPATCH(AccumulateSimplex)(row, into);
}

}  // namespace terragrid::rows
#endif  // HWY_ONCE
