// The SIMD inner loop of CurvedRows, written once with Google Highway and compiled for each
// x86-64 target; HWY_DYNAMIC_DISPATCH picks the best one the CPU has at run time. Every lane
// performs the scalar reference's IEEE operations in the same order (perlin.cpp, value.cpp,
// simplex.cpp, noise4d.cpp), so every target gives the same bits. The corners' hashes come
// from the octave's CellCache (curved_rows.cpp) as selector bits: a gradient's terms are
// picked and negated by blends on those bits, never computed from the hash in the lanes.

#include "noise/curved_rows_kernels.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "noise/curved_rows_kernels.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include <algorithm>
#include <cmath>

#include "noise/fractal_lanes-inl.hpp"
#include "noise/noise4d_constants.hpp"
#include "noise/simplex_constants.hpp"

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace curved_kernels {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<double>;
using DI = hn::RebindToSigned<D>;
using DU = hn::RebindToUnsigned<D>;
using V = hn::Vec<D>;
using VI = hn::Vec<DI>;
using VU = hn::Vec<DU>;
using M = hn::Mask<D>;

constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(double);

HWY_INLINE V lerp(V t, V a, V b) { return hn::Add(a, hn::Mul(t, hn::Sub(b, a))); }

// value.cpp's fade() per lane: fractal_lanes-inl.hpp's, shared with the flat rows.
HWY_INLINE V fade(FadeCurve curve, V t) { return fractal_lanes::fade(D(), curve, t); }

// `yes` where bit kBit of the lane's code is set, else `no`. Where the blend reads only the
// sign bit (SSE4, AVX2: blendv; EMU128 compares the signed lane with 0), the bit is shifted
// there; AVX-512 tests the bit straight into a mask register (one instruction, where the
// sign needs a shift and a move to the mask), and SSSE3 has no blendv (Highway 1.0's
// IfNegativeThenElse needs a whole-lane mask there), so both test the bit.
template <int kBit>
HWY_INLINE V pick(VU code, V yes, V no) {
    const D d;
#if HWY_TARGET == HWY_SSSE3 || HWY_TARGET <= HWY_AVX3
    const DU du;
    return hn::IfThenElse(hn::RebindMask(d, hn::TestBit(code, hn::Set(du, std::uint64_t{1} << kBit))),
                          yes, no);
#else
    const DI di;
    const VI sign = hn::BitCast(di, hn::ShiftLeft<63 - kBit>(code));
    return hn::BitCast(d, hn::IfNegativeThenElse(sign, hn::BitCast(di, yes), hn::BitCast(di, no)));
#endif
}

// -x where bit kBit of the lane's code is set, else x: negation flips the sign bit and
// nothing else, so the bit moved onto the sign bit and XORed in negates exactly (a shift, an
// AND and an XOR, which AVX-512 fuses into one ternary-logic instruction, instead of a
// negation and a blend on the bit).
template <int kBit>
HWY_INLINE V negateIf(VU code, V x) {
    const D d;
    const DU du;
    const VU sign = hn::And(hn::ShiftLeft<63 - kBit>(code), hn::Set(du, std::uint64_t{1} << 63));
    return hn::BitCast(d, hn::Xor(hn::BitCast(du, x), sign));
}

// lattice::grad3 from the selector byte at bit kAt of `code` (curved_rows.cpp: gradient3Code).
template <int kAt>
HWY_INLINE V grad3(VU code, V x, V y, V z) {
    const V first = pick<kAt>(code, y, x);
    const V second = pick<kAt + 1>(code, x, pick<kAt + 2>(code, z, y));
    return hn::Add(negateIf<kAt + 3>(code, first), negateIf<kAt + 4>(code, second));
}

// noise4d.cpp's grad4 from the selector byte at bit kAt (gradient4Code): (A + B) + C.
template <int kAt>
HWY_INLINE V grad4(VU code, V x, V y, V z, V w) {
    const V a = pick<kAt>(code, y, x);
    const V b = pick<kAt + 1>(code, z, y);
    const V c = pick<kAt + 2>(code, w, z);
    return hn::Add(hn::Add(negateIf<kAt + 3>(code, a), negateIf<kAt + 4>(code, b)),
                   negateIf<kAt + 5>(code, c));
}

// ---------------------------------------------------------------------------------------------
// Each lane's cell data. Lanes mostly share the octave's current cell: then it is broadcast.
// Otherwise the lanes that differ are taken one distinct cell at a time, from the cache.

struct Lanes {
    VU code0, code1;
    V value[8];
    bool uniform;  ///< every lane lies in the octave's current cell
};

template <int kDims, bool kValues>
HWY_INLINE void broadcast(const curved::CellData& cell, M where, Lanes& lanes) {
    const D d;
    const DU du;
    const auto whereU = hn::RebindMask(du, where);
    lanes.code0 = hn::IfThenElse(whereU, hn::Set(du, cell.code[0]), lanes.code0);
    if constexpr (kDims == 4) lanes.code1 = hn::IfThenElse(whereU, hn::Set(du, cell.code[1]), lanes.code1);
    if constexpr (kValues) {
        for (int c = 0; c < 8; ++c)
            lanes.value[c] = hn::IfThenElse(where, hn::Set(d, cell.value[c]), lanes.value[c]);
    }
}

template <int kDims>
HWY_INLINE M inCell(const V* floors, const std::array<double, 4>& cell) {
    const D d;
    M m = hn::Eq(floors[0], hn::Set(d, cell[0]));
    for (int k = 1; k < kDims; ++k) m = hn::And(m, hn::Eq(floors[k], hn::Set(d, cell[k])));
    return m;
}

template <int kDims, bool kValues>
HWY_INLINE Lanes cells(curved::Octave& o, const V* floors) {
    const D d;
    const DU du;
    Lanes lanes{hn::Zero(du), hn::Zero(du), {}, false};
    if constexpr (kValues)
        for (V& v : lanes.value) v = hn::Zero(d);
    M remaining = hn::FirstN(d, hn::Lanes(d));  // every lane
    if (o.current != nullptr) {
        const M same = inCell<kDims>(floors, o.currentFloors);
        broadcast<kDims, kValues>(*o.current, same, lanes);
        if (hn::AllTrue(d, same)) {
            lanes.uniform = true;
            return lanes;
        }
        remaining = hn::AndNot(same, remaining);
    }
    alignas(64) double lane[kDims][kMaxLanes];
    for (int k = 0; k < kDims; ++k) hn::Store(floors[k], d, lane[k]);
    while (!hn::AllFalse(d, remaining)) {
        const auto first = static_cast<std::size_t>(hn::FindFirstTrue(d, remaining));
        for (int k = 0; k < kDims; ++k) o.currentFloors[k] = lane[k][first];
        o.current = &o.cells->at(o.currentFloors.data());
        o.gradientOf = nullptr;  // the cache may have refilled the same entry
        const M same = inCell<kDims>(floors, o.currentFloors);
        broadcast<kDims, kValues>(*o.current, same, lanes);
        remaining = hn::AndNot(same, remaining);
    }
    return lanes;
}

// The current cell's gradients as 0 / +-1 per axis (Octave::gradient), from its selector
// bytes (gradient3Code / gradient4Code).
template <int kDims>
HWY_INLINE const double* gradients(curved::Octave& o) {
    if (o.gradientOf == o.current) return o.gradient.data();
    std::fill_n(o.gradient.begin(), 4 << kDims, 0.0);
    for (int c = 0; c < (1 << kDims); ++c) {
        const std::uint64_t code = (o.current->code[c >> 3] >> (8 * (c & 7))) & 0xFFu;
        double* g = &o.gradient[4 * c];
        const auto put = [&](int axis, std::uint64_t negateBit) {
            g[axis] = (code & negateBit) != 0 ? -1.0 : 1.0;
        };
        if constexpr (kDims == 3) {
            put((code & 1u) != 0 ? 1 : 0, 8u);
            put((code & 2u) != 0 ? 0 : (code & 4u) != 0 ? 2 : 1, 16u);
        } else {
            put((code & 1u) != 0 ? 1 : 0, 8u);
            put((code & 2u) != 0 ? 2 : 1, 16u);
            put((code & 4u) != 0 ? 3 : 2, 32u);
        }
    }
    o.gradientOf = o.current;
    return o.gradient.data();
}

// A gradient dotted with the offset in axis order, for lanes that share their cell: the
// reference adds its two (3D) or three (4D) terms in axis order, and the gradient's zero
// entries add only zeros, which can change nothing but the sign of a zero result; no zero's
// sign survives the fractal sum (it starts from +0, and +0 + -0 is +0), so the rows' bits
// are the reference's.
// The row's own axes (z; z and w on the torus) are one scalar for every lane, so their
// products are scalar products, broadcast (the same IEEE product in every lane).
HWY_INLINE V dot3(const double* g, V x, V y, double z) {
    const D d;
    return hn::Add(hn::Add(hn::Mul(hn::Set(d, g[0]), x), hn::Mul(hn::Set(d, g[1]), y)),
                   hn::Set(d, g[2] * z));
}

HWY_INLINE V dot4(const double* g, V x, V y, double z, double w) {
    const D d;
    return hn::Add(hn::Add(hn::Add(hn::Mul(hn::Set(d, g[0]), x), hn::Mul(hn::Set(d, g[1]), y)),
                           hn::Set(d, g[2] * z)),
                   hn::Set(d, g[3] * w));
}

// ---------------------------------------------------------------------------------------------
// The row's own axes: a point's lattice coordinates along them are the same for every column
// of the row, so they are split and faded once per row and octave, in scalars (the same IEEE
// operations as the lanes': std::floor, the subtractions and value.cpp's fade itself).

struct RowAxis {
    double floor, frac, frac1, fade;
};

HWY_INLINE RowAxis rowAxis(FadeCurve f, double u) {
    const double cell = std::floor(u);
    const double frac = u - cell;
    return {cell, frac, frac - 1.0, terragrid::fade(f, frac)};
}

// ---------------------------------------------------------------------------------------------
// The noises, each from its lattice coordinates u[0..dims).

struct Perlin3Lanes {
    V frac[3], frac1[3];
    V u, v, w;  ///< fade weights
    VU code;
    const double* gradient;  ///< the shared cell's (kShared), else the lanes' codes
    RowAxis z;
};

template <bool kShared, int kC>
HWY_INLINE V perlin3Corner(const Perlin3Lanes& p) {
    const V x = (kC & 1) != 0 ? p.frac1[0] : p.frac[0];
    const V y = (kC & 2) != 0 ? p.frac1[1] : p.frac[1];
    if constexpr (kShared) return dot3(p.gradient + 4 * kC, x, y, (kC & 4) != 0 ? p.z.frac1 : p.z.frac);
    const V z = (kC & 4) != 0 ? p.frac1[2] : p.frac[2];
    return grad3<8 * kC>(p.code, x, y, z);
}

template <bool kShared>
HWY_INLINE V perlin3Blend(const Perlin3Lanes& p) {
    const V nearZ = lerp(p.v, lerp(p.u, perlin3Corner<kShared, 0>(p), perlin3Corner<kShared, 1>(p)),
                         lerp(p.u, perlin3Corner<kShared, 2>(p), perlin3Corner<kShared, 3>(p)));
    const V farZ = lerp(p.v, lerp(p.u, perlin3Corner<kShared, 4>(p), perlin3Corner<kShared, 5>(p)),
                        lerp(p.u, perlin3Corner<kShared, 6>(p), perlin3Corner<kShared, 7>(p)));
    return lerp(p.w, nearZ, farZ);
}

// perlin.cpp's 3D form: corners in Perlin's order, blended along x, y, then z (the row's).
HWY_INLINE V perlin3(curved::Octave& o, FadeCurve f, const V* u, const RowAxis& z) {
    const D d;
    const V floors[3] = {hn::Floor(u[0]), hn::Floor(u[1]), hn::Set(d, z.floor)};
    const Lanes c = cells<3, false>(o, floors);
    const V one = hn::Set(d, 1.0);
    const V fx = hn::Sub(u[0], floors[0]);
    const V fy = hn::Sub(u[1], floors[1]);
    const V fx1 = hn::Sub(fx, one);
    const V fy1 = hn::Sub(fy, one);
    const V a = fade(f, fx);
    const V b = fade(f, fy);
    const Perlin3Lanes p{{fx, fy, hn::Set(d, z.frac)}, {fx1, fy1, hn::Set(d, z.frac1)}, a, b,
                         hn::Set(d, z.fade), c.code0, c.uniform ? gradients<3>(o) : nullptr, z};
    return c.uniform ? perlin3Blend<true>(p) : perlin3Blend<false>(p);
}

// value.cpp's 3D form: one bilinear blend per z face, then along z (the row's).
HWY_INLINE V value3(curved::Octave& o, FadeCurve f, const V* u, const RowAxis& z) {
    const D d;
    const V floors[3] = {hn::Floor(u[0]), hn::Floor(u[1]), hn::Set(d, z.floor)};
    const Lanes c = cells<3, true>(o, floors);
    const V a = fade(f, hn::Sub(u[0], floors[0]));
    const V b = fade(f, hn::Sub(u[1], floors[1]));
    const V w = hn::Set(d, z.fade);
    const auto face = [&](int z) {
        return lerp(b, lerp(a, c.value[4 * z], c.value[4 * z + 1]),
                    lerp(a, c.value[4 * z + 2], c.value[4 * z + 3]));
    };
    return lerp(w, face(0), face(1));
}

// noise4d.cpp's Perlin: corner (a, b, e, g) is corner a + 2b + 4e + 8g of the cell.
struct Perlin4Lanes {
    V frac[4], frac1[4], fades[4];
    VU code0, code1;
    const double* gradient;  ///< the shared cell's (kShared), else the lanes' codes
    RowAxis z, w;
};

// Corner kC's gradient dotted with its offset: from the shared cell's gradients or from the
// lanes' selector bytes (byte kC & 7 of word kC >> 3).
template <bool kShared, int kC>
HWY_INLINE V perlin4Corner(const Perlin4Lanes& p) {
    const V x = (kC & 1) != 0 ? p.frac1[0] : p.frac[0];
    const V y = (kC & 2) != 0 ? p.frac1[1] : p.frac[1];
    if constexpr (kShared)
        return dot4(p.gradient + 4 * kC, x, y, (kC & 4) != 0 ? p.z.frac1 : p.z.frac,
                    (kC & 8) != 0 ? p.w.frac1 : p.w.frac);
    const V z = (kC & 4) != 0 ? p.frac1[2] : p.frac[2];
    const V w = (kC & 8) != 0 ? p.frac1[3] : p.frac[3];
    return grad4<8 * (kC & 7)>(kC < 8 ? p.code0 : p.code1, x, y, z, w);
}

// Blended along x, then y (the corners kC .. kC + 3).
template <bool kShared, int kC>
HWY_INLINE V perlin4Face(const Perlin4Lanes& p) {
    return lerp(p.fades[1],
                lerp(p.fades[0], perlin4Corner<kShared, kC>(p), perlin4Corner<kShared, kC + 1>(p)),
                lerp(p.fades[0], perlin4Corner<kShared, kC + 2>(p),
                     perlin4Corner<kShared, kC + 3>(p)));
}

template <bool kShared>
HWY_INLINE V perlin4Blend(const Perlin4Lanes& p) {
    const V nearW = lerp(p.fades[2], perlin4Face<kShared, 0>(p), perlin4Face<kShared, 4>(p));
    const V farW = lerp(p.fades[2], perlin4Face<kShared, 8>(p), perlin4Face<kShared, 12>(p));
    return lerp(p.fades[3], nearW, farW);
}

HWY_INLINE V perlin4(curved::Octave& o, FadeCurve f, const V* u, const RowAxis& z,
                     const RowAxis& w) {
    const D d;
    const V floors[4] = {hn::Floor(u[0]), hn::Floor(u[1]), hn::Set(d, z.floor),
                         hn::Set(d, w.floor)};
    const Lanes c = cells<4, false>(o, floors);
    const V one = hn::Set(d, 1.0);
    Perlin4Lanes p;
    for (int k = 0; k < 2; ++k) {
        p.frac[k] = hn::Sub(u[k], floors[k]);
        p.frac1[k] = hn::Sub(p.frac[k], one);
        p.fades[k] = fade(f, p.frac[k]);
    }
    int k = 2;
    for (const RowAxis* axis : {&z, &w}) {
        p.frac[k] = hn::Set(d, axis->frac);
        p.frac1[k] = hn::Set(d, axis->frac1);
        p.fades[k] = hn::Set(d, axis->fade);
        ++k;
    }
    p.z = z;
    p.w = w;
    p.code0 = c.code0;
    p.code1 = c.code1;
    p.gradient = c.uniform ? gradients<4>(o) : nullptr;
    const V blended = c.uniform ? perlin4Blend<true>(p) : perlin4Blend<false>(p);
    const double scale = 1.0 / noise4d::kPerlin4Max[static_cast<std::size_t>(f)];
    const V n = hn::Mul(hn::Set(d, scale), blended);
    return hn::Min(hn::Max(n, hn::Set(d, -1.0)), hn::Set(d, 1.0));
}

// The selector byte of corner `index` (per lane, 0..7) moved to bits 0..7.
HWY_INLINE VU cornerCode(VU code, VU index) {
    return hn::Shr(code, hn::ShiftLeft<3>(index));
}

// simplex.cpp's corner3: the kernel, zero outside radius^2.
HWY_INLINE V simplexCorner3(VU code, V x, V y, V z) {
    const D d;
    const V t = hn::Sub(hn::Sub(hn::Sub(hn::Set(d, simplex::kRadius2), hn::Mul(x, x)), hn::Mul(y, y)),
                        hn::Mul(z, z));
    const V t2 = hn::Mul(t, t);
    return hn::IfThenElseZero(hn::Gt(t, hn::Zero(d)), hn::Mul(hn::Mul(t2, t2), grad3<0>(code, x, y, z)));
}

HWY_INLINE VU bitIf(M m, std::uint64_t bit) {
    const DU du;
    return hn::IfThenElseZero(hn::RebindMask(du, m), hn::Set(du, bit));
}

HWY_INLINE V oneIf(M m) {
    const D d;
    return hn::IfThenElseZero(m, hn::Set(d, 1.0));
}

// simplex.cpp's 3D form. The cell is the skewed cube (i, j, k); its tetrahedron picks the
// second and third corners per lane.
HWY_INLINE V simplex3(curved::Octave& o, const V* u) {
    using namespace simplex;
    const D d;
    const V s = hn::Mul(hn::Add(hn::Add(u[0], u[1]), u[2]), hn::Set(d, kF3));
    const V floors[3] = {hn::Floor(hn::Add(u[0], s)), hn::Floor(hn::Add(u[1], s)),
                         hn::Floor(hn::Add(u[2], s))};
    const Lanes c = cells<3, false>(o, floors);
    const V t = hn::Mul(hn::Add(hn::Add(floors[0], floors[1]), floors[2]), hn::Set(d, kG3));
    const V x0 = hn::Sub(u[0], hn::Sub(floors[0], t));
    const V y0 = hn::Sub(u[1], hn::Sub(floors[1], t));
    const V z0 = hn::Sub(u[2], hn::Sub(floors[2], t));
    // simplex.cpp's tetrahedron() as masks.
    const M xy = hn::Ge(x0, y0);
    const M yz = hn::Ge(y0, z0);
    const M xz = hn::Ge(x0, z0);
    const M i1 = hn::And(xy, hn::Or(yz, xz));
    const M j1 = hn::AndNot(xy, yz);
    const M k1 = hn::AndNot(yz, hn::Not(hn::And(xy, xz)));
    const M i2 = hn::Or(xy, hn::And(yz, xz));
    const M j2 = hn::Or(hn::And(xy, yz), hn::Not(xy));
    const M k2 = hn::Or(hn::AndNot(yz, xy), hn::AndNot(xy, hn::Not(hn::And(yz, xz))));
    const V g1 = hn::Set(d, kG3);
    const V g2 = hn::Set(d, 2.0 * kG3);
    const V g3 = hn::Set(d, 3.0 * kG3);
    const V one = hn::Set(d, 1.0);
    const V x1 = hn::Add(hn::Sub(x0, oneIf(i1)), g1);
    const V y1 = hn::Add(hn::Sub(y0, oneIf(j1)), g1);
    const V z1 = hn::Add(hn::Sub(z0, oneIf(k1)), g1);
    const V x2 = hn::Add(hn::Sub(x0, oneIf(i2)), g2);
    const V y2 = hn::Add(hn::Sub(y0, oneIf(j2)), g2);
    const V z2 = hn::Add(hn::Sub(z0, oneIf(k2)), g2);
    const V x3 = hn::Add(hn::Sub(x0, one), g3);
    const V y3 = hn::Add(hn::Sub(y0, one), g3);
    const V z3 = hn::Add(hn::Sub(z0, one), g3);
    const VU corner1 = hn::Or(hn::Or(bitIf(i1, 1), bitIf(j1, 2)), bitIf(k1, 4));
    const VU corner2 = hn::Or(hn::Or(bitIf(i2, 1), bitIf(j2, 2)), bitIf(k2, 4));
    const V n = hn::Add(
        hn::Add(hn::Add(simplexCorner3(c.code0, x0, y0, z0),
                        simplexCorner3(cornerCode(c.code0, corner1), x1, y1, z1)),
                simplexCorner3(cornerCode(c.code0, corner2), x2, y2, z2)),
        simplexCorner3(hn::ShiftRight<56>(c.code0), x3, y3, z3));
    return hn::Min(hn::Max(hn::Mul(hn::Set(d, kScale3), n), hn::Set(d, -1.0)), hn::Set(d, 1.0));
}

// Corner kStep of noise4d.cpp's simplex: the axes of rank >= 4 - kStep are incremented. No
// rank reaches 4 and every rank is at least 0, so corner 0 increments no axis and corner 4
// every axis, whatever the lanes: those two skip the comparisons (the same IEEE operations).
template <int kStep>
HWY_INLINE V simplex4Corner(const Lanes& c, const V* d0, const V* rank) {
    using namespace noise4d;
    const D d;
    const DU du;
    const V unskew = hn::Set(d, kStep * kG4);
    V at[4];
    VU code;
    if constexpr (kStep == 0) {
        for (int a = 0; a < 4; ++a) at[a] = hn::Add(hn::Sub(d0[a], hn::Zero(d)), unskew);
        code = c.code0;  // corner 0
    } else if constexpr (kStep == 4) {
        for (int a = 0; a < 4; ++a) at[a] = hn::Add(hn::Sub(d0[a], hn::Set(d, 1.0)), unskew);
        code = hn::ShiftRight<56>(c.code1);  // corner 15
    } else {
        const V threshold = hn::Set(d, static_cast<double>(4 - kStep));
        VU corner = hn::Zero(du);
        M last = hn::FirstN(d, 0);
        for (int a = 0; a < 4; ++a) {
            const M inc = hn::Ge(rank[a], threshold);
            at[a] = hn::Add(hn::Sub(d0[a], oneIf(inc)), unskew);
            if (a < 3) corner = hn::Or(corner, bitIf(inc, 8u << a));
            else last = inc;
        }
        code = hn::Shr(hn::IfThenElse(hn::RebindMask(du, last), c.code1, c.code0), corner);
    }
    const V tt = hn::Sub(hn::Sub(hn::Sub(hn::Sub(hn::Set(d, kRadius2), hn::Mul(at[0], at[0])),
                                        hn::Mul(at[1], at[1])),
                                hn::Mul(at[2], at[2])),
                        hn::Mul(at[3], at[3]));
    const V t2 = hn::Mul(tt, tt);
    return hn::IfThenElseZero(hn::Gt(tt, hn::Zero(d)),
                              hn::Mul(hn::Mul(t2, t2), grad4<0>(code, at[0], at[1], at[2], at[3])));
}

// noise4d.cpp's simplex: each axis's rank among the four offsets says at which corner it steps.
HWY_INLINE V simplex4(curved::Octave& o, const V* u) {
    using namespace noise4d;
    const D d;
    const V s = hn::Mul(hn::Add(hn::Add(hn::Add(u[0], u[1]), u[2]), u[3]), hn::Set(d, kF4));
    V floors[4];
    for (int k = 0; k < 4; ++k) floors[k] = hn::Floor(hn::Add(u[k], s));
    const Lanes c = cells<4, false>(o, floors);
    const V t = hn::Mul(hn::Add(hn::Add(hn::Add(floors[0], floors[1]), floors[2]), floors[3]),
                        hn::Set(d, kG4));
    V d0[4];
    for (int k = 0; k < 4; ++k) d0[k] = hn::Sub(u[k], hn::Sub(floors[k], t));
    const V one = hn::Set(d, 1.0);
    V rank[4] = {hn::Zero(d), hn::Zero(d), hn::Zero(d), hn::Zero(d)};
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) {
            const M greater = hn::Gt(d0[a], d0[b]);
            rank[a] = hn::Add(rank[a], hn::IfThenElseZero(greater, one));
            rank[b] = hn::Add(rank[b], hn::IfThenZeroElse(greater, one));
        }
    // Summed from 0.0 in corner order, as the reference does.
    V n = hn::Add(hn::Zero(d), simplex4Corner<0>(c, d0, rank));
    n = hn::Add(n, simplex4Corner<1>(c, d0, rank));
    n = hn::Add(n, simplex4Corner<2>(c, d0, rank));
    n = hn::Add(n, simplex4Corner<3>(c, d0, rank));
    n = hn::Add(n, simplex4Corner<4>(c, d0, rank));
    return hn::Min(hn::Max(hn::Mul(hn::Set(d, kSimplex4Scale), n), hn::Set(d, -1.0)),
                   hn::Set(d, 1.0));
}

