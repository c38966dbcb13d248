// Version 4's rows of planets and tileable maps, written once with Google Highway and compiled
// for each x86-64 target; HWY_DYNAMIC_DISPATCH picks the best one the CPU has at run time.
// Every lane performs curved_v4.cpp's float operations and fused multiply-adds in its order, so
// every target gives the scalar reference's bits.
//
// A row is split first (fillColumns: the columns' lattice coordinates in double lanes, each
// lane axis's index and float fraction stored per octave), then each octave's noise is computed
// over the row in float lanes and added to the row's float sums. What a row shares is hoisted
// out of the lanes: the row's own axes (z on a sphere, z and w on a torus) are split once per
// row, and their part of every gradient dot product, g_z z (+ g_w w), is a 16-entry table per
// row that the lanes look up like the gradients; the hash input is linear in the corners' low
// index halves, so a lane's corners are one hash input plus constants.

#include "noise/curved_v4_rows.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "noise/curved_v4_rows.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include <array>
#include <cstdint>

#include "noise/curved_v4.hpp"
#include "noise/fractal_lanes-inl.hpp"
#include "noise/fused-inl.hpp"
#include "noise/mix32_lanes-inl.hpp"
#include "noise/point_lanes-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace {
namespace hn = hwy::HWY_NAMESPACE;
namespace cv = terragrid::curved_v4;

using fused::mulAdd;
using fused::negMulAdd;

using cv::premix;
using mix32_lanes::finish;
constexpr std::uint32_t axisStep(int axis) { return premix(cv::kHashAxis[static_cast<std::size_t>(axis)]); }

// ---------------------------------------------------------------------------------------------
// The split: double lanes, the fractions and low halves stored as many floats and int32s.

using D = hn::ScalableTag<double>;
using V = hn::Vec<D>;
using DH = hn::Rebind<float, D>;
using DHI = hn::Rebind<std::int32_t, D>;

