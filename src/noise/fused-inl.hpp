// a * b + c rounded once in float lanes, the same bits on every Highway target, so that lanes
// match the scalar reference's std::fma (private to src/noise).
//
// Targets with an FMA instruction (AVX2, AVX-512) use it. On the others Highway's MulAdd is a
// product and a sum, rounded twice, so there each lane calls std::fma, which is correctly
// rounded whatever the CPU (libm emulates it where the instruction is missing): only CPUs
// older than AVX2 run that path.
//
// A Highway "-inl" header: included once per SIMD target (HWY_TARGET_TOGGLE flips with each
// pass), because Highway vectors may only be used in code compiled for their target.

#if defined(TERRAGRID_NOISE_FUSED_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TERRAGRID_NOISE_FUSED_INL_H_
#undef TERRAGRID_NOISE_FUSED_INL_H_
#else
#define TERRAGRID_NOISE_FUSED_INL_H_
#endif

#include <cmath>
#include <cstddef>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace fused {
namespace hn = hwy::HWY_NAMESPACE;

/// std::fma(a, b, c) per lane.
template <class V>
HWY_INLINE V mulAdd(V a, V b, V c) {
#if HWY_NATIVE_FMA
    return hn::MulAdd(a, b, c);
#else
    const hn::DFromV<V> d;
    using T = hn::TFromD<decltype(d)>;
    HWY_ALIGN T pa[hn::MaxLanes(d)];
    HWY_ALIGN T pb[hn::MaxLanes(d)];
    HWY_ALIGN T pc[hn::MaxLanes(d)];
    hn::Store(a, d, pa);
    hn::Store(b, d, pb);
    hn::Store(c, d, pc);
    for (std::size_t i = 0; i < hn::Lanes(d); ++i) pa[i] = std::fma(pa[i], pb[i], pc[i]);
    return hn::Load(d, pa);
#endif
}

/// std::fma(-a, b, c) per lane (negating an operand is exact, so this is that fma's bits).
template <class V>
HWY_INLINE V negMulAdd(V a, V b, V c) {
#if HWY_NATIVE_FMA
    return hn::NegMulAdd(a, b, c);
#else
    return mulAdd(hn::Neg(a), b, c);
#endif
}

}  // namespace fused
}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#endif  // TERRAGRID_NOISE_FUSED_INL_H_
