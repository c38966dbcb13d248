// Version 3 simplex rows (rows::evaluateSimplexV3Row: each octave over the row's columns in
// float lanes, summed into a row of floats) and points (rows::evaluateSimplexV3Points: a warped
// layer's moved points), and version 6's tiling simplex rows and points (simplexTilingV6: the
// same cell arithmetic, the corners' indices reduced into the map's period), written once with
// Google Highway for each x86-64
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

// simplex_v3::falloff per lane: max(0.5 - x^2 - y^2, 0)^4.
HWY_INLINE VF falloff(VF x, VF y) {
    const DF df;
    const VF t = hn::Max(fused::negMulAdd(y, y, fused::negMulAdd(x, x, hn::Set(df, simplex::kRadius2f))),
                         hn::Zero(df));
    const VF t2 = hn::Mul(t, t);
    return hn::Mul(t2, t2);
}

alignas(64) constexpr std::array<float, 16> kGradX = repeated(simplex_v3::kGradX);
alignas(64) constexpr std::array<float, 16> kGradY = repeated(simplex_v3::kGradY);

// simplex_v3::gradientDot of the gradient simplex_v3::gradientIndex picks for a corner's hash
// input, given as input kGradientMix1 (curved_v4::premix: the rows multiply the input's parts,
// the multiply being distributive modulo 2^32).
HWY_INLINE VF hashedDot(VU32 premixed, VF x, VF y) {
    const DF df;
    const hn::RebindToSigned<DF> di;
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

// simplexNoiseV3's steps after the split, shared by the rows and the points, for N float
// vectors at once, each step of every vector next to the others': one vector's steps wait on
// each other (its hashes on its skewed sums, its dot products on its hashes' multiplies), and
// the other vectors' independent steps fill those waits, which the core's scheduler does not
// reach far enough ahead to find on its own. Each lane's operations and their order are
// unchanged. The corners are taken one after the other, each made from the first corner's
// offsets and hash input when it is used: with all three corners' offsets and hashes of four
// vectors made first (48 vectors live), GCC, which keeps the source's order on x86, spilled
// some 30 registers a step.

// The first corner's offsets from the skewed cell's fractions, and which triangle each lane
// lies in (x0 > y0: the lower one, whose middle corner steps along x).
template <std::size_t N>
struct CornerOffsets {
    VF x[N], y[N];
    hn::Mask<DF> lower[N];
};

template <std::size_t N>
HWY_INLINE CornerOffsets<N> cornerOffsets(const VF (&fx)[N], const VF (&fy)[N]) {
    const DF df;
    const VF minusG = hn::Set(df, -simplex::kG2f);
    CornerOffsets<N> o;
    for (std::size_t k = 0; k < N; ++k) {
        const VF s = hn::Add(fx[k], fy[k]);
        o.x[k] = mulAdd(minusG, s, fx[k]);
        o.y[k] = mulAdd(minusG, s, fy[k]);
        o.lower[k] = hn::Gt(o.x[k], o.y[k]);
    }
    return o;
}

// Corner kCorner's offsets (first, middle, far) of vector k.
template <int kCorner, std::size_t N>
HWY_INLINE void cornerOffset(const CornerOffsets<N>& o, std::size_t k, VF& x, VF& y) {
    const DF df;
    if constexpr (kCorner == 0) {
        x = o.x[k];
        y = o.y[k];
    } else if constexpr (kCorner == 1) {
        const VF g = hn::Set(df, simplex::kG2f);
        const VF gMinus1 = hn::Set(df, simplex_v3::kG2Minus1f);
        x = hn::Add(o.x[k], hn::IfThenElse(o.lower[k], gMinus1, g));
        y = hn::Add(o.y[k], hn::IfThenElse(o.lower[k], g, gMinus1));
    } else {
        x = hn::Add(o.x[k], hn::Set(df, simplex::kCorner2f));
        y = hn::Add(o.y[k], hn::Set(df, simplex::kCorner2f));
    }
}

// A step of one cell along x or y in a hash input times kGradientMix1 (the input is linear in
// the indices' low halves, modulo 2^32).
constexpr std::uint32_t kMixedX = Parts::kHashX * simplex_v3::kGradientMix1;
constexpr std::uint32_t kMixedY = Parts::kHashY * simplex_v3::kGradientMix1;

// Corner kCorner's hash input times kGradientMix1 a step from the first's (first[k]): the
// middle corner is (i + 1, j) in the lower triangle, (i, j + 1) in the upper; the far one
// (i + 1, j + 1). Valid where the three corners share one hash key.
template <std::size_t N>
struct SteppedHashes {
    const CornerOffsets<N>& offsets;
    const VU32 (&first)[N];
    template <int kCorner>
    HWY_INLINE VU32 of(std::size_t k) const {
        const DU32 du;
        if constexpr (kCorner == 0) return first[k];
        else if constexpr (kCorner == 1)
            return hn::Add(first[k], hn::IfThenElse(hn::RebindMask(du, offsets.lower[k]), hn::Set(du, kMixedX),
                                                    hn::Set(du, kMixedY)));
        else return hn::Add(first[k], hn::Set(du, kMixedX + kMixedY));
    }
};

// Each corner's hash input times kGradientMix1, made beforehand (points beyond the bound).
template <std::size_t N>
struct GivenHashes {
    const VU32 (&h)[3][N];
    template <int kCorner>
    HWY_INLINE VU32 of(std::size_t k) const { return h[kCorner][k]; }
};

// Corner kCorner's falloff and gradient dot product for each vector.
template <int kCorner, std::size_t N, class Hashes>
HWY_INLINE void cornerTerms(const CornerOffsets<N>& o, const Hashes& hashes, VF (&f)[N], VF (&dot)[N]) {
    for (std::size_t k = 0; k < N; ++k) {
        VF x, y;
        cornerOffset<kCorner>(o, k, x, y);
        f[k] = falloff(x, y);
        dot[k] = hashedDot(hashes.template of<kCorner>(k), x, y);
    }
}

// Whether to sum each corner before making the next (AVX-512's 32 registers hold four vectors'
// first corners and sums, and then nothing spills), or to make every corner's terms first and
// sum after (16 registers spill either way, and this order spilled less: 8.2 against 8.4 ns on
// AVX2, where corner by corner is 6.3-6.5 against 6.6-6.7 on AVX-512; Zen 4, fBm8 rows).
constexpr bool kCornerByCorner = HWY_TARGET <= HWY_AVX3;

// The noise from the first corner's offsets and the corners' hash inputs: falloffs, gradient
// dot products, their sum in simplexNoiseV3's order (first, middle, far corner), scaled.
template <std::size_t N, class Hashes>
HWY_INLINE void cornerNoise(const CornerOffsets<N>& o, const Hashes& hashes, VF (&n)[N]) {
    const DF df;
    VF f[3][N], dot[3][N];
    if constexpr (kCornerByCorner) {
        cornerTerms<0>(o, hashes, f[0], dot[0]);
        for (std::size_t k = 0; k < N; ++k) n[k] = hn::Mul(f[0][k], dot[0][k]);
        cornerTerms<1>(o, hashes, f[1], dot[1]);
        for (std::size_t k = 0; k < N; ++k) n[k] = mulAdd(f[1][k], dot[1][k], n[k]);
        cornerTerms<2>(o, hashes, f[2], dot[2]);
        for (std::size_t k = 0; k < N; ++k) n[k] = mulAdd(f[2][k], dot[2][k], n[k]);
    } else {
        cornerTerms<0>(o, hashes, f[0], dot[0]);
        cornerTerms<1>(o, hashes, f[1], dot[1]);
        cornerTerms<2>(o, hashes, f[2], dot[2]);
        for (std::size_t k = 0; k < N; ++k)
            n[k] = mulAdd(f[2][k], dot[2][k], mulAdd(f[1][k], dot[1][k], hn::Mul(f[0][k], dot[0][k])));
    }
    for (std::size_t k = 0; k < N; ++k) n[k] = hn::Mul(hn::Set(df, simplex::kScale2f), n[k]);
}

// simplexNoiseV3 of N vectors of columns from c on.
template <std::size_t N>
TERRAGRID_INLINE_UNLESS_EMULATED void octaveNoise(const OctaveLanes& o, std::size_t c, VF (&n)[N]) {
    const DF df;
    const DU32 du;
    const std::size_t step = hn::Lanes(df);
    SkewedLanes sx[N], sy[N];
    VF fx[N], fy[N];
    for (std::size_t k = 0; k < N; ++k) {
        sx[k] = skewedSum(hn::LoadU(df, o.fracA + c + k * step), o.fracC);
        sy[k] = skewedSum(hn::LoadU(df, o.fracB + c + k * step), o.fracD);
        fx[k] = sx[k].frac;
        fy[k] = sy[k].frac;
    }
    const CornerOffsets<N> offsets = cornerOffsets(fx, fy);
    // The first corner's hash input times kGradientMix1, from the parts version 2's rows split
    // them into (rows_kernels.cpp), each multiplied: the column's in rows.cpp, the row's in
    // lanesOf.
    VU32 h[N];
    for (std::size_t k = 0; k < N; ++k) {
        const VU32 base = hn::Add(hn::LoadU(du, o.hashAB + c + k * step), o.hashCD);
        const VU32 hx = hn::IfThenElse(hn::RebindMask(du, sx[k].carry), hn::Add(base, hn::Set(du, kMixedX)), base);
        h[k] = hn::IfThenElse(hn::RebindMask(du, sy[k].carry), hn::Add(hx, hn::Set(du, kMixedY)), hx);
    }
    cornerNoise(offsets, SteppedHashes<N>{offsets, h}, n);
}

// Version 6's tiling rows (simplexTilingV6): the skewed y is the row's, the skewed x the sum
// of the column's part and the row's as above; each corner's x index is reduced into
// [0, cells) in 32-bit lanes (the column's and the row's parts are, so their sum and carry
// exceed `cells` at most once, and the next corner's index only where this one is the last),
// and its hash input moves by cells kMixedX with it.

using DI32 = hn::RebindToSigned<DF>;
using VI32 = hn::Vec<DI32>;

struct TilingLanes {
    const float* frac;
    const std::int32_t* index;
    const std::uint32_t* hash;
    VF fracRow, fracY;
    VI32 last;  // cells - 1
    VI32 indexBottom, indexTop;
    VU32 hashBottom, hashTop, wrap;  // wrap: cells kMixedX
    bool nextRow;  // the top row's parts are the bottom's, a row step on
};

TilingLanes lanesOf(const rows::SimplexTilingOctave& o) {
    const DF df;
    const DI32 di;
    const DU32 du;
    return {o.frac, o.index, o.hash, hn::Set(df, o.fracRow), hn::Set(df, o.fracY), hn::Set(di, o.cells - 1),
            hn::Set(di, o.indexBottom), hn::Set(di, o.indexTop), hn::Set(du, o.hashBottom), hn::Set(du, o.hashTop),
            hn::Set(du, std::uint32_t(o.cells) * kMixedX),
            o.indexTop == o.indexBottom && o.hashTop == o.hashBottom + kMixedY};
}

// One lattice row's corner (i, j) and (i + 1, j) hash inputs times kGradientMix1, from the
// column's index and hash part, the carry (-1 where the skewed x carried) and the row's parts.
struct RowCorners {
    VU32 here, next;
};

HWY_INLINE RowCorners rowCorners(VI32 last, VU32 wrap, VI32 column, VU32 columnHash, VI32 carry, VI32 rowIndex,
                                 VU32 rowHash) {
    const DI32 di;
    const DU32 du;
    const VI32 sum = hn::Sub(hn::Add(column, rowIndex), carry);  // in [0, 2 cells)
    const auto over = hn::Gt(sum, last);
    const VI32 index = hn::IfThenElse(over, hn::Sub(sum, hn::Add(last, hn::Set(di, 1))), sum);
    VU32 here = hn::Add(hn::Add(columnHash, rowHash), hn::And(hn::BitCast(du, carry), hn::Set(du, kMixedX)));
    here = hn::IfThenElse(hn::RebindMask(du, over), hn::Sub(here, wrap), here);
    const VU32 next = hn::Add(here, hn::Set(du, kMixedX));
    return {here, hn::IfThenElse(hn::RebindMask(du, hn::Eq(index, last)), hn::Sub(next, wrap), next)};
}

// simplexTilingV6 of N vectors of columns from c on.
template <std::size_t N>
TERRAGRID_INLINE_UNLESS_EMULATED void octaveNoise(const TilingLanes& o, std::size_t c, VF (&n)[N]) {
    const DF df;
    const DI32 di;
    const DU32 du;
    const std::size_t step = hn::Lanes(df);
    SkewedLanes sx[N];
    VF fx[N], fy[N];
    for (std::size_t k = 0; k < N; ++k) {
        sx[k] = skewedSum(hn::LoadU(df, o.frac + c + k * step), o.fracRow);
        fx[k] = sx[k].frac;
        fy[k] = o.fracY;
    }
    const CornerOffsets<N> offsets = cornerOffsets(fx, fy);
    VU32 h[3][N];
    for (std::size_t k = 0; k < N; ++k) {
        const VI32 column = hn::LoadU(di, o.index + c + k * step);
        const VU32 columnHash = hn::LoadU(du, o.hash + c + k * step);
        const VI32 carry = hn::VecFromMask(di, hn::RebindMask(di, sx[k].carry));
        const RowCorners bottom = rowCorners(o.last, o.wrap, column, columnHash, carry, o.indexBottom, o.hashBottom);
        // Lattice row j + 1 is row j's neighbour but where it is a period's first: then its
        // corners' indices are row j's (their hashes a row step on).
        const RowCorners top = o.nextRow ? RowCorners{hn::Add(bottom.here, hn::Set(du, kMixedY)),
                                                      hn::Add(bottom.next, hn::Set(du, kMixedY))}
                                         : rowCorners(o.last, o.wrap, column, columnHash, carry, o.indexTop, o.hashTop);
        h[0][k] = bottom.here;
        h[1][k] = hn::IfThenElse(hn::RebindMask(du, offsets.lower[k]), bottom.next, top.here);
        h[2][k] = top.next;
    }
    cornerNoise(offsets, GivenHashes<N>{h}, n);
}

// The vectors of columns octaveNoise interleaves (fractal_lanes::kInterleaved). Measured on a Zen 4
// core (fBm8 rows, terragrid_noise_bench): one vector at a time is 7 % slower than two or four
// on AVX-512 and 16 % slower than four on AVX2, where two fall between; eight spill registers
// (8.3 ns against 6.7 on AVX-512).
using fractal_lanes::kInterleaved;

// One octave over the row, its terms summed into sums[0, columns) (or stored, for the first
// octave): the octave's constants stay in registers for the whole row (every octave of a
// vector at once would reload them per vector and spill), and a row of floats stays in L1.
// The octaves are added in the reference's order, so the bits are those of summing each
// point's octaves in turn. `first` is a run-time flag: as a template parameter its two copies
// of the interleaved kernel made the AVX-512 rows 10 % slower (GCC 12).
template <FractalKind kKind, class Octave>
HWY_INLINE void addOctave(const Octave& octave, bool first, float* sums, std::size_t columns) {
    const auto o = lanesOf(octave);
    const DF df;
    const std::size_t step = hn::Lanes(df);
    const VF amplitude = hn::Set(df, static_cast<float>(octave.amplitude));
    const auto add = [&](std::size_t c, VF n) {
        const VF before = first ? hn::Zero(df) : hn::Load(df, sums + c);
        hn::Store(mulAdd(amplitude, fractal_lanes::octaveTerm<kKind>(df, n), before), df, sums + c);
    };
    std::size_t c = 0;
    for (; c + kInterleaved * step <= columns; c += kInterleaved * step) {
        VF n[kInterleaved];
        octaveNoise(o, c, n);
        for (std::size_t k = 0; k < kInterleaved; ++k) add(c + k * step, n[k]);
    }
    for (; c < columns; c += step) {
        VF n[1];
        octaveNoise(o, c, n);
        add(c, n[0]);
    }
}

// Every octave of a row (SimplexV3Row or SimplexTilingRow), then the sum normalised and
// widened into row.out.
template <FractalKind kKind, class Row>
void rowOf(const Row& row) {
    const DF df;
    const hn::ScalableTag<double> d;
    const hn::Rebind<float, decltype(d)> dHalf;  // as many floats as doubles
    for (int i = 0; i < row.octaves; ++i) addOctave<kKind>(row.octave[i], i == 0, row.sums, row.columns);
    const std::size_t step = hn::Lanes(df);
    for (std::size_t c = 0; c < row.columns; c += step) {
        hn::Store(fractal_lanes::normaliseFloat<kKind>(df, hn::Load(df, row.sums + c), row.scale), df, row.sums + c);
        for (std::size_t k = 0; k < step; k += hn::Lanes(d))
            hn::StoreU(hn::PromoteTo(d, hn::LoadU(dHalf, row.sums + c + k)), d, row.out + c + k);
    }
}

// ---------------------------------------------------------------------------------------------
// Points: every lane its own point (a warped layer's moved points), split in double lanes as
// simplexNoiseV3 splits it (point_lanes-inl.hpp), two double vectors' splits combined into one
// float vector for the cell (point_lanes::combined).

using point_lanes::D;
using point_lanes::V;
using point_lanes::combined;
using point_lanes::halfOf;
using point_lanes::kHalves;

// simplexNoiseV3 of N float vectors of points (u, v), each lane its own.
template <std::size_t N>
TERRAGRID_INLINE_UNLESS_EMULATED void simplexV3Points(std::uint64_t seed, const V (&u)[N][kHalves],
                                                      const V (&v)[N][kHalves], VF (&n)[N]) {
    point_lanes::SkewedCell cells[N][kHalves];  // per double vector
    VF fx[N], fy[N];
    for (std::size_t k = 0; k < N; ++k) {
        for (std::size_t h = 0; h < kHalves; ++h) cells[k][h] = point_lanes::skewedCell(u[k][h], v[k][h]);
        fx[k] = combined(cells[k][0].sx.frac, cells[k][kHalves - 1].sx.frac);
        fy[k] = combined(cells[k][0].sy.frac, cells[k][kHalves - 1].sy.frac);
    }
    const CornerOffsets<N> offsets = cornerOffsets(fx, fy);
    VU32 h[3][N];
    for (std::size_t k = 0; k < N; ++k) {
        point_lanes::CornerHashes32 corners[kHalves];
        for (std::size_t half = 0; half < kHalves; ++half) {
            // The triangle per double vector's lanes: the offsets' halves compared as a whole.
            const auto lower = hn::Gt(halfOf(offsets.x[k], half), halfOf(offsets.y[k], half));
            const point_lanes::SkewedCell& cell = cells[k][half];
            corners[half] = point_lanes::cornerHashes32(seed, cell.sx.index, cell.sy.index, lower);
        }
        const VU32 mix = hn::Set(DU32(), simplex_v3::kGradientMix1);
        h[0][k] = hn::Mul(combined(corners[0].first, corners[kHalves - 1].first), mix);
        h[1][k] = hn::Mul(combined(corners[0].middle, corners[kHalves - 1].middle), mix);
        h[2][k] = hn::Mul(combined(corners[0].far, corners[kHalves - 1].far), mix);
    }
    cornerNoise(offsets, GivenHashes<N>{h}, n);
}

// Points whose skewed indices all lie within +-(2^31 - 2) (pointVectors checks the points
// against point_lanes::InBound): their high halves are 0, so one key, the octave's originKey32,
// serves every corner (`mixedKey`: it times kGradientMix1). Each double vector's four products split
// with their cells straight into 32-bit lanes, the halves combined before the fractions' sums,
// and the corners' hash inputs step from the first as the rows' do: no 64-bit hash key per lane
// and octave. Each lane's operations on the fractions are cornerHashes32's and skewedCell's.
struct Split32 {
    hn::Vec<hn::RebindToSigned<DF>> index;
    VF frac;
};

// lattice::splitFloat of each lane of two double vectors, their cells within int32.
HWY_INLINE Split32 split32(V lo, V hi) {
    const point_lanes::Split32Lanes a = point_lanes::splitFloat32(lo);
    const point_lanes::Split32Lanes b = point_lanes::splitFloat32(hi);
    return {combined(a.index, b.index), combined(a.frac, b.frac)};
}

// lattice::sumOf per lane.
HWY_INLINE Split32 sumOf(const Split32& a, const Split32& b) {
    return point_lanes::sumOfSplits(a, b, [](hn::Mask<DF> carry) {
        return hn::BitCast(hn::RebindToSigned<DF>(), hn::VecFromMask(DF(), carry));
    });
}

template <std::size_t N>
TERRAGRID_INLINE_UNLESS_EMULATED void simplexV3PointsInBound(std::uint32_t mixedKey, const V (&u)[N][kHalves],
                                                             const V (&v)[N][kHalves], VF (&n)[N]) {
    using namespace simplex;
    const D d;
    const DU32 du;
    Split32 sx[N], sy[N];
    VF fx[N], fy[N];
    for (std::size_t k = 0; k < N; ++k) {
        const V(&x)[kHalves] = u[k];
        const V(&y)[kHalves] = v[k];
        const auto scaled = [&](const V (&w)[kHalves], double by) {
            return split32(hn::Mul(w[0], hn::Set(d, by)), hn::Mul(w[kHalves - 1], hn::Set(d, by)));
        };
        sx[k] = sumOf(scaled(x, kSkew2), scaled(y, kF2));
        sy[k] = sumOf(scaled(x, kF2), scaled(y, kSkew2));
        fx[k] = sx[k].frac;
        fy[k] = sy[k].frac;
    }
    const CornerOffsets<N> offsets = cornerOffsets(fx, fy);
    VU32 h[N];
    for (std::size_t k = 0; k < N; ++k) {
        const VU32 i = hn::BitCast(du, sx[k].index);
        const VU32 j = hn::BitCast(du, sy[k].index);
        h[k] = hn::Add(hn::Add(hn::Mul(i, hn::Set(du, kMixedX)), hn::Mul(j, hn::Set(du, kMixedY))),
                       hn::Set(du, mixedKey));
    }
    cornerNoise(offsets, SteppedHashes<N>{offsets, h}, n);
}

// Version 6's tiling points (simplexTilingV6 at moved points): per double vector the parts of
// each lane's indices reduced into the period in double lanes (exact: integers below 2^53) as
// the rows' planning does per column and per row, then the corners in 32-bit lanes as the
// rows' (rowCorners), with the row's parts per lane.
struct TilingParts {
    VF fracU, fracV, fracY;
    VI32 column, rowBottom, rowTop, jBottom, jTop;
};

HWY_INLINE TilingParts tilingParts(const rows::TilingOctave& t, const V (&u)[kHalves], const V (&v)[kHalves]) {
    const D d;
    const point_lanes::DHI dhi;
    const double n = static_cast<double>(t.cells[0]);
    const double m = static_cast<double>(t.cells[1]);
    point_lanes::VH fu[kHalves], fv[kHalves], fy[kHalves];
    hn::Vec<point_lanes::DHI> column[kHalves], rowB[kHalves], rowT[kHalves], jB[kHalves], jT[kHalves];
    for (std::size_t h = 0; h < kHalves; ++h) {
        const V cu = point_lanes::floorOf(u[h]);
        const V cv = point_lanes::floorOf(v[h]);
        const V twice = hn::Add(v[h], v[h]);  // 2v, exactly
        const V j = point_lanes::floorOf(twice);
        fu[h] = hn::DemoteTo(point_lanes::DH(), hn::Sub(u[h], cu));
        fv[h] = hn::DemoteTo(point_lanes::DH(), hn::Sub(v[h], cv));
        fy[h] = hn::DemoteTo(point_lanes::DH(), hn::Sub(twice, j));
        // simplex_v3::tilingCorner of the row's parts: j less k periods of 2m rows, and v's
        // index less k m, reduced by n; the next row j + 1 the first of the next period where j
        // is a period's last.
        const point_lanes::Reduced pairs = point_lanes::reducedBy(j, 2.0 * m);
        const V rowBottom = point_lanes::reducedBy(hn::NegMulAdd(pairs.quotient, hn::Set(d, m), cv), n).remainder;
        const auto lastRow = hn::Eq(pairs.remainder, hn::Set(d, 2.0 * m - 1.0));
        const V shifted = hn::Sub(rowBottom, hn::Set(d, static_cast<double>(t.cells[1] % t.cells[0])));
        const V rowTop = hn::IfThenElse(hn::Lt(shifted, hn::Zero(d)), hn::Add(shifted, hn::Set(d, n)), shifted);
        column[h] = hn::DemoteTo(dhi, point_lanes::reducedBy(cu, n).remainder);
        rowB[h] = hn::DemoteTo(dhi, rowBottom);
        rowT[h] = hn::DemoteTo(dhi, hn::IfThenElse(lastRow, rowTop, rowBottom));
        jB[h] = hn::DemoteTo(dhi, pairs.remainder);
        jT[h] = hn::DemoteTo(dhi, hn::IfThenElse(lastRow, hn::Zero(d), hn::Add(pairs.remainder, hn::Set(d, 1.0))));
    }
    const auto whole = [](const auto (&halves)[kHalves]) { return combined(halves[0], halves[kHalves - 1]); };
    return {whole(fu), whole(fv), whole(fy), whole(column), whole(rowB), whole(rowT), whole(jB), whole(jT)};
}

template <std::size_t N>
TERRAGRID_INLINE_UNLESS_EMULATED void simplexTilingPoints(std::uint32_t mixedKey, const rows::TilingOctave& t,
                                                          const V (&u)[N][kHalves], const V (&v)[N][kHalves],
                                                          VF (&n)[N]) {
    const DI32 di;
    const DU32 du;
    TilingParts parts[N];
    SkewedLanes sx[N];
    VF fx[N], fy[N];
    for (std::size_t k = 0; k < N; ++k) {
        parts[k] = tilingParts(t, u[k], v[k]);
        sx[k] = skewedSum(parts[k].fracU, parts[k].fracV);
        fx[k] = sx[k].frac;
        fy[k] = parts[k].fracY;
    }
    const CornerOffsets<N> offsets = cornerOffsets(fx, fy);
    const VI32 last = hn::Set(di, static_cast<std::int32_t>(t.cells[0] - 1));
    const VU32 wrap = hn::Set(du, static_cast<std::uint32_t>(t.cells[0]) * kMixedX);
    const auto rowHash = [&](VI32 index, VI32 j) {
        return hn::Add(hn::Add(hn::Mul(hn::BitCast(du, index), hn::Set(du, kMixedX)),
                               hn::Mul(hn::BitCast(du, j), hn::Set(du, kMixedY))),
                       hn::Set(du, mixedKey));
    };
    VU32 h[3][N];
    for (std::size_t k = 0; k < N; ++k) {
        const TilingParts& p = parts[k];
        const VI32 carry = hn::VecFromMask(di, hn::RebindMask(di, sx[k].carry));
        const VU32 columnHash = hn::Mul(hn::BitCast(du, p.column), hn::Set(du, kMixedX));
        const RowCorners bottom =
            rowCorners(last, wrap, p.column, columnHash, carry, p.rowBottom, rowHash(p.rowBottom, p.jBottom));
        const RowCorners top = rowCorners(last, wrap, p.column, columnHash, carry, p.rowTop, rowHash(p.rowTop, p.jTop));
        h[0][k] = bottom.here;
        h[1][k] = hn::IfThenElse(hn::RebindMask(du, offsets.lower[k]), bottom.next, top.here);
        h[2][k] = top.next;
    }
    cornerNoise(offsets, GivenHashes<N>{h}, n);
}

// Every octave of the N float vectors of points from c, summed and normalised into p.out.
template <FractalKind kKind, std::size_t N>
HWY_INLINE void pointVectors(const rows::SimplexV3Points& p, std::size_t c, const point_lanes::InBound& bound) {
    const bool inBound = point_lanes::within<N * kHalves>(p, c, bound);
    const D d;
    const DF df;
    const std::size_t lanes = hn::Lanes(d);
    V x[N][kHalves], y[N][kHalves];
    VF sum[N];
    for (std::size_t k = 0; k < N; ++k) {
        for (std::size_t h = 0; h < kHalves; ++h) {
            x[k][h] = hn::LoadU(d, p.xs + c + (k * kHalves + h) * lanes);
            y[k][h] = hn::LoadU(d, p.ys + c + (k * kHalves + h) * lanes);
        }
        sum[k] = hn::Zero(df);
    }
    for (int i = 0; i < p.octaves; ++i) {
        const rows::PointOctave& o = p.octave[i];
        const V frequency = hn::Set(d, o.frequency);
        const V frequencyY = p.tiling ? hn::Set(d, p.tiling[i].frequencyY) : frequency;
        V u[N][kHalves], v[N][kHalves];
        for (std::size_t k = 0; k < N; ++k)
            for (std::size_t h = 0; h < kHalves; ++h) {
                u[k][h] = point_lanes::latticeCoordinate(x[k][h], frequency, hn::Set(d, p.offsetX), hn::Set(d, o.shiftX));
                v[k][h] = point_lanes::latticeCoordinate(y[k][h], frequencyY, hn::Set(d, p.offsetY), hn::Set(d, o.shiftY));
            }
        VF n[N];
        if (p.tiling) simplexTilingPoints(o.originKey32 * simplex_v3::kGradientMix1, p.tiling[i], u, v, n);
        else if (inBound) simplexV3PointsInBound(o.originKey32 * simplex_v3::kGradientMix1, u, v, n);
        else simplexV3Points(o.key, u, v, n);
        const VF amplitude = hn::Set(df, static_cast<float>(o.amplitude));
        for (std::size_t k = 0; k < N; ++k)
            sum[k] = mulAdd(amplitude, fractal_lanes::octaveTerm<kKind>(df, n[k]), sum[k]);
    }
    for (std::size_t k = 0; k < N; ++k) {
        const VF value = fractal_lanes::normaliseFloat<kKind>(df, sum[k], p.scale);
        for (std::size_t h = 0; h < kHalves; ++h)
            hn::StoreU(hn::PromoteTo(d, halfOf(value, h)), d, p.out + c + (k * kHalves + h) * lanes);
    }
}

template <FractalKind kKind>
void pointsOf(const rows::SimplexV3Points& p) {
    const std::size_t step = hn::Lanes(DF());
    const point_lanes::InBound bound = point_lanes::inBound(p, point_lanes::kSkewedReach);
    std::size_t c = 0;
    for (; c + kInterleaved * step <= p.count; c += kInterleaved * step)
        pointVectors<kKind, kInterleaved>(p, c, bound);
    for (; c < p.count; c += step) pointVectors<kKind, 1>(p, c, bound);
}

}  // namespace