// ---------------------------------------------------------------------------------------------
// Whole rows: all octaves per vector of columns, the sum kept in a register.

using fractal_lanes::normalise;   // fractal_lanes-inl.hpp
using fractal_lanes::octaveTerm;

// The lattice coordinate (p f + offset) + shift, as NoiseField::sample computes it.
HWY_INLINE V lattice(V p, double frequency, double offset, double shift) {
    const D d;
    return hn::Add(hn::Add(hn::Mul(p, hn::Set(d, frequency)), hn::Set(d, offset)), hn::Set(d, shift));
}

/// An octave's lattice coordinates along the row's own axes (z; z and w on the torus), as
/// NoiseField::sample computes them, split once per row.
struct RowPoint {
    double z, w;
    RowAxis zAxis, wAxis;
};

template <bool kTorus>
RowPoint rowPoint(const curved::Row& row, const curved::Octave& o) {
    RowPoint p{};
    p.z = ((kTorus ? row.rowA : row.rowB) * o.frequency + 0.0) + o.shift[2];
    p.zAxis = rowAxis(row.fade, p.z);
    if constexpr (kTorus) {
        p.w = (row.rowB * o.frequency + 0.0) + o.shift[3];
        p.wAxis = rowAxis(row.fade, p.w);
    }
    return p;
}

