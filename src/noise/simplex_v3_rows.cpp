// Version 3 simplex rows (rows::evaluateSimplexV3Row: every octave of a vector of columns in
// float lanes, the sum kept in a register) and points (rows::evaluateSimplexV3Points: a warped
// layer's moved points), written once with Google Highway for each x86-64
// target and dispatched at run time. Each lane performs NoiseField::unwarpedFloat's float
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

#include "noise/fractal_lanes-inl.hpp"
#include "noise/fused-inl.hpp"
#include "noise/mix32_lanes-inl.hpp"
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
using simplex_row_lanes::repeated;  // simplex_row_lanes-inl.hpp
using simplex_row_lanes::skewedSum;
using simplex_row_lanes::SkewedLanes;

// simplex_v3::falloff per lane: max(0.5 - x^2 - y^2, 0)^4. (Templates: the rows use whole float
// vectors, the point kernel as many floats as doubles.)
template <class VFT>
HWY_INLINE VFT falloff(VFT x, VFT y) {
    const hn::DFromV<VFT> df;
    const VFT t = hn::Max(fused::negMulAdd(y, y, fused::negMulAdd(x, x, hn::Set(df, simplex::kRadius2f))),
                          hn::Zero(df));
    const VFT t2 = hn::Mul(t, t);
    return hn::Mul(t2, t2);
}

// simplexNoiseV3's sum of the three corners' falloff times gradient dot product, in its order.
template <class VFT>
HWY_INLINE VFT cornerSum(const VFT (&f)[3], const VFT (&dot)[3]) {
    return mulAdd(f[2], dot[2], mulAdd(f[1], dot[1], hn::Mul(f[0], dot[0])));
}

alignas(64) constexpr std::array<float, 16> kGradX = repeated(simplex_v3::kGradX);
alignas(64) constexpr std::array<float, 16> kGradY = repeated(simplex_v3::kGradY);

// simplex_v3::gradientDot of the gradient simplex_v3::gradientIndex picks for a corner's hash
// input, given as input kGradientMix1 (curved_v4::premix: the rows multiply the input's parts,
// the multiply being distributive modulo 2^32).
template <class VFT, class VU32T>
HWY_INLINE VFT hashedDot(VU32T premixed, VFT x, VFT y) {
    const hn::DFromV<VFT> df;
    const hn::RebindToSigned<decltype(df)> di;
    const auto index = hn::BitCast(di, hn::ShiftRight<29>(mix32_lanes::finish(premixed)));
    return mulAdd(mix32_lanes::lookup8(df, kGradX.data(), index), x,
                  hn::Mul(mix32_lanes::lookup8(df, kGradY.data(), index), y));
}

// An octave's row parts as the column loop uses them: copied out of the octave, so the
// compiler keeps them in registers (stores into the float sums could alias the octave's
// floats, so it reloaded them per vector).
struct OctaveLanes {
    const float* fracA;
    const float* fracB;
    const std::uint32_t* hashAB;  // times kGradientMix1
    VF fracC, fracD;
    VU32 hashCD;  // the octave's hashCD times kGradientMix1
};

OctaveLanes lanesOf(const rows::SimplexV2Octave& o) {
    const DF df;
    const DU32 du;
    return {o.fracA, o.fracB, o.hashAB, hn::Set(df, o.fracC), hn::Set(df, o.fracD),
            hn::Set(du, o.hashCD * simplex_v3::kGradientMix1)};
}