// fillColumns for one kind of split, its loops over axes unrolled (a loop over a run-time count
// kept the coordinates in memory, and stores through the struct's pointers reloaded them).
template <cv::Split kSplit, bool kChecked>
bool fillAxes(const cv::Fill& f) {
    // PointTorusSkew: the columns' three parts of a torus's skew, then the row's three.
    constexpr int kAxes = kSplit == cv::Split::Lattice ? 2 : kSplit == cv::Split::PointTorusSkew ? 6 : 3;
    // The points' splits take each lane's z (and w); the others a row's.
    constexpr bool kLaneZ = kSplit == cv::Split::PointLattice || kSplit == cv::Split::PointSkewed3 ||
                            kSplit == cv::Split::PointTorusSkew;
    const D d;
    const DH dh;
    const DHI dhi;
    const hn::RebindToUnsigned<DHI> dhu;
    const double* p[4] = {f.p[0], f.p[1], f.p[2], f.p[3]};
    float* frac[kAxes];
    std::uint32_t* low[kAxes];
    for (int a = 0; a < kAxes; ++a) {
        frac[a] = f.out.frac[static_cast<std::size_t>(a)];
        low[a] = f.out.low[static_cast<std::size_t>(a)];
    }
    const V frequency = hn::Set(d, f.frequency);
    const V offset[2] = {hn::Set(d, f.offset[0]), hn::Set(d, f.offset[1])};
    const V shift[4] = {hn::Set(d, f.shift[0]), hn::Set(d, f.shift[1]), hn::Set(d, f.shift[2]),
                        hn::Set(d, f.shift[3])};
    const V rowU = hn::Set(d, f.rowU);
    const std::size_t columns = f.columns;
    const bool prepared = kSplit == cv::Split::Lattice && f.out.origin != nullptr;
    V largest = hn::Zero(d);
    for (std::size_t c = 0; c < columns; c += hn::Lanes(d)) {
        V u[6];
        for (int a = 0; a < 2; ++a) {
            u[a] = point_lanes::latticeCoordinate(hn::LoadU(d, p[a] + c), frequency, offset[a], shift[a]);
        }
        // A point's z: NoiseField::latticeCoordinates with z's offset, 0.
        if constexpr (kLaneZ)
            u[2] = point_lanes::latticeCoordinate(hn::LoadU(d, p[2] + c), frequency, hn::Zero(d), shift[2]);
        if constexpr (kSplit == cv::Split::PointTorusSkew)
            u[3] = point_lanes::latticeCoordinate(hn::LoadU(d, p[3] + c), frequency, hn::Zero(d), shift[3]);
        if constexpr (kSplit == cv::Split::Skewed3 || kSplit == cv::Split::PointSkewed3) {
            // curved_v4.cpp's skewedCell3, z the row's or the lane's.
            const V z = kLaneZ ? u[2] : rowU;
            const V s = hn::Mul(hn::Add(hn::Add(u[0], u[1]), z), hn::Set(d, simplex::kF3));
            u[0] = hn::Add(u[0], s);
            u[1] = hn::Add(u[1], s);
            u[2] = hn::Add(z, s);
        } else if constexpr (kSplit == cv::Split::TorusSkew) {
            // curved_v4.cpp's skewedCell4: the columns' part.
            const V cs = hn::Mul(hn::Add(u[0], u[1]), hn::Set(d, noise4d::kF4));
            u[0] = hn::Add(u[0], cs);
            u[1] = hn::Add(u[1], cs);
            u[2] = cs;
        } else if constexpr (kSplit == cv::Split::PointTorusSkew) {
            // curved_v4.cpp's skewedCell4, both parts: x + cs, y + cs, cs; rs, z + rs, w + rs.
            const V cs = hn::Mul(hn::Add(u[0], u[1]), hn::Set(d, noise4d::kF4));
            const V rs = hn::Mul(hn::Add(u[2], u[3]), hn::Set(d, noise4d::kF4));
            const V z = u[2], w = u[3];
            u[0] = hn::Add(u[0], cs);
            u[1] = hn::Add(u[1], cs);
            u[2] = cs;
            u[3] = rs;
            u[4] = hn::Add(z, rs);
            u[5] = hn::Add(w, rs);
        }
        hn::Vec<decltype(dhu)> origin = hn::Zero(dhu);
        for (int a = 0; a < kAxes; ++a) {
            const V cell = hn::Floor(u[a]);
            if constexpr (kChecked) largest = hn::Max(largest, hn::Abs(cell));
            const auto fraction = hn::DemoteTo(dh, hn::Sub(u[a], cell));
            const auto lowHalf = hn::BitCast(dhu, hn::DemoteTo(dhi, cell));
            hn::StoreU(fraction, dh, frac[a] + c);
            hn::StoreU(lowHalf, dhu, low[a] + c);
            if constexpr (kSplit == cv::Split::Lattice) {
                if (prepared) {
                    hn::StoreU(fractal_lanes::fadeFloat(f.fade, fraction), dh, f.out.fade[static_cast<std::size_t>(a)] + c);
                    origin = hn::Add(origin, hn::Mul(lowHalf, hn::Set(dhu, axisStep(a))));
                }
            }
        }
        if (prepared) hn::StoreU(origin, dhu, f.out.origin + c);
    }
    if constexpr (!kChecked) return true;
    const bool parts = kSplit == cv::Split::TorusSkew || kSplit == cv::Split::PointTorusSkew;
    const auto bound = static_cast<double>(parts ? cv::kTorusSkewBound : cv::kIndexBound);
    // Not "largest < bound", which a NaN would pass.
    return hn::AllTrue(d, hn::Lt(largest, hn::Set(d, bound)));
}

template <cv::Split kSplit>
bool fillChecked(const cv::Fill& f) {
    return f.checked ? fillAxes<kSplit, true>(f) : fillAxes<kSplit, false>(f);
}

bool fillAll(const cv::Fill& f) {
    switch (f.split) {
    case cv::Split::Lattice: return fillChecked<cv::Split::Lattice>(f);
    case cv::Split::Skewed3: return fillChecked<cv::Split::Skewed3>(f);
    case cv::Split::TorusSkew: return fillChecked<cv::Split::TorusSkew>(f);
    case cv::Split::PointLattice: return fillChecked<cv::Split::PointLattice>(f);
    case cv::Split::PointSkewed3: return fillChecked<cv::Split::PointSkewed3>(f);
    case cv::Split::PointTorusSkew: return fillChecked<cv::Split::PointTorusSkew>(f);
    }
    return false;
}