void EvaluateSimplexV3Points(const rows::SimplexV3Points& p) {
    fractal_lanes::withFractal(p.fractal, [&](auto k) { pointsOf<decltype(k)::value>(p); });
}

void EvaluateSimplexV3Row(const rows::SimplexV3Row& row) {
    fractal_lanes::withFractal(row.fractal, [&](auto k) { rowOf<decltype(k)::value>(row); });
}

void EvaluateSimplexTilingRow(const rows::SimplexTilingRow& row) {
    fractal_lanes::withFractal(row.fractal, [&](auto k) { rowOf<decltype(k)::value>(row); });
}

}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace terragrid::rows {

HWY_EXPORT(EvaluateSimplexV3Row);
HWY_EXPORT(EvaluateSimplexTilingRow);
HWY_EXPORT(EvaluateSimplexV3Points);

void evaluateSimplexV3Points(const SimplexV3Points& points) {
    HWY_DYNAMIC_DISPATCH(EvaluateSimplexV3Points)(points);
}

void evaluateSimplexV3Row(const SimplexV3Row& row) {
    HWY_DYNAMIC_DISPATCH(EvaluateSimplexV3Row)(row);
}

void evaluateSimplexTilingRow(const SimplexTilingRow& row) {
    HWY_DYNAMIC_DISPATCH(EvaluateSimplexTilingRow)(row);
}

}  // namespace terragrid::rows
#endif
