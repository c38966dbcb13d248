// Version 4's 2D value and Perlin noise in float: the scalar reference the rows and points of
// flat maps (flat_v4_rows.cpp) repeat lane by lane (flat_v4.hpp says what the two share).

#include "noise/flat_v4.hpp"

#include <hwy/highway.h>

#include "noise/lattice.hpp"
#include "noise/separable-inl.hpp"

namespace terragrid::flat_v4 {

// The scalar code uses the separable form with float (the static target's copy).
namespace separable = HWY_NAMESPACE::separable;

float noise(NoiseKind kind, FadeCurve f, double u, double v, const LatticeHash& h,
            Cells cells) noexcept {
    const lattice::FloatCoord cx = lattice::splitFloat(u);
    const lattice::FloatCoord cy = lattice::splitFloat(v);
    const std::int64_t x0 = wrapped(cx.index, cells[0]);
    const std::int64_t y0 = wrapped(cy.index, cells[1]);
    const std::int64_t x[2] = {x0, next(x0, cells[0])};
    const std::int64_t y[2] = {y0, next(y0, cells[1])};
    const auto input = [&](int a, int b) { return curved_v4::input(h, {x[a], y[b], 0, 0}, 2); };
    const float across = curved_v4::fade(f, cx.frac);
    const float down = curved_v4::fade(f, cy.frac);
    if (kind == NoiseKind::Value) {
        const auto k = separable::valueCoefficientsV4(cornerValue(input(0, 0)), cornerValue(input(1, 0)),
                                                      cornerValue(input(0, 1)), cornerValue(input(1, 1)),
                                                      down);
        return separable::valueEvaluateV4(k, across);
    }
    const std::uint32_t g00 = simplex_v3::gradientIndex(input(0, 0));
    const std::uint32_t g10 = simplex_v3::gradientIndex(input(1, 0));
    const std::uint32_t g01 = simplex_v3::gradientIndex(input(0, 1));
    const std::uint32_t g11 = simplex_v3::gradientIndex(input(1, 1));
    const auto k = separable::perlinCoefficientsV4(kGradX[g00], kGradY[g00], kGradX[g10], kGradY[g10],
                                                   kGradX[g01], kGradY[g01], kGradX[g11], kGradY[g11],
                                                   cy.frac, cy.frac - 1.0f, down);
    return separable::perlinEvaluateV4(k, cx.frac, across);
}

}  // namespace terragrid::flat_v4
