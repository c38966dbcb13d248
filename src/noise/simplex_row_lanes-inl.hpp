// Pieces of the 2D simplex rows' float lanes that versions 2 (rows_kernels.cpp) and 3
// (simplex_v3_rows.cpp) share: the skewed fractions' sum and carry per column, whether a
// vector's lanes agree, and gradient tables repeated to fill a vector (private to src/noise).
//
// A Highway "-inl" header: included once per SIMD target (HWY_TARGET_TOGGLE flips with each
// pass), because Highway vectors may only be used in code compiled for their target.

#if defined(TERRAGRID_NOISE_SIMPLEX_ROW_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TERRAGRID_NOISE_SIMPLEX_ROW_LANES_INL_H_
#undef TERRAGRID_NOISE_SIMPLEX_ROW_LANES_INL_H_
#else
#define TERRAGRID_NOISE_SIMPLEX_ROW_LANES_INL_H_
#endif

#include <array>
#include <cstddef>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace simplex_row_lanes {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;

// lattice.hpp's sumOf per lane: the fraction, and whether it carried into the index.
struct SkewedLanes {
    VF frac;
    hn::Mask<DF> carry;
};

HWY_INLINE SkewedLanes skewedSum(VF fracA, VF fracC) {
    const DF df;
    const VF sum = hn::Add(fracA, fracC);
    const auto carry = hn::Ge(sum, hn::Set(df, 1.0f));
    return {hn::IfThenElse(carry, hn::Sub(sum, hn::Set(df, 1.0f)), sum), carry};
}

HWY_INLINE SkewedLanes skewedSum(VF fracA, float fracC) { return skewedSum(fracA, hn::Set(DF(), fracC)); }

// An 8-entry table twice, so a 16-lane vector can load it (lookups index lanes 0..7 only).
constexpr std::array<float, 16> repeated(const float (&table)[8]) {
    std::array<float, 16> r{};
    for (std::size_t k = 0; k < r.size(); ++k) r[k] = table[k % 8];
    return r;
}

// 1 where every lane of m is set, 0 where none is, -1 otherwise.
HWY_INLINE int uniformBit(hn::Mask<DF> m) {
    const DF df;
    if (hn::AllFalse(df, m)) return 0;
    return hn::AllTrue(df, m) ? 1 : -1;
}

}  // namespace simplex_row_lanes
}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#endif  // TERRAGRID_NOISE_SIMPLEX_ROW_LANES_INL_H_