// ---------------------------------------------------------------------------------------------
// Float lanes.

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;
using DU = hn::RebindToUnsigned<DF>;
using VU = hn::Vec<DU>;
using DI = hn::RebindToSigned<DF>;
using VI = hn::Vec<DI>;
using MF = hn::Mask<DF>;

// A 16-entry table in registers: one vector where it holds 16 floats (AVX-512: one permute per
// lookup), two and a blend on bit 3 where it holds 8 (AVX2), a gather on narrower targets.
template <class DFT>
struct Table {
    hn::Vec<DFT> lo, hi;
    const float* entries;
};

template <class DFT>
HWY_INLINE Table<DFT> tableOf(DFT df, const float* entries) {
    if constexpr (hn::MaxLanes(df) == 8) return {hn::LoadU(df, entries), hn::LoadU(df, entries + 8), entries};
    else if constexpr (hn::MaxLanes(df) >= 16) return {hn::LoadU(df, entries), hn::Zero(df), entries};
    else return {hn::Zero(df), hn::Zero(df), entries};
}

// A gradient index as the lookups of one corner use it: prepared once for its three or four
// tables (on 8 lanes: the entry within each half and whether it is in the upper one).
template <class DFT>
using IndicesOf = decltype(hn::IndicesFromVec(DFT(), hn::Zero(hn::RebindToSigned<DFT>())));

template <class DFT>
struct Entry {
    IndicesOf<DFT> lane;
    hn::Mask<DFT> upper;
    hn::Vec<hn::RebindToSigned<DFT>> index;
};

template <class DFT>
HWY_INLINE Entry<DFT> entryOf(DFT df, hn::Vec<hn::RebindToSigned<DFT>> index) {
    const hn::RebindToSigned<DFT> di;
    if constexpr (hn::MaxLanes(df) >= 16) {
        return {hn::IndicesFromVec(df, index), hn::FirstN(df, 0), index};
    } else if constexpr (hn::MaxLanes(df) == 8) {
        return {hn::IndicesFromVec(df, hn::And(index, hn::Set(di, 7))),
                hn::RebindMask(df, hn::Ne(hn::And(index, hn::Set(di, 8)), hn::Zero(di))), index};
    } else {
        return {hn::IndicesFromVec(df, hn::Zero(di)), hn::FirstN(df, 0), index};
    }
}

template <class DFT>
HWY_INLINE hn::Vec<DFT> lookup(DFT df, const Table<DFT>& t, const Entry<DFT>& e) {
    if constexpr (hn::MaxLanes(df) >= 16) {
        return hn::TableLookupLanes(t.lo, e.lane);
    } else if constexpr (hn::MaxLanes(df) == 8) {
        return hn::IfThenElse(e.upper, hn::TableLookupLanes(t.hi, e.lane), hn::TableLookupLanes(t.lo, e.lane));
    } else {
        return hn::GatherIndex(df, t.entries, e.index);
    }
}

// curved_v4::gradient of a premixed input (mix32_lanes::finish's top 4 bits).
HWY_INLINE VI gradientOf(VU premixed) {
    return hn::BitCast(DI(), hn::ShiftRight<28>(finish(premixed)));
}
// The premixed step to the corner with bit a of `corner` along axis a.
constexpr std::uint32_t cornerStep(int corner) {
    std::uint32_t s = 0;
    for (int a = 0; a < 4; ++a)
        if ((corner >> a) & 1) s += axisStep(a);
    return s;
}

HWY_INLINE VF lerp(VF t, VF a, VF b) { return mulAdd(t, hn::Sub(b, a), a); }

// The premixed hash input of each lane's cell origin: the lane axes' low halves times their
// premixed multipliers plus `rest` (the row axes' part and the key, premixed).
HWY_INLINE VU originInput(const cv::Columns& cols, int axes, std::size_t c, std::uint32_t rest) {
    const DU du;
    VU h = hn::Set(du, rest);
    for (int a = 0; a < axes; ++a)
        h = hn::Add(h, hn::Mul(hn::LoadU(du, cols.low[a] + c), hn::Set(du, axisStep(a))));
    return h;
}

// ---------------------------------------------------------------------------------------------
// The noises, one octave at a time over a row. Each is set up once per octave and row (its
// tables in registers) and then called per vector of columns.

