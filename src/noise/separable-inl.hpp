// 2D value and Perlin noise written so that what depends on x and what depends on y separate
// (private to src/noise).
//
// Inside one lattice cell, on one row, both noises are a fixed polynomial of the column's
// fraction fx and fade weight u:
//     value:   n = p + u r
//     Perlin:  n = (p fx + q) + u (r fx + s)
// with coefficients that depend only on the cell's corners and the row (fy, v). This is the
// bilinear blend of the corners, expanded: equal in exact arithmetic, and the one form both
// the scalar reference (valueNoise, perlinNoise) and the SIMD rows (rows_kernels.cpp, rows.cpp) use, so
// they agree bit for bit. The templates take doubles or Highway vectors alike.

//
// A Highway "-inl" header: it is included once per SIMD target (HWY_TARGET_TOGGLE flips with
// each pass), because Highway vectors may only be used in code compiled for their target.
// The scalar files include it once, after hwy/highway.h, and use it with double.

#if defined(TERRAGRID_NOISE_SEPARABLE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TERRAGRID_NOISE_SEPARABLE_INL_H_
#undef TERRAGRID_NOISE_SEPARABLE_INL_H_
#else
#define TERRAGRID_NOISE_SEPARABLE_INL_H_
#endif

#include <cmath>
#include <cstdint>

#include <hwy/highway.h>

#include "noise/fused-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace separable {

constexpr double kSqrt2 = 1.4142135623730951;

/// A 2D Perlin gradient: the four axes scaled by sqrt(2) and the four diagonals (1, 1), so
/// the noise spans [-1, 1] (the cell-centre maximum is 1) without a final multiplication.
struct Gradient {
    double x, y;
};

inline Gradient perlinGradient(std::uint32_t hash) noexcept {
    static constexpr Gradient kGradients[8] = {{kSqrt2, 0.0}, {-kSqrt2, 0.0}, {0.0, kSqrt2},
                                               {0.0, -kSqrt2}, {1.0, 1.0},    {-1.0, 1.0},
                                               {1.0, -1.0},    {-1.0, -1.0}};
    return kGradients[hash & 7u];
}

/// Coefficients of one cell on one row. Corner names: 00 = (ix, iy), 10 = (ix + 1, iy),
/// 01 = (ix, iy + 1), 11 = (ix + 1, iy + 1).
template <class T>
struct PerlinCoefficients {
    T p, q, r, s;
};

/// The corner value g.(fx - a, fy - b) is gx fx + c with c = gy (fy - b) - a gx; lerping the
/// corners in x (weight u) and then in y (weight v) gives p, q, r, s.
template <class T>
PerlinCoefficients<T> perlinCoefficients(T gx00, T gy00, T gx10, T gy10, T gx01, T gy01,
                                         T gx11, T gy11, T fy, T fyMinus1, T v) {
    const T c00 = gy00 * fy;
    const T c10 = gy10 * fy - gx10;
    const T c01 = gy01 * fyMinus1;
    const T c11 = gy11 * fyMinus1 - gx11;
    const T slope0 = gx10 - gx00;
    const T intercept0 = c10 - c00;
    return {gx00 + v * (gx01 - gx00), c00 + v * (c01 - c00),
            slope0 + v * ((gx11 - gx01) - slope0), intercept0 + v * ((c11 - c01) - intercept0)};
}

template <class T>
T perlinEvaluate(const PerlinCoefficients<T>& k, T fx, T u) {
    return (k.p * fx + k.q) + u * (k.r * fx + k.s);
}

template <class T>
struct ValueCoefficients {
    T p, r;
};

/// h00..h11: the corners' values in [-1, 1].
template <class T>
ValueCoefficients<T> valueCoefficients(T h00, T h10, T h01, T h11, T v) {
    const T d0 = h10 - h00;
    return {h00 + v * (h01 - h00), d0 + v * ((h11 - h01) - d0)};
}

template <class T>
T valueEvaluate(const ValueCoefficients<T>& k, T u) {
    return k.p + u * k.r;
}

// ---------------------------------------------------------------------------------------------
// Version 4 (flat_v4.hpp): the same coefficients in float, each step one rounding: a product,
// a difference, or a fused multiply-add (std::fma for float, fused::mulAdd for float vectors).

inline float mulAdd(float a, float b, float c) noexcept { return std::fma(a, b, c); }
template <class V>
HWY_INLINE V mulAdd(V a, V b, V c) {
    return fused::mulAdd(a, b, c);
}
inline float negated(float a) noexcept { return -a; }
template <class V>
HWY_INLINE V negated(V a) {
    return hwy::HWY_NAMESPACE::Neg(a);
}

/// The corner value g.(fx - a, fy - b) is gx fx + c with c = fma(gy, fy - b, -a gx); lerping
/// with fma(t, b - a, a) in x (weight u) and then in y (weight v) gives p, q, r, s.
template <class T>
PerlinCoefficients<T> perlinCoefficientsV4(T gx00, T gy00, T gx10, T gy10, T gx01, T gy01,
                                           T gx11, T gy11, T fy, T fyMinus1, T v) {
    const T c00 = gy00 * fy;
    const T c10 = mulAdd(gy10, fy, negated(gx10));
    const T c01 = gy01 * fyMinus1;
    const T c11 = mulAdd(gy11, fyMinus1, negated(gx11));
    const T slope0 = gx10 - gx00;
    const T intercept0 = c10 - c00;
    return {mulAdd(v, gx01 - gx00, gx00), mulAdd(v, c01 - c00, c00),
            mulAdd(v, (gx11 - gx01) - slope0, slope0),
            mulAdd(v, (c11 - c01) - intercept0, intercept0)};
}

template <class T>
T perlinEvaluateV4(const PerlinCoefficients<T>& k, T fx, T u) {
    return mulAdd(u, mulAdd(k.r, fx, k.s), mulAdd(k.p, fx, k.q));
}

template <class T>
ValueCoefficients<T> valueCoefficientsV4(T h00, T h10, T h01, T h11, T v) {
    const T d0 = h10 - h00;
    return {mulAdd(v, h01 - h00, h00), mulAdd(v, (h11 - h01) - d0, d0)};
}

template <class T>
T valueEvaluateV4(const ValueCoefficients<T>& k, T u) {
    return mulAdd(u, k.r, k.p);
}

}  // namespace separable
}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#endif  // TERRAGRID_NOISE_SEPARABLE_INL_H_
