// split_lanes.hpp's kernel: each lane lattice::splitFloat's multiply, floor, conversion,
// subtraction and narrowing, in its order (point_lanes::splitFloat), so every target gives
// the scalar bits; the tail that fills no whole vector takes the scalar code itself.

#include "noise/split_lanes.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "noise/split_lanes.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include "noise/lattice.hpp"
#include "noise/point_lanes-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace terragrid {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void SplitScaled(const double* x, double scale, std::size_t n, std::int64_t* index, float* frac) {
    const point_lanes::D d;
    const point_lanes::DI di;
    const point_lanes::DH dh;
    const point_lanes::V s = hn::Set(d, scale);
    std::size_t i = 0;
    for (; i + hn::Lanes(d) <= n; i += hn::Lanes(d)) {
        const point_lanes::FloatSplitLanes split = point_lanes::splitFloat(hn::Mul(hn::LoadU(d, x + i), s));
        hn::StoreU(split.index, di, index + i);
        hn::StoreU(split.frac, dh, frac + i);
    }
    for (; i < n; ++i) {
        const lattice::FloatCoord split = lattice::splitFloat(x[i] * scale);
        index[i] = split.index;
        frac[i] = split.frac;
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace terragrid
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace terragrid::split_lanes {

HWY_EXPORT(SplitScaled);

void splitScaled(const double* x, double scale, std::size_t n, std::int64_t* index, float* frac) {
    HWY_DYNAMIC_DISPATCH(SplitScaled)(x, scale, n, index, frac);
}

}  // namespace terragrid::split_lanes
#endif