// What 3D and 4D Perlin and value noise share per vector: the lanes' offsets from their cell
// along x and y (the fraction, and the fraction less 1), their fades, and the premixed hash
// input of their cell origins.
struct LaneCell {
    VF x[2], y[2];
    VF fx, fy;
    VU origin;
};

HWY_INLINE LaneCell laneCell(const cv::Octave& o, FadeCurve curve, std::size_t c, std::uint32_t rest) {
    const DF df;
    const VF one = hn::Set(df, 1.0f);
    const VF x = hn::LoadU(df, o.columns.frac[0] + c);
    const VF y = hn::LoadU(df, o.columns.frac[1] + c);
    return {{x, hn::Sub(x, one)}, {y, hn::Sub(y, one)}, fractal_lanes::fadeFloat(curve, x), fractal_lanes::fadeFloat(curve, y),
            originInput(o.columns, 2, c, rest)};
}

// 3D value (kValue) or Perlin noise: x and y in the lanes, z the row's.
template <bool kValue>
struct Lattice3 {
    const cv::Octave& o;
    FadeCurve curve;
    std::uint32_t rest;
    Table<DF> gx, gy, gz[2];
    alignas(64) float z[2][16];

    Lattice3(const cv::Octave& octave, FadeCurve f) : o(octave), curve(f) {
        const DF df;
        rest = premix(o.rowLow[0] * cv::kHashAxis[2] + o.key);
        const float zOffset[2] = {o.rowFrac[0], o.rowFrac[0] - 1.0f};
        for (int e = 0; e < 2; ++e)
            for (int g = 0; g < 16; ++g) z[e][g] = cv::kGrad3Z[g] * zOffset[e];
        gx = tableOf(df, cv::kGrad3X);
        gy = tableOf(df, cv::kGrad3Y);
        gz[0] = tableOf(df, z[0]);
        gz[1] = tableOf(df, z[1]);
    }

    HWY_INLINE VF operator()(std::size_t c) const {
        const DF df;
        const LaneCell l = laneCell(o, curve, c, rest);
        const VF* x = l.x;
        const VF* y = l.y;
        const VF fx = l.fx;
        const VF fy = l.fy;
        const VU origin = l.origin;
        const auto corner = [&](int a, int b, int e) {
            const VU premixed = hn::Add(origin, hn::Set(DU(), cornerStep(a | b << 1 | e << 2)));
            if constexpr (kValue) {
                return mix32_lanes::value(df, premixed);
            } else {
                const Entry<DF> g = entryOf(df, gradientOf(premixed));
                return mulAdd(lookup(df, gx, g), x[a], mulAdd(lookup(df, gy, g), y[b], lookup(df, gz[e], g)));
            }
        };
        const auto face = [&](int e) {
            return lerp(fy, lerp(fx, corner(0, 0, e), corner(1, 0, e)),
                        lerp(fx, corner(0, 1, e), corner(1, 1, e)));
        };
        return lerp(hn::Set(df, o.rowFade[0]), face(0), face(1));
    }
};

// 3D value (kValue) or Perlin noise at points each with its own z (a warped planet layer's
// moved points): Lattice3 with z's fraction, fade and low half in the lanes too.
template <bool kValue>
struct Lattice3Points {
    const cv::Octave& o;
    FadeCurve curve;
    std::uint32_t rest;
    Table<DF> gx, gy, gz;

    Lattice3Points(const cv::Octave& octave, FadeCurve f) : o(octave), curve(f), rest(premix(octave.key)) {
        const DF df;
        gx = tableOf(df, cv::kGrad3X);
        gy = tableOf(df, cv::kGrad3Y);
        gz = tableOf(df, cv::kGrad3Z);
    }