template <NoiseKind kNoise, bool kTorus>
HWY_INLINE V octaveNoise(const curved::Row& row, curved::Octave& o, const RowPoint& r,
                         std::size_t c) {
    const D d;
    V p[4];
    if constexpr (kTorus) {
        p[0] = hn::LoadU(d, row.a + c);
        p[1] = hn::LoadU(d, row.b + c);
    } else {
        p[0] = hn::Mul(hn::Set(d, row.rowA), hn::LoadU(d, row.a + c));
        p[1] = hn::Mul(hn::Set(d, row.rowA), hn::LoadU(d, row.b + c));
    }
    V u[4];
    u[0] = lattice(p[0], o.frequency, row.offsetX, o.shift[0]);
    u[1] = lattice(p[1], o.frequency, row.offsetY, o.shift[1]);
    u[2] = hn::Set(d, r.z);
    if constexpr (kTorus) u[3] = hn::Set(d, r.w);
    if constexpr (kNoise == NoiseKind::Simplex) {
        if constexpr (kTorus) return simplex4(o, u);
        else return simplex3(o, u);
    } else if constexpr (kNoise == NoiseKind::Perlin) {
        if constexpr (kTorus) return perlin4(o, row.fade, u, r.zAxis, r.wAxis);
        else return perlin3(o, row.fade, u, r.zAxis);
    } else {
        return value3(o, row.fade, u, r.zAxis);  // value noise has no 4D form
    }
}

