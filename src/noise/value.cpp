// Fade curves and value noise: hashed scalars at lattice points, blended with the fade curve.

#include "terragrid/noise.hpp"

#include <cmath>

namespace terragrid {

namespace {

// A coordinate split into an int64 lattice index and its fraction in [0, 1). The subtraction
// is exact, so a point a million cells out keeps the fraction's full precision.
struct LatticeCoord {
    std::int64_t index;
    double frac;
};

LatticeCoord split(double x) noexcept {
    const double cell = std::floor(x);
    return {static_cast<std::int64_t>(cell), x - cell};
}

// a + t (b - a): Perlin's form, exact at t = 0 and equal to a when a == b.
double lerp(double t, double a, double b) noexcept { return a + t * (b - a); }

// A lattice point's value on [-1, 1].
double signedValue(const LatticeHash& h, std::uint32_t hash) noexcept {
    return 2.0 * h.unit(hash) - 1.0;
}

}  // namespace

double fade(FadeCurve curve, double t) noexcept {
    switch (curve) {
    case FadeCurve::Linear:
        return t;
    case FadeCurve::Cubic:
        return t * t * (3.0 - 2.0 * t);
    case FadeCurve::Quintic:
        // Written exactly as Perlin's Java fade() so the reference noise agrees bit for bit.
        return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
    }
    return t;
}

double valueNoise(double x, FadeCurve f, const LatticeHash& h) noexcept {
    const LatticeCoord cx = split(x);
    const double a = signedValue(h, h(cx.index));
    const double b = signedValue(h, h(cx.index + 1));
    return lerp(fade(f, cx.frac), a, b);
}

double valueNoise(double x, double y, FadeCurve f, const LatticeHash& h) noexcept {
    const LatticeCoord cx = split(x);
    const LatticeCoord cy = split(y);
    const std::int64_t ix = cx.index;
    const std::int64_t iy = cy.index;
    const double u = fade(f, cx.frac);
    const double v = fade(f, cy.frac);
    // Bilinear: along x on both cell edges, then along y.
    const double bottom = lerp(u, signedValue(h, h(ix, iy)), signedValue(h, h(ix + 1, iy)));
    const double top =
        lerp(u, signedValue(h, h(ix, iy + 1)), signedValue(h, h(ix + 1, iy + 1)));
    return lerp(v, bottom, top);
}

double valueNoise(double x, double y, double z, FadeCurve f, const LatticeHash& h) noexcept {
    const LatticeCoord cx = split(x);
    const LatticeCoord cy = split(y);
    const LatticeCoord cz = split(z);
    const double u = fade(f, cx.frac);
    const double v = fade(f, cy.frac);
    const double w = fade(f, cz.frac);
    // Trilinear: one bilinear blend per z face, then along z.
    auto face = [&](std::int64_t iz) {
        const std::int64_t ix = cx.index;
        const std::int64_t iy = cy.index;
        const double bottom =
            lerp(u, signedValue(h, h(ix, iy, iz)), signedValue(h, h(ix + 1, iy, iz)));
        const double top =
            lerp(u, signedValue(h, h(ix, iy + 1, iz)), signedValue(h, h(ix + 1, iy + 1, iz)));
        return lerp(v, bottom, top);
    };
    return lerp(w, face(cz.index), face(cz.index + 1));
}

}  // namespace terragrid