    HWY_INLINE VF operator()(std::size_t c) const {
        const DF df;
        const DU du;
        const LaneCell l = laneCell(o, curve, c, rest);
        const VF zf = hn::LoadU(df, o.columns.frac[2] + c);
        const VF z[2] = {zf, hn::Sub(zf, hn::Set(df, 1.0f))};
        const VF fz = fractal_lanes::fadeFloat(curve, zf);
        const VU origin = hn::Add(l.origin, hn::Mul(hn::LoadU(du, o.columns.low[2] + c), hn::Set(du, axisStep(2))));
        const auto corner = [&](int a, int b, int e) {
            const VU premixed = hn::Add(origin, hn::Set(du, cornerStep(a | b << 1 | e << 2)));
            if constexpr (kValue) {
                return mix32_lanes::value(df, premixed);
            } else {
                // curved_v4::dot3: fma(gx, x, fma(gy, y, gz z)).
                const Entry<DF> g = entryOf(df, gradientOf(premixed));
                return mulAdd(lookup(df, gx, g), l.x[a],
                              mulAdd(lookup(df, gy, g), l.y[b], hn::Mul(lookup(df, gz, g), z[e])));
            }
        };
        const auto face = [&](int e) {
            return lerp(l.fy, lerp(l.fx, corner(0, 0, e), corner(1, 0, e)),
                        lerp(l.fx, corner(0, 1, e), corner(1, 1, e)));
        };
        return lerp(fz, face(0), face(1));
    }
};

// 4D Perlin noise: x and y in the lanes, z and w the row's.
struct Perlin4 {
    const cv::Octave& o;
    FadeCurve curve;
    std::uint32_t rest;
    float scale;
    Table<DF> gx, gy, gzw[4];  // gzw[e + 2 g]: fma(g_z, z_e, g_w w_g)
    alignas(64) float zw[4][16];

    Perlin4(const cv::Octave& octave, FadeCurve f)
        : o(octave), curve(f), scale(cv::perlin4Scale(f)) {
        const DF df;
        rest = premix(o.rowLow[0] * cv::kHashAxis[2] + o.rowLow[1] * cv::kHashAxis[3] + o.key);
        const float zOffset[2] = {o.rowFrac[0], o.rowFrac[0] - 1.0f};
        const float wOffset[2] = {o.rowFrac[1], o.rowFrac[1] - 1.0f};
        for (int k = 0; k < 4; ++k)
            for (int g = 0; g < 16; ++g)
                zw[k][g] = std::fma(cv::kGrad4Z[g], zOffset[k & 1], cv::kGrad4W[g] * wOffset[k >> 1]);
        gx = tableOf(df, cv::kGrad4X.data());
        gy = tableOf(df, cv::kGrad4Y.data());
        for (int k = 0; k < 4; ++k) gzw[k] = tableOf(df, zw[k]);
    }

    HWY_INLINE VF operator()(std::size_t c) const {
        const DF df;
        const DU du;
        // The torus's columns were split once, with their fades and hash inputs (fillColumns).
        const VF one = hn::Set(df, 1.0f);
        const VF x[2] = {hn::LoadU(df, o.columns.frac[0] + c), hn::Sub(hn::LoadU(df, o.columns.frac[0] + c), one)};
        const VF y[2] = {hn::LoadU(df, o.columns.frac[1] + c), hn::Sub(hn::LoadU(df, o.columns.frac[1] + c), one)};
        const VF fx = hn::LoadU(df, o.columns.fade[0] + c);
        const VF fy = hn::LoadU(df, o.columns.fade[1] + c);
        const VU origin = hn::Add(hn::LoadU(du, o.columns.origin + c), hn::Set(du, rest));
        const auto corner = [&](int a, int b, int e, int g) {
            const Entry<DF> grad = entryOf(df, gradientOf(hn::Add(origin, hn::Set(DU(), cornerStep(a | b << 1 | e << 2 | g << 3)))));
            return mulAdd(lookup(df, gx, grad), x[a],
                          mulAdd(lookup(df, gy, grad), y[b], lookup(df, gzw[e + 2 * g], grad)));
        };
        const auto face = [&](int e, int g) {
            return lerp(fy, lerp(fx, corner(0, 0, e, g), corner(1, 0, e, g)),
                        lerp(fx, corner(0, 1, e, g), corner(1, 1, e, g)));
        };
        const VF fz = hn::Set(df, o.rowFade[0]);
        const VF nearW = lerp(fz, face(0, 0), face(1, 0));
        const VF farW = lerp(fz, face(0, 1), face(1, 1));
        return hn::Mul(hn::Set(df, scale), lerp(hn::Set(df, o.rowFade[1]), nearW, farW));
    }
};

