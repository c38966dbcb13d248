// The 32-bit lattice hash's finaliser per lane, shared by the flat rows' kernels
// (rows_kernels.cpp, simplex_v3_rows.cpp) (private to src/noise).
//
// A Highway "-inl" header: included once per SIMD target (HWY_TARGET_TOGGLE flips with each
// pass), because Highway vectors may only be used in code compiled for their target.

#if defined(TERRAGRID_NOISE_HASH_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TERRAGRID_NOISE_HASH_LANES_INL_H_
#undef TERRAGRID_NOISE_HASH_LANES_INL_H_
#else
#define TERRAGRID_NOISE_HASH_LANES_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace hash_lanes {
namespace hn = hwy::HWY_NAMESPACE;

/// murmur3's fmix32 (LatticeHashParts::fmix32) per lane.
template <class VU32T>
HWY_INLINE VU32T fmix32(VU32T x) {
    const hn::DFromV<VU32T> du;
    x = hn::Xor(x, hn::ShiftRight<16>(x));
    x = hn::Mul(x, hn::Set(du, 0x85EBCA6Bu));
    x = hn::Xor(x, hn::ShiftRight<13>(x));
    x = hn::Mul(x, hn::Set(du, 0xC2B2AE35u));
    return hn::Xor(x, hn::ShiftRight<16>(x));
}

}  // namespace hash_lanes
}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#endif  // TERRAGRID_NOISE_HASH_LANES_INL_H_