// simplexNoiseV3 of N vectors of columns from c on, the vectors' steps interleaved statement
// by statement: one vector's steps wait on each other (its hashes on its skewed sums, its
// dot products on its hashes' multiplies), and the other vectors' independent steps fill
// those waits, which the core's scheduler does not reach far enough ahead to find on its own.
// Each lane's operations and their order are unchanged. Out of line on the emulated
// targets, for their compile time (as rows_kernels.cpp's simplex2f).
template <std::size_t N>
#if HWY_TARGET == HWY_EMU128 || HWY_TARGET == HWY_SCALAR
HWY_NOINLINE
#else
HWY_INLINE
#endif
void simplexV3(const OctaveLanes& o, std::size_t c, VF (&n)[N]) {
    using namespace simplex;
    const DF df;
    const DU32 du;
    const std::size_t step = hn::Lanes(df);
    SkewedLanes sx[N], sy[N];
    for (std::size_t k = 0; k < N; ++k) sx[k] = skewedSum(hn::LoadU(df, o.fracA + c + k * step), o.fracC);
    for (std::size_t k = 0; k < N; ++k) sy[k] = skewedSum(hn::LoadU(df, o.fracB + c + k * step), o.fracD);
    const VF minusG = hn::Set(df, -kG2f);
    const VF g = hn::Set(df, kG2f);
    const VF gMinus1 = hn::Set(df, simplex_v3::kG2Minus1f);
    const VF corner2 = hn::Set(df, kCorner2f);
    VF x[3][N], y[3][N];
    hn::Mask<DF> lower[N];
    for (std::size_t k = 0; k < N; ++k) {
        const VF s = hn::Add(sx[k].frac, sy[k].frac);
        x[0][k] = mulAdd(minusG, s, sx[k].frac);
        y[0][k] = mulAdd(minusG, s, sy[k].frac);
        lower[k] = hn::Gt(x[0][k], y[0][k]);
    }
    for (std::size_t k = 0; k < N; ++k) {
        x[1][k] = hn::Add(x[0][k], hn::IfThenElse(lower[k], gMinus1, g));
        y[1][k] = hn::Add(y[0][k], hn::IfThenElse(lower[k], g, gMinus1));
        x[2][k] = hn::Add(x[0][k], corner2);
        y[2][k] = hn::Add(y[0][k], corner2);
    }
    // The three corners' hash inputs times kGradientMix1, from the parts version 2's rows split
    // them into (rows_kernels.cpp), each multiplied: the column's in rows.cpp, the row's in
    // lanesOf.
    constexpr std::uint32_t kX = Parts::kHashX * simplex_v3::kGradientMix1;
    constexpr std::uint32_t kY = Parts::kHashY * simplex_v3::kGradientMix1;
    VU32 h[3][N];
    for (std::size_t k = 0; k < N; ++k) {
        const VU32 base = hn::Add(hn::LoadU(du, o.hashAB + c + k * step), o.hashCD);
        const VU32 hx = hn::IfThenElse(hn::RebindMask(du, sx[k].carry), hn::Add(base, hn::Set(du, kX)), base);
        h[0][k] = hn::IfThenElse(hn::RebindMask(du, sy[k].carry), hn::Add(hx, hn::Set(du, kY)), hx);
        h[1][k] = hn::Add(h[0][k], hn::IfThenElse(hn::RebindMask(du, lower[k]), hn::Set(du, kX),
                                                  hn::Set(du, kY)));
        h[2][k] = hn::Add(h[0][k], hn::Set(du, kX + kY));
    }
    VF f[N][3], dot[N][3];
    for (int corner = 0; corner < 3; ++corner)
        for (std::size_t k = 0; k < N; ++k) {
            f[k][corner] = falloff(x[corner][k], y[corner][k]);
            dot[k][corner] = hashedDot(h[corner][k], x[corner][k], y[corner][k]);
        }
    for (std::size_t k = 0; k < N; ++k) n[k] = hn::Mul(hn::Set(df, kScale2f), cornerSum(f[k], dot[k]));
}

// How many vectors of columns simplexV3 interleaves. Measured on a Zen 4 core (fBm8 rows,
// terragrid_noise_bench): one vector at a time is 7 % slower than two or four on AVX-512 and
// 16 % slower than four on AVX2, where two fall between.
constexpr std::size_t kInterleaved = 4;