// curved_v4::falloff3 / falloff4 per lane.
template <int kDims>
HWY_INLINE VF falloff(const VF* d) {
    const DF df;
    VF r = hn::Set(df, simplex::kRadius2f);
    for (int a = 0; a < kDims; ++a) r = negMulAdd(d[a], d[a], r);
    const VF t = hn::Max(r, hn::Zero(df));
    const VF t2 = hn::Mul(t, t);
    return hn::Mul(t2, t2);
}

// 3D and 4D simplex noise from each lane's skewed fractions and its cell origin's premixed hash
// input.
template <int kDims>
struct SimplexCell {
    Table<DF> g[kDims];

    SimplexCell() {
        const DF df;
        const float* tables3[3] = {cv::kGrad3X, cv::kGrad3Y, cv::kGrad3Z};
        const float* tables4[4] = {cv::kGrad4X.data(), cv::kGrad4Y.data(), cv::kGrad4Z.data(),
                                   cv::kGrad4W.data()};
        for (int a = 0; a < kDims; ++a) g[a] = tableOf(df, kDims == 3 ? tables3[a] : tables4[a]);
    }

    // falloff times the gradient's dot product with the offset d (the last axis innermost).
    HWY_INLINE void corner(VU premixed, const VF* d, VF& f, VF& dot) const {
        const DF df;
        const Entry<DF> grad = entryOf(df, gradientOf(premixed));
        VF sum = hn::Mul(lookup(df, g[kDims - 1], grad), d[kDims - 1]);
        for (int a = kDims - 2; a >= 0; --a) sum = mulAdd(lookup(df, g[a], grad), d[a], sum);
        f = falloff<kDims>(d);
        dot = sum;
    }

    HWY_INLINE VF operator()(const VF* frac, VU origin) const {
        const DF df;
        const DU du;
        VF fracSum = frac[0];
        for (int a = 1; a < kDims; ++a) fracSum = hn::Add(fracSum, frac[a]);
        const VF unskew = hn::Set(df, kDims == 3 ? cv::kG3f : cv::kG4f);
        VF d0[kDims];
        for (int a = 0; a < kDims; ++a) d0[a] = negMulAdd(unskew, fracSum, frac[a]);
        // moves[k][a]: whether corner k has stepped along axis a.
        MF moves[kDims][kDims];
        if constexpr (kDims == 3) {
            const MF xy = hn::Ge(d0[0], d0[1]);
            const MF yz = hn::Ge(d0[1], d0[2]);
            const MF xz = hn::Ge(d0[0], d0[2]);
            // curved_v4.cpp's simplex3: the tetrahedron's second and third corners.
            moves[1][0] = hn::And(xy, xz);
            moves[1][1] = hn::AndNot(xy, yz);
            moves[1][2] = hn::Not(hn::Or(xz, yz));
            moves[2][0] = hn::Or(xy, xz);
            moves[2][1] = hn::Or(hn::Not(xy), yz);
            moves[2][2] = hn::Not(hn::And(xz, yz));
        } else {
            // curved_v4.cpp's simplex4: rank[a] counts the pairs a wins (ties to the later
            // axis); it starts at a, the pairs (b, a) with b < a, which the later axis wins
            // unless the earlier one does, where it moves back.
            const DI di;
            VI rank[4] = {hn::Set(di, 0), hn::Set(di, 1), hn::Set(di, 2), hn::Set(di, 3)};
            for (int a = 0; a < 4; ++a)
                for (int b = a + 1; b < 4; ++b) {
                    const VI won = hn::BitCast(di, hn::VecFromMask(df, hn::Gt(d0[a], d0[b])));
                    rank[a] = hn::Sub(rank[a], won);
                    rank[b] = hn::Add(rank[b], won);
                }
            for (int k = 1; k < 4; ++k)
                for (int a = 0; a < 4; ++a)
                    moves[k][a] = hn::RebindMask(df, hn::Gt(rank[a], hn::Set(di, 3 - k)));
        }
        const auto& steps = [] {
            if constexpr (kDims == 3) return cv::kSteps3;
            else return cv::kSteps4;
        }();
        VF f[kDims + 1], dot[kDims + 1];
        corner(origin, d0, f[0], dot[0]);
        for (int k = 1; k < kDims; ++k) {
            VF d[kDims];
            VU premixed = origin;
            for (int a = 0; a < kDims; ++a) {
                d[a] = hn::Add(d0[a], hn::IfThenElse(moves[k][a], hn::Set(df, steps.move[k]),
                                                     hn::Set(df, steps.stay[k])));
                premixed = hn::Add(premixed, hn::IfThenElseZero(hn::RebindMask(du, moves[k][a]),
                                                                hn::Set(du, axisStep(a))));
            }
            corner(premixed, d, f[k], dot[k]);
        }
        VF last[kDims];
        for (int a = 0; a < kDims; ++a) last[a] = hn::Add(d0[a], hn::Set(df, steps.move[kDims]));
        corner(hn::Add(origin, hn::Set(du, cornerStep((1 << kDims) - 1))), last, f[kDims], dot[kDims]);
        VF n = hn::Mul(f[0], dot[0]);
        for (int k = 1; k <= kDims; ++k) n = mulAdd(f[k], dot[k], n);
        return hn::Mul(hn::Set(df, kDims == 3 ? cv::kScale3f : cv::kScale4f), n);
    }
};

