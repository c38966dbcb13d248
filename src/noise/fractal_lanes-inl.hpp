// The fractal sum's per-lane steps, shared by the flat rows and points (rows_kernels.cpp,
// point_kernels.cpp) and the rows of planets and tileable maps (curved_rows_kernels.cpp): the
// fade of each octave's lattice noise, each octave's term and the final normalisation, the same
// IEEE operations as value.cpp's fade and NoiseField's scalar octaveTerm and normalise, so every
// row equals sample() bit for bit (private to src/noise).
//
// A Highway "-inl" header: included once per SIMD target (HWY_TARGET_TOGGLE flips with each
// pass), because Highway vectors may only be used in code compiled for their target.

#if defined(TERRAGRID_NOISE_FRACTAL_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TERRAGRID_NOISE_FRACTAL_LANES_INL_H_
#undef TERRAGRID_NOISE_FRACTAL_LANES_INL_H_
#else
#define TERRAGRID_NOISE_FRACTAL_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include <type_traits>

#include "terragrid/noise/noise.hpp"

#include "noise/fused-inl.hpp"

// A kernel's big step: inlined, except on the emulated targets (fractal_lanes::kEmulated),
// where each vector operation is a loop over the lanes and inlining it into every caller made
// the build's heaviest functions (80-100 s each under the sanitizers, in register
// allocation); those targets run only where x86-64 has no SSSE3 (and in the tests), so the
// call costs no real CPU anything. Defined again for each target's pass.
#undef TERRAGRID_INLINE_UNLESS_EMULATED
#if HWY_TARGET == HWY_EMU128 || HWY_TARGET == HWY_SCALAR
#define TERRAGRID_INLINE_UNLESS_EMULATED HWY_NOINLINE
#else
#define TERRAGRID_INLINE_UNLESS_EMULATED HWY_INLINE
#endif

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace fractal_lanes {
namespace hn = hwy::HWY_NAMESPACE;

// Whether this target emulates its vectors lane by lane (the scalar fallback): the kernels
// then interleave nothing (there is nothing to overlap) and keep their big steps out of line
// (TERRAGRID_INLINE_UNLESS_EMULATED), for the compile time of the sanitizer builds, which
// build this target.
constexpr bool kEmulated = HWY_TARGET == HWY_EMU128 || HWY_TARGET == HWY_SCALAR;

// How many vectors the rows and point kernels of versions 3 and 4 take at once, each step of
// every vector next to the others' (simplex_v3_rows.cpp and flat_v4_rows.cpp give the figures
// that chose four; eight spill registers). One on the emulated targets.
constexpr std::size_t kInterleaved = kEmulated ? 1 : 4;

// value.cpp's fade(), operation for operation.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V fade(D d, FadeCurve curve, V t) {
    switch (curve) {
    case FadeCurve::Linear:
        return t;
    case FadeCurve::Cubic:
        return hn::Mul(hn::Mul(t, t), hn::Sub(hn::Set(d, 3.0), hn::Mul(hn::Set(d, 2.0), t)));
    case FadeCurve::Quintic:
        return hn::Mul(hn::Mul(hn::Mul(t, t), t),
                       hn::Add(hn::Mul(t, hn::Sub(hn::Mul(t, hn::Set(d, 6.0)), hn::Set(d, 15.0))),
                               hn::Set(d, 10.0)));
    }
    return t;
}

// curved_v4::fade (version 4's float fades, with fused multiply-adds), operation for operation.
template <class V>
HWY_INLINE V fadeFloat(FadeCurve curve, V t) {
    const hn::DFromV<V> df;
    switch (curve) {
    case FadeCurve::Cubic:
        return hn::Mul(hn::Mul(t, t), fused::mulAdd(hn::Set(df, -2.0f), t, hn::Set(df, 3.0f)));
    case FadeCurve::Quintic:
        return hn::Mul(hn::Mul(hn::Mul(t, t), t),
                       fused::mulAdd(t, fused::mulAdd(t, hn::Set(df, 6.0f), hn::Set(df, -15.0f)),
                                     hn::Set(df, 10.0f)));
    default:
        return t;
    }
}

// One octave's term of the fractal sum (NoiseField's octaveTerm).
template <FractalKind kKind, class D, class V = hn::Vec<D>>
HWY_INLINE V octaveTerm(D d, V n) {
    if constexpr (kKind == FractalKind::Turbulence) return hn::Abs(n);
    if constexpr (kKind == FractalKind::Ridged) {
        const V r = hn::Sub(hn::Set(d, 1.0), hn::Abs(n));
        return hn::Mul(r, r);
    }
    return n;
}

// NoiseField::normalise per lane.
template <FractalKind kKind, class D, class V = hn::Vec<D>>
HWY_INLINE V normalise(D d, V sum, double amplitudeSum) {
    V value = hn::Div(sum, hn::Set(d, amplitudeSum));
    if constexpr (kKind == FractalKind::None || kKind == FractalKind::Fbm)
        value = hn::Div(hn::Add(value, hn::Set(d, 1.0)), hn::Set(d, 2.0));
    return hn::Min(hn::Max(value, hn::Zero(d)), hn::Set(d, 1.0));
}

// simplex_v3::normalise per lane (the float sums of versions 3 and 4): one fused multiply-add
// for the signed fractals, a product for the others, then the clamp.
template <FractalKind kKind, class D, class V = hn::Vec<D>>
HWY_INLINE V normaliseFloat(D d, V sum, float scale) {
    V value;
    if constexpr (kKind == FractalKind::None || kKind == FractalKind::Fbm)
        value = fused::mulAdd(sum, hn::Set(d, scale), hn::Set(d, 0.5f));
    else
        value = hn::Mul(sum, hn::Set(d, scale));
    return hn::Min(hn::Max(value, hn::Zero(d)), hn::Set(d, 1.0f));
}

// Calls f(std::integral_constant<FractalKind, kind>()) for the four kinds the kernels compile
// (none, fBm, turbulence, ridged), so each kernel's fractal steps are resolved at compile
// time; f reads the kind as decltype(k)::value. The kernels get the summed kind
// (lattice::summedFractal: marble sums as turbulence, its stripes added after), so no other
// kind reaches them.
template <class F>
HWY_INLINE void withFractal(FractalKind kind, F&& f) {
    switch (kind) {
    case FractalKind::None: return f(std::integral_constant<FractalKind, FractalKind::None>());
    case FractalKind::Fbm: return f(std::integral_constant<FractalKind, FractalKind::Fbm>());
    case FractalKind::Turbulence: return f(std::integral_constant<FractalKind, FractalKind::Turbulence>());
    case FractalKind::Ridged: return f(std::integral_constant<FractalKind, FractalKind::Ridged>());
    default: return;
    }
}

}  // namespace fractal_lanes
}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#endif  // TERRAGRID_NOISE_FRACTAL_LANES_INL_H_