// One octave over the row, its terms summed into sums[0, columns) (or stored, for the first
// octave): the octave's constants stay in registers for the whole row (every octave of a
// vector at once would reload them per vector and spill), and a row of floats stays in L1.
// The octaves are added in the reference's order, so the bits are those of summing each
// point's octaves in turn.
template <FractalKind kKind, bool kFirst>
HWY_INLINE void addOctave(const rows::SimplexV2Octave& octave, float* sums, std::size_t columns) {
    const OctaveLanes o = lanesOf(octave);
    const DF df;
    const std::size_t step = hn::Lanes(df);
    const VF amplitude = hn::Set(df, static_cast<float>(octave.amplitude));
    const auto add = [&](std::size_t c, VF n) {
        const VF before = kFirst ? hn::Zero(df) : hn::Load(df, sums + c);
        hn::Store(mulAdd(amplitude, fractal_lanes::octaveTerm<kKind>(df, n), before), df, sums + c);
    };
    std::size_t c = 0;
    for (; c + kInterleaved * step <= columns; c += kInterleaved * step) {
        VF n[kInterleaved];
        simplexV3(o, c, n);
        for (std::size_t k = 0; k < kInterleaved; ++k) add(c + k * step, n[k]);
    }
    for (; c < columns; c += step) {
        VF n[1];
        simplexV3(o, c, n);
        add(c, n[0]);
    }
}

template <FractalKind kKind>
void rowOf(const rows::SimplexV3Row& row) {
    const DF df;
    const hn::ScalableTag<double> d;
    const hn::Rebind<float, decltype(d)> dHalf;  // as many floats as doubles
    addOctave<kKind, true>(row.octave[0], row.sums, row.columns);
    for (int i = 1; i < row.octaves; ++i) addOctave<kKind, false>(row.octave[i], row.sums, row.columns);
    const std::size_t step = hn::Lanes(df);
    for (std::size_t c = 0; c < row.columns; c += step) {
        hn::Store(fractal_lanes::normaliseFloat<kKind>(df, hn::Load(df, row.sums + c), row.scale), df, row.sums + c);
        for (std::size_t k = 0; k < step; k += hn::Lanes(d))
            hn::StoreU(hn::PromoteTo(d, hn::LoadU(dHalf, row.sums + c + k)), d, row.out + c + k);
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
    const VH f[3] = {falloff(x0, y0), falloff(x1, y1), falloff(x2, y2)};
    const auto premix = [](point_lanes::VHU input) {
        return hn::Mul(input, hn::Set(point_lanes::DHU(), simplex_v3::kGradientMix1));
    };
    const VH dot[3] = {hashedDot(premix(h.first), x0, y0), hashedDot(premix(h.middle), x1, y1),
                       hashedDot(premix(h.far), x2, y2)};
    const VH n = cornerSum(f, dot);
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
            // The lattice coordinates as NoiseField::unwarpedFloat computes them.
            const V frequency = hn::Set(d, o.frequency);
            const V u = hn::Add(hn::Add(hn::Mul(x, frequency), offsetX), hn::Set(d, o.shiftX));
            const V v = hn::Add(hn::Add(hn::Mul(y, frequency), offsetY), hn::Set(d, o.shiftY));
            const VH n = simplexV3Point(o.key, u, v);
            sum = mulAdd(hn::Set(dh, static_cast<float>(o.amplitude)), fractal_lanes::octaveTerm<kKind>(dh, n), sum);
        }
        hn::StoreU(hn::PromoteTo(d, fractal_lanes::normaliseFloat<kKind>(dh, sum, p.scale)), d, p.out + c);
    }
}

}  // namespace

void EvaluateSimplexV3Points(const rows::SimplexV3Points& p) {
    fractal_lanes::withFractal(p.fractal, [&](auto k) { pointsOf<decltype(k)::value>(p); });
}

void EvaluateSimplexV3Row(const rows::SimplexV3Row& row) {
    fractal_lanes::withFractal(row.fractal, [&](auto k) { rowOf<decltype(k)::value>(row); });
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