// A sphere's 3D simplex noise: the lanes' skewed cells as fillColumns split them.
struct Simplex3 {
    const cv::Octave& o;
    std::uint32_t rest;
    SimplexCell<3> cell;

    explicit Simplex3(const cv::Octave& octave) : o(octave), rest(premix(octave.key)) {}

    HWY_INLINE VF operator()(std::size_t c) const {
        const DF df;
        const VF frac[3] = {hn::LoadU(df, o.columns.frac[0] + c), hn::LoadU(df, o.columns.frac[1] + c),
                            hn::LoadU(df, o.columns.frac[2] + c)};
        return cell(frac, originInput(o.columns, 3, c, rest));
    }
};

// A torus's 4D simplex noise: each skewed coordinate the sum of the column's part and the row's
// (curved_v4.cpp's skewedCell4), the fractions added and a carry moved into the index, which
// the hash input takes as one more step along that axis. kLaneRow: points each with its own
// z and w (a warped layer's moved points), the row's parts in the lanes too (PointTorusSkew).
template <bool kLaneRow>
struct Simplex4 {
    const cv::Octave& o;
    std::uint32_t rest;
    SimplexCell<4> cell;

    explicit Simplex4(const cv::Octave& octave) : o(octave) {
        // The row's low halves: rs on x and y, z + rs on z, w + rs on w.
        const std::uint32_t row = o.rowLow[0] * (cv::kHashAxis[0] + cv::kHashAxis[1]) +
                                  o.rowLow[1] * cv::kHashAxis[2] + o.rowLow[2] * cv::kHashAxis[3];
        rest = premix(kLaneRow ? o.key : row + o.key);
    }

    HWY_INLINE VF operator()(std::size_t c) const {
        const DF df;
        const DU du;
        const VF one = hn::Set(df, 1.0f);
        const auto lane = [&](std::size_t k) { return hn::LoadU(df, o.columns.frac[k] + c); };
        const auto lowTimes = [&](std::size_t k, std::uint32_t step) {
            return hn::Mul(hn::LoadU(du, o.columns.low[k] + c), hn::Set(du, step));
        };
        const VF column[3] = {lane(0), lane(1), lane(2)};
        VF row[4];
        if constexpr (kLaneRow) {
            row[0] = row[1] = lane(3);
            row[2] = lane(4);
            row[3] = lane(5);
        } else {
            row[0] = row[1] = hn::Set(df, o.rowFrac[0]);
            row[2] = hn::Set(df, o.rowFrac[1]);
            row[3] = hn::Set(df, o.rowFrac[2]);
        }
        // X = (x + cs) + rs, Y = (y + cs) + rs, Z = cs + (z + rs), W = cs + (w + rs).
        const VF parts[4] = {column[0], column[1], column[2], column[2]};
        // The columns' low halves: x + cs, y + cs, and cs on both z and w.
        VU origin = hn::Add(hn::Add(lowTimes(0, axisStep(0)), lowTimes(1, axisStep(1))),
                            hn::Add(lowTimes(2, axisStep(2) + axisStep(3)), hn::Set(du, rest)));
        if constexpr (kLaneRow) {
            // ... and the row's: rs on x and y, z + rs on z, w + rs on w.
            origin = hn::Add(origin, hn::Add(lowTimes(3, axisStep(0) + axisStep(1)),
                                             hn::Add(lowTimes(4, axisStep(2)), lowTimes(5, axisStep(3)))));
        }
        VF frac[4];
        for (int a = 0; a < 4; ++a) {
            const VF sum = hn::Add(parts[a], row[a]);
            const MF carry = hn::Ge(sum, one);
            frac[a] = hn::IfThenElse(carry, hn::Sub(sum, one), sum);
            origin = hn::Add(origin, hn::IfThenElseZero(hn::RebindMask(du, carry), hn::Set(du, axisStep(a))));
        }
        return cell(frac, origin);
    }
};

