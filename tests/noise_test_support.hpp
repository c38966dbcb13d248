#pragma once
// What the noise tests share: the kinds they iterate, reproducible test points and names for
// failure messages.

#include "terragrid/noise/noise.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

namespace terragrid::test {

inline constexpr std::array kHashKinds{HashKind::Lattice, HashKind::Permutation,
                                       HashKind::Reference};
inline constexpr std::array kFades{FadeCurve::Linear, FadeCurve::Cubic, FadeCurve::Quintic};

/// Test points only. mt19937_64's output sequence is fixed by the standard; the std
/// distributions are not, so the bits are mapped to [lo, hi) here.
class Points {
public:
    explicit Points(std::uint64_t seed) : m_rng(seed) {}
    double next(double lo, double hi) {
        const double unit = static_cast<double>(m_rng() >> 11) * 0x1p-53;
        return lo + (hi - lo) * unit;
    }
    std::int64_t nextIndex(std::int64_t lo, std::int64_t hi) {
        return lo + static_cast<std::int64_t>(m_rng() % static_cast<std::uint64_t>(hi - lo));
    }

private:
    std::mt19937_64 m_rng;
};

/// The layer the noise tests are written for (and their golden values computed with): Perlin
/// fBm, 6 octaves of lacunarity 2 and persistence 0.5 from 1.25e-4 cycles per world unit,
/// quintic fade, lattice hash; gradient proximity, marble at 2.5e-4 with turbulence 1, cellular
/// F1 Euclidean with jitter 1, and a warp of 3 octaves at 1.25e-4 that is off (amplitude 0).
/// Not the program's defaults, which live in configs/default.json: a test states the layer it
/// checks.
inline NoiseParams perlinFbm() {
    NoiseParams p;
    p.noise = NoiseKind::Perlin;
    p.fade = FadeCurve::Quintic;
    p.fractal = FractalKind::Fbm;
    p.hash = HashKind::Lattice;
    p.octaves = 6;
    p.lacunarity = 2.0;
    p.persistence = 0.5;
    p.frequency = 1.25e-4;
    p.proximity = Proximity::Gradient;
    p.displacement = GridDisplacement::None;
    p.marbleFrequency = 2.5e-4;
    p.marbleTurbulence = 1.0;
    p.cellularReturn = CellularReturn::F1;
    p.cellularDistance = CellularDistance::Euclidean;
    p.cellularJitter = 1.0;
    p.warp = {.amplitude = 0.0, .frequency = 1.25e-4, .octaves = 3};
    return p;
}

inline std::string name(HashKind k) { return std::string(kHashKindNames[static_cast<int>(k)]); }
inline std::string name(FadeCurve f) {
    return std::string(kFadeCurveNames[static_cast<int>(f)]);
}

/// The mean absolute step between the field at `samples` neighbouring points at(origin, i),
/// i = 0 .. samples - 1, each required to differ from the one before.
template <class At>
double meanStep(const NoiseField& field, double origin, int samples, At at) {
    double sum = 0.0;
    double previous = field.sample(at(origin, 0));
    for (int i = 1; i < samples; ++i) {
        const double value = field.sample(at(origin, i));
        EXPECT_NE(value, previous) << "at " << origin << " + " << i << " cells";
        sum += std::fabs(value - previous);
        previous = value;
    }
    return sum / (samples - 1);
}

/// Design.md principle 2: a map 10^12 m from the origin has the detail of one at the origin.
/// Along 512 neighbouring points at(origin, i) every neighbour differs, and the mean step out
/// there is the origin's within a factor of two.
template <class At>
void expectTheOriginsDetailFarOut(const NoiseField& field, At at) {
    constexpr int kSamples = 512;
    const double nearStep = meanStep(field, 0.0, kSamples, at);
    const double farStep = meanStep(field, 1e12, kSamples, at);
    EXPECT_GT(farStep, 0.5 * nearStep);
    EXPECT_LT(farStep, 2.0 * nearStep);
}

}  // namespace terragrid::test
