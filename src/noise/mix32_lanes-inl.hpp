// Versions 3 and 4's 32-bit hash per lane, shared by their rows and points (simplex_v3_rows.cpp,
// flat_v4_rows.cpp, curved_v4_rows.cpp): curved_v4::mixed of an input already premixed
// (curved_v4::premix, which the rows apply to each part of the linear input), the value noise
// value it gives, and lookups of 8-entry tables by its top bits (private to src/noise).
//
// A Highway "-inl" header: included once per SIMD target (HWY_TARGET_TOGGLE flips with each
// pass), because Highway vectors may only be used in code compiled for their target.

#if defined(TERRAGRID_NOISE_MIX32_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TERRAGRID_NOISE_MIX32_LANES_INL_H_
#undef TERRAGRID_NOISE_MIX32_LANES_INL_H_
#else
#define TERRAGRID_NOISE_MIX32_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include "noise/curved_v4.hpp"
#include "noise/fused-inl.hpp"
#include "noise/simplex_v3.hpp"

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace mix32_lanes {
namespace hn = hwy::HWY_NAMESPACE;

/// curved_v4::mixed per lane, given the input times kGradientMix1: an xor-shift and a multiply.
template <class VU>
HWY_INLINE VU finish(VU premixed) {
    const hn::DFromV<VU> du;
    return hn::Mul(hn::Xor(premixed, hn::ShiftRight<16>(premixed)),
                   hn::Set(du, simplex_v3::kGradientMix2));
}

/// The value noise value of a premixed corner input (curved_v4's and flat_v4::cornerValue's:
/// the top 24 bits, exact in a float, times 2 / (2^24 - 1), minus 1, in one fused multiply-add).
template <class DF, class VU>
HWY_INLINE hn::Vec<DF> value(DF df, VU premixed) {
    const hn::RebindToSigned<DF> di;
    const auto top = hn::BitCast(di, hn::ShiftRight<8>(finish(premixed)));  // below 2^24
    return fused::mulAdd(hn::ConvertTo(df, top), hn::Set(df, curved_v4::kValueScale),
                         hn::Set(df, -1.0f));
}

/// table[index] per lane, for an 8-entry table (simplex_row_lanes::repeated, 16 floats): a lane
/// permutation where a vector holds all 8 entries, a gather on narrower targets.
template <class DF, class VI>
HWY_INLINE hn::Vec<DF> lookup8(DF df, const float* table, VI index) {
    if constexpr (hn::MaxLanes(df) >= 8) {
        static_assert(hn::MaxLanes(df) <= 16);
        return hn::TableLookupLanes(hn::Load(df, table), hn::IndicesFromVec(df, index));
    } else {
        return hn::GatherIndex(df, table, index);
    }
}

}  // namespace mix32_lanes
}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#endif  // TERRAGRID_NOISE_MIX32_LANES_INL_H_
