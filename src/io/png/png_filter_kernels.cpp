// The SIMD loop of png_filter_kernels.hpp, compiled once per x86-64 target (Highway's
// foreach_target: this file includes itself), so it is never bundled with its neighbours
// (CMakeLists.txt). The bytes a whole vector does not cover take the scalar reference.

#include "io/png/png_filter_kernels.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "io/png/png_filter_kernels.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace terragrid::png_filter {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void PaethRow(const std::uint8_t* row, const std::uint8_t* up, std::size_t rowBytes,
              std::size_t bpp, std::uint8_t* out) {
    // The distances in 16-bit lanes (they reach -510..510), the bytes as half vectors.
    const hn::ScalableTag<std::int16_t> d16;
    const hn::Rebind<std::uint8_t, decltype(d16)> d8;
    const std::size_t lanes = hn::Lanes(d16);
    std::size_t x = 0;
    for (; x < bpp && x < rowBytes; ++x)
        out[x] = static_cast<std::uint8_t>(row[x] - paeth(0, up[x], 0));
    for (; x + lanes <= rowBytes; x += lanes) {
        const auto a8 = hn::LoadU(d8, row + x - bpp), b8 = hn::LoadU(d8, up + x),
                   c8 = hn::LoadU(d8, up + x - bpp);
        const auto a = hn::PromoteTo(d16, a8), b = hn::PromoteTo(d16, b8),
                   c = hn::PromoteTo(d16, c8);
        // p - a = b - c, p - b = a - c, p - c = a + b - 2c.
        const auto pa = hn::Abs(hn::Sub(b, c));
        const auto pb = hn::Abs(hn::Sub(a, c));
        const auto pc = hn::Abs(hn::Sub(hn::Add(a, b), hn::Add(c, c)));
        const auto takeA = hn::And(hn::Not(hn::Gt(pa, pb)), hn::Not(hn::Gt(pa, pc)));
        const auto bOrC = hn::IfThenElse(hn::Not(hn::Gt(pb, pc)), b, c);
        const auto predicted = hn::DemoteTo(d8, hn::IfThenElse(takeA, a, bOrC));
        hn::StoreU(hn::Sub(hn::LoadU(d8, row + x), predicted), d8, out + x);
    }
    for (; x < rowBytes; ++x)
        out[x] = static_cast<std::uint8_t>(row[x] - paeth(row[x - bpp], up[x], up[x - bpp]));
}

}  // namespace HWY_NAMESPACE
}  // namespace terragrid::png_filter
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace terragrid::png_filter {

HWY_EXPORT(PaethRow);

void paethRow(const std::uint8_t* row, const std::uint8_t* up, std::size_t rowBytes,
              std::size_t bpp, std::uint8_t* out) {
    HWY_DYNAMIC_DISPATCH(PaethRow)(row, up, rowBytes, bpp, out);
}

}  // namespace terragrid::png_filter
#endif  // HWY_ONCE