template <NoiseKind kNoise, bool kTorus, FractalKind kKind>
void rowOf(const curved::Row& row) {
    const D d;
    const std::size_t lanes = hn::Lanes(d);
    std::array<RowPoint, kMaxOctaves> points;
    for (int i = 0; i < row.octaves; ++i) points[i] = rowPoint<kTorus>(row, row.octave[i]);
    for (std::size_t c = 0; c < row.columns; c += lanes) {
        // Summed from 0.0 in octave order, like NoiseField::sample.
        V sum = hn::Zero(d);
        for (int i = 0; i < row.octaves; ++i) {
            curved::Octave& o = row.octave[i];
            const V n = octaveNoise<kNoise, kTorus>(row, o, points[i], c);
            sum = hn::Add(sum, hn::Mul(hn::Set(d, o.amplitude), octaveTerm<kKind>(d, n)));
        }
        hn::StoreU(normalise<kKind>(d, sum, row.amplitudeSum), d, row.out + c);
    }
}

template <NoiseKind kNoise, bool kTorus>
void rowOfKind(const curved::Row& row) {
    fractal_lanes::withFractal(row.fractal, [&](auto k) { rowOf<kNoise, kTorus, decltype(k)::value>(row); });
}

}  // namespace curved_kernels

void EvaluateCurvedRow(const curved::Row& row) {
    using namespace curved_kernels;
    switch (row.noise) {
    case NoiseKind::Value:
        return rowOfKind<NoiseKind::Value, false>(row);
    case NoiseKind::Perlin:
        return row.torus ? rowOfKind<NoiseKind::Perlin, true>(row)
                         : rowOfKind<NoiseKind::Perlin, false>(row);
    case NoiseKind::Simplex:
        return row.torus ? rowOfKind<NoiseKind::Simplex, true>(row)
                         : rowOfKind<NoiseKind::Simplex, false>(row);
    default: return;  // kinds without a SIMD path never get here (curved_rows.cpp)
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace terragrid::curved {

HWY_EXPORT(EvaluateCurvedRow);

void evaluateRow(const Row& row) { HWY_DYNAMIC_DISPATCH(EvaluateCurvedRow)(row); }

}  // namespace terragrid::curved
#endif  // HWY_ONCE
