// The SIMD loops of preview_kernels.hpp, compiled once per x86-64 target (Highway's
// foreach_target: this file includes itself), so it is never bundled with its neighbours
// (CMakeLists.txt). Each lane performs its pixel's scalar operations in the reference's order,
// with no fused multiply-add (-ffp-contract=off); the pixels a whole vector does not cover take
// the scalar reference itself.

#include "io/png/preview_kernels.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "io/png/preview_kernels.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include <algorithm>

#include "io/png/preview.hpp"

HWY_BEFORE_NAMESPACE();
namespace terragrid::preview_kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<double>;
using V = hn::Vec<D>;

/// clampOrLow in every lane: NaN goes to lo.
HWY_INLINE V clampLanes(V value, V lo, V hi) {
    return hn::IfThenElse(hn::Gt(value, lo), hn::IfThenElse(hn::Lt(value, hi), value, hi), lo);
}

void QuantiseRow(const HeightQuantum& quantum, const float* meters, std::size_t count,
                 double* out) {
    const D d;
    const hn::Rebind<float, D> df;
    const std::size_t lanes = hn::Lanes(d);
    const V half = hn::Set(d, 0.5), minusHalf = hn::Set(d, -0.5), one = hn::Set(d, 1.0);
    const V toSteps = hn::Set(d, quantum.toSteps()), step = hn::Set(d, quantum.step());
    std::size_t i = 0;
    for (; i + lanes <= count; i += lanes) {
        const V steps = hn::Mul(hn::PromoteTo(d, hn::LoadU(df, meters + i)), toSteps);
        // roundHalfAway (preview.hpp): the whole part and the exact rest's test. It converts
        // to int64 and back below 2^62 and calls std::round above; Trunc gives the same whole
        // part (beyond 2^52 every double is whole: rest 0, the value itself, as std::round),
        // and the sum's +0 turns Trunc's -0 of (-1, 0) into the +0 the conversion gives.
        const V whole = hn::Trunc(steps);
        const V rest = hn::Sub(steps, whole);
        const V adjust = hn::Sub(hn::IfThenElseZero(hn::Ge(rest, half), one),
                                 hn::IfThenElseZero(hn::Le(rest, minusHalf), one));
        hn::StoreU(hn::Mul(hn::Add(whole, adjust), step), d, out + i);
    }
    for (; i < count; ++i) out[i] = quantum(meters[i]);
}

/// hornShade of column x, its missing neighbours at the row's ends taken from x itself.
double shadeAt(const double* above, const double* row, const double* below, std::size_t width,
               std::size_t x, const Light& light) {
    const std::size_t l = x == 0 ? 0 : x - 1, r = std::min(x + 1, width - 1);
    return hornShade(above[l], above[x], above[r], row[l], row[r], below[l], below[x], below[r],
                     light);
}

void HillshadeRow(const double* above, const double* row, const double* below, std::size_t width,
                  const Light& light, double* out) {
    const D d;
    const std::size_t lanes = hn::Lanes(d);
    const V two = hn::Set(d, 2.0), one = hn::Set(d, 1.0), zero = hn::Zero(d);
    const V run = hn::Set(d, light.run), east = hn::Set(d, light.east),
            south = hn::Set(d, light.south), up = hn::Set(d, light.up);
    out[0] = shadeAt(above, row, below, width, 0, light);
    // Columns 1 .. width - 2 have both neighbours: whole vectors of them, hornShade per lane.
    std::size_t x = 1;
    for (; x + lanes < width; x += lanes) {
        const V a = hn::LoadU(d, above + x - 1), b = hn::LoadU(d, above + x),
                c = hn::LoadU(d, above + x + 1);
        const V dl = hn::LoadU(d, row + x - 1), f = hn::LoadU(d, row + x + 1);
        const V g = hn::LoadU(d, below + x - 1), h = hn::LoadU(d, below + x),
                i = hn::LoadU(d, below + x + 1);
        const V dzEast = hn::Div(hn::Sub(hn::Add(hn::Add(c, hn::Mul(two, f)), i),
                                         hn::Add(hn::Add(a, hn::Mul(two, dl)), g)),
                                 run);
        const V dzSouth = hn::Div(hn::Sub(hn::Add(hn::Add(g, hn::Mul(two, h)), i),
                                          hn::Add(hn::Add(a, hn::Mul(two, b)), c)),
                                  run);
        const V lit = hn::Div(
            hn::Sub(hn::Sub(up, hn::Mul(dzEast, east)), hn::Mul(dzSouth, south)),
            hn::Sqrt(hn::Add(hn::Add(one, hn::Mul(dzEast, dzEast)), hn::Mul(dzSouth, dzSouth))));
        hn::StoreU(clampLanes(lit, zero, one), d, out + x);
    }
    for (; x < width; ++x) out[x] = shadeAt(above, row, below, width, x, light);
}