// One octave's noise over the row into `noise` (one copy of each noise's code per target; the
// fractal's term is applied in a second pass, so the fractals share it).
template <class Noise>
HWY_NOINLINE void noiseRow(const Noise& noise, std::size_t columns, float* out) {
    const DF df;
    for (std::size_t c = 0; c < columns; c += hn::Lanes(df)) hn::StoreU(noise(c), df, out + c);
}

// The octave's terms added to the sums, in the reference's order (each point's octaves in turn).
template <FractalKind kKind>
void accumulate(const float* noise, float amplitude, bool first, std::size_t columns, float* sums) {
    const DF df;
    const VF a = hn::Set(df, amplitude);
    for (std::size_t c = 0; c < columns; c += hn::Lanes(df)) {
        const VF term = fractal_lanes::octaveTerm<kKind>(df, hn::LoadU(df, noise + c));
        const VF before = first ? hn::Zero(df) : hn::LoadU(df, sums + c);
        hn::StoreU(mulAdd(a, term, before), df, sums + c);
    }
}

template <FractalKind kKind>
void finish(const cv::Row& row) {
    const DF df;
    const D d;
    const DH dh;
    for (std::size_t c = 0; c < row.columns; c += hn::Lanes(df))
        hn::StoreU(fractal_lanes::normaliseFloat<kKind>(df, hn::LoadU(df, row.sums + c), row.scale), df,
                   row.sums + c);
    for (std::size_t c = 0; c < row.columns; c += hn::Lanes(d))
        hn::StoreU(hn::PromoteTo(d, hn::LoadU(dh, row.sums + c)), d, row.out + c);
}

template <FractalKind kKind>
void rowOf(const cv::Row& row, float* noise) {
    for (int i = 0; i < row.octaves; ++i) {
        const cv::Octave& o = row.octave[i];
        switch (row.noise) {
        case NoiseKind::Value:
            if (row.laneZ) noiseRow(Lattice3Points<true>(o, row.fade), row.columns, noise);
            else noiseRow(Lattice3<true>(o, row.fade), row.columns, noise);
            break;
        case NoiseKind::Perlin:
            if (row.laneZ) noiseRow(Lattice3Points<false>(o, row.fade), row.columns, noise);
            else if (row.dimensions == 3) noiseRow(Lattice3<false>(o, row.fade), row.columns, noise);
            else noiseRow(Perlin4(o, row.fade), row.columns, noise);
            break;
        default:
            if (row.dimensions == 3) noiseRow(Simplex3(o), row.columns, noise);
            else if (row.laneZ) noiseRow(Simplex4<true>(o), row.columns, noise);
            else noiseRow(Simplex4<false>(o), row.columns, noise);
            break;
        }
        accumulate<kKind>(noise, o.amplitude, i == 0, row.columns, row.sums);
    }
    finish<kKind>(row);
}

}  // namespace

bool FillCurvedV4Columns(const cv::Fill& fill) { return fillAll(fill); }

void EvaluateCurvedV4Row(const cv::Row& row) {
    // One octave's noise, before its term: the row's sums are beside it in the caller's buffer.
    float* noise = row.sums + row.columns;
    fractal_lanes::withFractal(row.fractal, [&](auto k) { rowOf<decltype(k)::value>(row, noise); });
}

}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace terragrid::curved_v4 {

HWY_EXPORT(FillCurvedV4Columns);
HWY_EXPORT(EvaluateCurvedV4Row);

bool fillColumns(const Fill& fill) { return HWY_DYNAMIC_DISPATCH(FillCurvedV4Columns)(fill); }

void evaluateRow(const Row& row) { HWY_DYNAMIC_DISPATCH(EvaluateCurvedV4Row)(row); }

}  // namespace terragrid::curved_v4
#endif