/// One channel of shadeColour in every lane: the value times the factor, clamped to
/// [0, 255], rounded half away from zero (roundHalfAway: on [0, 255] its whole part and the
/// test of the exact rest), as bytes.
template <class DU8>
HWY_INLINE hn::Vec<DU8> channelLanes(DU8 du8, V value, V factor) {
    const D d;
    const V x = clampLanes(hn::Mul(value, factor), hn::Zero(d), hn::Set(d, 255.0));
    const V whole = hn::Trunc(x);
    const auto up = hn::Ge(hn::Sub(x, whole), hn::Set(d, 0.5));
    const V rounded = hn::Add(whole, hn::IfThenElseZero(up, hn::Set(d, 1.0)));
    return hn::DemoteTo(du8, hn::DemoteTo(hn::Rebind<std::int32_t, D>(), rounded));
}

void ShadeRow(const ColourRow& row, std::uint8_t* out, std::size_t channels) {
    const D d;
    const hn::Rebind<std::uint8_t, D> du8;
    const std::size_t lanes = hn::Lanes(d);
    const V zero = hn::Zero(d), one = hn::Set(d, 1.0);
    const V low = hn::Set(d, kShadeFloor), span = hn::Set(d, kShadeSpan);  // shadeFactor's
    const auto opaque = hn::Set(du8, 255);
    std::size_t i = 0;
    for (; i + lanes <= row.count; i += lanes) {
        const V shade = clampLanes(hn::LoadU(d, row.shade + i), zero, one);
        const V factor = hn::Add(low, hn::Mul(span, shade));
        const auto r = channelLanes(du8, hn::LoadU(d, row.r + i), factor);
        const auto g = channelLanes(du8, hn::LoadU(d, row.g + i), factor);
        const auto b = channelLanes(du8, hn::LoadU(d, row.b + i), factor);
        if (channels == 3) hn::StoreInterleaved3(r, g, b, du8, out + 3 * i);
        else hn::StoreInterleaved4(r, g, b, opaque, du8, out + 4 * i);
    }
    for (; i < row.count; ++i) {
        const Rgb c = shadeColour({row.r[i], row.g[i], row.b[i]}, row.shade[i]);
        std::uint8_t* p = out + channels * i;
        p[0] = c.r;
        p[1] = c.g;
        p[2] = c.b;
        if (channels == 4) p[3] = 255;
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace terragrid::preview_kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace terragrid::preview_kernels {

HWY_EXPORT(QuantiseRow);
HWY_EXPORT(HillshadeRow);
HWY_EXPORT(ShadeRow);

void quantiseRow(const HeightQuantum& quantum, const float* meters, std::size_t count,
                 double* out) {
    HWY_DYNAMIC_DISPATCH(QuantiseRow)(quantum, meters, count, out);
}

void hillshadeRow(const double* above, const double* row, const double* below, std::size_t width,
                  const Light& light, double* out) {
    HWY_DYNAMIC_DISPATCH(HillshadeRow)(above, row, below, width, light, out);
}

void shadeRow(const ColourRow& row, std::uint8_t* out, std::size_t channels) {
    HWY_DYNAMIC_DISPATCH(ShadeRow)(row, out, channels);
}

}  // namespace terragrid::preview_kernels
#endif  // HWY_ONCE
